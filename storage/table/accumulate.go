package table

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
)

// accumulator is the running state of one aggregate. Integer and compact
// DECIMAL sums add into a 128-bit two's-complement integer, which 2^64
// int64 values cannot overflow; wide DECIMAL values add into wide.
type accumulator struct {
	// count is the COUNT, or for SUM, MIN and MAX the number of non-null
	// values seen.
	count   int64
	hi      int64
	lo      uint64
	wide    *big.Int
	float   float64
	extreme any
}

func (acc *accumulator) addInt(x int64) {
	var carry uint64
	acc.lo, carry = bits.Add64(acc.lo, uint64(x), 0)
	acc.hi += int64(carry) + x>>63
}

// addRow adds the value a row holds for the aggregate.
func (acc *accumulator) addRow(a *aggregate, row []any) {
	if a.fn == AggCountStar {
		acc.count++
		return
	}
	v := row[a.column]
	if v == nil {
		return
	}
	acc.count++
	switch a.fn {
	case AggSum:
		acc.addValue(v)
	case AggMin, AggMax:
		acc.offerExtreme(a, v)
	}
}

func (acc *accumulator) addValue(v any) {
	switch x := v.(type) {
	case int8:
		acc.addInt(int64(x))
	case int16:
		acc.addInt(int64(x))
	case int32:
		acc.addInt(int64(x))
	case int64:
		acc.addInt(x)
	case float32:
		acc.float += float64(x)
	case float64:
		acc.float += x
	case spec.DecimalValue:
		if u, ok := x.UnscaledInt64(); ok {
			acc.addInt(u)
			return
		}
		if acc.wide == nil {
			acc.wide = new(big.Int)
		}
		acc.wide.Add(acc.wide, x.Unscaled())
	}
}

// offerExtreme keeps v if it is a new MIN or MAX.
func (acc *accumulator) offerExtreme(a *aggregate, v any) {
	if acc.extreme == nil {
		acc.extreme = v
		return
	}
	c := spec.CompareValues(a.typ, v, acc.extreme)
	if a.fn == AggMin && c < 0 || a.fn == AggMax && c > 0 {
		acc.extreme = v
	}
}

// addBatch adds the selected rows of a batch; a column the batch lacks is
// NULL.
func (acc *accumulator) addBatch(a *aggregate, b *vector.Batch, sel []int32) {
	if a.fn == AggCountStar {
		acc.count += int64(len(sel))
		return
	}
	v := b.Columns[a.column]
	if v == nil {
		return
	}
	switch a.fn {
	case AggCount:
		acc.count += nonNull(v, sel)
	case AggSum:
		acc.sumBatch(v, sel)
	case AggMin, AggMax:
		acc.extremeBatch(a, v, sel)
	}
}

func nonNull(v *vector.Vector, sel []int32) int64 {
	if !v.HasNulls {
		return int64(len(sel))
	}
	var n int64
	for _, i := range sel {
		if !v.Nulls[i] {
			n++
		}
	}
	return n
}

func (acc *accumulator) sumBatch(v *vector.Vector, sel []int32) {
	acc.count += nonNull(v, sel)
	switch v.Kind {
	case vector.Int32s:
		sumInts(acc, v, v.Int32, sel)
	case vector.Int64s:
		sumInts(acc, v, v.Int64, sel)
	case vector.Float32s:
		sumFloats(acc, v, v.Float32, sel)
	case vector.Float64s:
		sumFloats(acc, v, v.Float64, sel)
	}
}

// sumInts adds the selected non-null values; the 128-bit sum is kept in
// locals so the loop stays in registers.
func sumInts[T int32 | int64](acc *accumulator, v *vector.Vector, values []T, sel []int32) {
	hi, lo := acc.hi, acc.lo
	var carry uint64
	for _, i := range sel {
		if v.HasNulls && v.Nulls[i] {
			continue
		}
		x := int64(values[i])
		lo, carry = bits.Add64(lo, uint64(x), 0)
		hi += int64(carry) + x>>63
	}
	acc.hi, acc.lo = hi, lo
}

