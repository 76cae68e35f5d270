package write

import (
	"math"

	"github.com/lakesql/lakesql/storage/spec"
)

// columnStats collects the exact min, max and null count of one column of
// a data file: what Java's ParquetSimpleStatsExtractor reads from the
// footer of a file it wrote. result then keeps of them what the column's
// stats mode keeps. Values compare as Paimon compares them
// (spec.CompareValues: strings and bytes as unsigned bytes).
//
// A bound that cannot be stated exactly is left null, which readers treat
// as unknown: float columns holding NaN (Parquet keeps NaN out of its
// bounds, and Java's Float.compare puts NaN above +Infinity, so no bound
// is right for both).
type columnStats struct {
	typ      spec.DataType
	min, max any
	nulls    int64
	noBounds bool
	// nested columns (ARRAY, MAP, MULTISET, ROW, VARIANT) keep no stats
	// at all: Java looks footer statistics up by top-level column name,
	// and a nested column's Parquet leaves are named by longer paths.
	nested bool
}

func newColumnStats(t spec.DataType) columnStats {
	switch t.Root {
	case spec.Array, spec.Map, spec.Multiset, spec.Row, spec.Variant:
		return columnStats{typ: t, noBounds: true, nested: true}
	}
	return columnStats{typ: t}
}

func (c *columnStats) observe(v any) {
	if v == nil {
		c.nulls++
		return
	}
	if c.noBounds {
		return
	}
	if isNaN(v) {
		c.noBounds, c.min, c.max = true, nil, nil
		return
	}
	if c.min == nil {
		c.min, c.max = v, v
		return
	}
	if less(c.typ, v, c.min) {
		c.min = v
	} else if less(c.typ, c.max, v) {
		c.max = v
	}
}

// storedStats are the stats of a column as a manifest stores them (Java's
// SimpleColStats): nil bounds and a nil null count are unknown.
type storedStats struct {
	min, max any
	nulls    *int64
}

// isNone is SimpleColStats.isNone: nothing is known of the column.
func (s storedStats) isNone() bool { return s.min == nil && s.max == nil && s.nulls == nil }

// result keeps of the column's exact stats what mode keeps, as Java's
// SimpleColStatsCollector.convert does with the stats of a Parquet footer:
// truncate(N) shortens string and binary bounds, and when the maximum
// cannot be rounded up both bounds are dropped.
func (c *columnStats) result(mode spec.StatsMode) storedStats {
	if c.nested || mode.Kind == spec.StatsNone {
		return storedStats{}
	}
	nulls := c.nulls
	s := storedStats{nulls: &nulls}
	switch mode.Kind {
	case spec.StatsFull:
		s.min, s.max = c.min, c.max
	case spec.StatsTruncate:
		if hi, ok := truncateMax(c.max, mode.Length); ok {
			s.min, s.max = truncateMin(c.min, mode.Length), hi
		}
	}
	return s
}

// less is spec.CompareValues(t, a, b) < 0 with fast paths for the common
// column types.
func less(t spec.DataType, a, b any) bool {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return x < y
		}
	case int32:
		if y, ok := b.(int32); ok {
			return x < y
		}
	case string:
		if y, ok := b.(string); ok {
			return x < y
		}
	case spec.TimestampValue:
		if y, ok := b.(spec.TimestampValue); ok {
			return x.Millis < y.Millis || (x.Millis == y.Millis && x.NanoOfMilli < y.NanoOfMilli)
		}
	}
	return spec.CompareValues(t, a, b) < 0
}

func isNaN(v any) bool {
	switch x := v.(type) {
	case float32:
		return math.IsNaN(float64(x))
	case float64:
		return math.IsNaN(x)
	}
	return false
}

// simpleStats serializes the stats of fields as a SimpleStats, stats made
// nullable as Java's SimpleStatsConverter does. Dense stats
// (metadata.stats-dense-store) leave out the fields nothing is known of
// and return the names of those kept, nil when all are kept; otherwise
// every field is kept and the names are nil.
func simpleStats(fields []spec.DataField, stats []storedStats, dense bool) (spec.SimpleStats, []string, error) {
	var types []spec.DataType
	var mins, maxs []any
	var nulls []*int64
	var names []string
	for i, s := range stats {
		if dense && s.isNone() {
			continue
		}
		types = append(types, fields[i].Type.WithNullable(true))
		mins, maxs, nulls = append(mins, s.min), append(maxs, s.max), append(nulls, s.nulls)
		names = append(names, fields[i].Name)
	}
	if len(names) == len(fields) {
		names = nil
	} else if names == nil {
		names = []string{}
	}
	stored, err := spec.NewSimpleStats(types, mins, maxs, nulls)
	return stored, names, err
}
