package ingest

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/lakesql/lakesql/storage/spec"
)

// MySQL error numbers of the values a column refuses. LOAD DATA LOCAL
// makes MySQL store such a value coerced, with a warning; lakesql refuses
// the statement instead, so that a load never stores a value other than
// the one in the file.
const (
	ErrBadNull       = 1048 // ER_BAD_NULL_ERROR
	ErrOutOfRange    = 1264 // ER_WARN_DATA_OUT_OF_RANGE
	ErrTooFewFields  = 1261 // ER_WARN_TOO_FEW_RECORDS
	ErrTooManyFields = 1262 // ER_WARN_TOO_MANY_RECORDS
	ErrWrongValue    = 1292 // ER_TRUNCATED_WRONG_VALUE
	ErrBadValue      = 1366 // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
	ErrTooLong       = 1406 // ER_DATA_TOO_LONG
)

// ValueError is a field a column refuses, with its MySQL error number.
type ValueError struct {
	Code    int
	Message string
}

func (e *ValueError) Error() string { return e.Message }

// Converter turns field text into a column's Paimon value (spec/values.go).
// It accepts only text whose value is exact in the column, as MySQL's
// strict mode stores it; anything else is a *ValueError.
type Converter func(text []byte) (any, error)

// ConverterFor returns the converter of a column of type t, or false for
// a type LOAD DATA cannot convert here (the statement then runs on GMS).
func ConverterFor(t spec.DataType) (Converter, bool) { return converterFor(t, false) }

// ExactConverterFor is ConverterFor refusing also the text MySQL would
// round or cut: more fraction digits than the scale or precision, extra
// trailing spaces. An INSERT of literals runs on GMS when one is refused,
// so that whatever MySQL does with it with notes or warnings, GMS does.
func ExactConverterFor(t spec.DataType) (Converter, bool) { return converterFor(t, true) }

func converterFor(t spec.DataType, exact bool) (Converter, bool) {
	switch t.Root {
	case spec.Boolean:
		return func(b []byte) (any, error) {
			n, err := parseInt(b, math.MinInt8, math.MaxInt8)
			return n != 0, err
		}, true
	case spec.TinyInt:
		return intConverter(math.MinInt8, math.MaxInt8, func(n int64) any { return int8(n) }), true
	case spec.SmallInt:
		return intConverter(math.MinInt16, math.MaxInt16, func(n int64) any { return int16(n) }), true
	case spec.Int:
		return intConverter(math.MinInt32, math.MaxInt32, func(n int64) any { return int32(n) }), true
	case spec.BigInt:
		return intConverter(math.MinInt64, math.MaxInt64, func(n int64) any { return n }), true
	case spec.Float:
		return floatConverter(32), true
	case spec.Double:
		return floatConverter(64), true
	case spec.Decimal:
		return decimalConverter(t.Precision, t.Scale, exact), true
	case spec.VarChar:
		return stringConverter(t.Length, false, exact), true
	case spec.Char:
		return stringConverter(t.Length, true, exact), true
	case spec.Date:
		return parseDate, true
	case spec.Timestamp:
		return timestampConverter(t.Precision, exact), true
	}
	return nil, false
}

// Errors carry no column or row: Column adds them.
func badValue(kind string, b []byte) error {
	return &ValueError{Code: ErrBadValue, Message: fmt.Sprintf("Incorrect %s value: '%s'", kind, b)}
}

func outOfRange() error {
	return &ValueError{Code: ErrOutOfRange, Message: "Out of range value"}
}

func intConverter(lo, hi int64, narrow func(int64) any) Converter {
	return func(b []byte) (any, error) {
		n, err := parseInt(b, lo, hi)
		if err != nil {
			return nil, err
		}
		return narrow(n), nil
	}
}

// parseInt reads [+-]digits within [lo, hi].
func parseInt(b []byte, lo, hi int64) (int64, error) {
	digits := b
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits = digits[1:]
	}
	if len(digits) == 0 || !allDigits(digits) {
		return 0, badValue("integer", b)
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, outOfRange()
	}
	return n, nil
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// floatConverter reads decimal floating-point text: digits with an
// optional point and exponent, no hexadecimal, infinities or NaN. A FLOAT
// is the DOUBLE narrowed, as MySQL converts text to FLOAT.
func floatConverter(bits int) Converter {
	return func(b []byte) (any, error) {
		if !isDecimalFloat(b) {
			return nil, badValue("double", b)
		}
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil || bits == 32 && math.Abs(f) > math.MaxFloat32 {
			return nil, outOfRange()
		}
		if bits == 32 {
			return float32(f), nil
		}
		return f, nil
	}
}

