package fileindex

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestBitmapLayout builds bitmap indexes of every type a bitmap takes,
// with enough distinct values for several 16 KiB index blocks, repeats,
// NULLs, -0.0 and NaN, and checks what Java's reader relies on: the
// entries of the blocks, read in order, are sorted by Java's comparator,
// each block's directory key is its first entry, every value written is
// there once, and values of one row point at that row.
func TestBitmapLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	types := map[spec.TypeRoot]func() any{
		spec.VarChar:  func() any { return fmt.Sprintf("%x", r.Uint64()>>r.IntN(64)) },
		spec.Boolean:  func() any { return r.IntN(2) == 0 },
		spec.TinyInt:  func() any { return int8(r.IntN(256) - 128) },
		spec.SmallInt: func() any { return int16(r.IntN(1<<16) - 1<<15) },
		spec.Int:      func() any { return int32(r.Uint32()) },
		spec.BigInt:   func() any { return int64(r.Uint64()) },
		spec.Float: func() any {
			return []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(r.NormFloat64())}[r.IntN(4)]
		},
		spec.Double: func() any { return []float64{0, math.Copysign(0, -1), math.NaN(), r.NormFloat64()}[r.IntN(4)] },
		spec.Date:   func() any { return spec.DateValue(r.IntN(1000) - 500) },
		spec.Timestamp: func() any {
			return spec.TimestampValue{Millis: r.Int64N(1e12) - 5e11, NanoOfMilli: int32(r.IntN(1000) * 1000)}
		},
	}
	for root, value := range types {
		typ := spec.DataType{Root: root, Nullable: true, Precision: 6, Length: spec.MaxVarLength}
		t.Run(typ.String(), func(t *testing.T) {
			fields := []spec.DataField{{ID: 1, Name: "c", Type: typ}}
			b, err := newBitmapBuilder(fields, spec.FileIndexColumn{Column: "c", Type: spec.FileIndexBitmap})
			if err != nil {
				t.Fatal(err)
			}
			rowsOf := map[string][]uint32{}
			for row := range uint32(6000) {
				v := value()
				if row%13 == 0 {
					v = nil
				}
				b.add(v)
				if v != nil {
					key, _ := b.codec.encode(v)
					rowsOf[key] = append(rowsOf[key], row)
				}
			}
			body, err := b.finish()
			if err != nil {
				t.Fatal(err)
			}
			checkBitmapLayout(t, body, b.codec, rowsOf)
		})
	}
}

func checkBitmapLayout(t *testing.T, body []byte, c bitmapCodec, rowsOf map[string][]uint32) {
	t.Helper()
	r := &keyReader{b: body, codec: c}
	if v := r.byte(); v != bitmapV2 {
		t.Fatalf("version %d", v)
	}
	r.int()
	if n := r.int(); int(n) != len(rowsOf) {
		t.Fatalf("%d values in the head, %d written", n, len(rowsOf))
	}
	if r.byte() != 1 {
		t.Fatal("no NULL recorded")
	}
	r.int()
	r.int()
	blocks := r.int()
	var firsts []string
	for range blocks {
		firsts = append(firsts, r.key())
		r.int()
	}
	r.int()
	var keys []string
	for i := range blocks {
		entries := r.int()
		for j := range entries {
			key := r.key()
			offset, length := r.int(), r.int()
			if j == 0 && key != firsts[i] {
				t.Errorf("block %d starts with %q, its directory says %q", i, key, firsts[i])
			}
			if rows := rowsOf[key]; len(rows) == 1 && (offset != -1-int32(rows[0]) || length != -1) {
				t.Errorf("a value of row %d has offset %d length %d", rows[0], offset, length)
			}
			keys = append(keys, key)
		}
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if blocks < 2 && len(rowsOf) > 3000 {
		t.Errorf("%d values in %d block", len(rowsOf), blocks)
	}
	if !slices.IsSortedFunc(keys, c.compare) || len(slices.Compact(slices.Clone(keys))) != len(rowsOf) {
		t.Errorf("%d keys, not sorted once each by Java's order", len(keys))
	}
	ix, err := decodeBitmap(body, c)
	if err != nil || !ix.hasNull || int(ix.values) != len(rowsOf) {
		t.Fatalf("decoded %v, %v", ix, err)
	}
	for key := range rowsOf {
		if _, has, err := ix.find(key); !has || err != nil {
			t.Fatalf("value %q not found (%v)", key, err)
		}
	}
	for _, key := range keys {
		if absent := key + "\x00"; c.width == 0 && rowsOf[absent] == nil {
			if _, has, err := ix.find(absent); has || err != nil {
				t.Fatalf("absent value %q found (%v)", absent, err)
			}
		}
	}
}

// TestJavaFloatOrder: -0.0 before 0.0, NaN after +Inf, as Float.compare.
func TestJavaFloatOrder(t *testing.T) {
	c, _ := bitmapCodecFor(spec.DataType{Root: spec.Double})
	var keys []string
	for _, v := range []float64{math.Inf(-1), -1, math.Copysign(0, -1), 0, 1, math.Inf(1), math.NaN()} {
		k, _ := c.encode(v)
		keys = append(keys, k)
	}
	if !slices.IsSortedFunc(keys, c.compare) || c.compare(keys[2], keys[3]) >= 0 {
		t.Errorf("doubles not in Java's order")
	}
}
