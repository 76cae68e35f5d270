package spec

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// fuzzRowTypes are the schemas FuzzDecodeBinaryRow decodes with: the shapes
// of the fixture rows (so real Java bytes seed the corpus) plus one with
// every nested type.
var fuzzRowTypes = func() [][]DataType {
	str := DataType{Root: VarChar, Nullable: true, Length: MaxVarLength}
	i32 := DataType{Root: Int, Nullable: true}
	i16 := DataType{Root: SmallInt, Nullable: true}
	ts := func(root TypeRoot, p int) DataType { return DataType{Root: root, Nullable: true, Precision: p} }
	dec := func(p, s int) DataType { return DataType{Root: Decimal, Nullable: true, Precision: p, Scale: s} }
	strArray := DataType{Root: Array, Nullable: true, Element: &str}
	return [][]DataType{
		{},
		{i32},
		{str, i32},
		{str, i32, i32, {Root: Double, Nullable: true}},
		{i32, i32, {Root: Date, Nullable: true}, ts(Timestamp, 9), dec(23, 5), {Root: VarBinary, Nullable: true}},
		{ts(Timestamp, 0), ts(Timestamp, 3), ts(Timestamp, 6), ts(Timestamp, 9),
			ts(TimestampLTZ, 0), ts(TimestampLTZ, 3), ts(TimestampLTZ, 6), ts(TimestampLTZ, 9), i32, i32},
		{{Root: Array, Nullable: true, Element: &i32}, {Root: Map, Nullable: true, Key: &str, Value: &i16},
			{Root: Row, Nullable: true, Fields: []DataField{{Name: "a", Type: dec(38, 2)},
				{Name: "b", Type: ts(Timestamp, 6)}, {Name: "c", Type: strArray}}},
			{Root: Multiset, Nullable: true, Element: &str}, {Root: Boolean, Nullable: true},
			{Root: TinyInt, Nullable: true}, {Root: Float, Nullable: true}, {Root: Time, Nullable: true}},
	}
}()

// typesSignature identifies a type list regardless of nullability.
func typesSignature(types []DataType) string {
	var b strings.Builder
	for _, t := range types {
		fmt.Fprintf(&b, "%d/%d/%d;", t.Root, t.Precision, t.Scale)
	}
	return b.String()
}

// addBinaryRowSeeds seeds the corpus with every distinct fixture row whose
// types match a fuzz schema, and with random rows of the nested schema.
func addBinaryRowSeeds(f *testing.F) {
	bySignature := map[string]int{}
	for i, types := range fuzzRowTypes {
		bySignature[typesSignature(types)] = i
	}
	seen := map[string]bool{}
	for _, tb := range fxAvroTables(f) {
		for _, row := range tb.binaryRows(f) {
			sel, ok := bySignature[typesSignature(row.Types)]
			if ok && !seen[string(row.Framed)] {
				seen[string(row.Framed)] = true
				f.Add(uint8(sel), row.Framed[4:])
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	nested := fuzzRowTypes[len(fuzzRowTypes)-1]
	for range 20 {
		values := make([]any, len(nested))
		for i, t := range nested {
			values[i] = randomValue(r, t)
		}
		row, err := EncodeBinaryRow(nested, values, RowKindInsert)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(len(fuzzRowTypes)-1), row)
	}
}

// FuzzDecodeBinaryRow: arbitrary bytes never panic; failures are
// corruption; whatever decodes re-encodes to bytes that decode equal.
func FuzzDecodeBinaryRow(f *testing.F) {
	addBinaryRowSeeds(f)
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		types := fuzzRowTypes[int(sel)%len(fuzzRowTypes)]
		values, kind, err := DecodeBinaryRow(types, data)
		if err != nil {
			if !errors.Is(err, lakeerr.ErrCorruption) {
				t.Fatalf("error without corruption class: %v", err)
			}
			return
		}
		row, err := EncodeBinaryRow(types, values, kind)
		if err != nil {
			t.Fatalf("decoded %v does not re-encode: %v", values, err)
		}
		again, againKind, err := DecodeBinaryRow(types, row)
		if err != nil || againKind != kind || !valuesEqual(types, again, values) {
			t.Fatalf("re-encoded row decodes as %v %v %v, want %v", again, againKind, err, values)
		}
	})
}
