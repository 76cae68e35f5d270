package spec

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"
)

// CompareValues orders two values of type t the way Paimon orders keys: the
// generated RecordComparator of paimon-codegen (GenerateUtils.generateCompare,
// used by KeyComparatorSupplier for merge-tree keys and sorting), with nulls
// first as in its key comparators. Per type:
//
//   - BOOLEAN: false < true. Integers, DATE, TIME: numeric.
//   - FLOAT, DOUBLE: Java Float.compare / Double.compare, so -0.0 < 0.0 and
//     NaN equals NaN and sorts above +Infinity. The same order is used when
//     stats min/max are compared with literals (Comparable.compareTo).
//   - CHAR, VARCHAR: unsigned UTF-8 bytes, then length (BinaryString.compareTo).
//   - BINARY, VARBINARY: unsigned bytes, then length (SortUtil.compareBinary).
//   - DECIMAL: numeric value (Decimal.compareTo). TIMESTAMP: millis, then nanos.
//   - ARRAY: element-wise with nulls first, then length. MAP, MULTISET: size,
//     then key arrays, then value arrays. ROW: field by field, nulls first.
//
// It returns -1, 0 or +1. Values must have the Go types of values.go; two
// values of different Go types (a caller bug) are ordered by type name rather
// than panicking.
func CompareValues(t DataType, a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	if c, ok := compareScalars(a, b); ok {
		return c
	}
	if c, ok := compareComposites(t, a, b); ok {
		return c
	}
	return strings.Compare(fmt.Sprintf("%T", a), fmt.Sprintf("%T", b))
}

// CompareRows compares two rows field by field with CompareValues; a row that
// is a prefix of the other sorts first.
func CompareRows(types []DataType, a, b []any) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		var t DataType
		if i < len(types) {
			t = types[i]
		}
		if c := CompareValues(t, a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// compareScalars compares two non-null values of the same atomic Go type;
// ok is false for composites and mismatched types.
func compareScalars(a, b any) (c int, ok bool) {
	switch x := a.(type) {
	case bool:
		y, same := b.(bool)
		return cmp.Compare(boolRank(x), boolRank(y)), same
	case int8:
		return compareSame(x, b)
	case int16:
		return compareSame(x, b)
	case int32:
		return compareSame(x, b)
	case int64:
		return compareSame(x, b)
	case DateValue:
		return compareSame(x, b)
	case TimeValue:
		return compareSame(x, b)
	case string:
		return compareSame(x, b)
	case float32:
		y, same := b.(float32)
		return javaCompareDouble(float64(x), float64(y)), same
	case float64:
		y, same := b.(float64)
		return javaCompareDouble(x, y), same
	case []byte:
		y, same := b.([]byte)
		return bytes.Compare(x, y), same
	case DecimalValue:
		y, same := b.(DecimalValue)
		return x.Cmp(y), same
	case TimestampValue:
		y, same := b.(TimestampValue)
		return cmp.Or(cmp.Compare(x.Millis, y.Millis), cmp.Compare(x.NanoOfMilli, y.NanoOfMilli)), same
	}
	return 0, false
}

func compareSame[T cmp.Ordered](x T, b any) (int, bool) {
	y, same := b.(T)
	return cmp.Compare(x, y), same
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// javaCompareDouble is Double.compare: numeric order, then the canonical
// bits as a signed long, which puts -0.0 before 0.0 and NaN after +Inf.
func javaCompareDouble(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return cmp.Compare(int64(javaDoubleBits(x)), int64(javaDoubleBits(y)))
}

func compareComposites(t DataType, a, b any) (int, bool) {
	switch x := a.(type) {
	case []any:
		y, same := b.([]any)
		if !same {
			return 0, false
		}
		if t.Root == Row {
			return CompareRows(typesOfFields(t.Fields), x, y), true
		}
		return compareArrays(elementType(t), x, y), true
	case MapValue:
		y, same := b.(MapValue)
		if !same {
			return 0, false
		}
		key, value, _ := mapEntryTypes(t)
		return cmp.Or(cmp.Compare(len(x.Keys), len(y.Keys)),
			compareArrays(key, x.Keys, y.Keys), compareArrays(value, x.Values, y.Values)), true
	}
	return 0, false
}

// compareArrays is generateArrayCompare: element-wise, nulls first, then length.
func compareArrays(elem DataType, a, b []any) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := CompareValues(elem, a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func elementType(t DataType) DataType {
	if t.Element == nil {
		return DataType{}
	}
	return *t.Element
}
