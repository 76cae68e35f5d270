package sqltypes

import (
	"math"
	"strconv"
	"strings"
)

// maxDecptForFixed is MySQL's MAX_DECPT_FOR_F_FORMAT (DBL_DIG): a number
// whose decimal point lies more than this many digits from the first
// significant digit is written in exponent notation.
const maxDecptForFixed = 15

// DoubleText is a DOUBLE as MySQL writes it in text: the shortest digits
// that read back as the value, in fixed notation unless the point lies
// more than 15 digits before or after the first digit of an integer part,
// as my_gcvt decides for a result row or a string conversion: 1e15,
// 123456789012345, 0.000000000000001, 1.5e-16, 1.2345678901234568e17.
// Go's strconv writes 1000000000000000 or 1e+15 instead.
func DoubleText(f float64) string {
	return floatText(f, -1, 64)
}

// FloatText is a FLOAT laid out as DoubleText lays out a DOUBLE, with the
// shortest digits that read back as the float32: 1234567.8 and 1e15.
// MySQL rounds a FLOAT to 6 significant digits (1234570); lakesql keeps
// every digit, so that a FLOAT read over SQL equals what Java Paimon and
// Flink read from the same file.
func FloatText(f float32) string {
	return floatText(float64(f), -1, 32)
}

// FloatValueText is DoubleText of a float64 and FloatText of a float32;
// false for any other value.
func FloatValueText(v any) (string, bool) {
	switch f := v.(type) {
	case float64:
		return DoubleText(f), true
	case float32:
		return FloatText(f), true
	}
	return "", false
}

func floatText(f float64, digits, bits int) string {
	if math.IsInf(f, 0) || math.IsNaN(f) || f == 0 {
		return strconv.FormatFloat(f, 'f', -1, bits)
	}
	precision := -1
	if digits > 0 {
		precision = digits - 1
	}
	mantissa, exponent, _ := strings.Cut(strconv.FormatFloat(f, 'e', precision, bits), "e")
	sign := ""
	if mantissa[0] == '-' {
		sign, mantissa = "-", mantissa[1:]
	}
	significant := strings.TrimRight(strings.Replace(mantissa, ".", "", 1), "0")
	exp, _ := strconv.Atoi(exponent)
	decpt := exp + 1
	if decpt >= 1-maxDecptForFixed && (decpt <= maxDecptForFixed || len(significant) > decpt) {
		return sign + fixedText(significant, decpt)
	}
	text := significant[:1]
	if len(significant) > 1 {
		text += "." + significant[1:]
	}
	return sign + text + "e" + strconv.Itoa(exp)
}

// fixedText places the point decpt digits into significant (before it
// when decpt <= 0), with zeros where the digits do not reach.
func fixedText(significant string, decpt int) string {
	switch {
	case decpt <= 0:
		return "0." + strings.Repeat("0", -decpt) + significant
	case decpt >= len(significant):
		return significant + strings.Repeat("0", decpt-len(significant))
	}
	return significant[:decpt] + "." + significant[decpt:]
}
