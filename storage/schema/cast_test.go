package schema

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// castCase is one value cast between two atomic types. want is the Java
// result; err, when set, is the class of the expected failure.
type castCase struct {
	from, to string
	in, want any
	err      error
}

func runCastCases(t *testing.T, c caster, cases []castCase) {
	t.Helper()
	for _, tc := range cases {
		from, to := typ(t, tc.from), typ(t, tc.to)
		got, err := castValue(c, from, to, tc.in)
		switch {
		case tc.err != nil && !errors.Is(err, tc.err):
			t.Errorf("%s -> %s of %#v: err = %v, want %v", tc.from, tc.to, tc.in, err, tc.err)
		case tc.err == nil && err != nil:
			t.Errorf("%s -> %s of %#v: %v", tc.from, tc.to, tc.in, err)
		case tc.err == nil && !sameValue(got, tc.want):
			t.Errorf("%s -> %s of %#v = %#v, want %#v", tc.from, tc.to, tc.in, got, tc.want)
		}
	}
}

func castValue(c caster, from, to spec.DataType, v any) (any, error) {
	cast, err := c.resolve(from, to)
	if err != nil || cast == nil {
		return v, err
	}
	return cast(v)
}

// sameValue compares decimals by value and scale, floats bit for bit (so
// NaN equals NaN and -0.0 differs from 0.0) and everything else deeply.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case spec.DecimalValue:
		y, ok := b.(spec.DecimalValue)
		return ok && x.String() == y.String()
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	}
	return reflect.DeepEqual(a, b)
}

var utcCaster = caster{loc: time.UTC}

func TestCastNumbers(t *testing.T) {
	runCastCases(t, utcCaster, []castCase{
		{from: "INT", to: "BIGINT", in: int32(-5), want: int64(-5)},
		{from: "INT", to: "INT NOT NULL", in: int32(7), want: int32(7)},
		{from: "BIGINT", to: "INT", in: int64(1<<32 + 7), want: int32(7)},
		{from: "BIGINT", to: "INT", in: int64(2147483648), want: int32(math.MinInt32)},
		{from: "INT", to: "TINYINT", in: int32(383), want: int8(127)},
		{from: "INT", to: "TINYINT", in: int32(300), want: int8(44)},
		{from: "INT", to: "SMALLINT", in: int32(70000), want: int16(4464)},
		{from: "TINYINT", to: "DOUBLE", in: int8(-3), want: float64(-3)},
		{from: "INT", to: "FLOAT", in: int32(16777217), want: float32(16777216)},
		{from: "BIGINT", to: "DOUBLE", in: int64(9007199254740993), want: float64(9007199254740992)},
		{from: "FLOAT", to: "DOUBLE", in: float32(0.1), want: 0.10000000149011612},
		{from: "DOUBLE", to: "FLOAT", in: 0.1, want: float32(0.1)},
		{from: "DOUBLE", to: "FLOAT", in: 1e300, want: float32(math.Inf(1))},
		{from: "DOUBLE", to: "INT", in: 1e20, want: int32(math.MaxInt32)},
		{from: "DOUBLE", to: "INT", in: -2.9, want: int32(-2)},
		{from: "DOUBLE", to: "INT", in: math.NaN(), want: int32(0)},
		{from: "DOUBLE", to: "TINYINT", in: 300.7, want: int8(44)},
		{from: "DOUBLE", to: "TINYINT", in: 1e10, want: int8(-1)},
		{from: "DOUBLE", to: "SMALLINT", in: -40000.5, want: int16(25536)},
		{from: "FLOAT", to: "BIGINT", in: float32(1e20), want: int64(math.MaxInt64)},
		{from: "INT", to: "BOOLEAN", in: int32(0), want: false},
		{from: "BIGINT", to: "BOOLEAN", in: int64(-7), want: true},
		{from: "BOOLEAN", to: "INT", in: true, want: int32(1)},
		{from: "BOOLEAN", to: "TINYINT", in: false, want: int8(0)},
		{from: "BOOLEAN", to: "DOUBLE", in: true, want: float64(1)},
		{from: "BOOLEAN", to: "FLOAT", in: true, want: float32(1)},
	})
}

