//go:build duckdb_arrow && cgo

package duckexec

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/duckdb/duckdb-go/v2"

	lakesqltypes "github.com/lakesql/lakesql/planner/sqltypes"
)

// arrowColumnOf picks the encoding of a result column of GMS type t whose
// DuckDB values arrive as Arrow type at. The common columns (integers,
// DECIMALs, utf8mb4 strings, DATEs) are encoded straight from the Arrow
// array into the text GMS writes (types.NumberTypeImpl_.SQL,
// DecimalType_.SQL, StringType.SQL, datetimeType.SQL); any other, and any
// value those leave (a DATE before year 1000, a string that is not
// UTF-8), goes the row path's way: the Go value duckdb-go would scan,
// convert, then t's own SQL method (valueText).
func arrowColumnOf(ctx *gms.Context, t gms.Type, at arrow.DataType, convert convertFunc) (arrowColumn, error) {
	value, ok := arrowValueOf(at)
	if !ok {
		return arrowColumn{}, fmt.Errorf("%w: DuckDB's Arrow type %s", ErrUnsupported, at)
	}
	generic := genericText(valueText(t, convert), value)
	col := arrowColumn{wireType: t.Type(), bind: generic}
	if fast := fastArrowText(ctx, t, at, generic); fast != nil {
		col.bind = fast
	}
	return col, nil
}

// fastArrowText is the direct encoding of t's values of Arrow type at,
// nil when there is none.
func fastArrowText(ctx *gms.Context, t gms.Type, at arrow.DataType, generic func(arrow.Array) appendText) func(arrow.Array) appendText {
	switch {
	case types.IsInteger(t):
		return integerText(t, at)
	case types.IsDecimal(t):
		return decimalText(t, at)
	case sentAsIs(ctx, t) && (at.ID() == arrow.STRING || at.ID() == arrow.LARGE_STRING || at.ID() == arrow.STRING_VIEW):
		return stringText(generic)
	case types.IsDateType(t) && at.ID() == arrow.DATE32:
		return func(arr arrow.Array) appendText {
			return daysText(arr.(*array.Date32).Date32Values(), generic(arr))
		}
	}
	return nil
}

// integerText encodes Arrow integers as GMS's integer types do, after the
// range check of the row path's conversion.
func integerText(t gms.Type, at arrow.DataType) func(arrow.Array) appendText {
	signed, isSigned := signedRanges[t.Type()]
	unsigned, isUnsigned := unsignedRanges[t.Type()]
	switch {
	case isSigned && arrow.IsSignedInteger(at.ID()):
		return func(arr arrow.Array) appendText {
			switch a := arr.(type) {
			case *array.Int8:
				return signedText(a.Int8Values(), signed, t)
			case *array.Int16:
				return signedText(a.Int16Values(), signed, t)
			case *array.Int32:
				return signedText(a.Int32Values(), signed, t)
			}
			return signedText(arr.(*array.Int64).Int64Values(), signed, t)
		}
	case isUnsigned && arrow.IsUnsignedInteger(at.ID()):
		return func(arr arrow.Array) appendText {
			switch a := arr.(type) {
			case *array.Uint8:
				return unsignedText(a.Uint8Values(), unsigned, t)
			case *array.Uint16:
				return unsignedText(a.Uint16Values(), unsigned, t)
			case *array.Uint32:
				return unsignedText(a.Uint32Values(), unsigned, t)
			}
			return unsignedText(arr.(*array.Uint64).Uint64Values(), unsigned, t)
		}
	}
	return nil
}

func signedText[T int8 | int16 | int32 | int64](values []T, r intRange, t gms.Type) appendText {
	return func(_ *gms.Context, dst []byte, i int) ([]byte, bool, error) {
		n := int64(values[i])
		if n < r.lo || n > r.hi {
			return nil, false, inexact(n, t)
		}
		return strconv.AppendInt(dst, n, 10), false, nil
	}
}

func unsignedText[T uint8 | uint16 | uint32 | uint64](values []T, r uintRange, t gms.Type) appendText {
	return func(_ *gms.Context, dst []byte, i int) ([]byte, bool, error) {
		n := uint64(values[i])
		if n > r.hi {
			return nil, false, inexact(n, t)
		}
		return strconv.AppendUint(dst, n, 10), false, nil
	}
}

// decimalText encodes Arrow DECIMAL128s of DuckDB's scale, where
// formatsAtScale allows.
func decimalText(t gms.Type, at arrow.DataType) func(arrow.Array) appendText {
	dt, ok := at.(*arrow.Decimal128Type)
	if !ok || !formatsAtScale(t, int(dt.Scale)) {
		return nil
	}
	scale := int(dt.Scale)
	return func(arr arrow.Array) appendText {
		values := arr.(*array.Decimal128).Values()
		return func(_ *gms.Context, dst []byte, i int) ([]byte, bool, error) {
			return appendScaled128(dst, values[i].HighBits(), values[i].LowBits(), scale), false, nil
		}
	}
}

