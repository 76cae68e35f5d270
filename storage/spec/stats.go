package spec

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// ColumnStats is the decoded statistics of one column. A nil Min or Max is
// a null bound and a nil NullCount an unknown count. As in Java's
// LeafPredicate, a column may only be pruned on when its bounds are non-nil,
// or when NullCount equals the file's row count (all values null).
type ColumnStats struct {
	Min, Max  any
	NullCount *int64
}

// emptyStatsRow is SerializationUtils.serializeBinaryRow(BinaryRow.EMPTY_ROW):
// arity 0 followed by the 8-byte header word.
var emptyStatsRow = []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

// EmptyStats is SimpleStats.EMPTY_STATS, the stats of zero columns that Java
// writes as the key stats of append tables: arity-0 rows and an empty (not
// null) null-count array.
func EmptyStats() SimpleStats {
	return SimpleStats{
		MinValues:  append([]byte{}, emptyStatsRow...),
		MaxValues:  append([]byte{}, emptyStatsRow...),
		NullCounts: []*int64{},
	}
}

// NewSimpleStats builds the stats a writer stores for columns of the given
// types: min and max become serialized BinaryRows (nil = null bound; stats
// rows treat every column as nullable) and nullCounts one element per column
// (nil = unknown).
func NewSimpleStats(types []DataType, min, max []any, nullCounts []*int64) (SimpleStats, error) {
	if len(nullCounts) != len(types) {
		return SimpleStats{}, fmt.Errorf("spec: %d null counts for %d stats columns: %w",
			len(nullCounts), len(types), lakeerr.ErrUnsupported)
	}
	minRow, err := SerializeBinaryRow(types, min)
	if err != nil {
		return SimpleStats{}, fmt.Errorf("spec: min stats: %w", err)
	}
	maxRow, err := SerializeBinaryRow(types, max)
	if err != nil {
		return SimpleStats{}, fmt.Errorf("spec: max stats: %w", err)
	}
	return SimpleStats{MinValues: minRow, MaxValues: maxRow, NullCounts: append([]*int64{}, nullCounts...)}, nil
}

// Decode decodes stats whose rows have one field per type. Rows of another
// arity fail with a *RowArityError; a null-count array of the wrong length
// with lakeerr.ErrCorruption. A null _NULL_COUNTS array leaves every count
// unknown.
func (s SimpleStats) Decode(types []DataType) ([]ColumnStats, error) {
	min, err := DeserializeBinaryRow(types, s.MinValues)
	if err != nil {
		return nil, fmt.Errorf("spec: min stats: %w", err)
	}
	max, err := DeserializeBinaryRow(types, s.MaxValues)
	if err != nil {
		return nil, fmt.Errorf("spec: max stats: %w", err)
	}
	if s.NullCounts != nil && len(s.NullCounts) != len(types) {
		return nil, corruptDataf("%d null counts for %d stats columns", len(s.NullCounts), len(types))
	}
	out := make([]ColumnStats, len(types))
	for i := range out {
		out[i] = ColumnStats{Min: min[i], Max: max[i]}
		if s.NullCounts != nil && s.NullCounts[i] != nil {
			n := *s.NullCounts[i]
			out[i].NullCount = &n
		}
	}
	return out, nil
}

// DecodeValueStats decodes a data file's _VALUE_STATS onto all fields of the
// schema it was written with. statsColumns is the file's _VALUE_STATS_COLS:
// nil means the stats cover every field in order; otherwise (dense mode,
// metadata.stats-dense-store) they cover only the named fields and the rest
// get unknown stats, as SimpleStatsEvolution projects them. For
// data-evolution files pass the fields named by _WRITE_COLS. Mapping onto a
// newer schema by field id is the caller's job.
func DecodeValueStats(s SimpleStats, fields []DataField, statsColumns []string) ([]ColumnStats, error) {
	if statsColumns == nil && len(s.NullCounts) == len(fields)+len(rowTrackingStats) {
		return decodeWithRowTracking(s, fields)
	}
	if statsColumns == nil {
		return s.Decode(typesOfFields(fields))
	}
	positions := make([]int, len(statsColumns))
	types := make([]DataType, len(statsColumns))
	for i, name := range statsColumns {
		positions[i] = indexOfField(fields, name)
		if positions[i] < 0 {
			return nil, corruptDataf("stats column %q is not a field of the file schema", name)
		}
		types[i] = fields[positions[i]].Type
	}
	dense, err := s.Decode(types)
	if err != nil {
		return nil, err
	}
	out := make([]ColumnStats, len(fields))
	for i, pos := range positions {
		out[pos] = dense[i]
	}
	return out, nil
}

// rowTrackingStats are the types of the columns whose stats follow the
// schema's in files Java's compaction of a row-tracking table writes: it
// writes _ROW_ID and _SEQUENCE_NUMBER as columns (write type
// SpecialFields.rowTypeWithRowTracking) and keeps stats of every column
// it writes, while _VALUE_STATS_COLS stays null.
var rowTrackingStats = []DataType{{Root: BigInt}, {Root: BigInt}}

// decodeWithRowTracking decodes stats that end with the row-tracking
// columns' and returns those of fields.
func decodeWithRowTracking(s SimpleStats, fields []DataField) ([]ColumnStats, error) {
	all, err := s.Decode(append(typesOfFields(fields), rowTrackingStats...))
	if err != nil {
		return nil, err
	}
	return all[:len(fields)], nil
}

func indexOfField(fields []DataField, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}