func TestCastDecimals(t *testing.T) {
	runCastCases(t, utcCaster, []castCase{
		{from: "DECIMAL(5, 2)", to: "DECIMAL(6, 3)", in: dec(2, 2), want: dec(20, 3)},
		{from: "DECIMAL(6, 3)", to: "DECIMAL(5, 2)", in: dec(1235, 3), want: dec(124, 2)},
		{from: "DECIMAL(6, 3)", to: "DECIMAL(5, 2)", in: dec(-1235, 3), want: dec(-124, 2)},
		{from: "DECIMAL(6, 3)", to: "DECIMAL(5, 2)", in: dec(1234, 3), want: dec(123, 2)},
		{from: "DECIMAL(5, 2)", to: "DECIMAL(4, 2)", in: dec(12345, 2), want: nil},
		{from: "DECIMAL(5, 2)", to: "DECIMAL(3, 0)", in: dec(99950, 2), want: nil},
		{from: "DECIMAL(5, 2)", to: "DECIMAL(3, 0)", in: dec(99949, 2), want: dec(999, 0)},
		{from: "DECIMAL(38, 10)", to: "DECIMAL(38, 0)", in: bigDec(t, "123456789012345678901234567895000000000", 10),
			want: bigDec(t, "12345678901234567890123456790", 0)},
		{from: "DECIMAL(10, 2)", to: "INT", in: dec(12399, 2), want: int32(123)},
		{from: "DECIMAL(10, 2)", to: "INT", in: dec(-12399, 2), want: int32(-123)},
		{from: "DECIMAL(10, 2)", to: "TINYINT", in: dec(30000, 2), want: int8(44)},
		{from: "DECIMAL(38, 0)", to: "BIGINT", in: bigDec(t, "18446744073709551621", 0), want: int64(5)},
		{from: "DECIMAL(10, 1)", to: "DOUBLE", in: dec(1, 1), want: 0.1},
		{from: "DECIMAL(10, 3)", to: "FLOAT", in: dec(1234, 3), want: float32(1.234)},
		{from: "DECIMAL(38, 2)", to: "DOUBLE", in: bigDec(t, "100000000000000000000000000001", 2), want: 1e27},
		{from: "INT", to: "DECIMAL(5, 2)", in: int32(123), want: dec(12300, 2)},
		{from: "INT", to: "DECIMAL(5, 2)", in: int32(1234), want: nil},
		{from: "TINYINT", to: "DECIMAL(3, 1)", in: int8(-5), want: dec(-50, 1)},
		{from: "BIGINT", to: "DECIMAL(38, 0)", in: int64(math.MaxInt64), want: dec(math.MaxInt64, 0)},
		// BigDecimal.valueOf(double) goes through Double.toString: 1.005 is
		// "1.005" and rounds up, though the binary value is below 1.005.
		{from: "DOUBLE", to: "DECIMAL(10, 2)", in: 1.005, want: dec(101, 2)},
		{from: "DOUBLE", to: "DECIMAL(10, 2)", in: 0.125, want: dec(13, 2)},
		{from: "DOUBLE", to: "DECIMAL(10, 2)", in: 1e10, want: nil},
		{from: "FLOAT", to: "DECIMAL(20, 18)", in: float32(0.1), want: dec(100000001490116120, 18)},
		{from: "DOUBLE", to: "DECIMAL(10, 2)", in: math.NaN(), err: ErrCastFailed},
		{from: "FLOAT", to: "DECIMAL(10, 2)", in: float32(math.Inf(-1)), err: ErrCastFailed},
		{from: "BOOLEAN", to: "DECIMAL(1, 0)", in: true, want: dec(1, 0)},
		{from: "BOOLEAN", to: "DECIMAL(1, 1)", in: true, want: nil},
		{from: "STRING", to: "DECIMAL(5, 2)", in: "1.235", want: dec(124, 2)},
		{from: "STRING", to: "DECIMAL(5, 2)", in: "1e2", want: dec(10000, 2)},
		{from: "STRING", to: "DECIMAL(5, 2)", in: "123456", want: nil},
		{from: "STRING", to: "DECIMAL(5, 2)", in: "abc", err: ErrCastFailed},
		{from: "STRING", to: "DECIMAL(5, 2)", in: " 1", err: ErrCastFailed},
	})
}