// formatsAtScale reports whether GMS sends the values of DECIMAL type t
// that DuckDB computed at scale with exactly scale digits after the
// point. GMS formats a DECIMAL with the value's own scale, which the row
// path's conversion keeps at DuckDB's, unless the type is a column's,
// which formats with the type's scale.
func formatsAtScale(t gms.Type, scale int) bool {
	return !lakesqltypes.DecimalDefinesColumn(t) || int(t.(gms.DecimalType).Scale()) == scale
}

// scaledText encodes DECIMALs DuckDB keeps as integers of scale.
func scaledText[T int16 | int32 | int64](values []T, scale int) appendText {
	return func(_ *gms.Context, dst []byte, i int) ([]byte, bool, error) {
		return appendScaled(dst, int64(values[i]), scale), false, nil
	}
}

// appendScaled128 is appendScaled of a 128-bit two's complement integer.
func appendScaled128(dst []byte, hi int64, lo uint64, scale int) []byte {
	if hi == 0 && lo>>63 == 0 || hi == -1 && lo>>63 == 1 {
		return appendScaled(dst, int64(lo), scale)
	}
	return appendScaledBig(dst, decimal128.New(hi, lo).BigInt(), scale)
}

// appendScaled appends unscaled·10^-scale with exactly scale digits after
// the point, as shopspring's StringFixed formats it.
func appendScaled(dst []byte, unscaled int64, scale int) []byte {
	negative := unscaled < 0
	magnitude := uint64(unscaled)
	if negative {
		magnitude = -magnitude
	}
	var digits [20]byte
	return appendDigits(dst, negative, strconv.AppendUint(digits[:0], magnitude, 10), scale)
}

func appendScaledBig(dst []byte, unscaled *big.Int, scale int) []byte {
	return appendDigits(dst, unscaled.Sign() < 0, new(big.Int).Abs(unscaled).Append(nil, 10), scale)
}

func appendDigits(dst []byte, negative bool, digits []byte, scale int) []byte {
	if negative {
		dst = append(dst, '-')
	}
	whole := len(digits) - scale
	if whole <= 0 {
		dst = append(dst, '0')
	} else {
		dst = append(dst, digits[:whole]...)
	}
	if scale == 0 {
		return dst
	}
	dst = append(dst, '.')
	for range -whole {
		dst = append(dst, '0')
	}
	return append(dst, digits[max(whole, 0):]...)
}

// sentAsIs reports whether GMS sends the strings of type t as they are:
// a utf8mb4 text column sent in utf8mb4 (StringType.SQL's encoding is the
// identity then, after a check that the string is UTF-8).
func sentAsIs(ctx *gms.Context, t gms.Type) bool {
	if !types.IsText(t) || types.IsBinaryType(t) || types.IsEnum(t) || types.IsSet(t) {
		return false
	}
	charset := t.(gms.TypeWithCollation).Collation().CharacterSet()
	results := ctx.GetCharacterSetResults()
	if results == gms.CharacterSet_Unspecified || results == gms.CharacterSet_binary {
		results = charset
	}
	return charset == gms.CharacterSet_utf8mb4 && results == gms.CharacterSet_utf8mb4
}

// stringText copies Arrow strings sentAsIs.
func stringText(generic func(arrow.Array) appendText) func(arrow.Array) appendText {
	return func(arr arrow.Array) appendText {
		slow := generic(arr)
		if a, ok := arr.(*array.String); ok {
			offsets, data := a.ValueOffsets(), a.ValueBytes()
			return func(ctx *gms.Context, dst []byte, i int) ([]byte, bool, error) {
				return appendUTF8(ctx, dst, data[offsets[i]:offsets[i+1]], i, slow)
			}
		}
		a := arr.(interface{ Value(int) string })
		return func(ctx *gms.Context, dst []byte, i int) ([]byte, bool, error) {
			s := a.Value(i)
			return appendUTF8(ctx, dst, unsafe.Slice(unsafe.StringData(s), len(s)), i, slow)
		}
	}
}

// appendUTF8 appends s, row i's string; one that is not UTF-8 goes to
// slow, which fails as GMS does.
func appendUTF8(ctx *gms.Context, dst, s []byte, i int, slow appendText) ([]byte, bool, error) {
	if !utf8.Valid(s) {
		return slow(ctx, dst, i)
	}
	return append(dst, s...), false, nil
}

// daysText formats dates (days since 1970-01-01) of years 1000 to 9999 as
// DATE's layout; others go to slow, which applies GMS's range rules. A
// column's dates often repeat (a partition's), so the last one's text is
// kept.
func daysText[T ~int32](days []T, slow appendText) appendText {
	last, text := T(0), []byte(nil)
	return func(ctx *gms.Context, dst []byte, i int) ([]byte, bool, error) {
		day := days[i]
		if text != nil && day == last {
			return append(dst, text...), false, nil
		}
		year, month, dayOfMonth := civilDate(int64(day))
		if year < 1000 || year > 9999 {
			return slow(ctx, dst, i)
		}
		start := len(dst)
		dst = strconv.AppendInt(dst, year, 10)
		dst = appendTwoDigits(append(dst, '-'), month)
		dst = appendTwoDigits(append(dst, '-'), dayOfMonth)
		last, text = day, append(text[:0], dst[start:]...)
		return dst, false, nil
	}
}

