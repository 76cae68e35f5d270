package spec

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

var (
	testIntType    = DataType{Root: Int, Nullable: true}
	testStringType = DataType{Root: VarChar, Nullable: true, Length: MaxVarLength}
)

func rowHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The worked bytes of paimon-format.md section 5.3, taken from the
// Java-written test_pk_global_index_golden manifests.
func TestBinaryRowMatchesJavaWorkedBytes(t *testing.T) {
	cases := []struct {
		name   string
		types  []DataType
		values []any
		framed string
	}{
		{"empty partition", nil, []any{}, "00000000 0000000000000000"},
		{"INT key 5", []DataType{testIntType}, []any{int32(5)},
			"00000001 0000000000000000 0500000000000000"},
		{"value stats min", []DataType{testIntType, testStringType, testStringType}, []any{int32(5), "name-5", "even"},
			"00000003 0000000000000000 0500000000000000 6e616d652d350086 6576656e00000084"},
	}
	for _, c := range cases {
		want := rowHex(t, c.framed)
		got, err := SerializeBinaryRow(c.types, c.values)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: SerializeBinaryRow = %x, %v; want %x", c.name, got, err, want)
		}
		back, err := DeserializeBinaryRow(c.types, want)
		if err != nil || !valuesEqual(c.types, back, c.values) {
			t.Errorf("%s: DeserializeBinaryRow = %v, %v; want %v", c.name, back, err, c.values)
		}
	}
}

// Every BinaryRow in every Avro manifest of the bundled Java-written tables
// (partitions, min/max keys, key/value/partition stats) decodes, and
// re-encoding the decoded values reproduces Java's bytes exactly.
func TestBinaryRowRoundTripsEveryFixtureRow(t *testing.T) {
	total := 0
	for _, tb := range fxAvroTables(t) {
		for _, row := range tb.binaryRows(t) {
			total++
			values, err := DeserializeBinaryRow(row.Types, row.Framed)
			if err != nil {
				t.Errorf("%s: %v (bytes %x)", row.Where, err, row.Framed)
				continue
			}
			again, err := SerializeBinaryRow(row.Types, values)
			if err != nil || !bytes.Equal(again, row.Framed) {
				t.Errorf("%s: re-encoded %v as\n%x, %v; Java wrote\n%x", row.Where, values, again, err, row.Framed)
			}
		}
	}
	if total < 1000 {
		t.Fatalf("checked only %d fixture rows", total)
	}
}

// append_complex_data's README lists the rows Java wrote. Its single-row
// files have min = max = the row, except for TIMESTAMP(9) and BYTES columns,
// for which Paimon keeps no Parquet stats (null).
func TestBinaryRowDecodesJavaStatsOfEveryType(t *testing.T) {
	tb := fxLoadTable(t, "paimon-java/append_complex_data", 0)
	want := map[string][]any{
		"20,1": {int32(20), int32(1), DateValue(-1234), nil, NewDecimalBig(bigOf(t, "-12345678998765432145678"), 5), nil},
		"20,0": {int32(20), int32(0), DateValue(-100), nil, NewDecimal(0, 5), nil},
	}
	for _, s := range tb.statsOfEntries(t) {
		if !strings.HasSuffix(s.Where, "value stats") {
			continue
		}
		min, errMin := DeserializeBinaryRow(s.Types, s.Stats.MinValues)
		max, errMax := DeserializeBinaryRow(s.Types, s.Stats.MaxValues)
		if errMin != nil || errMax != nil {
			t.Fatal(errMin, errMax)
		}
		key := fmt.Sprint(min[0], ",", min[1])
		if w, ok := want[key]; ok && s.RowCount == 1 {
			if !valuesEqual(s.Types, min, w) || !valuesEqual(s.Types, max, w) {
				t.Errorf("%s: min %v max %v, want %v", s.Where, min, max, w)
			}
			delete(want, key)
		}
	}
	if len(want) > 0 {
		t.Errorf("rows not found in stats: %v", want)
	}
}

func bigOf(t testing.TB, s string) *big.Int {
	t.Helper()
	x, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatal(s)
	}
	return x
}

// Java-specific layout rules that the fixtures do not all exercise.
func TestBinaryRowLayoutRules(t *testing.T) {
	dec38 := DataType{Root: Decimal, Nullable: true, Precision: 38, Scale: 2}
	ts6 := DataType{Root: Timestamp, Nullable: true, Precision: 6}
	ts3 := DataType{Root: Timestamp, Nullable: true, Precision: 3}
	bin := DataType{Root: VarBinary, Nullable: true, Length: MaxVarLength}
	cases := []struct {
		name   string
		types  []DataType
		values []any
		row    string
	}{
		{"null non-compact decimal and timestamp reserve zeroed tails",
			[]DataType{dec38, ts6, ts3}, []any{nil, nil, nil},
			"0007000000000000 0000000020000000 0000000030000000 0000000000000000" +
				" 00000000000000000000000000000000 0000000000000000"},
		{"non-compact decimal is BigInteger.toByteArray in 16 bytes",
			[]DataType{dec38}, []any{NewDecimal(-129, 2)},
			"0000000000000000 0200000010000000 ff7f000000000000 0000000000000000"},
		{"timestamp(6) keeps nanos in the slot and millis in the tail",
			[]DataType{ts6}, []any{TimestampValue{Millis: 1, NanoOfMilli: 7}},
			"0000000000000000 0700000010000000 0100000000000000"},
		{"seven bytes inline, eight in the tail",
			[]DataType{bin, bin}, []any{[]byte("1234567"), []byte("12345678")},
			"0000000000000000 3132333435363787 0800000018000000 3132333435363738"},
		{"row kind byte", []DataType{testIntType}, []any{int32(-1)}, "0300000000000000 ffffffff00000000"},
	}
	for _, c := range cases {
		kind := RowKindInsert
		if strings.HasPrefix(c.name, "row kind") {
			kind = RowKindDelete
		}
		got, err := EncodeBinaryRow(c.types, c.values, kind)
		if want := rowHex(t, c.row); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %x, %v\nwant %x", c.name, got, err, want)
		}
		back, gotKind, err := DecodeBinaryRow(c.types, got)
		if err != nil || gotKind != kind || !valuesEqual(c.types, back, c.values) {
			t.Errorf("%s: decoded %v %v, %v", c.name, back, gotKind, err)
		}
	}
}

