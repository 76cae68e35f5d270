package scan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
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
// a null count and, unless all its values are null, both bounds, and
// string bounds are not truncated (metadata.stats-mode full, or shorter
// than the truncate(N) length). Both are nil when every value is null or
// there is no row.
func (p *Plan) Extremes(column string) (minValue, maxValue any, err error) {
	col := p.Schema.FieldIndex(column)
	if col < 0 {
		return nil, nil, fmt.Errorf("scan: unknown column %q", column)
	}
	if err := p.checkExtremes(col); err != nil {
		return nil, nil, err
	}
	t := p.Schema.Fields[col].Type
	exact, err := exactBounds(p.Schema, p.Schema.Fields[col])
	if err != nil {
		return nil, nil, err
	}
	for i := range p.Splits {
		for j := range p.Splits[i].Files {
			lo, hi, err := p.fileExtremes(&p.Splits[i].Files[j], col, exact)
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
func (p *Plan) fileExtremes(f *spec.DataFileMeta, col int, exact func(any) bool) (lo, hi any, err error) {
	stats := p.mapper().valueStats(f)
	cs := stats.Columns[col]
	switch {
	case cs.NullCount == nil:
		return nil, nil, cannot("file %s has no null count for the column", f.FileName)
	case *cs.NullCount == f.RowCount:
		return nil, nil, nil
	case cs.Min == nil || cs.Max == nil:
		return nil, nil, cannot("file %s has no bounds for the column", f.FileName)
	case !exact(cs.Min) || !exact(cs.Max):
		return nil, nil, cannot("file %s has truncated bounds for the column", f.FileName)
	}
	return cs.Min, cs.Max, nil
}

// mapper lays statistics onto the plan's read row.
func (p *Plan) mapper() *statsMapper {
	if p.stats == nil {
		p.stats = newStatsMapper(p.Schema, p.Filter.partitionColumns, p.schemaOf)
	}
	return p.stats
}

// Option names of the statistics collected for data files.
const (
	optionStatsMode     = "metadata.stats-mode"
	defaultStatsMode    = "truncate(16)"
	fieldStatsModeFmt   = "fields.%s.stats-mode"
	statsModeTruncatePf = "truncate("
)

// exactBounds returns a test of whether a bound of field is a real value
// rather than a truncated one, from the column's stats mode. Only string
// and binary bounds are truncated, to the first N characters (bytes),
// with the maximum rounded up; a bound shorter than N is exact.
func exactBounds(s *spec.TableSchema, field spec.DataField) (func(any) bool, error) {
	mode, ok := s.Options[fmt.Sprintf(fieldStatsModeFmt, field.Name)]
	if !ok {
		if mode, ok = s.Options[optionStatsMode]; !ok {
			mode = defaultStatsMode
		}
	}
	mode = strings.ToLower(strings.TrimSpace(mode))
	switch {
	case mode == "full":
		return func(any) bool { return true }, nil
	case strings.HasPrefix(mode, statsModeTruncatePf) && strings.HasSuffix(mode, ")"):
		n, err := strconv.Atoi(mode[len(statsModeTruncatePf) : len(mode)-1])
		if err != nil || n <= 0 {
			return nil, cannot("stats mode %q", mode)
		}
		return func(v any) bool { return boundLength(v) < n }, nil
	}
	return nil, cannot("stats mode %s keeps no bounds", mode)
}

// boundLength is the length truncation counts: characters of strings,
// bytes of binaries; values of other types are never truncated.
func boundLength(v any) int {
	switch x := v.(type) {
	case string:
		return utf8.RuneCountInString(x)
	case []byte:
		return len(x)
	}
	return -1
}
