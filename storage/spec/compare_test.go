package spec

import (
	"math"
	"strings"
	"testing"
)

// valuesEqual reports whether two decoded rows hold the same values.
func valuesEqual(types []DataType, a, b []any) bool {
	return len(a) == len(b) && CompareRows(types, a, b) == 0
}

// javaAscendingPairs are value pairs in strictly ascending Java order.
var javaAscendingPairs = func() []struct {
	t    DataType
	a, b any
} {
	i32 := DataType{Root: Int}
	str := DataType{Root: VarChar}
	arr := DataType{Root: Array, Element: &i32}
	m := DataType{Root: Map, Key: &str, Value: &i32}
	row := DataType{Root: Row, Fields: []DataField{{Name: "a", Type: i32}, {Name: "b", Type: str}}}
	ts9 := DataType{Root: Timestamp, Precision: 9}
	negZero := math.Copysign(0, -1)
	return []struct {
		t    DataType
		a, b any
	}{
		{i32, nil, int32(math.MinInt32)},
		{DataType{Root: Boolean}, false, true},
		{DataType{Root: TinyInt}, int8(-128), int8(127)},
		{DataType{Root: BigInt}, int64(math.MinInt64), int64(0)},
		{DataType{Root: Double}, math.Inf(-1), -math.MaxFloat64},
		{DataType{Root: Double}, negZero, 0.0},
		{DataType{Root: Double}, math.Inf(1), math.NaN()},
		{DataType{Root: Float}, float32(negZero), float32(0)},
		{str, "Zebra", "apple"},
		{str, "z", "é"}, // unsigned UTF-8 bytes: 'z' = 0x7a < 0xc3
		{str, "ab", "abc"},
		{DataType{Root: VarBinary}, []byte{0x7f}, []byte{0x80}},
		{DataType{Root: Decimal, Precision: 10, Scale: 2}, NewDecimal(-1, 2), NewDecimal(1, 3)},
		{ts9, TimestampValue{Millis: 5, NanoOfMilli: 999}, TimestampValue{Millis: 6}},
		{ts9, TimestampValue{Millis: 5}, TimestampValue{Millis: 5, NanoOfMilli: 1}},
		{DataType{Root: Date}, DateValue(-1), DateValue(0)},
		{arr, []any{int32(1), nil}, []any{int32(1), int32(0)}},
		{arr, []any{int32(1)}, []any{int32(1), int32(0)}},
		{m, MapValue{Keys: []any{"z"}, Values: []any{int32(9)}}, MapValue{Keys: []any{"a", "b"}, Values: []any{nil, nil}}},
		{m, MapValue{Keys: []any{"a"}, Values: []any{int32(1)}}, MapValue{Keys: []any{"a"}, Values: []any{int32(2)}}},
		{row, []any{int32(1), nil}, []any{int32(1), "a"}},
	}
}()

func TestCompareValuesFollowsJavaOrder(t *testing.T) {
	for _, c := range javaAscendingPairs {
		if got := CompareValues(c.t, c.a, c.b); got != -1 {
			t.Errorf("CompareValues(%v, %v) = %d, want -1", c.a, c.b, got)
		}
		if got := CompareValues(c.t, c.b, c.a); got != 1 {
			t.Errorf("CompareValues(%v, %v) = %d, want 1", c.b, c.a, got)
		}
	}
	equal := [][2]any{{nil, nil}, {math.NaN(), math.NaN()}, {NewDecimal(10, 1), NewDecimal(100, 2)}, {"", ""}}
	for _, c := range equal {
		if got := CompareValues(DataType{}, c[0], c[1]); got != 0 {
			t.Errorf("CompareValues(%v, %v) = %d, want 0", c[0], c[1], got)
		}
	}
	if got := CompareValues(DataType{Root: Int}, int32(1), int64(1)); got == 0 {
		t.Errorf("mismatched Go types compare equal")
	}
}

func TestCompareRows(t *testing.T) {
	types := []DataType{{Root: VarChar}, {Root: Int}}
	if CompareRows(types, []any{"a", int32(2)}, []any{"a", int32(10)}) != -1 ||
		CompareRows(types, []any{"b"}, []any{"a", int32(1)}) != 1 ||
		CompareRows(types, []any{"a"}, []any{"a", nil}) != -1 ||
		CompareRows(types, []any{"a", nil}, []any{"a", nil}) != 0 {
		t.Error("CompareRows does not order field by field")
	}
}

// Java writes primary-key files sorted by key with _MIN_KEY/_MAX_KEY the
// first and last key. Checking that order on every fixture PK data file
// checks CompareRows against Java's comparator on real keys.
func TestCompareRowsMatchesJavaKeyOrder(t *testing.T) {
	checked := 0
	for _, tb := range fxAvroTables(t) {
		keys := tb.trimmedPrimaryKeys()
		if len(keys) == 0 {
			continue
		}
		keyColumns := make([]string, len(keys))
		for i, k := range keys {
			keyColumns[i] = "_KEY_" + k
		}
		types := tb.types(t, keys)
		for path := range tb.dataFiles(t) {
			if strings.Contains(path, "/changelog-") {
				continue
			}
			rows := fxParquetRows(t, path, keyColumns, types)
			for i := 1; i < len(rows); i++ {
				if CompareRows(types, rows[i-1], rows[i]) > 0 {
					t.Errorf("%s: key %v sorts after %v", path, rows[i-1], rows[i])
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("compared only %d adjacent keys", checked)
	}
}

// In every fixture manifest entry, _MIN_KEY <= _MAX_KEY and each stats
// column's min <= max under CompareValues.
func TestCompareValuesOrdersJavaMinMax(t *testing.T) {
	for _, tb := range fxAvroTables(t) {
		for _, s := range tb.statsOfEntries(t) {
			min, errMin := DeserializeBinaryRow(s.Types, s.Stats.MinValues)
			max, errMax := DeserializeBinaryRow(s.Types, s.Stats.MaxValues)
			if errMin != nil || errMax != nil {
				t.Fatalf("%s: %v %v", s.Where, errMin, errMax)
			}
			for i := range min {
				if min[i] != nil && max[i] != nil && CompareValues(s.Types[i], min[i], max[i]) > 0 {
					t.Errorf("%s column %s: min %v > max %v", s.Where, s.Columns[i], min[i], max[i])
				}
			}
		}
	}
}