// civilDate is the proleptic Gregorian date days after 1970-01-01 (Howard
// Hinnant's days-to-civil algorithm, in 400-year eras of 146097 days
// starting on March 1st).
func civilDate(days int64) (year int64, month, day int) {
	days += 719468
	era := days / 146097
	if days < 0 && days%146097 != 0 {
		era--
	}
	dayOfEra := days - era*146097
	yearOfEra := (dayOfEra - dayOfEra/1460 + dayOfEra/36524 - dayOfEra/146096) / 365
	dayOfYear := dayOfEra - (365*yearOfEra + yearOfEra/4 - yearOfEra/100)
	shiftedMonth := (5*dayOfYear + 2) / 153
	day = int(dayOfYear - (153*shiftedMonth+2)/5 + 1)
	month = int(shiftedMonth + 3)
	if month > 12 {
		month -= 12
	}
	year = yearOfEra + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

func appendTwoDigits(dst []byte, n int) []byte { return append(dst, byte('0'+n/10), byte('0'+n%10)) }

// genericText binds valueText to Arrow arrays.
func genericText(text func(ctx *gms.Context, dst []byte, v any) ([]byte, bool, error), value func(arrow.Array, int) any) func(arrow.Array) appendText {
	return func(arr arrow.Array) appendText {
		return func(ctx *gms.Context, dst []byte, i int) ([]byte, bool, error) {
			return text(ctx, dst, value(arr, i))
		}
	}
}

// valueText encodes as the row path does: the Go value duckdb-go scans
// from DuckDB, v, through the column's conversion and t's SQL method, but
// a DOUBLE or FLOAT as MySQL writes it (the row path's wireResult does the
// same).
func valueText(t gms.Type, convert convertFunc) func(ctx *gms.Context, dst []byte, v any) ([]byte, bool, error) {
	float := types.IsFloat(t)
	return func(ctx *gms.Context, dst []byte, v any) ([]byte, bool, error) {
		converted, err := convert(v)
		if err != nil {
			return nil, false, err
		}
		if text, ok := lakesqltypes.FloatValueText(converted); ok && float {
			return append(dst, text...), false, nil
		}
		text, err := t.SQL(ctx, nil, converted)
		if err != nil {
			return nil, false, err
		}
		return append(dst, text.Raw()...), text.IsNull(), nil
	}
}

// arrowValueOf reads a non-null value of an Arrow array of type at as the
// Go value duckdb-go's database/sql rows scan for the DuckDB type DuckDB
// exports as at; false for a type the executor does not read this way.
func arrowValueOf(at arrow.DataType) (func(arrow.Array, int) any, bool) {
	switch at.ID() {
	case arrow.BOOL:
		return func(a arrow.Array, i int) any { return a.(*array.Boolean).Value(i) }, true
	case arrow.INT8:
		return func(a arrow.Array, i int) any { return a.(*array.Int8).Value(i) }, true
	case arrow.INT16:
		return func(a arrow.Array, i int) any { return a.(*array.Int16).Value(i) }, true
	case arrow.INT32:
		return func(a arrow.Array, i int) any { return a.(*array.Int32).Value(i) }, true
	case arrow.INT64:
		return func(a arrow.Array, i int) any { return a.(*array.Int64).Value(i) }, true
	case arrow.UINT8:
		return func(a arrow.Array, i int) any { return a.(*array.Uint8).Value(i) }, true
	case arrow.UINT16:
		return func(a arrow.Array, i int) any { return a.(*array.Uint16).Value(i) }, true
	case arrow.UINT32:
		return func(a arrow.Array, i int) any { return a.(*array.Uint32).Value(i) }, true
	case arrow.UINT64:
		return func(a arrow.Array, i int) any { return a.(*array.Uint64).Value(i) }, true
	case arrow.FLOAT32:
		return func(a arrow.Array, i int) any { return a.(*array.Float32).Value(i) }, true
	case arrow.FLOAT64:
		return func(a arrow.Array, i int) any { return a.(*array.Float64).Value(i) }, true
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return func(a arrow.Array, i int) any { return strings.Clone(a.(interface{ Value(int) string }).Value(i)) }, true
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
		return func(a arrow.Array, i int) any {
			return append([]byte{}, a.(interface{ Value(int) []byte }).Value(i)...)
		}, true
	case arrow.DECIMAL128:
		dt := at.(*arrow.Decimal128Type)
		return func(a arrow.Array, i int) any {
			return duckdb.Decimal{Width: uint8(dt.Precision), Scale: uint8(dt.Scale), Value: a.(*array.Decimal128).Value(i).BigInt()}
		}, true
	case arrow.DATE32:
		return func(a arrow.Array, i int) any { return a.(*array.Date32).Value(i).ToTime() }, true
	case arrow.TIMESTAMP:
		unit := at.(*arrow.TimestampType).Unit
		return func(a arrow.Array, i int) any { return a.(*array.Timestamp).Value(i).ToTime(unit).In(time.UTC) }, true
	}
	return nil, false
}
