// Package vector holds columns of values decoded without boxing, and
// evaluates storage predicates over them: the columnar read path of
// storage/table decodes Parquet pages into Vectors (storage/parquetio),
// selects rows with a Filter, and aggregates the selected values.
//
// A Vector stores each type in one flat Go slice; Value boxes a single
// element into the spec value representation the row path uses, so every
// vectorized computation can be checked against its row-at-a-time twin.
package vector

import (
	"github.com/lakesql/lakesql/storage/spec"
)

// Kind is the physical layout of a Vector.
type Kind uint8

const (
	// Int32s holds TINYINT, SMALLINT, INT, DATE and TIME (milliseconds).
	Int32s Kind = iota + 1
	// Int64s holds BIGINT, and DECIMAL of precision at most 18 as its
	// unscaled value.
	Int64s
	// Float32s holds FLOAT.
	Float32s
	// Float64s holds DOUBLE.
	Float64s
	// Bools holds BOOLEAN.
	Bools
	// Bytes holds CHAR, VARCHAR, BINARY and VARBINARY: value i is
	// Data[Offsets[i]:Offsets[i+1]].
	Bytes
)

// MaxCompactPrecision is the largest DECIMAL precision whose unscaled
// values fit in an int64.
const MaxCompactPrecision = 18

// KindOf returns the layout of values of type t; ok is false for types
// without one (TIMESTAMP, wide DECIMAL, nested types), which stay on the
// row path.
func KindOf(t spec.DataType) (Kind, bool) {
	switch t.Root {
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.Date, spec.Time:
		return Int32s, true
	case spec.BigInt:
		return Int64s, true
	case spec.Decimal:
		return Int64s, t.Precision <= MaxCompactPrecision
	case spec.Float:
		return Float32s, true
	case spec.Double:
		return Float64s, true
	case spec.Boolean:
		return Bools, true
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		return Bytes, true
	}
	return 0, false
}

// Vector is Len values of one column. Only the slice of its Kind is used;
// the others stay empty. A Vector is reused batch after batch: Reset keeps
// its slices' capacity.
type Vector struct {
	Type spec.DataType
	Kind Kind
	Len  int
	// Nulls[i] is true when value i is NULL; HasNulls is false when no
	// value is, and Nulls may then be stale.
	Nulls    []bool
	HasNulls bool

	Int32   []int32
	Int64   []int64
	Float32 []float32
	Float64 []float64
	Bool    []bool
	Data    []byte
	Offsets []uint32
}

// New returns an empty vector of type t, which must have a Kind.
func New(t spec.DataType) *Vector {
	k, _ := KindOf(t)
	return &Vector{Type: t, Kind: k}
}

// Reset empties v for n values, all non-null, growing its slices as
// needed; the values themselves are left for the decoder to write.
func (v *Vector) Reset(n int) {
	v.Len, v.HasNulls = n, false
	v.Nulls = grow(v.Nulls, n)
	switch v.Kind {
	case Int32s:
		v.Int32 = grow(v.Int32, n)
	case Int64s:
		v.Int64 = grow(v.Int64, n)
	case Float32s:
		v.Float32 = grow(v.Float32, n)
	case Float64s:
		v.Float64 = grow(v.Float64, n)
	case Bools:
		v.Bool = grow(v.Bool, n)
	case Bytes:
		v.Offsets = grow(v.Offsets, n+1)
		v.Offsets[0] = 0
		v.Data = v.Data[:0]
	}
}

// SetNull marks value i NULL. The first call of a batch clears the other
// flags, so Nulls is only written for batches that hold a NULL.
func (v *Vector) SetNull(i int) {
	if !v.HasNulls {
		clear(v.Nulls[:v.Len])
		v.HasNulls = true
	}
	v.Nulls[i] = true
}

// IsNull reports whether value i is NULL.
func (v *Vector) IsNull(i int) bool { return v.HasNulls && v.Nulls[i] }

// Bytes returns value i of a Bytes vector; it aliases the vector's data.
func (v *Vector) Bytes(i int) []byte { return v.Data[v.Offsets[i]:v.Offsets[i+1]] }

// Value returns value i in the Go type spec uses for the vector's type
// (nil for NULL): the value a row read would hold.
func (v *Vector) Value(i int) any {
	if v.IsNull(i) {
		return nil
	}
	switch v.Kind {
	case Int32s:
		return int32Value(v.Type, v.Int32[i])
	case Int64s:
		if v.Type.Root == spec.Decimal {
			return spec.NewDecimal(v.Int64[i], v.Type.Scale)
		}
		return v.Int64[i]
	case Float32s:
		return v.Float32[i]
	case Float64s:
		return v.Float64[i]
	case Bools:
		return v.Bool[i]
	case Bytes:
		if v.Type.IsString() {
			return string(v.Bytes(i))
		}
		return append([]byte{}, v.Bytes(i)...)
	}
	return nil
}

func int32Value(t spec.DataType, x int32) any {
	switch t.Root {
	case spec.TinyInt:
		return int8(x)
	case spec.SmallInt:
		return int16(x)
	case spec.Date:
		return spec.DateValue(x)
	case spec.Time:
		return spec.TimeValue(x)
	}
	return x
}

// Append adds a value in its spec Go type (nil for NULL) at the end of v;
// a value of another Go type is an error of the caller and panics. It is
// how tests and row-to-vector conversions build vectors; decoders write
// the slices directly.
func (v *Vector) Append(value any) {
	i := v.Len
	v.Len++
	v.Nulls = append(v.Nulls[:i], value == nil)
	if value == nil {
		v.HasNulls = true
	}
	switch v.Kind {
	case Int32s:
		v.Int32 = append(v.Int32[:i], int32Of(value))
	case Int64s:
		v.Int64 = append(v.Int64[:i], int64Of(value))
	case Float32s:
		x, _ := value.(float32)
		v.Float32 = append(v.Float32[:i], x)
	case Float64s:
		x, _ := value.(float64)
		v.Float64 = append(v.Float64[:i], x)
	case Bools:
		x, _ := value.(bool)
		v.Bool = append(v.Bool[:i], x)
	case Bytes:
		if i == 0 {
			v.Offsets, v.Data = append(v.Offsets[:0], 0), v.Data[:0]
		}
		switch x := value.(type) {
		case string:
			v.Data = append(v.Data, x...)
		case []byte:
			v.Data = append(v.Data, x...)
		}
		v.Offsets = append(v.Offsets[:i+1], uint32(len(v.Data)))
	}
}

func int32Of(value any) int32 {
	switch x := value.(type) {
	case nil:
		return 0
	case int8:
		return int32(x)
	case int16:
		return int32(x)
	case int32:
		return x
	case spec.DateValue:
		return int32(x)
	case spec.TimeValue:
		return int32(x)
	}
	panic("vector: not an INT-like value")
}

func int64Of(value any) int64 {
	switch x := value.(type) {
	case nil:
		return 0
	case int64:
		return x
	case spec.DecimalValue:
		if u, ok := x.UnscaledInt64(); ok {
			return u
		}
	}
	panic("vector: not a BIGINT or compact DECIMAL value")
}

// Batch is the columns of Len consecutive rows, laid out like the rows of
// the read schema: Columns[i] holds read column i, nil when the batch did
// not read it (the row path would hold NULL there).
type Batch struct {
	Len     int
	Columns []*Vector
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, max(n, 2*cap(s)))
	}
	return s[:n]
}
