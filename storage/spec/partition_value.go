package spec

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

const millisPerDay = 86_400_000

// partitionValueString is the string Java puts in the partition path for a
// value before escaping: toString of the internal value (legacy names) or
// CAST(value AS STRING). A null value yields "".
func partitionValueString(t DataType, v any, legacyName bool) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int8, int16, int32, int64:
		return fmt.Sprint(x), nil
	case float32:
		return javaFloatString(float64(x), 32), nil
	case float64:
		return javaFloatString(x, 64), nil
	case DecimalValue:
		return x.String(), nil
	case []byte:
		if !legacyName {
			return string(x), nil
		}
	case DateValue, TimeValue, TimestampValue:
		return temporalString(t, x, legacyName), nil
	}
	return "", fmt.Errorf("spec: no partition path form for %T (legacy-name %v): %w", v, legacyName, lakeerr.ErrUnsupported)
}

func temporalString(t DataType, v any, legacyName bool) string {
	switch x := v.(type) {
	case DateValue:
		if legacyName {
			return strconv.Itoa(int(x))
		}
		return x.String()
	case TimeValue:
		if legacyName {
			return strconv.Itoa(int(x))
		}
		return javaTimeCastString(int(x), t.Precision)
	}
	ts := v.(TimestampValue)
	if legacyName {
		return ts.LocalDateTimeString()
	}
	return javaTimestampCastString(ts, t.Precision)
}

// LocalDateTimeString is Java's LocalDateTime.toString of the value, the
// form legacy partition names and the toString of Paimon's internal
// timestamps take: ISO date, 'T', HH:mm, then :ss when seconds or nanos are
// set, then 3, 6 or 9 fraction digits.
func (ts TimestampValue) LocalDateTimeString() string {
	t := ts.Time()
	var b strings.Builder
	year := t.Year()
	switch {
	case year < 0 && year > -1000:
		fmt.Fprintf(&b, "-%04d", -year)
	case year > 9999:
		fmt.Fprintf(&b, "+%d", year)
	default:
		fmt.Fprintf(&b, "%04d", year)
	}
	fmt.Fprintf(&b, "-%02d-%02dT%02d:%02d", t.Month(), t.Day(), t.Hour(), t.Minute())
	nano := t.Nanosecond()
	if t.Second() > 0 || nano > 0 {
		fmt.Fprintf(&b, ":%02d", t.Second())
	}
	switch {
	case nano == 0:
	case nano%1_000_000 == 0:
		fmt.Fprintf(&b, ".%03d", nano/1_000_000)
	case nano%1000 == 0:
		fmt.Fprintf(&b, ".%06d", nano/1000)
	default:
		fmt.Fprintf(&b, ".%09d", nano)
	}
	return b.String()
}

// javaTimestampCastString is DateTimeUtils.formatTimestamp: trailing zeros
// of the 9-digit fraction are dropped, but not below precision digits.
func javaTimestampCastString(ts TimestampValue, precision int) string {
	t := ts.Time()
	fraction := fmt.Sprintf("%09d", t.Nanosecond())
	for len(fraction) > precision && strings.HasSuffix(fraction, "0") {
		fraction = fraction[:len(fraction)-1]
	}
	s := t.Format("2006-01-02 15:04:05")
	if fraction != "" {
		s += "." + fraction
	}
	return s
}

// javaTimeCastString is DateTimeUtils.formatTimestampMillis: HH:mm:ss and,
// for precision > 0, millisecond digits until the rest is zero.
func javaTimeCastString(millis, precision int) string {
	millis = (millis%millisPerDay + millisPerDay) % millisPerDay
	s := fmt.Sprintf("%02d:%02d:%02d", millis/3_600_000, millis/60_000%60, millis/1000%60)
	if precision <= 0 {
		return s
	}
	s += "."
	for ms := millis % 1000; precision > 0; precision-- {
		s += strconv.Itoa(ms / 100)
		if ms = ms % 100 * 10; ms == 0 {
			break
		}
	}
	return s
}

// javaFloatString is Double.toString (bitSize 64) or Float.toString
// (bitSize 32) as specified since JDK 19: the shortest decimal that rounds
// back, widened to two digits when that is closer; plain notation for
// 1e-3 <= |f| < 1e7, else computerized scientific notation ("1.0E10").
func javaFloatString(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 0):
		return map[bool]string{true: "-Infinity", false: "Infinity"}[f < 0]
	case f == 0:
		return map[bool]string{true: "-0.0", false: "0.0"}[math.Signbit(f)]
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	digits, exp := javaShortestDigits(f, bitSize)
	if f >= 1e-3 && f < 1e7 {
		return sign + plainDecimal(digits, exp)
	}
	rest := digits[1:]
	if rest == "" {
		rest = "0"
	}
	return sign + digits[:1] + "." + rest + "E" + strconv.Itoa(exp)
}

