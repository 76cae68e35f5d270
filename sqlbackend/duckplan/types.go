package duckplan

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"
)

// class is a family of types whose values DuckDB compares, orders and
// computes as MySQL does within the family. Values of two classes are
// never mixed: MySQL would convert one of them implicitly.
type class int

const (
	classNull class = iota // the NULL literal, which mixes with every class
	classInt
	// classUnsigned is an unsigned integer, which only GMS's functions
	// make (RANK, DENSE_RANK): compared and ordered, never computed with.
	classUnsigned
	classDecimal
	classDouble
	classFloat
	classText
	classBinary
	classDate
	classDatetime
)

// maxDuckDecimal is DuckDB's DECIMAL precision limit.
const maxDuckDecimal = 38

// classOf is the class of GMS type t, or why t is not translated. Strings
// must compare as DuckDB's VARCHAR does, by bytes and with trailing
// spaces significant: utf8mb4_0900_bin, lakesql's collation of every
// string column, under which GMS compares CHAR as it does VARCHAR (NO
// PAD, the stored value as it is). BINARY is padded with NULs, and
// TIMESTAMP depends on the session's time zone: they stay on GMS (lakesql
// shows Paimon's TIMESTAMP_LTZ as a DATETIME).
func classOf(t sql.Type) (class, error) {
	switch t.Type() {
	case sqltypes.Null:
		return classNull, nil
	case sqltypes.Int8, sqltypes.Int16, sqltypes.Int24, sqltypes.Int32, sqltypes.Int64:
		return classInt, nil
	case sqltypes.Uint8, sqltypes.Uint16, sqltypes.Uint24, sqltypes.Uint32, sqltypes.Uint64:
		return classUnsigned, nil
	case sqltypes.Decimal:
		return classDecimal, nil
	case sqltypes.Float64:
		return classDouble, nil
	case sqltypes.Float32:
		return classFloat, nil
	case sqltypes.Char, sqltypes.VarChar, sqltypes.Text:
		if c := collationOf(t); c != sql.Collation_utf8mb4_0900_bin {
			return 0, fmt.Errorf("duckplan: strings of collation %s are not translated", c)
		}
		return classText, nil
	case sqltypes.VarBinary, sqltypes.Blob:
		if c := collationOf(t); c != sql.Collation_binary {
			return 0, fmt.Errorf("duckplan: strings of collation %s are not translated", c)
		}
		return classBinary, nil
	case sqltypes.Date:
		return classDate, nil
	case sqltypes.Datetime:
		return classDatetime, nil
	}
	return 0, fmt.Errorf("duckplan: type %s is not translated", t)
}

func collationOf(t sql.Type) sql.CollationID {
	if s, ok := t.(sql.StringType); ok {
		return s.Collation()
	}
	return sql.Collation_Unspecified
}

// comparable reports whether DuckDB compares values of classes a and b as
// MySQL does: exact numbers with exact numbers, signed or not (DuckDB
// compares UBIGINT with BIGINT as HUGEINTs), a DATE with a DATETIME as
// the DATETIME of its midnight (MySQL's rule, DuckDB's implicit cast), and
// otherwise only within a class.
func comparable(a, b class) bool {
	switch {
	case a == classNull || b == classNull || a == b:
		return true
	case (exact(a) || a == classUnsigned) && (exact(b) || b == classUnsigned):
		return true
	}
	return temporal(a) && temporal(b)
}

// exact reports whether DuckDB computes with values of class c as MySQL
// does: signed integers (in BIGINT) and DECIMALs.
func exact(c class) bool    { return c == classInt || c == classDecimal }
func temporal(c class) bool { return c == classDate || c == classDatetime }

// errNotComparable is the refusal of a comparison across classes.
var errNotComparable = errors.New("duckplan: comparison of values of different types (MySQL converts one) is not translated")

// literal is the DuckDB text of a GMS literal value of type t, typed as
// GMS types it.
func literal(v any, t sql.Type) (string, error) {
	if v == nil {
		return "NULL", nil
	}
	c, err := classOf(t)
	if err != nil {
		return "", err
	}
	switch c {
	case classInt:
		return intLiteral(v)
	case classDecimal:
		return decimalLiteral(v, t.(sql.DecimalType))
	case classDouble:
		if f, ok := v.(float64); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return "CAST('" + strconv.FormatFloat(f, 'g', -1, 64) + "' AS DOUBLE)", nil
		}
	case classText:
		if s, ok := v.(string); ok {
			return textLiteral(s)
		}
	case classBinary:
		switch b := v.(type) {
		case []byte:
			return fmt.Sprintf("from_hex('%X')", b), nil
		case string:
			return fmt.Sprintf("from_hex('%X')", b), nil
		}
	case classDate:
		if tm, ok := v.(time.Time); ok {
			return "DATE '" + tm.Format("2006-01-02") + "'", nil
		}
	case classDatetime:
		if tm, ok := v.(time.Time); ok {
			return "TIMESTAMP '" + tm.Format("2006-01-02 15:04:05.999999") + "'", nil
		}
	}
	return "", fmt.Errorf("duckplan: literal %v of type %s is not translated", v, t)
}

func intLiteral(v any) (string, error) {
	switch n := v.(type) {
	case int8:
		return signed(int64(n)), nil
	case int16:
		return signed(int64(n)), nil
	case int32:
		return signed(int64(n)), nil
	case int64:
		return signed(n), nil
	case int:
		return signed(int64(n)), nil
	case bool:
		if n {
			return "1", nil
		}
		return "0", nil
	}
	return "", fmt.Errorf("duckplan: integer literal %v (%T) is not translated", v, v)
}

// signed parenthesizes negative numbers, so that a - -1 stays a minus of
// a negative number.
func signed(n int64) string {
	if n < 0 {
		return "(" + strconv.FormatInt(n, 10) + ")"
	}
	return strconv.FormatInt(n, 10)
}

// decimalLiteral is a DECIMAL literal of GMS's precision and scale, so
// that DuckDB computes with the scale MySQL does (0.10 stays DECIMAL(3,2),
// not DuckDB's DOUBLE or a narrower DECIMAL).
func decimalLiteral(v any, t sql.DecimalType) (string, error) {
	var d decimal.Decimal
	switch x := v.(type) {
	case decimal.Decimal:
		d = x
	case string:
		var err error
		if d, err = decimal.NewFromString(x); err != nil {
			return "", fmt.Errorf("duckplan: decimal literal %q: %w", x, err)
		}
	default:
		return "", fmt.Errorf("duckplan: decimal literal %v (%T) is not translated", v, v)
	}
	scale := int32(t.Scale())
	if !d.Equal(d.Round(scale)) {
		return "", fmt.Errorf("duckplan: decimal literal %s does not fit DECIMAL(%d,%d)", d, t.Precision(), scale)
	}
	precision := int(t.Precision())
	if precision > maxDuckDecimal {
		if digits := len(strings.Replace(d.Abs().StringFixed(scale), ".", "", 1)); digits > maxDuckDecimal || scale > maxDuckDecimal {
			return "", fmt.Errorf("duckplan: decimal literal %s has more than %d digits", d, maxDuckDecimal)
		}
		precision = maxDuckDecimal
	}
	return fmt.Sprintf("CAST('%s' AS DECIMAL(%d,%d))", d.StringFixed(scale), precision, scale), nil
}

// textLiteral quotes s for DuckDB, whose VARCHAR holds valid UTF-8 only.
func textLiteral(s string) (string, error) {
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return "", errors.New("duckplan: a string literal that is not valid UTF-8 or holds NUL is not translated")
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'", nil
}
