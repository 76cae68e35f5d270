package schema

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// toNumberCast covers the TINYINT, SMALLINT, INT, BIGINT, FLOAT and DOUBLE
// targets: NumericPrimitiveCastRule, DecimalToNumericPrimitiveCastRule,
// StringToNumericPrimitiveCastRule, BooleanToNumericCastRule and
// TimestampToNumericPrimitiveCastRule (INT and BIGINT only).
func toNumberCast(from, to spec.DataType) castFunc {
	switch {
	case isIntegral(from.Root), from.Root == spec.Boolean:
		return integralToNumber(from, to.Root)
	case isApproximate(from.Root):
		return approximateToNumber(from, to.Root)
	case from.Root == spec.Decimal:
		return decimalToNumber(from, to.Root)
	case isCharString(from.Root):
		return stringCast(from, func(s string) (any, error) { return parseJavaNumber(from, to, s) })
	case isTimestamp(from.Root) && (to.Root == spec.Int || to.Root == spec.BigInt):
		// DateTimeUtils.unixTimestamp: whole seconds, truncated toward zero.
		return timestampCast(from, func(ts spec.TimestampValue) any {
			return narrowIntegral(ts.Millis/1000, to.Root)
		})
	}
	return nil
}

func boolToInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// narrowIntegral converts like Java's primitive casts from long: integers
// keep their low bits, floating types round to nearest.
func narrowIntegral(n int64, to spec.TypeRoot) any {
	switch to {
	case spec.TinyInt:
		return int8(n)
	case spec.SmallInt:
		return int16(n)
	case spec.Int:
		return int32(n)
	case spec.Float:
		return float32(n)
	case spec.Double:
		return float64(n)
	}
	return n
}

func integralToNumber(from spec.DataType, to spec.TypeRoot) castFunc {
	return func(v any) (any, error) {
		n, ok := exactInteger(from, v)
		if !ok {
			return nil, badValue(from, v)
		}
		return narrowIntegral(n, to), nil
	}
}

// approximateToNumber mirrors Number.byteValue ... doubleValue of Float and
// Double: (byte) and (short) go through (int), which saturates.
func approximateToNumber(from spec.DataType, to spec.TypeRoot) castFunc {
	return func(v any) (any, error) {
		f, ok := approximateValue(v)
		if !ok {
			return nil, badValue(from, v)
		}
		switch to {
		case spec.TinyInt:
			return int8(javaFloatToInt32(f)), nil
		case spec.SmallInt:
			return int16(javaFloatToInt32(f)), nil
		case spec.Int:
			return javaFloatToInt32(f), nil
		case spec.BigInt:
			return javaFloatToInt64(f), nil
		case spec.Float:
			return float32(f), nil
		}
		return f, nil
	}
}

// decimalToNumber mirrors DecimalToNumericPrimitiveCastRule: integers are
// truncated toward zero and then keep their low bits (BigInteger.longValue);
// FLOAT is the DOUBLE result rounded again.
func decimalToNumber(from spec.DataType, to spec.TypeRoot) castFunc {
	return func(v any) (any, error) {
		d, ok := v.(spec.DecimalValue)
		if !ok {
			return nil, badValue(from, v)
		}
		switch to {
		case spec.Float:
			return float32(decimalToDouble(d, from.Precision)), nil
		case spec.Double:
			return decimalToDouble(d, from.Precision), nil
		}
		return narrowIntegral(lowInt64(decimalOf(d).truncateToInteger()), to), nil
	}
}

func decimalOf(d spec.DecimalValue) bigDecimal {
	return bigDecimal{unscaled: d.Unscaled(), scale: d.Scale()}
}

// decimalToDouble mirrors DecimalUtils.doubleValue: a compact decimal
// (precision <= 18) divides two doubles, which can differ from the exact
// rounding used for wider decimals in the last bit.
func decimalToDouble(d spec.DecimalValue, precision int) float64 {
	if u, ok := d.UnscaledInt64(); ok && precision <= 18 && d.Scale() >= 0 && d.Scale() <= 18 {
		return float64(u) / float64(pow10Int64(d.Scale()))
	}
	return decimalOf(d).float64()
}

// toDecimalCast covers DECIMAL targets: DecimalToDecimalCastRule,
// NumericPrimitiveToDecimalCastRule, StringToDecimalCastRule and
// BooleanToNumericCastRule. A value that needs more digits than the target
// precision becomes NULL (Decimal.fromBigDecimal returns null).
func toDecimalCast(from, to spec.DataType) castFunc {
	switch {
	case from.Root == spec.Decimal:
		return func(v any) (any, error) {
			d, ok := v.(spec.DecimalValue)
			if !ok {
				return nil, badValue(from, v)
			}
			return fitDecimal(decimalOf(d), to), nil
		}
	case isIntegral(from.Root), from.Root == spec.Boolean:
		return func(v any) (any, error) {
			n, ok := exactInteger(from, v)
			if !ok {
				return nil, badValue(from, v)
			}
			return fitDecimal(bigDecimal{unscaled: big.NewInt(n)}, to), nil
		}
	case isApproximate(from.Root):
		return approximateToDecimal(from, to)
	case isCharString(from.Root):
		return stringCast(from, func(s string) (any, error) {
			d, ok := parseBigDecimal(s)
			if !ok {
				return nil, castFailed(from, to, fmt.Sprintf("'%s' is not a decimal number", s))
			}
			return fitDecimal(d, to), nil
		})
	}
	return nil
}