// Nested ARRAY, MAP, MULTISET and ROW values use BinaryArray, BinaryMap and
// nested BinaryRow exactly as BinaryArrayWriter / BinaryMap.valueOf lay them out.
func TestBinaryRowNestedLayout(t *testing.T) {
	intArray := DataType{Root: Array, Nullable: true, Element: &testIntType}
	smallint := DataType{Root: SmallInt, Nullable: true}
	intMap := DataType{Root: Map, Nullable: true, Key: &testStringType, Value: &smallint}
	got, err := EncodeBinaryRow([]DataType{intArray, intMap},
		[]any{[]any{int32(1), nil, int32(3)}, MapValue{Keys: []any{"a"}, Values: []any{int16(9)}}}, RowKindInsert)
	if err != nil {
		t.Fatal(err)
	}
	want := rowHex(t, "0000000000000000 1800000018000000 2400000030000000"+
		// array: size 3, null bit 1, elements 1, 0, 3 (4 bytes each), padded to 24
		" 03000000 02000000 01000000 00000000 03000000 00000000"+
		// map: key array is 16 bytes; keys ["a"] inline; values [9] as SMALLINT
		" 10000000 01000000 00000000 6100000000000081 01000000 00000000 0900000000000000 00000000")
	if !bytes.Equal(got, want) {
		t.Fatalf("got  %x\nwant %x", got, want)
	}
}

func TestBinaryRowRejectsMismatchedValues(t *testing.T) {
	dec := DataType{Root: Decimal, Precision: 10, Scale: 2}
	for _, c := range []struct {
		t DataType
		v any
	}{
		{testIntType, int64(1)},
		{testStringType, []byte("x")},
		{dec, NewDecimal(1, 3)},
		{DataType{Root: Decimal, Precision: 10}, NewDecimalBig(bigOf(t, "99999999999999999999"), 0)},
		{DataType{Root: Array}, []any{int32(1)}},
		{DataType{Root: Variant}, []byte{1}},
	} {
		_, err := EncodeBinaryRow([]DataType{c.t}, []any{c.v}, RowKindInsert)
		if !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("%+v with %T: err = %v, want ErrUnsupported", c.t, c.v, err)
		}
	}
}

func TestBinaryRowCorruptInput(t *testing.T) {
	valid, err := SerializeBinaryRow([]DataType{testStringType}, []any{"a long string value"})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"no arity":          {0, 0},
		"negative arity":    rowHex(t, "ffffffff"),
		"huge arity":        rowHex(t, "7fffffff 0000000000000000"),
		"truncated":         valid[:len(valid)-8],
		"offset past end":   append(append([]byte{}, valid[:12]...), rowHex(t, "13000000 ff000000")...),
		"bad row kind":      append(rowHex(t, "00000001 09"), valid[5:]...),
		"inline length > 7": append(append([]byte{}, valid[:12]...), rowHex(t, "00000000000000ff")...),
	}
	for name, b := range cases {
		_, err := DeserializeBinaryRow([]DataType{testStringType}, b)
		if !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: err = %v, want ErrCorruption", name, err)
		}
	}
	var arityErr *RowArityError
	_, err = DeserializeBinaryRow([]DataType{testStringType, testIntType}, valid)
	if !errors.As(err, &arityErr) || arityErr.Arity != 1 || arityErr.Want != 2 {
		t.Errorf("arity mismatch: err = %v", err)
	}
}

func TestJavaBigIntegerBytes(t *testing.T) {
	for _, c := range []struct {
		v    string
		want string
	}{{"0", "00"}, {"127", "7f"}, {"128", "0080"}, {"-1", "ff"}, {"-128", "80"}, {"-129", "ff7f"},
		{"-32768", "8000"}, {"65535", "00ffff"}} {
		x := bigOf(t, c.v)
		got := javaBigIntegerBytes(x)
		if hex.EncodeToString(got) != c.want {
			t.Errorf("%s: %x, want %s", c.v, got, c.want)
		}
		if back := javaBigIntegerFromBytes(got); back.Cmp(x) != 0 {
			t.Errorf("%s: decoded back as %s", c.v, back)
		}
	}
}

// Canonical NaN bits match what Java writes for Float.NaN / Double.NaN.
func TestBinaryRowCanonicalNaN(t *testing.T) {
	types := []DataType{{Root: Float}, {Root: Double}}
	got, err := EncodeBinaryRow(types, []any{float32(math.NaN()), math.NaN()}, RowKindInsert)
	if err != nil {
		t.Fatal(err)
	}
	if want := rowHex(t, "0000000000000000 0000c07f00000000 000000000000f87f"); !bytes.Equal(got, want) {
		t.Errorf("got %x want %x", got, want)
	}
}