// javaShortestDigits returns the significant digits d1d2...dn (no trailing
// zeros) and exponent e with f = d1.d2...dn x 10^e.
func javaShortestDigits(f float64, bitSize int) (string, int) {
	s := strconv.FormatFloat(f, 'e', -1, bitSize)
	if mantissa, _, _ := strings.Cut(s, "e"); len(mantissa) == 1 {
		// JDK 19+ considers two-digit decimals when one digit suffices and
		// prints the closest, e.g. 4.9E-324 rather than 5.0E-324.
		two := strconv.FormatFloat(f, 'e', 1, bitSize)
		if back, err := strconv.ParseFloat(two, bitSize); err == nil && back == f {
			s = two
		}
	}
	mantissa, exponent, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(exponent)
	digits := strings.TrimRight(strings.Replace(mantissa, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	return digits, exp
}

// plainDecimal writes d1.d2...dn x 10^exp without an exponent and with at
// least one fraction digit.
func plainDecimal(digits string, exp int) string {
	if exp < 0 {
		return "0." + strings.Repeat("0", -exp-1) + digits
	}
	for len(digits) <= exp {
		digits += "0"
	}
	fraction := digits[exp+1:]
	if fraction == "" {
		fraction = "0"
	}
	return digits[:exp+1] + "." + fraction
}

// parsePartitionValue parses a value string of the path (already
// unescaped) back into a value of t, inverting partitionValueString.
func parsePartitionValue(t DataType, s string, legacyName bool) (any, error) {
	switch t.Root {
	case Char, VarChar:
		return s, nil
	case Boolean:
		return parseJavaBoolean(s)
	case TinyInt, SmallInt, Int, BigInt:
		return parseInteger(t.Root, s)
	case Float:
		f, err := strconv.ParseFloat(s, 32)
		return float32(f), err
	case Double:
		return strconv.ParseFloat(s, 64)
	case Decimal:
		return parseDecimal(s, t.Scale)
	case Binary, VarBinary:
		if !legacyName {
			return []byte(s), nil
		}
	case Date, Time, Timestamp, TimestampLTZ:
		return parseTemporal(t.Root, s, legacyName)
	}
	return nil, fmt.Errorf("no partition path form for type root %d", t.Root)
}

// parseJavaBoolean accepts what BinaryStringUtils.toBoolean accepts.
func parseJavaBoolean(s string) (any, error) {
	switch strings.ToLower(s) {
	case "t", "true", "y", "yes", "1":
		return true, nil
	case "f", "false", "n", "no", "0":
		return false, nil
	}
	return nil, fmt.Errorf("not a boolean")
}

func parseInteger(root TypeRoot, s string) (any, error) {
	bits := map[TypeRoot]int{TinyInt: 8, SmallInt: 16, Int: 32, BigInt: 64}[root]
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		return nil, err
	}
	switch root {
	case TinyInt:
		return int8(n), nil
	case SmallInt:
		return int16(n), nil
	case Int:
		return int32(n), nil
	}
	return n, nil
}

// parseDecimal reads a decimal string at the column's scale, rounding half
// up like BigDecimal.setScale(scale, HALF_UP).
func parseDecimal(s string, scale int) (any, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("not a decimal")
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if twice := new(big.Int).Lsh(m.Abs(m), 1); twice.Cmp(r.Denom()) >= 0 {
		q.Add(q, big.NewInt(int64(r.Sign())))
	}
	return NewDecimalBig(q, scale), nil
}

func parseTemporal(root TypeRoot, s string, legacyName bool) (any, error) {
	if legacyName && (root == Date || root == Time) {
		n, err := strconv.ParseInt(s, 10, 32)
		if root == Date {
			return DateValue(n), err
		}
		return TimeValue(n), err
	}
	layout := map[TypeRoot]string{Date: "2006-01-02", Time: "15:04:05.999999999"}[root]
	if layout == "" {
		layout = "2006-01-02 15:04:05.999999999"
		if legacyName {
			layout = javaLocalDateTimeLayout(s)
		}
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return nil, err
	}
	switch root {
	case Date:
		return DateValue(t.Unix() / 86400), nil
	case Time:
		return TimeValue(t.Hour()*3_600_000 + t.Minute()*60_000 + t.Second()*1000 + t.Nanosecond()/1_000_000), nil
	}
	return TimestampFromTime(t), nil
}

// javaLocalDateTimeLayout is the layout of a LocalDateTime.toString string,
// which omits the seconds when they and the fraction are zero.
func javaLocalDateTimeLayout(s string) string {
	if strings.Count(s, ":") == 1 {
		return "2006-01-02T15:04"
	}
	return "2006-01-02T15:04:05.999999999"
}