func TestCastToString(t *testing.T) {
	runCastCases(t, utcCaster, []castCase{
		{from: "INT", to: "STRING", in: int32(-5), want: "-5"},
		{from: "TINYINT", to: "STRING", in: int8(127), want: "127"},
		{from: "BIGINT", to: "STRING NOT NULL", in: int64(math.MinInt64), want: "-9223372036854775808"},
		{from: "DOUBLE", to: "STRING", in: 1e7, want: "1.0E7"},
		{from: "DOUBLE", to: "STRING", in: 100.0, want: "100.0"},
		{from: "DOUBLE", to: "STRING", in: math.NaN(), want: "NaN"},
		{from: "FLOAT", to: "STRING", in: float32(0.1), want: "0.1"},
		{from: "FLOAT", to: "STRING", in: float32(1e-5), want: "1.0E-5"},
		{from: "DECIMAL(6, 3)", to: "STRING", in: dec(20, 3), want: "0.020"},
		{from: "DECIMAL(5, 2)", to: "VARCHAR(3)", in: dec(12345, 2), want: "123"},
		{from: "INT", to: "CHAR(4)", in: int32(7), want: "7   "},
		{from: "BOOLEAN", to: "STRING", in: true, want: "true"},
		{from: "BOOLEAN", to: "CHAR(2)", in: true, want: "tr"},
		{from: "BOOLEAN", to: "CHAR(6)", in: false, want: "false "},
		{from: "STRING", to: "VARCHAR(3)", in: "héllo", want: "hél"},
		{from: "STRING", to: "CHAR(5)", in: "ab", want: "ab   "},
		{from: "VARCHAR(5)", to: "STRING", in: "abc", want: "abc"},
		{from: "CHAR(3)", to: "VARCHAR(10)", in: "ab ", want: "ab "},
		{from: "BYTES", to: "STRING", in: []byte("abc"), want: "abc"},
		{from: "BINARY(4)", to: "VARCHAR(2)", in: []byte("abcd"), want: "abcd"},
		{from: "DATE", to: "STRING", in: spec.DateValue(20053), want: "2024-11-26"},
		{from: "TIME(3)", to: "STRING", in: spec.TimeValue(45296789), want: "12:34:56.789"},
		{from: "TIME(0)", to: "STRING", in: spec.TimeValue(45296789), want: "12:34:56"},
		{from: "TIMESTAMP(9)", to: "STRING", in: tsOf(2024, 11, 26, 6, 38, 56, 1000001), want: "2024-11-26 06:38:56.001000001"},
		{from: "TIMESTAMP(6)", to: "STRING", in: tsOf(2024, 11, 26, 15, 28, 31, 0), want: "2024-11-26 15:28:31.000000"},
		{from: "TIMESTAMP(0)", to: "STRING", in: tsOf(2024, 11, 26, 15, 28, 31, 0), want: "2024-11-26 15:28:31"},
		// The temporal rules are registered for the nullable STRING only.
		{from: "DATE", to: "STRING NOT NULL", in: spec.DateValue(0), err: lakeerr.ErrUnsupported},
		{from: "DATE", to: "VARCHAR(20)", in: spec.DateValue(0), err: lakeerr.ErrUnsupported},
		{from: "TIMESTAMP(3)", to: "CHAR(30)", in: spec.TimestampValue{}, err: lakeerr.ErrUnsupported},
	})
}