// exactInteger is the value of an integer column, or 1/0 for a BOOLEAN
// (BooleanToNumericCastRule).
func exactInteger(from spec.DataType, v any) (int64, bool) {
	if from.Root == spec.Boolean {
		b, ok := v.(bool)
		return boolToInt(b), ok
	}
	return integralValue(v)
}

// approximateToDecimal goes through Java's decimal text of the double
// (BigDecimal.valueOf), so 0.1f becomes 0.10000000149011612 before
// rounding. NaN and infinities have no decimal and fail as in Java.
func approximateToDecimal(from, to spec.DataType) castFunc {
	return func(v any) (any, error) {
		f, ok := approximateValue(v)
		if !ok {
			return nil, badValue(from, v)
		}
		text := javaFloatString(f, 64)
		d, ok := parseBigDecimal(text)
		if !ok {
			return nil, castFailed(from, to, fmt.Sprintf("'%s' is not a decimal number", text))
		}
		return fitDecimal(d, to), nil
	}
}

// fitDecimal mirrors Decimal.fromBigDecimal: round HALF_UP to the target
// scale, then NULL when the precision does not fit.
func fitDecimal(d bigDecimal, to spec.DataType) any {
	// More integer digits than the target allows cannot round away; checking
	// first avoids scaling a huge exponent such as 1E2147483647.
	if d.unscaled.Sign() != 0 && d.precision()-d.scale > to.Precision-to.Scale {
		return nil
	}
	r := d.setScaleHalfUp(to.Scale)
	if r.precision() > to.Precision {
		return nil
	}
	return spec.NewDecimalBig(r.unscaled, to.Scale)
}

// parseJavaNumber mirrors StringToNumericPrimitiveCastRule: BinaryStringUtils
// toByte/toShort/toInt/toLong for integers (no spaces allowed, a fraction is
// checked and dropped) and Float.parseFloat / Double.parseDouble otherwise.
func parseJavaNumber(from, to spec.DataType, s string) (any, error) {
	if to.Root == spec.Float || to.Root == spec.Double {
		bits := 64
		if to.Root == spec.Float {
			bits = 32
		}
		f, err := javaParseFloat(s, bits)
		if err != nil {
			return nil, castFailed(from, to, fmt.Sprintf("For input string: \"%s\"", s))
		}
		return narrowFloat(f, to.Root), nil
	}
	bits := 32
	if to.Root == spec.BigInt {
		bits = 64
	}
	n, reason := parseJavaIntegral(s, bits)
	if reason == "" && n != narrowedBack(n, to.Root) {
		reason = "Overflow."
	}
	if reason != "" {
		return nil, castFailed(from, to, numberFormat(s, reason))
	}
	return narrowIntegral(n, to.Root), nil
}

// narrowedBack is n after a round trip through the target integer type;
// toByte and toShort reject values that do not survive it.
func narrowedBack(n int64, to spec.TypeRoot) int64 {
	switch to {
	case spec.TinyInt:
		return int64(int8(n))
	case spec.SmallInt:
		return int64(int16(n))
	}
	return n
}

func narrowFloat(f float64, to spec.TypeRoot) any {
	if to == spec.Float {
		return float32(f)
	}
	return f
}

// parseJavaIntegral mirrors BinaryStringUtils.toInt (bits 32) and toLong
// (bits 64), which come from Hive's LazyInt/LazyLong: an optional sign,
// ASCII digits, and optionally '.' followed by digits that are ignored. It
// returns Java's failure reason, or "" on success.
func parseJavaIntegral(s string, bits int) (int64, string) {
	switch {
	case s == "":
		return 0, "Input is empty."
	case s == "+" || s == "-":
		return 0, "Input has only positive or negative symbol."
	}
	limit := int64(math.MinInt64)
	if bits == 32 {
		limit = math.MinInt32
	}
	body := trimSign(s)
	// Accumulate negatively: the minimum has one more unit of magnitude.
	result, i := int64(0), 0
	for ; i < len(body) && body[i] != '.'; i++ {
		if body[i] < '0' || body[i] > '9' {
			return 0, "Invalid character found."
		}
		if result < limit/10 {
			return 0, "Overflow."
		}
		result = result*10 - int64(body[i]-'0')
		if result > 0 || result < limit {
			return 0, "Overflow."
		}
	}
	if i < len(body) && !allDigits(body[i+1:], true) {
		return 0, "Invalid character found."
	}
	if s[0] == '-' {
		return result, ""
	}
	if result == limit {
		return 0, "Overflow."
	}
	return -result, ""
}

// parseJavaBoolean mirrors BinaryStringUtils.toBoolean.
func parseJavaBoolean(from, to spec.DataType, s string) (any, error) {
	switch strings.ToLower(s) {
	case "t", "true", "y", "yes", "1":
		return true, nil
	case "f", "false", "n", "no", "0":
		return false, nil
	}
	return nil, castFailed(from, to, fmt.Sprintf("Cannot parse '%s' as BOOLEAN.", s))
}