func isDecimalFloat(b []byte) bool {
	mantissa, exponent := b, []byte(nil)
	for i, c := range b {
		if c == 'e' || c == 'E' {
			mantissa, exponent = b[:i], b[i+1:]
			break
		}
	}
	if _, _, ok := splitDecimal(mantissa); !ok {
		return false
	}
	if exponent == nil {
		return true
	}
	if len(exponent) > 0 && (exponent[0] == '-' || exponent[0] == '+') {
		exponent = exponent[1:]
	}
	return len(exponent) > 0 && allDigits(exponent)
}

// splitDecimal splits [+-]digits[.digits] into its integer and fraction
// digits, the sign kept on the first; one of them may be empty, not both.
func splitDecimal(b []byte) (whole, fraction []byte, ok bool) {
	digits := b
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits = digits[1:]
	}
	whole = digits
	for i, c := range digits {
		if c == '.' {
			whole, fraction = digits[:i], digits[i+1:]
			break
		}
	}
	if len(whole)+len(fraction) == 0 || !allDigits(whole) || !allDigits(fraction) {
		return nil, nil, false
	}
	return whole, fraction, true
}

// decimalConverter reads [+-]digits[.digits], rounding extra fraction
// digits half away from zero as MySQL does (with a note, not a warning).
func decimalConverter(precision, scale int, exact bool) Converter {
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil)
	return func(b []byte) (any, error) {
		whole, fraction, ok := splitDecimal(b)
		if !ok || exact && len(fraction) > scale {
			return nil, badValue("decimal", b)
		}
		for len(whole) > 0 && whole[0] == '0' {
			whole = whole[1:]
		}
		if len(whole) > precision-scale {
			return nil, outOfRange()
		}
		digits := scaledDigits(whole, fraction, scale)
		roundUp := len(fraction) > scale && fraction[scale] >= '5'
		if len(digits) <= 18 {
			n, _ := strconv.ParseInt(string(digits), 10, 64)
			if roundUp {
				n++
			}
			if precision <= 18 && n >= pow10(precision) {
				return nil, outOfRange()
			}
			if b[0] == '-' {
				n = -n
			}
			return spec.NewDecimal(n, scale), nil
		}
		n, _ := new(big.Int).SetString(string(digits), 10)
		if roundUp {
			n.Add(n, big.NewInt(1))
		}
		if n.Cmp(limit) >= 0 {
			return nil, outOfRange()
		}
		if b[0] == '-' {
			n.Neg(n)
		}
		return spec.NewDecimalBig(n, scale), nil
	}
}

