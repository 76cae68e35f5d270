package schema

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// Java's textual forms of numbers. A cast to STRING is observable in query
// results, so these reproduce the JDK exactly instead of Go's formatting.

// javaFloatString formats f like Java's Double.toString (bitSize 64) or
// Float.toString (bitSize 32) since JDK 19 (the shortest-decimal algorithm):
// plain notation for 1e-3 <= |f| < 1e7, otherwise d.dddE±n, and always at
// least one fraction digit.
func javaFloatString(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0.0"
	case f == 0:
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	digits, exp := shortestDigits(f, bitSize)
	if exp >= -3 && exp < 7 {
		return sign + plainLayout(digits, exp)
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
}

// shortestDigits returns the significant digits of positive f and the
// decimal exponent of the first one. The JDK never picks a one-digit result:
// when one digit would do, it takes the two-digit decimal closest to f
// (Double.MIN_VALUE prints as 4.9E-324, not 5.0E-324).
func shortestDigits(f float64, bitSize int) (string, int) {
	s := strconv.FormatFloat(f, 'e', -1, bitSize)
	mantissa, expPart, _ := strings.Cut(s, "e")
	if len(mantissa) == 1 {
		s = strconv.FormatFloat(f, 'e', 1, bitSize)
		mantissa, expPart, _ = strings.Cut(s, "e")
	}
	exp, _ := strconv.Atoi(expPart)
	digits := strings.TrimRight(strings.Replace(mantissa, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	return digits, exp
}

// plainLayout places the decimal point into digits whose first digit has
// decimal exponent exp (-3 <= exp < 7).
func plainLayout(digits string, exp int) string {
	if exp < 0 {
		return "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return digits[:exp+1] + "." + digits[exp+1:]
}

var errJavaNumberFormat = errors.New("NumberFormatException")

// javaParseFloat parses s like Java's Double.parseDouble (bitSize 64) or
// Float.parseFloat (bitSize 32): surrounding control characters and spaces
// are ignored, "NaN" and "Infinity" are case-sensitive, hexadecimal needs a
// binary exponent, and one trailing type suffix (f, F, d, D) is allowed.
// Out-of-range values become infinities or zero, as in Java.
func javaParseFloat(s string, bitSize int) (float64, error) {
	t := strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	goForm, ok := javaFloatSyntax(t)
	if !ok {
		return 0, errJavaNumberFormat
	}
	f, err := strconv.ParseFloat(goForm, bitSize)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errJavaNumberFormat
	}
	return f, nil
}

// javaFloatSyntax validates t against Java's floating-point literal grammar
// and returns the equivalent input for strconv.ParseFloat.
func javaFloatSyntax(t string) (string, bool) {
	sign, body := "", t
	if body != "" && (body[0] == '+' || body[0] == '-') {
		sign, body = body[:1], body[1:]
	}
	switch body {
	case "NaN":
		return "NaN", true
	case "Infinity":
		return sign + "Inf", true
	}
	if n := len(body); n > 0 && strings.ContainsRune("fFdD", rune(body[n-1])) {
		body = body[:n-1]
	}
	if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") {
		return sign + body, validHexFloat(body[2:])
	}
	return sign + body, validDecimalFloat(body)
}

// validDecimalFloat accepts digits[.digits][(e|E)[sign]digits] with at
// least one mantissa digit.
func validDecimalFloat(s string) bool {
	mantissa, exp, hasExp := cutAny(s, "eE")
	intPart, fracPart, _ := strings.Cut(mantissa, ".")
	if !allDigits(intPart, true) || !allDigits(fracPart, true) || intPart+fracPart == "" {
		return false
	}
	if !hasExp {
		return true
	}
	return allDigits(trimSign(exp), false)
}

// validHexFloat accepts hexdigits[.hexdigits](p|P)[sign]digits, the part of
// a Java hexadecimal literal after "0x".
func validHexFloat(s string) bool {
	mantissa, exp, hasExp := cutAny(s, "pP")
	intPart, fracPart, _ := strings.Cut(mantissa, ".")
	if !hasExp || !allHex(intPart) || !allHex(fracPart) || intPart+fracPart == "" {
		return false
	}
	return allDigits(trimSign(exp), false)
}

// trimSign drops one leading sign character.
func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

func cutAny(s, seps string) (before, after string, found bool) {
	if i := strings.IndexAny(s, seps); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

func allDigits(s string, emptyOK bool) bool {
	if s == "" {
		return emptyOK
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

// bigDecimal is an arbitrary-precision decimal, unscaled * 10^-scale, with
// the operations of java.math.BigDecimal that casts use.
type bigDecimal struct {
	unscaled *big.Int
	scale    int
}

// parseBigDecimal parses s like new java.math.BigDecimal(String): an optional
// sign, digits with at most one point (any Unicode decimal digit counts) and
// an optional exponent. No surrounding spaces are allowed.
func parseBigDecimal(s string) (bigDecimal, bool) {
	mantissa, exp, hasExp := cutAny(s, "eE")
	negative := strings.HasPrefix(mantissa, "-")
	mantissa = trimSign(mantissa)
	intPart, fracPart, _ := strings.Cut(mantissa, ".")
	digits, ok := decimalDigits(intPart + fracPart)
	if !ok || digits == "" {
		return bigDecimal{}, false
	}
	scale := int64(len([]rune(fracPart)))
	if hasExp {
		e, err := strconv.ParseInt(exp, 10, 64)
		if err != nil {
			return bigDecimal{}, false
		}
		scale -= e
	}
	if scale < math.MinInt32 || scale > math.MaxInt32 {
		return bigDecimal{}, false
	}
	unscaled, _ := new(big.Int).SetString(digits, 10)
	if negative {
		unscaled.Neg(unscaled)
	}
	return bigDecimal{unscaled: unscaled, scale: int(scale)}, true
}

// decimalDigits maps every Unicode decimal digit of s to ASCII, as
// Character.digit does for BigDecimal.
func decimalDigits(s string) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return "", false
		}
		b.WriteByte(byte('0' + digitValue(r)))
	}
	return b.String(), true
}

// digitValue is the value of a Unicode decimal digit. Unicode encodes each
// set of decimal digits as a contiguous run 0..9, so the value is the
// distance from the start of the run, modulo 10 for adjacent runs.
func digitValue(r rune) int {
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10
}

// setScaleHalfUp mirrors BigDecimal.setScale(scale, RoundingMode.HALF_UP):
// ties round away from zero.
func (d bigDecimal) setScaleHalfUp(scale int) bigDecimal {
	// A value with far more fraction digits than it has digits rounds to
	// zero; answering directly avoids a power of ten with billions of digits.
	if d.scale-scale > d.precision()+1 {
		return bigDecimal{unscaled: new(big.Int), scale: scale}
	}
	if scale >= d.scale {
		factor := pow10Big(scale - d.scale)
		return bigDecimal{unscaled: new(big.Int).Mul(d.unscaled, factor), scale: scale}
	}
	divisor := pow10Big(d.scale - scale)
	q, r := new(big.Int).QuoRem(d.unscaled, divisor, new(big.Int))
	twiceRem := new(big.Int).Abs(r)
	twiceRem.Lsh(twiceRem, 1)
	if twiceRem.Cmp(divisor) >= 0 {
		q.Add(q, big.NewInt(int64(d.unscaled.Sign())))
	}
	return bigDecimal{unscaled: q, scale: scale}
}

// truncateToInteger mirrors setScale(0, RoundingMode.DOWN).
func (d bigDecimal) truncateToInteger() *big.Int {
	if d.scale <= 0 {
		return new(big.Int).Mul(d.unscaled, pow10Big(-d.scale))
	}
	return new(big.Int).Quo(d.unscaled, pow10Big(d.scale))
}

// precision mirrors BigDecimal.precision(): the number of digits of the
// unscaled value, 1 for zero.
func (d bigDecimal) precision() int {
	return len(new(big.Int).Abs(d.unscaled).String())
}

// float64 mirrors BigDecimal.doubleValue(): the nearest double.
func (d bigDecimal) float64() float64 {
	r := new(big.Rat)
	if d.scale >= 0 {
		r.SetFrac(d.unscaled, pow10Big(d.scale))
	} else {
		r.SetInt(new(big.Int).Mul(d.unscaled, pow10Big(-d.scale)))
	}
	f, _ := r.Float64()
	return f
}

func pow10Big(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// lowInt64 mirrors BigInteger.longValue(): the low 64 bits in two's
// complement, so out-of-range values wrap.
func lowInt64(x *big.Int) int64 {
	if x.IsInt64() {
		return x.Int64()
	}
	mask := new(big.Int).SetUint64(math.MaxUint64)
	return int64(new(big.Int).And(x, mask).Uint64())
}

// javaFloatToInt64 mirrors Java's (long) conversion of a float or double:
// NaN becomes 0 and out-of-range values saturate.
func javaFloatToInt64(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// javaFloatToInt32 mirrors Java's (int) conversion of a float or double;
// (byte) and (short) conversions narrow this result further.
func javaFloatToInt32(f float64) int32 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}