func sumFloats[T float32 | float64](acc *accumulator, v *vector.Vector, values []T, sel []int32) {
	for _, i := range sel {
		if !v.IsNull(int(i)) {
			acc.float += float64(values[i])
		}
	}
}

// extremeBatch finds the batch's extreme with typed comparisons and
// offers it, boxed once, to the running extreme.
func (acc *accumulator) extremeBatch(a *aggregate, v *vector.Vector, sel []int32) {
	best := -1
	for _, i := range sel {
		if v.IsNull(int(i)) {
			continue
		}
		acc.count++
		if best < 0 {
			best = int(i)
			continue
		}
		c := compareAt(v, int(i), best)
		if a.fn == AggMin && c < 0 || a.fn == AggMax && c > 0 {
			best = int(i)
		}
	}
	if best >= 0 {
		acc.offerExtreme(a, v.Value(best))
	}
}

// compareAt orders values i and j of a vector as spec.CompareValues
// orders their boxed values.
func compareAt(v *vector.Vector, i, j int) int {
	switch v.Kind {
	case vector.Int32s:
		return compareOrdered(v.Int32[i], v.Int32[j])
	case vector.Int64s:
		return compareOrdered(v.Int64[i], v.Int64[j])
	case vector.Bytes:
		return bytes.Compare(v.Bytes(i), v.Bytes(j))
	case vector.Float32s:
		return compareJavaDouble(float64(v.Float32[i]), float64(v.Float32[j]))
	case vector.Float64s:
		return compareJavaDouble(v.Float64[i], v.Float64[j])
	}
	return spec.CompareValues(v.Type, v.Value(i), v.Value(j))
}

func compareOrdered[T int32 | int64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// compareJavaDouble is Java's Double.compare, the order spec uses: -0.0
// before 0.0, every NaN equal and after +Inf.
func compareJavaDouble(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return compareOrdered(int64(canonicalBits(x)), int64(canonicalBits(y)))
}

func canonicalBits(x float64) uint64 {
	if math.IsNaN(x) {
		return 0x7ff8000000000000
	}
	return math.Float64bits(x)
}

// merge adds another worker's state for the same aggregate.
func (acc *accumulator) merge(a *aggregate, o *accumulator) {
	acc.count += o.count
	var carry uint64
	acc.lo, carry = bits.Add64(acc.lo, o.lo, 0)
	acc.hi += o.hi + int64(carry)
	if o.wide != nil {
		if acc.wide == nil {
			acc.wide = new(big.Int)
		}
		acc.wide.Add(acc.wide, o.wide)
	}
	acc.float += o.float
	if o.extreme != nil {
		acc.offerExtreme(a, o.extreme)
	}
}

func (acc *accumulator) result(a *aggregate) (AggResult, error) {
	out := AggResult{Type: a.result}
	switch a.fn {
	case AggCountStar, AggCount:
		out.Value = acc.count
	case AggMin, AggMax:
		out.Value = acc.extreme
	case AggSum:
		if acc.count == 0 {
			return out, nil
		}
		if a.result.Root == spec.Double {
			out.Value = acc.float
			return out, nil
		}
		sum := spec.NewDecimalBig(acc.exactSum(), a.result.Scale)
		if !sum.FitsPrecision(a.result.Precision) {
			return out, fmt.Errorf("SUM(%s) is out of range of DECIMAL(%d, %d)", a.typ, a.result.Precision, a.result.Scale)
		}
		out.Value = sum
	}
	return out, nil
}

// exactSum is the 128-bit sum plus the wide one.
func (acc *accumulator) exactSum() *big.Int {
	sum := new(big.Int).SetInt64(acc.hi)
	sum.Lsh(sum, 64)
	sum.Add(sum, new(big.Int).SetUint64(acc.lo))
	if acc.wide != nil {
		sum.Add(sum, acc.wide)
	}
	return sum
}