// scaledDigits are the digits of whole.fraction × 10^scale, truncated,
// "0" for none.
func scaledDigits(whole, fraction []byte, scale int) []byte {
	digits := make([]byte, 0, len(whole)+scale+1)
	digits = append(digits, whole...)
	for i := range scale {
		if i < len(fraction) {
			digits = append(digits, fraction[i])
		} else {
			digits = append(digits, '0')
		}
	}
	if len(digits) == 0 {
		digits = append(digits, '0')
	}
	return digits
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// stringConverter reads UTF-8 text of at most length characters. Extra
// trailing spaces are cut, as MySQL does (with a note); any other extra
// character is too long. CHAR values lose their trailing spaces, as the
// INSERT path stores them (sqltypes.TrimCharPadding).
func stringConverter(length int, char, exact bool) Converter {
	return func(b []byte) (any, error) {
		if !utf8.Valid(b) {
			return nil, &ValueError{Code: ErrBadValue, Message: fmt.Sprintf("Incorrect string value: '%q'", b)}
		}
		if char {
			b = trimSpaces(b)
		}
		if len(b) > length && utf8.RuneCount(b) > length {
			cut := b
			for utf8.RuneCount(cut) > length && len(cut) > 0 && cut[len(cut)-1] == ' ' {
				cut = cut[:len(cut)-1]
			}
			if exact || utf8.RuneCount(cut) > length {
				return nil, &ValueError{Code: ErrTooLong, Message: "Data too long"}
			}
			b = cut
		}
		return string(b), nil
	}
}

func trimSpaces(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// parseDate reads YYYY-MM-DD (month and day of one or two digits) of a
// real day; MySQL's zero dates have no Paimon value.
func parseDate(b []byte) (any, error) {
	y, m, d, rest, ok := splitDate(b)
	if !ok || len(rest) != 0 {
		return nil, &ValueError{Code: ErrWrongValue, Message: fmt.Sprintf("Incorrect date value: '%s'", b)}
	}
	return spec.DateValue(daysSinceEpoch(y, m, d)), nil
}

// splitDate reads a valid date off the front of b.
func splitDate(b []byte) (y, m, d int, rest []byte, ok bool) {
	parts := [3]int{}
	limits := [3]int{4, 2, 2}
	for i := range parts {
		n := 0
		for n < len(b) && n < limits[i] && b[n] >= '0' && b[n] <= '9' {
			parts[i] = parts[i]*10 + int(b[n]-'0')
			n++
		}
		if n == 0 || i == 0 && n != 4 {
			return 0, 0, 0, nil, false
		}
		b = b[n:]
		if i < 2 {
			if len(b) == 0 || b[0] != '-' {
				return 0, 0, 0, nil, false
			}
			b = b[1:]
		}
	}
	y, m, d = parts[0], parts[1], parts[2]
	if m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, 0, nil, false
	}
	return y, m, d, b, true
}

func daysIn(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func daysSinceEpoch(y, m, d int) int64 {
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// timestampConverter reads 'YYYY-MM-DD HH:MM:SS[.fraction]' (or a date
// alone, at midnight); fraction digits beyond the column's precision are
// rounded half up, as MySQL rounds them.
func timestampConverter(precision int, exact bool) Converter {
	return func(b []byte) (any, error) {
		bad := &ValueError{Code: ErrWrongValue, Message: fmt.Sprintf("Incorrect datetime value: '%s'", b)}
		y, mo, d, rest, ok := splitDate(b)
		if !ok {
			return nil, bad
		}
		var clock [3]int
		nanos := int64(0)
		if len(rest) > 0 {
			if clock, nanos, ok = splitClock(rest, precision, exact); !ok {
				return nil, bad
			}
		}
		t := time.Date(y, time.Month(mo), d, clock[0], clock[1], clock[2], 0, time.UTC).Add(time.Duration(nanos))
		return spec.TimestampFromTime(t), nil
	}
}

// splitClock reads ' HH:MM:SS[.fraction]' (or 'T' for the space) and the
// fraction in nanoseconds, rounded to precision digits.
func splitClock(b []byte, precision int, exact bool) (clock [3]int, nanos int64, ok bool) {
	if len(b) < 9 || b[0] != ' ' && b[0] != 'T' || b[3] != ':' || b[6] != ':' {
		return clock, 0, false
	}
	for i, at := range []int{1, 4, 7} {
		if !allDigits(b[at : at+2]) {
			return clock, 0, false
		}
		clock[i] = int(b[at]-'0')*10 + int(b[at+1]-'0')
	}
	if clock[0] > 23 || clock[1] > 59 || clock[2] > 59 {
		return clock, 0, false
	}
	fraction := b[9:]
	if len(fraction) == 0 {
		return clock, 0, true
	}
	if fraction[0] != '.' || len(fraction) == 1 || !allDigits(fraction[1:]) {
		return clock, 0, false
	}
	digits := fraction[1:]
	if exact && len(digits) > precision {
		return clock, 0, false
	}
	for i := range precision {
		nanos *= 10
		if i < len(digits) {
			nanos += int64(digits[i] - '0')
		}
	}
	if len(digits) > precision && digits[precision] >= '5' {
		nanos++
	}
	for range 9 - precision {
		nanos *= 10
	}
	return clock, nanos, true
}

// Target turns lines into rows of a table whose every column the
// statement fills from a field.
type Target struct {
	fields     []spec.DataField
	converters []Converter
	// columnOf is the table column of each input field.
	columnOf []int
}

// NewTarget is the target of a table's fields filled by input fields in
// columnOf's order (a permutation of the columns), or false when a
// column's type has no converter.
func NewTarget(fields []spec.DataField, columnOf []int) (*Target, bool) {
	t := &Target{fields: fields, columnOf: columnOf, converters: make([]Converter, len(fields))}
	for i, f := range fields {
		c, ok := ConverterFor(f.Type)
		if !ok {
			return nil, false
		}
		t.converters[i] = c
	}
	return t, len(columnOf) == len(fields)
}

// Row converts one line, the line-th of the input, into a new row.
func (t *Target) Row(line []Field, number int64) ([]any, error) {
	if len(line) < len(t.columnOf) {
		return nil, &ValueError{Code: ErrTooFewFields, Message: fmt.Sprintf("Row %d doesn't contain data for all columns", number)}
	}
	if len(line) > len(t.columnOf) {
		return nil, &ValueError{Code: ErrTooManyFields, Message: fmt.Sprintf("Row %d was truncated; it contained more data than there were input columns", number)}
	}
	row := make([]any, len(t.fields))
	for i, field := range line {
		col := t.columnOf[i]
		f := &t.fields[col]
		if field.Null {
			if !f.Type.Nullable {
				return nil, &ValueError{Code: ErrBadNull, Message: fmt.Sprintf("Column '%s' cannot be null", f.Name)}
			}
			continue
		}
		v, err := t.converters[col](field.Text)
		var e *ValueError
		if errors.As(err, &e) {
			return nil, &ValueError{Code: e.Code, Message: fmt.Sprintf("%s for column '%s' at row %d", e.Message, f.Name, number)}
		}
		if err != nil {
			return nil, err
		}
		row[col] = v
	}
	return row, nil
}