func TestCastFromStringToNumber(t *testing.T) {
	runCastCases(t, utcCaster, []castCase{
		{from: "STRING", to: "INT", in: "100", want: int32(100)},
		{from: "STRING", to: "INT", in: "-2147483648", want: int32(math.MinInt32)},
		{from: "STRING", to: "INT", in: "+5", want: int32(5)},
		{from: "STRING", to: "INT", in: "1.9", want: int32(1)},
		{from: "STRING", to: "INT", in: "-1.9", want: int32(-1)},
		{from: "STRING", to: "INT", in: "1.", want: int32(1)},
		{from: "STRING", to: "INT", in: "-.5", want: int32(0)},
		{from: "STRING", to: "INT", in: "2147483648", err: ErrCastFailed},
		{from: "STRING", to: "INT", in: " 1", err: ErrCastFailed},
		{from: "STRING", to: "INT", in: "", err: ErrCastFailed},
		{from: "STRING", to: "INT", in: "-", err: ErrCastFailed},
		{from: "STRING", to: "INT", in: "1e3", err: ErrCastFailed},
		{from: "STRING", to: "INT", in: "1.x", err: ErrCastFailed},
		{from: "STRING", to: "TINYINT", in: "-128", want: int8(-128)},
		{from: "STRING", to: "TINYINT", in: "128", err: ErrCastFailed},
		{from: "STRING", to: "SMALLINT", in: "32768", err: ErrCastFailed},
		{from: "STRING", to: "BIGINT", in: "9223372036854775807", want: int64(math.MaxInt64)},
		{from: "STRING", to: "BIGINT", in: "-9223372036854775808", want: int64(math.MinInt64)},
		{from: "STRING", to: "BIGINT", in: "9223372036854775808", err: ErrCastFailed},
		{from: "STRING", to: "DOUBLE", in: " 1.5 ", want: 1.5},
		{from: "STRING", to: "DOUBLE", in: "1.5d", want: 1.5},
		{from: "STRING", to: "DOUBLE", in: "abc", err: ErrCastFailed},
		{from: "STRING", to: "FLOAT", in: "0.1", want: float32(0.1)},
	})
}

func TestCastFromStringToOthers(t *testing.T) {
	runCastCases(t, utcCaster, []castCase{
		{from: "STRING", to: "BOOLEAN", in: "True", want: true},
		{from: "STRING", to: "BOOLEAN", in: "Y", want: true},
		{from: "CHAR(3)", to: "BOOLEAN", in: "yes", want: true},
		{from: "STRING", to: "BOOLEAN", in: "nO", want: false},
		{from: "STRING", to: "BOOLEAN", in: "0", want: false},
		{from: "STRING", to: "BOOLEAN", in: "maybe", err: ErrCastFailed},
		{from: "STRING", to: "BOOLEAN", in: " true", err: ErrCastFailed},
		{from: "STRING", to: "DATE", in: "2024-11-26", want: spec.DateValue(20053)},
		{from: "STRING", to: "DATE", in: "20053", want: spec.DateValue(20053)},
		{from: "STRING", to: "DATE", in: "-1", want: spec.DateValue(-1)},
		{from: "STRING", to: "DATE", in: "2024-02-30", err: ErrCastFailed},
		{from: "STRING", to: "TIME(3)", in: "12:34:56.789", want: spec.TimeValue(45296789)},
		{from: "STRING", to: "TIME(0)", in: "1000", want: spec.TimeValue(1000)},
		{from: "STRING", to: "TIME(0)", in: "noon", err: ErrCastFailed},
		{from: "STRING", to: "TIMESTAMP(9)", in: "2024-11-26 06:38:56.001000001", want: tsOf(2024, 11, 26, 6, 38, 56, 1000001)},
		{from: "STRING", to: "TIMESTAMP(3)", in: "2024-11-26 06:38:56.001000001", want: tsOf(2024, 11, 26, 6, 38, 56, 1000000)},
		{from: "STRING", to: "TIMESTAMP(3)", in: "1000", want: spec.TimestampValue{Millis: 1000}},
		{from: "STRING", to: "TIMESTAMP(0)", in: "5", want: spec.TimestampValue{Millis: 5000}},
		{from: "STRING", to: "TIMESTAMP(6)", in: "-1", want: spec.TimestampValue{Millis: -1, NanoOfMilli: 999000}},
		{from: "STRING", to: "TIMESTAMP(9)", in: "1500000", want: spec.TimestampValue{Millis: 1, NanoOfMilli: 500000}},
		{from: "STRING", to: "TIMESTAMP(2)", in: "5", err: ErrCastFailed},
		{from: "STRING", to: "TIMESTAMP(6)", in: "yesterday", err: ErrCastFailed},
		{from: "STRING", to: "BINARY(4)", in: "ab", want: []byte{'a', 'b', 0, 0}},
		{from: "STRING", to: "BINARY(4)", in: "abcdef", want: []byte("abcd")},
		{from: "STRING", to: "BYTES", in: "héllo", want: []byte("héllo")},
		{from: "BYTES", to: "BINARY(2)", in: []byte("abc"), want: []byte("ab")},
		{from: "VARBINARY(3)", to: "BINARY(5)", in: []byte("abc"), want: []byte{'a', 'b', 'c', 0, 0}},
		{from: "BINARY(2)", to: "VARBINARY(5)", in: []byte("ab"), want: []byte("ab")},
	})
}

