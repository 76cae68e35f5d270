package predicate

import (
	"math"
	"reflect"

	"github.com/lakesql/lakesql/storage/spec"
)

// compareValues orders two non-null values of type t: spec.CompareValues,
// except that floats go through CompareFloats.
func compareValues(t spec.DataType, a, b any) int {
	switch x := a.(type) {
	case float64:
		if y, ok := b.(float64); ok {
			return CompareFloats(x, y)
		}
	case float32:
		if y, ok := b.(float32); ok {
			return CompareFloats(float64(x), float64(y))
		}
	}
	return spec.CompareValues(t, a, b)
}

// CompareFloats is Java's Double.compare with -0.0 equal to 0.0: SQL says
// they are equal, and a Parquet writer may store either zero as the bound
// of both. NaN equals NaN and sorts above +Inf, so the order stays total and
// NOT (x > v) is exactly x <= v. Every evaluator of predicates (the
// vectorized filter too) orders floats with it, so all agree on NaN and -0.0.
func CompareFloats(x, y float64) int {
	xNaN, yNaN := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xNaN && yNaN:
		return 0
	case xNaN:
		return 1
	case yNaN:
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func isFloatType(t spec.DataType) bool {
	return t.Root == spec.Float || t.Root == spec.Double
}

func isNaN(v any) bool {
	switch x := v.(type) {
	case float64:
		return math.IsNaN(x)
	case float32:
		return math.IsNaN(float64(x))
	}
	return false
}

// sameGoType guards pruning against statistics decoded with another type
// than the column's (a column whose type evolved after the file was
// written): comparing across Go types would order by type name.
func sameGoType(a, b any) bool {
	return reflect.TypeOf(a) == reflect.TypeOf(b)
}
