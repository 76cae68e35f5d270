package sqllogictest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FormatValue renders one column value as the original harness's ODBC
// driver does for the column's type character. v is what go-sql-driver
// returns over the text protocol: nil, int64, uint64, float32, float64 or
// the server's text as []byte.
func FormatValue(v any, typ byte) string {
	if v == nil {
		return "NULL"
	}
	switch typ {
	case 'I':
		return strconv.FormatInt(toLong(v), 10)
	case 'R':
		return fmt.Sprintf("%.3f", toDouble(v))
	default:
		return printable(toText(v))
	}
}

// printable replaces every byte outside ' '..'~' with '@' (so each byte of
// a multi-byte character becomes one '@', as in the C harness) and shows
// the empty string as "(empty)".
func printable(s string) string {
	if s == "" {
		return "(empty)"
	}
	b := []byte(s)
	for i, c := range b {
		if c < ' ' || c > '~' {
			b[i] = '@'
		}
	}
	return string(b)
}

func toText(v any) string {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float32:
		// The server sent the shortest text of the single-precision value,
		// which is what ODBC converted; the driver parsed it to float32.
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	default:
		return fmt.Sprint(x)
	}
}

// toLong converts as ODBC's SQL_C_SLONG does: numbers and numeric text are
// truncated toward zero (DECIMAL "3.5000" and the DOUBLE 3.5 both give 3),
// text that is not a number gives 0 because the harness ignores the
// conversion error and prints the zero it initialised the value with.
func toLong(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case uint64:
		return int64(min(x, math.MaxInt64))
	case float64:
		return truncate(x)
	default:
		return parseLong(toText(v))
	}
}

// parseLong takes the integer part of numeric text exactly (a DECIMAL may
// have more digits than a double keeps), falling back to the double for
// exponent notation.
func parseLong(s string) int64 {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "eE") {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return truncate(f)
		}
	}
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits {
		return 0
	}
	n, err := strconv.ParseInt(s[:end], 10, 64)
	if err != nil {
		// Out of range: saturate, as strtol does.
		if s[0] == '-' {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return n
}

func truncate(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	default:
		return int64(f)
	}
}

// toDouble converts as SQL_C_DOUBLE does; text that is not a number gives
// 0 for the same reason as in toLong.
func toDouble(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		return x
	default:
		f, err := strconv.ParseFloat(strings.TrimSpace(toText(v)), 64)
		if err != nil {
			return 0
		}
		return f
	}
}

// SortValues orders values, laid out row after row with columns values per
// row, as the harness's qsort with strcmp does: RowSort compares rows
// value by value, ValueSort every value on its own.
func SortValues(values []string, columns int, mode SortMode) {
	switch mode {
	case RowSort:
		rows := make([][]string, 0, len(values)/columns)
		for i := 0; i+columns <= len(values); i += columns {
			rows = append(rows, slices.Clone(values[i:i+columns]))
		}
		slices.SortStableFunc(rows, slices.Compare[[]string])
		copy(values, slices.Concat(rows...))
	case ValueSort:
		slices.Sort(values)
	}
}

// HashLine is the line the corpus records instead of a result's values:
// the number of values and the MD5 of each value followed by a newline.
func HashLine(values []string) string {
	h := md5.New()
	for _, v := range values {
		h.Write([]byte(v))
		h.Write([]byte("\n"))
	}
	return fmt.Sprintf("%d values hashing to %s", len(values), hex.EncodeToString(h.Sum(nil)))
}

// IsHashLine reports whether an expected result is given as its hash
// line rather than as values.
func IsHashLine(expected []string) bool {
	return len(expected) == 1 && strings.Contains(expected[0], " values hashing to ")
}