func TestCastTemporal(t *testing.T) {
	runCastCases(t, utcCaster, []castCase{
		{from: "DATE", to: "TIMESTAMP(3)", in: spec.DateValue(1), want: spec.TimestampValue{Millis: 86400000}},
		{from: "DATE", to: "TIMESTAMP(9)", in: spec.DateValue(-1), want: spec.TimestampValue{Millis: -86400000}},
		{from: "TIMESTAMP(9)", to: "DATE", in: spec.TimestampValue{Millis: -1}, want: spec.DateValue(-1)},
		{from: "TIMESTAMP(3)", to: "TIME(0)", in: spec.TimestampValue{Millis: -1}, want: spec.TimeValue(86399999)},
		{from: "TIMESTAMP(9)", to: "TIMESTAMP(3)", in: spec.TimestampValue{Millis: 5, NanoOfMilli: 123456}, want: spec.TimestampValue{Millis: 5}},
		{from: "TIMESTAMP(3)", to: "TIMESTAMP(9)", in: spec.TimestampValue{Millis: 5}, want: spec.TimestampValue{Millis: 5}},
		{from: "TIMESTAMP(6)", to: "TIMESTAMP(0)", in: spec.TimestampValue{Millis: -1500}, want: spec.TimestampValue{Millis: -1000}},
		{from: "TIME(3)", to: "TIMESTAMP(3)", in: spec.TimeValue(1000), want: spec.TimestampValue{Millis: 1000}},
		{from: "INT", to: "TIMESTAMP(0)", in: int32(-1), want: spec.TimestampValue{Millis: -1000}},
		{from: "BIGINT", to: "TIMESTAMP(3)", in: int64(1732602000), want: spec.TimestampValue{Millis: 1732602000000}},
		{from: "TIMESTAMP(3)", to: "BIGINT", in: spec.TimestampValue{Millis: 1999}, want: int64(1)},
		{from: "TIMESTAMP(3)", to: "BIGINT", in: spec.TimestampValue{Millis: -1999}, want: int64(-1)},
		{from: "TIMESTAMP(3)", to: "INT", in: spec.TimestampValue{Millis: 1 << 42 * 1000}, want: int32(0)},
		{from: "TINYINT", to: "TIMESTAMP(3)", in: int8(1), err: lakeerr.ErrUnsupported},
		{from: "DOUBLE", to: "TIMESTAMP(3)", in: 1.0, err: lakeerr.ErrUnsupported},
		{from: "DECIMAL(10, 0)", to: "TIMESTAMP(3)", in: dec(1, 0), err: lakeerr.ErrUnsupported},
		{from: "TIMESTAMP(3)", to: "TINYINT", in: spec.TimestampValue{}, err: lakeerr.ErrUnsupported},
		{from: "TIMESTAMP(3)", to: "DOUBLE", in: spec.TimestampValue{}, err: lakeerr.ErrUnsupported},
		{from: "TIMESTAMP(3)", to: "DECIMAL(10, 0)", in: spec.TimestampValue{}, err: lakeerr.ErrUnsupported},
	})
}

