package duckplan

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// function translates the string and date functions DuckDB computes as
// MySQL does over lakesql's strings (utf8mb4, binary collation: DuckDB's
// valid UTF-8 VARCHAR) and dates; ok is false for other expressions.
func (x *exprs) function(e sql.Expression) (s string, ok bool, err error) {
	switch e := e.(type) {
	case *function.Length:
		// LENGTH counts bytes (strlen), CHAR_LENGTH code points (length).
		fn := "strlen"
		if e.CountType == function.NumChars {
			fn = "length"
		}
		s, err := x.argOf(e, e.Child, classText)
		return fn + "(" + s + ")", true, err
	case *function.Lower:
		s, err := x.argOf(e, e.Child, classText)
		return "lower(" + s + ")", true, err
	case *function.Upper:
		// DuckDB's upper is GMS's on every code point but ß, which GMS
		// keeps and DuckDB makes ẞ: the pieces between ßs are upper-cased.
		s, err := x.argOf(e, e.Child, classText)
		return "array_to_string(list_transform(string_split(" + s + ", 'ß'), lambda p: upper(p)), 'ß')", true, err
	case *function.Concat:
		s, err := x.concat(e)
		return s, true, err
	case *function.Substring:
		s, err := x.substring(e)
		return s, true, err
	case *function.LeftTrim:
		s, err := x.argOf(e, e.Child, classText)
		return "ltrim(" + s + ", ' ')", true, err
	case *function.RightTrim:
		s, err := x.argOf(e, e.Child, classText)
		return "rtrim(" + s + ", ' ')", true, err
	case *function.Trim:
		s, err := x.trim(e)
		return s, true, err
	case *function.DateFormat:
		s, err := x.dateFormat(e)
		return s, true, err
	case *expression.Convert:
		s, err := x.cast(e)
		return s, true, err
	case *function.Year, *function.Month, *function.Day:
		// DuckDB's functions of these names (year, month, day).
		fn := e.(sql.FunctionExpression)
		s, err := x.argOf(fn, e.Children()[0], classDate, classDatetime)
		return fn.FunctionName() + "(" + s + ")", true, err
	case *function.Date:
		s, err := x.argOf(e, e.Child, classDate, classDatetime)
		return "CAST(" + s + " AS DATE)", true, err
	}
	return "", false, nil
}

// argOf is the argument arg of function fn, which must be of one of
// classes (or NULL): MySQL would convert others.
func (x *exprs) argOf(fn sql.FunctionExpression, arg sql.Expression, classes ...class) (string, error) {
	s, c, err := x.value(arg)
	if err != nil {
		return "", err
	}
	if c != classNull && !contains(classes, c) {
		return "", fmt.Errorf("duckplan: %s of type %s is not translated", strings.ToUpper(fn.FunctionName()), arg.Type())
	}
	return s, nil
}

// concat is CONCAT of strings: DuckDB's || is NULL when an argument is,
// as MySQL's CONCAT (DuckDB's concat skips NULLs).
func (x *exprs) concat(e *function.Concat) (string, error) {
	args := e.Children()
	parts := make([]string, len(args))
	for i, a := range args {
		var err error
		if parts[i], err = x.argOf(e, a, classText); err != nil {
			return "", err
		}
	}
	return "(" + strings.Join(parts, " || ") + ")", nil
}

// substring is SUBSTRING(s, start[, length]) of code points as GMS
// computes it (function.Substring): NULL when an argument is; a start
// below 0 counts from the end, 0 or one outside the string gives ”, as
// does a length below 1; the length is cut at the string's end (DuckDB
// refuses lengths past 2^32).
func (x *exprs) substring(e *function.Substring) (string, error) {
	str, err := x.argOf(e, e.Str, classText)
	if err != nil {
		return "", err
	}
	start, err := x.argOf(e, e.Start, classInt)
	if err != nil {
		return "", err
	}
	n := "length(" + str + ")"
	length := n
	if e.Len != nil {
		if length, err = x.argOf(e, e.Len, classInt); err != nil {
			return "", err
		}
	}
	start = widened(start, classInt)
	idx := "(CASE WHEN " + start + " < 0 THEN " + n + " + " + start + " ELSE " + start + " - 1 END)"
	return "(CASE WHEN " + str + " IS NULL OR " + start + " IS NULL OR " + length + " IS NULL THEN NULL" +
		" WHEN " + idx + " < 0 OR " + idx + " >= " + n + " OR " + length + " <= 0 THEN ''" +
		" ELSE substring(" + str + ", " + idx + " + 1, least(" + widened(length, classInt) + ", " + n + " - " + idx + ")) END)", nil
}

