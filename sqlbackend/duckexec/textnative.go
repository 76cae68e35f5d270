//go:build duckdb_arrow && cgo

package duckexec

import (
	"time"
	"unsafe"

	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	bindings "github.com/duckdb/duckdb-go-bindings"
)

// nativeColumnOf picks the encoding of a result column of GMS type t from
// DuckDB's flat vectors of type lt, which skips the conversion of each
// chunk to Arrow: integers, DECIMALs, utf8mb4 strings and DATEs, the
// columns analysts stream; false for any other. The text is that of the
// Arrow encodings (arrowColumnOf), values they leave to the row path's
// way included.
func nativeColumnOf(ctx *gms.Context, t gms.Type, lt bindings.LogicalType, convert convertFunc) (nativeColumn, bool) {
	col := nativeColumn{wireType: t.Type()}
	id := bindings.GetTypeId(lt)
	switch {
	case types.IsInteger(t):
		col.bind = nativeIntegers(t, id)
	case types.IsDecimal(t) && id == bindings.TypeDecimal:
		col.bind = nativeDecimals(t, lt)
	case sentAsIs(ctx, t) && id == bindings.TypeVarchar:
		slow := valueText(t, convert)
		col.bind = func(data unsafe.Pointer, rows int) appendText {
			strs := unsafe.Slice((*duckString)(data), rows)
			return func(ctx *gms.Context, dst []byte, i int) ([]byte, bool, error) {
				s := strs[i].bytes()
				return appendUTF8(ctx, dst, s, i, func(ctx *gms.Context, dst []byte, _ int) ([]byte, bool, error) {
					return slow(ctx, dst, string(s))
				})
			}
		}
	case types.IsDateType(t) && id == bindings.TypeDate:
		slow := valueText(t, convert)
		col.bind = func(data unsafe.Pointer, rows int) appendText {
			days := unsafe.Slice((*int32)(data), rows)
			return daysText(days, func(ctx *gms.Context, dst []byte, i int) ([]byte, bool, error) {
				// duckdb-go scans a DATE as its UTC midnight.
				return slow(ctx, dst, time.Unix(int64(days[i])*86400, 0).UTC())
			})
		}
	}
	return col, col.bind != nil
}

// nativeIntegers reads DuckDB's integer vectors of the signedness of t.
func nativeIntegers(t gms.Type, id bindings.Type) func(unsafe.Pointer, int) appendText {
	signed, isSigned := signedRanges[t.Type()]
	unsigned, isUnsigned := unsignedRanges[t.Type()]
	switch {
	case isSigned && id == bindings.TypeTinyInt:
		return vectorOf[int8](func(v []int8) appendText { return signedText(v, signed, t) })
	case isSigned && id == bindings.TypeSmallInt:
		return vectorOf[int16](func(v []int16) appendText { return signedText(v, signed, t) })
	case isSigned && id == bindings.TypeInteger:
		return vectorOf[int32](func(v []int32) appendText { return signedText(v, signed, t) })
	case isSigned && id == bindings.TypeBigInt:
		return vectorOf[int64](func(v []int64) appendText { return signedText(v, signed, t) })
	case isUnsigned && id == bindings.TypeUTinyInt:
		return vectorOf[uint8](func(v []uint8) appendText { return unsignedText(v, unsigned, t) })
	case isUnsigned && id == bindings.TypeUSmallInt:
		return vectorOf[uint16](func(v []uint16) appendText { return unsignedText(v, unsigned, t) })
	case isUnsigned && id == bindings.TypeUInteger:
		return vectorOf[uint32](func(v []uint32) appendText { return unsignedText(v, unsigned, t) })
	case isUnsigned && id == bindings.TypeUBigInt:
		return vectorOf[uint64](func(v []uint64) appendText { return unsignedText(v, unsigned, t) })
	}
	return nil
}

// nativeDecimals reads DuckDB's DECIMAL vectors, integers of the type's
// scale whose width the precision sets, where formatsAtScale allows.
func nativeDecimals(t gms.Type, lt bindings.LogicalType) func(unsafe.Pointer, int) appendText {
	scale := int(bindings.DecimalScale(lt))
	if !formatsAtScale(t, scale) {
		return nil
	}
	switch bindings.DecimalInternalType(lt) {
	case bindings.TypeSmallInt:
		return vectorOf[int16](func(v []int16) appendText { return scaledText(v, scale) })
	case bindings.TypeInteger:
		return vectorOf[int32](func(v []int32) appendText { return scaledText(v, scale) })
	case bindings.TypeBigInt:
		return vectorOf[int64](func(v []int64) appendText { return scaledText(v, scale) })
	case bindings.TypeHugeInt:
		return vectorOf[hugeInt](func(v []hugeInt) appendText {
			return func(_ *gms.Context, dst []byte, i int) ([]byte, bool, error) {
				return appendScaled128(dst, v[i].upper, v[i].lower, scale), false, nil
			}
		})
	}
	return nil
}

// vectorOf binds encode to a vector's data as rows values of T.
func vectorOf[T any](encode func([]T) appendText) func(unsafe.Pointer, int) appendText {
	return func(data unsafe.Pointer, rows int) appendText {
		return encode(unsafe.Slice((*T)(data), rows))
	}
}

// hugeInt is DuckDB's duckdb_hugeint: a 128-bit two's complement integer.
type hugeInt struct {
	lower uint64
	upper int64
}

// duckString is DuckDB's duckdb_string_t: the length, then the string
// itself when it fits the 12 bytes left, else its first 4 bytes and a
// pointer to it.
type duckString [16]byte

func (s *duckString) bytes() []byte {
	length := *(*uint32)(unsafe.Pointer(&s[0]))
	if length <= 12 {
		return s[4 : 4+length]
	}
	return unsafe.Slice(*(**byte)(unsafe.Pointer(&s[8])), length)
}
