package catalog

import "github.com/lakesql/lakesql/storage/spec"

// integerWidth orders the integer types by range.
var integerWidth = map[spec.TypeRoot]int{spec.TinyInt: 1, spec.SmallInt: 2, spec.Int: 3, spec.BigInt: 4}

// isWidening reports whether every value of type from is a value of type
// to, so old data files read under the new type unchanged. Java allows
// far more casts (most explicit casts too, lossy ones included); lakesql
// keeps to this conservative list, which its reader casts exactly:
// narrower to wider integers, FLOAT to DOUBLE, DECIMAL to a larger
// precision at the same scale, and VARCHAR to a longer VARCHAR.
func isWidening(from, to spec.DataType) bool {
	fromWidth, fromInt := integerWidth[from.Root]
	toWidth, toInt := integerWidth[to.Root]
	switch {
	case fromInt && toInt:
		return toWidth >= fromWidth
	case from.Root == spec.Float:
		return to.Root == spec.Double
	case from.Root == spec.Decimal && to.Root == spec.Decimal:
		return to.Scale == from.Scale && to.Precision >= from.Precision
	case from.Root == spec.VarChar && to.Root == spec.VarChar:
		return to.Length >= from.Length
	}
	return false
}
