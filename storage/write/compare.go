package write

import (
	"cmp"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// newRowComparator returns spec.CompareRows(types, a, b) specialized per
// column: sorting and merging compare keys millions of times, and the
// generic comparator switches on the Go type of every value. Key columns
// are NOT NULL, but nulls are still ordered first, as Paimon orders them.
func newRowComparator(types []spec.DataType) func(a, b []any) int {
	columns := make([]func(a, b any) int, len(types))
	for i, t := range types {
		columns[i] = valueComparator(t)
	}
	if len(columns) == 1 {
		only := columns[0]
		return func(a, b []any) int { return only(a[0], b[0]) }
	}
	return func(a, b []any) int {
		for i, compare := range columns {
			if c := compare(a[i], b[i]); c != 0 {
				return c
			}
		}
		return 0
	}
}

func valueComparator(t spec.DataType) func(a, b any) int {
	switch t.Root {
	case spec.BigInt:
		return typedComparator(cmp.Compare[int64])
	case spec.Int:
		return typedComparator(cmp.Compare[int32])
	case spec.Char, spec.VarChar:
		return typedComparator(strings.Compare)
	case spec.Date:
		return typedComparator(cmp.Compare[spec.DateValue])
	}
	return func(a, b any) int { return spec.CompareValues(t, a, b) }
}

// typedComparator compares two values of Go type T, falling back to
// spec.CompareValues for nulls.
func typedComparator[T any](compare func(x, y T) int) func(a, b any) int {
	return func(a, b any) int {
		x, okA := a.(T)
		y, okB := b.(T)
		if okA && okB {
			return compare(x, y)
		}
		return spec.CompareValues(spec.DataType{}, a, b)
	}
}