// TestCastTimeZoneDependent covers the casts Java performs in the JVM's
// default zone, here Asia/Shanghai (UTC+8 since 1949, no DST in 1970).
func TestCastTimeZoneDependent(t *testing.T) {
	shanghai := caster{loc: mustLoadLocation(t, "Asia/Shanghai")}
	runCastCases(t, shanghai, []castCase{
		{from: "TIMESTAMP(3) WITH LOCAL TIME ZONE", to: "DATE", in: spec.TimestampValue{Millis: -28800000}, want: spec.DateValue(0)},
		{from: "TIMESTAMP(3) WITH LOCAL TIME ZONE", to: "DATE", in: spec.TimestampValue{Millis: -28800001}, want: spec.DateValue(-1)},
		{from: "TIMESTAMP(3) WITH LOCAL TIME ZONE", to: "TIME(0)", in: spec.TimestampValue{}, want: spec.TimeValue(28800000)},
		{from: "TIMESTAMP(6) WITH LOCAL TIME ZONE", to: "STRING", in: spec.TimestampValue{NanoOfMilli: 2000}, want: "1970-01-01 08:00:00.000002"},
		{from: "TIMESTAMP(9)", to: "TIMESTAMP(9) WITH LOCAL TIME ZONE", in: spec.TimestampValue{NanoOfMilli: 1}, want: spec.TimestampValue{Millis: -28800000, NanoOfMilli: 1}},
		{from: "TIMESTAMP(9) WITH LOCAL TIME ZONE", to: "TIMESTAMP(3)", in: spec.TimestampValue{NanoOfMilli: 2}, want: spec.TimestampValue{Millis: 28800000}},
		{from: "TIMESTAMP(0) WITH LOCAL TIME ZONE", to: "INT", in: spec.TimestampValue{Millis: 2000}, want: int32(2)},
		{from: "DATE", to: "TIMESTAMP(3) WITH LOCAL TIME ZONE", in: spec.DateValue(0), want: spec.TimestampValue{Millis: -28800000}},
		{from: "TIME(0)", to: "TIMESTAMP(3) WITH LOCAL TIME ZONE", in: spec.TimeValue(1000), want: spec.TimestampValue{Millis: 1000}},
		// Java stores the Shanghai wall clock of the instant, not the instant.
		{from: "INT", to: "TIMESTAMP(0) WITH LOCAL TIME ZONE", in: int32(0), want: spec.TimestampValue{Millis: 28800000}},
		{from: "INT", to: "TIMESTAMP(0)", in: int32(0), want: spec.TimestampValue{}},
		{from: "STRING", to: "TIMESTAMP(3) WITH LOCAL TIME ZONE", in: "1970-01-01 08:00:00.5", want: spec.TimestampValue{Millis: 500}},
		{from: "STRING", to: "TIMESTAMP(3) WITH LOCAL TIME ZONE", in: "1000", err: ErrCastFailed},
		{from: "STRING", to: "TIMESTAMP(3)", in: "1970-01-01 08:00:00", want: spec.TimestampValue{Millis: 28800000}},
	})
}

func TestCastUnsupported(t *testing.T) {
	pairs := [][2]string{
		{"INT", "DATE"}, {"DATE", "INT"}, {"BOOLEAN", "DATE"}, {"FLOAT", "BOOLEAN"},
		{"DECIMAL(10, 2)", "BOOLEAN"}, {"TIME(0)", "TIME(3)"}, {"BYTES", "INT"}, {"INT", "BYTES"},
		{"BOOLEAN", "BYTES"}, {"DATE", "TIME(0)"}, {"VARIANT", "STRING NOT NULL"}, {"BLOB", "BYTES"},
		{"INT MULTISET", "BIGINT MULTISET"},
	}
	for _, p := range pairs {
		_, err := utcCaster.resolve(typ(t, p[0]), typ(t, p[1]))
		if !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("%s -> %s: err = %v, want unsupported", p[0], p[1], err)
		}
	}
	_, err := utcCaster.resolve(typ(t, "INT"), arrayOf(typ(t, "INT")))
	if want := "unsupported: cast INT to ARRAY<INT>"; err == nil || err.Error() != want {
		t.Errorf("INT -> ARRAY<INT>: err = %v, want %q", err, want)
	}
}

