package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Options of the statistics kept in manifests for each data file column,
// as spelled in org.apache.paimon.CoreOptions.
const (
	OptionStatsMode              = "metadata.stats-mode"
	OptionStatsModePerLevel      = "metadata.stats-mode.per.level"
	OptionStatsDenseStore        = "metadata.stats-dense-store"
	OptionStatsKeepFirstNColumns = "metadata.stats-keep-first-n-columns"
	// FieldOptionStatsMode is the per-field override,
	// fields.<name>.stats-mode.
	FieldOptionStatsMode = "stats-mode"
	defaultStatsMode     = "truncate(16)"
	// systemColumnStatsMode is what Java gives the system columns of a
	// data file (_KEY_*, _SEQUENCE_NUMBER, _VALUE_KIND) without a
	// per-field mode, so that primary-key stats stay useful.
	systemColumnStatsMode = "truncate(128)"
)

// StatsModeKind is what a stats mode keeps of a column.
type StatsModeKind int

const (
	// StatsNone keeps nothing: null bounds and a null null-count
	// (NoneSimpleColStatsCollector).
	StatsNone StatsModeKind = iota
	// StatsCounts keeps the null count only (CountsSimpleColStatsCollector).
	StatsCounts
	// StatsTruncate keeps the null count and bounds, string and binary
	// bounds cut to Length (TruncateSimpleColStatsCollector).
	StatsTruncate
	// StatsFull keeps the null count and exact bounds
	// (FullSimpleColStatsCollector).
	StatsFull
)

// StatsMode is the statistics collection mode of one data file column.
// Mirrors org.apache.paimon.statistics.SimpleColStatsCollector.from.
type StatsMode struct {
	Kind StatsModeKind
	// Length is the truncate(N) length: code points of strings, bytes of
	// binaries.
	Length int
}

// truncatePattern is TruncateSimpleColStatsCollector.TRUNCATE_PATTERN,
// matched against the upper-cased option.
var truncatePattern = regexp.MustCompile(`^TRUNCATE\((\d+)\)$`)

// ParseStatsMode parses none, counts, full or truncate(N) in any case, as
// SimpleColStatsCollector.from does; N must be a positive int.
func ParseStatsMode(s string) (StatsMode, error) {
	upper := strings.ToUpper(s)
	switch upper {
	case "NONE":
		return StatsMode{Kind: StatsNone}, nil
	case "COUNTS":
		return StatsMode{Kind: StatsCounts}, nil
	case "FULL":
		return StatsMode{Kind: StatsFull}, nil
	}
	m := truncatePattern.FindStringSubmatch(upper)
	if m == nil {
		return StatsMode{}, fmt.Errorf("stats mode %q is not none, counts, full or truncate(N)", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 32)
	if err != nil || n <= 0 {
		return StatsMode{}, fmt.Errorf("stats mode %q: the truncate length must be a positive int", s)
	}
	return StatsMode{Kind: StatsTruncate, Length: int(n)}, nil
}

// StatsDenseStore is metadata.stats-dense-store: whether value stats omit
// the columns that keep no stats and list the others in _VALUE_STATS_COLS.
func (o CoreOptions) StatsDenseStore() (bool, error) {
	return o.boolOption(true, OptionStatsDenseStore)
}

// DataFileStatsMode is the stats mode of the columns of a data file that
// no other rule covers: metadata.stats-mode, or for files of primary-key
// tables the mode metadata.stats-mode.per.level gives their level
// (KeyValueFileWriterFactory; append files ignore it). It is returned
// unparsed: Java parses it only for the columns that use it.
func (o CoreOptions) DataFileStatsMode(primaryKey bool, level int) (string, error) {
	mode := o.stringOption(OptionStatsMode, defaultStatsMode)
	raw, ok := o.options[OptionStatsModePerLevel]
	if !primaryKey || !ok {
		return mode, nil
	}
	perLevel, err := parseLevelMap(raw)
	if err != nil {
		return "", invalidOption(OptionStatsModePerLevel, raw, err)
	}
	if m, ok := perLevel[level]; ok {
		return m, nil
	}
	return mode, nil
}

// parseLevelMap parses a Java map option of int keys, "0:none,1:full".
func parseLevelMap(s string) (map[int]string, error) {
	out := map[int]string{}
	if s == "" {
		return out, nil
	}
	for item := range strings.SplitSeq(s, ",") {
		key, value, ok := strings.Cut(item, ":")
		level, err := strconv.ParseInt(key, 10, 32)
		if !ok || err != nil {
			return nil, fmt.Errorf("item %q is not <level>:<mode>", item)
		}
		out[int(level)] = value
	}
	return out, nil
}

// ColumnStatsModes returns the stats mode of each column of a data file,
// named as in the file, in file order. Mirrors
// StatsCollectorFactories.createStatsFactories for files in the key-value
// layout and append files: fields.<name>.stats-mode wins; system columns
// get truncate(128); once metadata.stats-keep-first-n-columns columns
// (other than system columns) are counted, the rest get none; the others
// get defaultMode (see DataFileStatsMode).
func (o CoreOptions) ColumnStatsModes(columns []string, defaultMode string) ([]StatsMode, error) {
	keepFirst, err := o.intOption(OptionStatsKeepFirstNColumns, -1)
	if err != nil {
		return nil, err
	}
	modes := make([]StatsMode, len(columns))
	counted := 0
	for i, name := range columns {
		key, mode := FieldOptionKey(name, FieldOptionStatsMode), ""
		fieldMode, explicit := o.options[key]
		switch {
		case explicit:
			mode = fieldMode
			counted++
		case isSystemColumn(name):
			key, mode = "", systemColumnStatsMode
		case keepFirst >= 0 && counted >= keepFirst:
			key, mode = OptionStatsKeepFirstNColumns, "none"
			counted++
		default:
			key, mode = OptionStatsMode, defaultMode
			counted++
		}
		if modes[i], err = ParseStatsMode(mode); err != nil {
			return nil, invalidOption(key, mode, err)
		}
	}
	return modes, nil
}

// isSystemColumn is SpecialFields.isSystemField(String): the key columns
// and the system columns Paimon adds to files and reads.
func isSystemColumn(name string) bool {
	return strings.HasPrefix(name, "_KEY_") ||
		slices.Contains([]string{"_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL", "rowkind", "_ROW_ID"}, name)
}
