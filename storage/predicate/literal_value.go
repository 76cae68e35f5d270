package predicate

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

// numericRat reads a literal as an exact number.
func numericRat(lit any) (*big.Rat, bool) {
	switch v := lit.(type) {
	case bool:
		if v {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	case int:
		return big.NewRat(int64(v), 1), true
	case int8:
		return big.NewRat(int64(v), 1), true
	case int16:
		return big.NewRat(int64(v), 1), true
	case int32:
		return big.NewRat(int64(v), 1), true
	case int64:
		return big.NewRat(v, 1), true
	case uint8:
		return big.NewRat(int64(v), 1), true
	case uint16:
		return big.NewRat(int64(v), 1), true
	case uint32:
		return big.NewRat(int64(v), 1), true
	case uint64:
		return new(big.Rat).SetInt(new(big.Int).SetUint64(v)), true
	case uint:
		return new(big.Rat).SetInt(new(big.Int).SetUint64(uint64(v))), true
	case float32:
		return shortestDecimal(float64(v), 32)
	case float64:
		return shortestDecimal(v, 64)
	case string:
		return parseNumber(v)
	case []byte:
		return parseNumber(string(v))
	case spec.DecimalValue:
		return new(big.Rat).SetFrac(v.Unscaled(), pow10(v.Scale())), true
	case *big.Rat:
		return new(big.Rat).Set(v), true
	case *big.Int:
		return new(big.Rat).SetInt(v), true
	case interface{ Rat() *big.Rat }:
		// shopspring/decimal.Decimal, go-mysql-server's DECIMAL literal.
		r := v.Rat()
		return r, r != nil
	}
	return nil, false
}

// shortestDecimal reads a float as the shortest decimal that prints it, the
// number the user typed: 0.1, not 0.1000000000000000055511151231257827.
func shortestDecimal(f float64, bits int) (*big.Rat, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false
	}
	return new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, bits))
}

// numberText is a plain decimal number. The exponent is capped so that a
// literal cannot make the exact arithmetic explode.
var numberText = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,4})?$`)

// parseNumber accepts numeric strings as MySQL reads them when they are
// clean ('5', ' -1.50', '1e3'). Strings MySQL would read only partly, with a
// warning ('5abc' as 5, 'abc' as 0), are rejected.
func parseNumber(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if !numberText.MatchString(s) {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// doubleOf rounds a literal to the nearest double, as MySQL does when it
// compares with a FLOAT or DOUBLE column.
func doubleOf(lit any) (float64, bool) {
	var f float64
	switch v := lit.(type) {
	case float64:
		f = v
	case float32:
		f = float64(v)
	default:
		r, ok := numericRat(lit)
		if !ok {
			return 0, false
		}
		f, _ = r.Float64()
	}
	return f, !math.IsNaN(f) && !math.IsInf(f, 0)
}

// wallNanos reads a literal as a local date-time: nanoseconds since the
// epoch of its wall clock taken as UTC, the way TIMESTAMP stores it.
func wallNanos(lit any) (*big.Int, bool) {
	switch v := lit.(type) {
	case string:
		return parseDateTime(v)
	case []byte:
		return parseDateTime(string(v))
	case time.Time:
		wall := time.Date(v.Year(), v.Month(), v.Day(), v.Hour(), v.Minute(), v.Second(), v.Nanosecond(), time.UTC)
		return unixNanos(wall), true
	case spec.DateValue:
		return new(big.Int).Mul(big.NewInt(int64(v)), big.NewInt(nanosPerDay)), true
	case spec.TimestampValue:
		return timestampNanos(v), true
	}
	return nil, false
}

// instantNanos reads a literal as an instant, for TIMESTAMP WITH LOCAL TIME
// ZONE. Text is refused: its zone is the session's.
func instantNanos(lit any) (*big.Int, bool) {
	switch v := lit.(type) {
	case time.Time:
		return unixNanos(v), true
	case spec.TimestampValue:
		return timestampNanos(v), true
	}
	return nil, false
}

func unixNanos(t time.Time) *big.Int {
	n := new(big.Int).Mul(big.NewInt(t.Unix()), big.NewInt(1_000_000_000))
	return n.Add(n, big.NewInt(int64(t.Nanosecond())))
}

func timestampNanos(ts spec.TimestampValue) *big.Int {
	n := new(big.Int).Mul(big.NewInt(ts.Millis), big.NewInt(nanosPerMilli))
	return n.Add(n, big.NewInt(int64(ts.NanoOfMilli)))
}

var dateTimeText = regexp.MustCompile(
	`^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,9}))?)?$`)

// parseDateTime accepts 'YYYY-MM-DD' and 'YYYY-MM-DD hh:mm:ss[.fraction]'
// (or with T) for a real calendar date; MySQL turns other text into NULL or
// a zero date with a warning, which is not a filter to guess at.
func parseDateTime(s string) (*big.Int, bool) {
	m := dateTimeText.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil, false
	}
	f := atoiAll(m[1:7])
	t := time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, time.UTC)
	if f[0] == 0 || t.Year() != f[0] || int(t.Month()) != f[1] || t.Day() != f[2] || f[3] > 23 || f[4] > 59 || f[5] > 59 {
		return nil, false
	}
	n := unixNanos(t)
	return n.Add(n, big.NewInt(fractionNanos(m[7]))), true
}

var timeText = regexp.MustCompile(`^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?$`)

// timeOfDayNanos reads 'hh:mm[:ss[.fraction]]' or a spec.TimeValue as
// nanoseconds of the day. Hours past 23, which MySQL's TIME allows, are no
// time of day and fall outside the domain.
func timeOfDayNanos(lit any) (*big.Int, bool) {
	switch v := lit.(type) {
	case spec.TimeValue:
		return big.NewInt(int64(v) * nanosPerMilli), true
	case []byte:
		return timeOfDayNanos(string(v))
	case string:
		m := timeText.FindStringSubmatch(strings.TrimSpace(v))
		if m == nil {
			return nil, false
		}
		f := atoiAll(m[1:4])
		if f[1] > 59 || f[2] > 59 {
			return nil, false
		}
		seconds := int64(f[0])*3600 + int64(f[1])*60 + int64(f[2])
		return big.NewInt(seconds*1_000_000_000 + fractionNanos(m[4])), true
	}
	return nil, false
}

// atoiAll converts regexp groups of digits; an absent group is 0.
func atoiAll(groups []string) []int {
	out := make([]int, len(groups))
	for i, g := range groups {
		out[i], _ = strconv.Atoi(g)
	}
	return out
}

// fractionNanos converts up to nine fraction digits to nanoseconds.
func fractionNanos(digits string) int64 {
	n, _ := strconv.ParseInt((digits + "000000000")[:9], 10, 64)
	return n
}