func TestCastNested(t *testing.T) {
	intT, bigintT, strT := typ(t, "INT"), typ(t, "BIGINT"), typ(t, "STRING")
	tests := []struct {
		name     string
		from, to spec.DataType
		in, want any
	}{
		{"array element", arrayOf(intT), arrayOf(bigintT), []any{int32(1), nil}, []any{int64(1), nil}},
		{"map value", mapOf(strT, intT), mapOf(strT, strT),
			spec.MapValue{Keys: []any{"a", "b"}, Values: []any{int32(1), nil}},
			spec.MapValue{Keys: []any{"a", "b"}, Values: []any{"1", nil}}},
		{"array of rows", arrayOf(rowOf(field(1, "a", intT))), arrayOf(rowOf(field(1, "b", bigintT), field(2, "c", strT))),
			[]any{[]any{int32(5)}, nil}, []any{[]any{int64(5), nil}, nil}},
		{"array to string", arrayOf(intT), strT, []any{int32(1), nil, int32(3)}, "[1, null, 3]"},
		{"nested array to string", arrayOf(arrayOf(intT)), strT, []any{[]any{int32(1), int32(2)}, nil}, "[[1, 2], null]"},
		{"array of dates to string", arrayOf(typ(t, "DATE")), strT, []any{spec.DateValue(20053)}, "[2024-11-26]"},
		{"map to string", mapOf(strT, typ(t, "DOUBLE")), strT,
			spec.MapValue{Keys: []any{"a", "b"}, Values: []any{1.5, nil}}, "{a -> 1.5, b -> null}"},
		{"row to string", rowOf(field(1, "a", intT), field(2, "b", strT)), typ(t, "VARCHAR(3)"), []any{int32(1), "x"}, "{1, x}"},
		{"null multiset element to string", arrayOf(typ(t, "INT MULTISET")), strT, []any{nil}, "[null]"},
		{"array of doubles to string", arrayOf(typ(t, "DOUBLE")), strT, []any{1e7, 0.1}, "[1.0E7, 0.1]"},
		{"array of timestamps to string", arrayOf(typ(t, "TIMESTAMP(6)")), strT, []any{spec.TimestampValue{}}, "[1970-01-01 00:00:00.000000]"},
		{"row with null and decimal to string", rowOf(field(1, "a", intT), field(2, "d", typ(t, "DECIMAL(5, 2)"))), strT,
			[]any{nil, dec(123, 2)}, "{null, 1.23}"},
		{"collections are not padded to CHAR", arrayOf(typ(t, "BOOLEAN")), typ(t, "CHAR(20)"), []any{true}, "[true]"},
	}
	for _, tt := range tests {
		got, err := castValue(utcCaster, tt.from, tt.to, tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %#v, %v; want %#v", tt.name, got, err, tt.want)
		}
	}
}

func TestCastNestedIdentityAndErrors(t *testing.T) {
	intT := typ(t, "INT")
	for _, p := range [][2]spec.DataType{
		{arrayOf(typ(t, "INT NOT NULL")), arrayOf(intT)},
		{mapOf(typ(t, "STRING NOT NULL"), intT), mapOf(typ(t, "STRING NOT NULL"), typ(t, "INT NOT NULL"))},
		{rowOf(field(1, "a", intT)), rowOf(field(1, "renamed", typ(t, "INT NOT NULL")))},
	} {
		if cast, err := utcCaster.resolve(p[0], p[1]); err != nil || cast != nil {
			t.Errorf("%s -> %s: want the identity, got cast=%v err=%v", p[0], p[1], cast != nil, err)
		}
	}
	// Java requires equal key types, nullability included.
	if _, err := utcCaster.resolve(mapOf(typ(t, "STRING NOT NULL"), intT), mapOf(typ(t, "STRING"), intT)); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("map key nullability change: err = %v", err)
	}
	if _, err := utcCaster.resolve(mapOf(intT, intT), mapOf(typ(t, "BIGINT"), intT)); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("map key type change: err = %v", err)
	}
	// A nested type without a STRING rule fails only on a non-null value.
	_, err := castValue(utcCaster, arrayOf(typ(t, "INT MULTISET")), typ(t, "STRING"), []any{spec.MapValue{}})
	if !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("multiset element to string: err = %v", err)
	}
}

func TestCastRejectsWrongGoType(t *testing.T) {
	for _, p := range [][2]string{{"INT", "BIGINT"}, {"STRING", "INT"}, {"DECIMAL(5, 2)", "INT"},
		{"TIMESTAMP(3)", "DATE"}, {"DATE", "STRING"}, {"BOOLEAN", "INT"}, {"DOUBLE", "FLOAT"}} {
		if _, err := castValue(utcCaster, typ(t, p[0]), typ(t, p[1]), struct{}{}); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s -> %s of a struct: err = %v, want corruption", p[0], p[1], err)
		}
	}
}
