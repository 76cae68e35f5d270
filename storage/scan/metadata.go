package scan

import (
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/lakesql/lakesql/storage/spec"
)

// ErrCannotAnswer says a question cannot be answered exactly from
// metadata; the caller reads the rows instead.
var ErrCannotAnswer = errors.New("scan: not answerable from metadata")

func cannot(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCannotAnswer, fmt.Sprintf(format, args...))
}

// CountRows answers COUNT(*) of the plan from file row counts. It is
// exact, and answers, only when no row needs merging or filtering: the
// filter is decided by partition values alone, every split is
// raw-convertible (append splits, and primary-key splits whose files are
// above level 0 without retractions and whose keys do not repeat), and
// every deletion vector records how many rows it deletes. This is when
// Java's DataSplit.mergedRowCount is available.
func (p *Plan) CountRows() (int64, error) {
	if !IsTrue(p.Filter.Residual) {
		return 0, cannot("filter %s is not decided by partition values", p.Filter.Residual)
	}
	var n int64
	for i := range p.Splits {
		s := &p.Splits[i]
		if !s.RawConvertible {
			return 0, cannot("bucket %d needs a merge", s.Bucket)
		}
		for j := range s.Files {
			f := &s.Files[j]
			n += f.RowCount
			df, ok := s.DeletionFiles[f.FileName]
			if !ok {
				continue
			}
			if df.Meta.Cardinality == nil {
				return 0, cannot("deletion vector of %s does not record its cardinality", f.FileName)
			}
			n -= *df.Meta.Cardinality
		}
	}
	return n, nil
}

// Extremes answers MIN and MAX of a column of the read schema from file
// value statistics. It answers only when they are exact: the filter is
// decided by partition values, no split merges, no file has a deletion
// vector (a deleted row may hold the extreme), the column is not a float
// (statistics leave NaN out and mix the zeros) nor nested, every file has
// a null count and, unless all its values are null, both bounds, and no
// bound may have been truncated (see boundsExact). Both are nil when every
// value is null or there is no row.
func (p *Plan) Extremes(column string) (minValue, maxValue any, err error) {
	col := p.Schema.FieldIndex(column)
	if col < 0 {
		return nil, nil, fmt.Errorf("scan: unknown column %q", column)
	}
	if err := p.checkExtremes(col); err != nil {
		return nil, nil, err
	}
	t := p.Schema.Fields[col].Type
	for i := range p.Splits {
		for j := range p.Splits[i].Files {
			lo, hi, err := p.fileExtremes(&p.Splits[i].Files[j], col)
			if err != nil {
				return nil, nil, err
			}
			if lo != nil && (minValue == nil || spec.CompareValues(t, lo, minValue) < 0) {
				minValue = lo
			}
			if hi != nil && (maxValue == nil || spec.CompareValues(t, hi, maxValue) > 0) {
				maxValue = hi
			}
		}
	}
	return minValue, maxValue, nil
}

func (p *Plan) checkExtremes(col int) error {
	if !IsTrue(p.Filter.Residual) {
		return cannot("filter %s is not decided by partition values", p.Filter.Residual)
	}
	switch p.Schema.Fields[col].Type.Root {
	case spec.Float, spec.Double, spec.Row, spec.Array, spec.Map, spec.Multiset, spec.Variant:
		return cannot("statistics of %s columns are not exact", p.Schema.Fields[col].Type)
	}
	for i := range p.Splits {
		s := &p.Splits[i]
		if !s.RawConvertible {
			return cannot("bucket %d needs a merge", s.Bucket)
		}
		if len(s.DeletionFiles) > 0 {
			return cannot("bucket %d has deletion vectors", s.Bucket)
		}
	}
	return nil
}

// fileExtremes returns a file's bounds of a column, nil when all its
// values are null.
func (p *Plan) fileExtremes(f *spec.DataFileMeta, col int) (lo, hi any, err error) {
	stats := p.mapper().valueStats(f)
	cs := stats.Columns[col]
	switch {
	case cs.NullCount == nil:
		return nil, nil, cannot("file %s has no null count for the column", f.FileName)
	case *cs.NullCount == f.RowCount:
		return nil, nil, nil
	case cs.Min == nil || cs.Max == nil:
		return nil, nil, cannot("file %s has no bounds for the column", f.FileName)
	}
	exact, err := p.boundsExact(f, col, cs.Min, cs.Max)
	if err != nil {
		return nil, nil, err
	}
	if !exact {
		return nil, nil, cannot("file %s may have truncated bounds for the column", f.FileName)
	}
	return cs.Min, cs.Max, nil
}

