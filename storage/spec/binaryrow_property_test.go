package spec

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

var atomicRoots = []TypeRoot{Boolean, TinyInt, SmallInt, Int, BigInt, Float, Double, Decimal,
	Char, VarChar, Binary, VarBinary, Date, Time, Timestamp, TimestampLTZ}

// randomType draws any supported type; composite types nest up to depth.
func randomType(r *rand.Rand, depth int) DataType {
	roots := atomicRoots
	if depth > 0 {
		roots = append(roots[:len(roots):len(roots)], Array, Map, Multiset, Row)
	}
	t := DataType{Root: roots[r.IntN(len(roots))], Nullable: true}
	switch t.Root {
	case Decimal:
		t.Precision = 1 + r.IntN(38)
		t.Scale = r.IntN(t.Precision + 1)
	case Timestamp, TimestampLTZ:
		t.Precision = r.IntN(10)
	case Array, Multiset:
		el := randomType(r, depth-1)
		t.Element = &el
	case Map:
		k, v := randomType(r, depth-1), randomType(r, depth-1)
		t.Key, t.Value = &k, &v
	case Row:
		for i := range r.IntN(4) {
			t.Fields = append(t.Fields, DataField{ID: i, Name: "f", Type: randomType(r, depth-1)})
		}
	}
	return t
}

// randomValue draws a value of t, null one time in eight.
func randomValue(r *rand.Rand, t DataType) any {
	if r.IntN(8) == 0 {
		return nil
	}
	switch t.Root {
	case Boolean:
		return r.IntN(2) == 1
	case TinyInt:
		return int8(r.Uint32())
	case SmallInt:
		return int16(r.Uint32())
	case Int:
		return int32(r.Uint32())
	case BigInt:
		return int64(r.Uint64())
	case Float:
		return float32(randomDouble(r))
	case Double:
		return randomDouble(r)
	case Date:
		return DateValue(r.Int32N(2_000_000) - 1_000_000)
	case Time:
		return TimeValue(r.Int32N(86_400_000))
	case Char, VarChar:
		return string(randomBytes(r))
	case Binary, VarBinary:
		return randomBytes(r)
	case Decimal:
		return randomDecimal(r, t)
	case Timestamp, TimestampLTZ:
		return randomTimestamp(r, t)
	}
	return randomComposite(r, t)
}

func randomComposite(r *rand.Rand, t DataType) any {
	switch t.Root {
	case Array:
		return randomValues(r, *t.Element, r.IntN(40))
	case Map:
		n := r.IntN(5)
		return MapValue{Keys: randomValues(r, *t.Key, n), Values: randomValues(r, *t.Value, n)}
	case Multiset:
		n := r.IntN(5)
		counts := make([]any, n)
		for i := range counts {
			counts[i] = int32(1 + r.IntN(9))
		}
		return MapValue{Keys: randomValues(r, *t.Element, n), Values: counts}
	}
	values := make([]any, len(t.Fields))
	for i, f := range t.Fields {
		values[i] = randomValue(r, f.Type)
	}
	return values
}

func randomValues(r *rand.Rand, t DataType, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = randomValue(r, t)
	}
	return out
}

func randomDouble(r *rand.Rand) float64 {
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64}
	if r.IntN(4) == 0 {
		return special[r.IntN(len(special))]
	}
	return (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
}

// randomBytes draws 0..20 bytes, so both the inline (<= 7) and the
// variable-part form occur.
func randomBytes(r *rand.Rand) []byte {
	b := make([]byte, r.IntN(21))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// randomDecimal draws an unscaled value of up to Precision digits.
func randomDecimal(r *rand.Rand, t DataType) DecimalValue {
	digits := make([]byte, 1+r.IntN(t.Precision))
	for i := range digits {
		digits[i] = byte('0' + r.IntN(10))
	}
	unscaled, _ := new(big.Int).SetString(string(digits), 10)
	if r.IntN(2) == 0 {
		unscaled.Neg(unscaled)
	}
	return NewDecimalBig(unscaled, t.Scale)
}

func randomTimestamp(r *rand.Rand, t DataType) TimestampValue {
	ts := TimestampValue{Millis: r.Int64N(1<<45) - 1<<44}
	if !t.IsCompactTimestamp() {
		ts.NanoOfMilli = r.Int32N(maxNanoOfMilli + 1)
	}
	return ts
}

// Random rows of every type, nested two levels deep, survive encode/decode,
// re-encode to identical bytes, and are padded to whole words.
func TestBinaryRowRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 3000 {
		types := make([]DataType, r.IntN(12))
		for i := range types {
			types[i] = randomType(r, 2)
		}
		values := make([]any, len(types))
		for i, ty := range types {
			values[i] = randomValue(r, ty)
		}
		kind := RowKind(r.IntN(4))
		row, err := EncodeBinaryRow(types, values, kind)
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		back, gotKind, err := DecodeBinaryRow(types, row)
		if err != nil || gotKind != kind || !valuesEqual(types, back, values) {
			t.Fatalf("iteration %d: decoded %v %v %v, want %v", iter, back, gotKind, err, values)
		}
		again, err := EncodeBinaryRow(types, back, kind)
		if err != nil || !bytes.Equal(again, row) || len(row)%8 != 0 {
			t.Fatalf("iteration %d: re-encoded %x, %v; first %x", iter, again, err, row)
		}
	}
}
