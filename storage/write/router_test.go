package write

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestFixedWidthKeysMatchSpecEncoding checks the router's fast bucket-key
// encoding against spec.EncodeBinaryRow, which is byte-exact with Java.
func TestFixedWidthKeysMatchSpecEncoding(t *testing.T) {
	types := []spec.DataType{
		{Root: spec.Boolean, Nullable: true}, {Root: spec.TinyInt, Nullable: true}, {Root: spec.SmallInt, Nullable: true},
		{Root: spec.Int, Nullable: true}, {Root: spec.BigInt, Nullable: true}, {Root: spec.Date, Nullable: true},
		{Root: spec.Time, Nullable: true}, {Root: spec.Decimal, Nullable: true, Precision: 18, Scale: 2},
		{Root: spec.Timestamp, Nullable: true, Precision: 3},
	}
	rng := rand.New(rand.NewPCG(1, 1))
	r := &router{}
	for range 500 {
		values := []any{rng.IntN(2) == 1, int8(rng.Int()), int16(rng.Int()), int32(rng.Int()), int64(rng.Uint64()),
			spec.DateValue(rng.Int32() - 1<<30), spec.TimeValue(rng.IntN(86_400_000)), spec.NewDecimal(rng.Int64()-1<<62, 2),
			spec.TimestampValue{Millis: rng.Int64() - 1<<62}}
		for i := range values {
			if rng.IntN(5) == 0 {
				values[i] = nil
			}
		}
		for n := 1; n <= len(types); n++ {
			want, err := spec.EncodeBinaryRow(types[:n], values[:n], spec.RowKindInsert)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := r.encodeFixedWidth(types[:n], values[:n])
			if !ok || !bytes.Equal(got, want) {
				t.Fatalf("values %v:\n got  %x\n want %x", values[:n], got, want)
			}
		}
	}
	if _, ok := r.encodeFixedWidth([]spec.DataType{stringType}, []any{"x"}); ok {
		t.Error("a string key took the fixed-width path")
	}
}