// boundsExact reports whether a file's bounds of a column are values of
// the column rather than truncated ones. Only string and binary bounds are
// truncated, under the stats mode the file was written with: that of the
// options of its own schema at its level, since altering the options
// leaves written stats as they are. Under truncate(N) a string bound of
// fewer than N code points is exact (a cut one has N, and a rounded-up
// maximum is shorter only when the cut ended in U+10FFFF, a
// noncharacter); binary bounds are exact only under full, since a
// rounded-up maximum drops every trailing 0xff byte. Files written with
// options Java was given at run time rather than in the schema are not
// covered: their modes are unknowable.
func (p *Plan) boundsExact(f *spec.DataFileMeta, col int, lo, hi any) (bool, error) {
	if !truncatable(lo) {
		return true, nil
	}
	l, err := p.mapper().layout(f.SchemaID)
	if err != nil {
		return false, err
	}
	mode, err := valueStatsMode(l.schema, p.Schema.Fields[col].ID, int(f.Level))
	if err != nil {
		return false, cannot("stats mode: %v", err)
	}
	return exactUnder(mode, lo, hi), nil
}

// truncatable reports whether a stats mode may truncate bound v.
func truncatable(v any) bool {
	switch v.(type) {
	case string, []byte:
		return true
	}
	return false
}

// exactUnder reports whether string or binary bounds kept under mode are
// sure to be values (see boundsExact).
func exactUnder(mode spec.StatsMode, lo, hi any) bool {
	switch mode.Kind {
	case spec.StatsFull:
		return true
	case spec.StatsTruncate:
		l, lok := lo.(string)
		h, hok := hi.(string)
		return lok && hok && utf8.RuneCountInString(l) < mode.Length && utf8.RuneCountInString(h) < mode.Length
	}
	return false
}

// valueStatsMode is the stats mode of the value column with field id id
// in files written under schema s at level, resolved over the physical
// columns of the file as the writer resolves them. Key columns are held
// to truncate(128) at most: Java gives them that mode in thin-mode files
// (data-file.thin-mode), which a schema without the option may still have
// been written with.
func valueStatsMode(s *spec.TableSchema, id, level int) (spec.StatsMode, error) {
	primaryKey := len(s.PrimaryKeys) > 0
	o := s.CoreOptions()
	def, err := o.DataFileStatsMode(primaryKey, level)
	if err != nil {
		return spec.StatsMode{}, err
	}
	var names []string
	if primaryKey {
		for _, k := range s.TrimmedPrimaryKeys() {
			names = append(names, "_KEY_"+k)
		}
		names = append(names, "_SEQUENCE_NUMBER", "_VALUE_KIND")
	}
	at := -1
	for i, f := range s.Fields {
		if f.ID == id {
			at = len(names) + i
		}
	}
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	modes, err := o.ColumnStatsModes(names, def)
	if err != nil || at < 0 {
		return spec.StatsMode{}, err
	}
	mode := modes[at]
	if primaryKey && slices.Contains(s.TrimmedPrimaryKeys(), names[at]) {
		mode = leastExact(mode, spec.StatsMode{Kind: spec.StatsTruncate, Length: 128})
	}
	return mode, nil
}

// leastExact is the mode of a and b whose bounds are exact less often.
func leastExact(a, b spec.StatsMode) spec.StatsMode {
	switch {
	case a.Kind != spec.StatsTruncate && a.Kind != spec.StatsFull:
		return a
	case a.Kind == spec.StatsFull || b.Length < a.Length:
		return b
	}
	return a
}

// mapper lays statistics onto the plan's read row.
func (p *Plan) mapper() *statsMapper {
	if p.stats == nil {
		p.stats = newStatsMapper(p.Schema, p.Filter.partitionColumns, p.schemaOf)
	}
	return p.stats
}
