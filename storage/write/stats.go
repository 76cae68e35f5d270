package write

import (
	"math"

	"github.com/lakesql/lakesql/storage/spec"
)

// columnStats collects the min, max and null count of one column of a data
// file, the SimpleColStats Java derives from the Parquet footer. Bounds are
// exact (Java's default truncate(16) mode shortens strings; an exact bound
// is as valid and prunes at least as well). Values compare as Paimon
// compares them (spec.CompareValues: strings and bytes as unsigned bytes).
//
// A bound that cannot be stated exactly is left null, which readers treat
// as unknown: composite columns (Java keeps no bounds for them either) and
// float columns holding NaN (Parquet keeps NaN out of its bounds, and
// Java's Float.compare puts NaN above +Infinity, so no bound is right for
// both).
type columnStats struct {
	typ      spec.DataType
	min, max any
	nulls    int64
	noBounds bool
}

func newColumnStats(t spec.DataType) columnStats {
	switch t.Root {
	case spec.Array, spec.Map, spec.Multiset, spec.Row, spec.Variant:
		return columnStats{typ: t, noBounds: true}
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

// simpleStats serializes the stats of columns as a SimpleStats.
func simpleStats(columns []columnStats) (spec.SimpleStats, error) {
	types := make([]spec.DataType, len(columns))
	mins := make([]any, len(columns))
	maxs := make([]any, len(columns))
	nulls := make([]*int64, len(columns))
	for i := range columns {
		c := &columns[i]
		types[i], mins[i], maxs[i] = c.typ.WithNullable(true), c.min, c.max
		n := c.nulls
		nulls[i] = &n
	}
	return spec.NewSimpleStats(types, mins, maxs, nulls)
}
