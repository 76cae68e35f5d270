package schema

import (
	"github.com/lakesql/lakesql/storage/spec"
)

// scalarCast picks the cast rule Java's CastExecutors.resolve finds for a
// pair of types, or nil when it finds none. The rule names in the comments
// are the org.apache.paimon.casting classes whose behaviour is reproduced.
func (c caster) scalarCast(from, to spec.DataType) castFunc {
	switch to.Root {
	case spec.Char, spec.VarChar:
		return c.toStringCast(from, to)
	case spec.Boolean:
		return toBooleanCast(from, to)
	case spec.Binary, spec.VarBinary:
		return toBinaryCast(from, to)
	case spec.Decimal:
		return toDecimalCast(from, to)
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Float, spec.Double:
		return toNumberCast(from, to)
	case spec.Date:
		return c.toDateCast(from, to)
	case spec.Time:
		return c.toTimeCast(from, to)
	case spec.Timestamp, spec.TimestampLTZ:
		return c.toTimestampCast(from, to)
	}
	return nil
}

func isIntegral(r spec.TypeRoot) bool {
	return r == spec.TinyInt || r == spec.SmallInt || r == spec.Int || r == spec.BigInt
}

func isApproximate(r spec.TypeRoot) bool { return r == spec.Float || r == spec.Double }

func isCharString(r spec.TypeRoot) bool { return r == spec.Char || r == spec.VarChar }

func isBinaryString(r spec.TypeRoot) bool { return r == spec.Binary || r == spec.VarBinary }

func isTimestamp(r spec.TypeRoot) bool { return r == spec.Timestamp || r == spec.TimestampLTZ }

// toBooleanCast: NumericToBooleanCastRule (integers only) and
// StringToBooleanCastRule.
func toBooleanCast(from, to spec.DataType) castFunc {
	switch {
	case isIntegral(from.Root):
		return func(v any) (any, error) {
			n, ok := integralValue(v)
			if !ok {
				return nil, badValue(from, v)
			}
			return n != 0, nil
		}
	case isCharString(from.Root):
		return stringCast(from, func(s string) (any, error) { return parseJavaBoolean(from, to, s) })
	}
	return nil
}

// toBinaryCast: StringToBinaryCastRule and BinaryToBinaryCastRule, both
// fitting the bytes to the target length.
func toBinaryCast(from, to spec.DataType) castFunc {
	switch {
	case isCharString(from.Root):
		return stringCast(from, func(s string) (any, error) { return fitBytes([]byte(s), to), nil })
	case isBinaryString(from.Root):
		return func(v any) (any, error) {
			b, ok := v.([]byte)
			if !ok {
				return nil, badValue(from, v)
			}
			return fitBytes(b, to), nil
		}
	}
	return nil
}

// fitBytes mirrors BinaryStringUtils.toBinaryString: BINARY(n) is padded
// with zero bytes or cut to n, VARBINARY(n) only cut.
func fitBytes(b []byte, to spec.DataType) []byte {
	switch {
	case len(b) == to.Length:
		return b
	case to.Root == spec.Binary:
		out := make([]byte, to.Length)
		copy(out, b)
		return out
	case len(b) > to.Length:
		return b[:to.Length:to.Length]
	}
	return b
}

// stringCast adapts a cast from a Go string.
func stringCast(from spec.DataType, f func(string) (any, error)) castFunc {
	return func(v any) (any, error) {
		s, ok := v.(string)
		if !ok {
			return nil, badValue(from, v)
		}
		return f(s)
	}
}

// timestampCast adapts a cast from a TimestampValue.
func timestampCast(from spec.DataType, f func(spec.TimestampValue) any) castFunc {
	return func(v any) (any, error) {
		ts, ok := v.(spec.TimestampValue)
		if !ok {
			return nil, badValue(from, v)
		}
		return f(ts), nil
	}
}

// integralValue widens a TINYINT, SMALLINT, INT or BIGINT value.
func integralValue(v any) (int64, bool) {
	switch n := v.(type) {
	case int8:
		return int64(n), true
	case int16:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	}
	return 0, false
}

// approximateValue widens a FLOAT or DOUBLE value (exactly, as Java's
// Number.doubleValue does).
func approximateValue(v any) (float64, bool) {
	switch f := v.(type) {
	case float32:
		return float64(f), true
	case float64:
		return f, true
	}
	return 0, false
}
