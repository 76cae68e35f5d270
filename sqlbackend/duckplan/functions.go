package duckplan

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
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