// trim is TRIM([BOTH | LEADING | TRAILING] FROM s) of spaces, which
// DuckDB's trim, ltrim and rtrim of the set {' '} remove as GMS does;
// other strings to remove (GMS removes them whole, DuckDB their
// characters) are not translated.
func (x *exprs) trim(e *function.Trim) (string, error) {
	ch := e.Children()
	if l, ok := ch[1].(*expression.Literal); !ok || l.Value() != " " {
		return "", errors.New("duckplan: TRIM of other than spaces is not translated")
	}
	s, err := x.argOf(e, ch[0], classText)
	if err != nil {
		return "", err
	}
	// GMS keeps the direction unexported; its text names it.
	fn := "trim"
	switch e.String() {
	case function.NewTrim(ch[0], ch[1], sqlparser.Leading).String():
		fn = "ltrim"
	case function.NewTrim(ch[0], ch[1], sqlparser.Trailing).String():
		fn = "rtrim"
	}
	return fn + "(" + s + ", ' ')", nil
}

// strftimeOf are the DATE_FORMAT specifiers translated, as DuckDB's
// strftime writes them: the zero-padded year, month, day, hour (00-23),
// minutes and seconds, and %.
var strftimeOf = map[byte]string{'Y': "%Y", 'm': "%m", 'd': "%d", 'H': "%H", 'i': "%M", 's': "%S", '%': "%%"}

// dateFormat is DATE_FORMAT of a date or datetime with a constant
// pattern of the specifiers of strftimeOf and other text.
func (x *exprs) dateFormat(e *function.DateFormat) (string, error) {
	s, err := x.argOf(e, e.LeftChild, classDate, classDatetime)
	if err != nil {
		return "", err
	}
	var pattern string
	if lit, ok := e.RightChild.(*expression.Literal); ok {
		pattern, ok = lit.Value().(string)
	}
	if pattern == "" {
		return "", errors.New("duckplan: DATE_FORMAT of other than a constant pattern is not translated")
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '%' {
			b.WriteByte(pattern[i])
			continue
		}
		i++
		if i == len(pattern) || strftimeOf[pattern[i]] == "" {
			return "", fmt.Errorf("duckplan: DATE_FORMAT pattern %q is not translated", pattern)
		}
		b.WriteString(strftimeOf[pattern[i]])
	}
	format, err := textLiteral(b.String())
	if err != nil {
		return "", err
	}
	return "strftime(" + s + ", " + format + ")", nil
}

// cast is CAST (CONVERT) where it changes no value DuckDB and GMS could
// disagree on: a signed integer to SIGNED, a date or datetime to DATE
// (its day), a date to DATETIME (its midnight). Casts between strings and
// numbers or times, to DECIMAL (MySQL clamps what overflows) and of
// fractional seconds are not translated.
func (x *exprs) cast(e *expression.Convert) (string, error) {
	s, c, err := x.value(e.Child)
	if err != nil {
		return "", err
	}
	to, err := classOf(e.Type())
	if err != nil {
		return "", err
	}
	switch {
	case c == classNull:
		return "NULL", nil
	case to == classInt && c == classInt && e.Type().Type() == sqltypes.Int64:
		return widened(s, c), nil
	case to == classDate && temporal(c):
		return "CAST(" + s + " AS DATE)", nil
	case to == classDatetime && c == classDate:
		return "CAST(" + s + " AS TIMESTAMP)", nil
	}
	return "", fmt.Errorf("duckplan: CAST of %s to %s is not translated", e.Child.Type(), e.Type())
}
