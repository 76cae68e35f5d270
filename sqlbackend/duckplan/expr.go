package duckplan

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/sqlbackend/gmsfix"
)

// exprs translates the expressions of one node, whose GetFields index
// the node's input row.
type exprs struct {
	// column is the DuckDB text of input column i.
	column func(i int) string
	// width is the number of input columns.
	width int
	// aggregates allows aggregate functions: the select list of a GROUP BY.
	aggregates bool
	// over is the OVER clause of the aggregates of a window function, ""
	// in a GROUP BY.
	over string
}

// value translates e where MySQL uses a value. A condition there is 0, 1
// or NULL, a TINYINT as GMS types it (types.Boolean).
func (x *exprs) value(e sql.Expression) (string, class, error) {
	if isCondition(e) {
		p, err := x.cond(e)
		if err != nil {
			return "", 0, err
		}
		return "CAST(" + p + " AS TINYINT)", classInt, nil
	}
	c, err := classOf(e.Type())
	if err != nil {
		return "", 0, err
	}
	s, err := x.valueText(e, c)
	return s, c, err
}

func (x *exprs) valueText(e sql.Expression, c class) (string, error) {
	if child, typ, ok := gmsfix.AggregateConversion(e); ok {
		return x.conversion(child, typ, c)
	}
	if cs, _, ok := gmsfix.TypedCase(e); ok {
		// Its values, all of class c, convert to its type exactly.
		return x.caseOf(cs, c)
	}
	if l, r, scale, ok := gmsfix.ExactDivision(e); ok {
		return x.divide(l, r, scale)
	}
	switch e := e.(type) {
	case *expression.Alias:
		s, _, err := x.value(e.Child)
		return s, err
	case *expression.GetField:
		if e.Index() < 0 || e.Index() >= x.width {
			return "", fmt.Errorf("duckplan: column %s (index %d) is outside its input of %d columns", e.Name(), e.Index(), x.width)
		}
		return x.column(e.Index()), nil
	case *expression.Literal:
		return literal(e.Value(), e.Type())
	case *expression.Arithmetic:
		return x.arithmetic(e)
	case *expression.Div:
		return "", errGMSDivision
	case *expression.IntDiv:
		return x.intDivide(e)
	case *expression.Mod:
		return x.modulo(e)
	case *expression.UnaryMinus:
		s, ec, err := x.value(e.Child)
		if err != nil {
			return "", err
		}
		if !exact(ec) {
			return "", errors.New("duckplan: unary minus of a non-exact number is not translated")
		}
		return "(-" + widened(s, ec) + ")", nil
	case *expression.Case:
		return x.caseOf(e, c)
	case *function.If:
		ch := e.Children()
		return x.branches(c, []sql.Expression{ch[0]}, ch[1:2], ch[2])
	case *function.IfNull:
		return x.coalesce(c, e.Children())
	case *function.Coalesce:
		return x.coalesce(c, e.Children())
	}
	if s, ok, err := x.function(e); ok {
		return s, err
	}
	if x.aggregates {
		if s, ok, err := x.aggregate(e); ok {
			return s, err
		}
	}
	return "", notTranslated(e)
}

// conversion is child converted to typ, of class c, where that changes
// no value: text to text (of one collation, classOf checked), integer to
// integer, DECIMAL to a DECIMAL of no smaller scale. The executor gives
// the value typ.
func (x *exprs) conversion(child sql.Expression, typ sql.Type, c class) (string, error) {
	s, cc, err := x.value(child)
	if err != nil {
		return "", err
	}
	switch {
	case cc == classNull, cc == c && (c == classText || c == classInt):
		return s, nil
	case cc == c && c == classDecimal && scaleOf(child) <= int(typ.(sql.DecimalType).Scale()):
		return s, nil
	}
	return "", fmt.Errorf("duckplan: conversion of %s to %s is not translated", child.Type(), typ)
}

// widened is s of class c as DuckDB computes MySQL's integer arithmetic:
// in BIGINT, whose overflow DuckDB reports as MySQL does (GMS wraps).
func widened(s string, c class) string {
	if c == classInt {
		return "CAST(" + s + " AS BIGINT)"
	}
	return s
}

// arithmetic is + - * of exact numbers: DuckDB adds and multiplies
// DECIMALs exactly, as MySQL does, and fails where they overflow.
func (x *exprs) arithmetic(e *expression.Arithmetic) (string, error) {
	op := e.Operator()
	if op != "+" && op != "-" && op != "*" {
		return "", fmt.Errorf("duckplan: operator %s is not translated", op)
	}
	if hasDivision(e.LeftChild) || hasDivision(e.RightChild) {
		return "", errDivisionInArithmetic
	}
	l, lc, err := x.value(e.LeftChild)
	if err != nil {
		return "", err
	}
	r, rc, err := x.value(e.RightChild)
	if err != nil {
		return "", err
	}
	if !exact(lc) && lc != classNull || !exact(rc) && rc != classNull {
		return "", fmt.Errorf("duckplan: %s of values other than signed integers and DECIMALs is not translated", op)
	}
	if op == "*" && scaleOf(e.LeftChild)+scaleOf(e.RightChild) > types.DecimalTypeMaxScale {
		return "", fmt.Errorf("duckplan: a product of more than %d decimals (MySQL rounds it) is not translated", types.DecimalTypeMaxScale)
	}
	if op == "*" && (lc == classDecimal || rc == classDecimal) {
		// DuckDB multiplies DECIMALs of up to 18 digits in 64 bits and
		// fails past them (DECIMAL(10,2) * DECIMAL(10,2)); in 128 bits it
		// fails only past 38 digits, where MySQL's 65 still hold.
		return "(CAST(" + l + " AS DECIMAL(38," + strconv.Itoa(scaleOf(e.LeftChild)) + ")) * " + widened(r, rc) + ")", nil
	}
	return "(" + widened(l, lc) + " " + op + " " + widened(r, rc) + ")", nil
}

func scaleOf(e sql.Expression) int {
	if d, ok := e.Type().(sql.DecimalType); ok {
		return int(d.Scale())
	}
	return 0
}

// caseOf translates CASE, whose results must all be of the class GMS
// gives the CASE, so that DuckDB's unification of their types changes no
// value.
func (x *exprs) caseOf(e *expression.Case, c class) (string, error) {
	conds := make([]sql.Expression, len(e.Branches))
	thens := make([]sql.Expression, len(e.Branches))
	for i, b := range e.Branches {
		conds[i], thens[i] = b.Cond, b.Value
		if e.Expr != nil {
			conds[i] = expression.NewEquals(e.Expr, b.Cond)
		}
	}
	return x.branches(c, conds, thens, e.Else)
}

func (x *exprs) branches(c class, conds, thens []sql.Expression, els sql.Expression) (string, error) {
	var b strings.Builder
	b.WriteString("CASE")
	for i := range conds {
		p, err := x.cond(conds[i])
		if err != nil {
			return "", err
		}
		v, err := x.ofClass(thens[i], c)
		if err != nil {
			return "", err
		}
		b.WriteString(" WHEN " + p + " THEN " + v)
	}
	if els != nil {
		v, err := x.ofClass(els, c)
		if err != nil {
			return "", err
		}
		b.WriteString(" ELSE " + v)
	}
	b.WriteString(" END")
	return b.String(), nil
}

func (x *exprs) coalesce(c class, args []sql.Expression) (string, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		var err error
		if parts[i], err = x.ofClass(a, c); err != nil {
			return "", err
		}
	}
	return "COALESCE(" + strings.Join(parts, ", ") + ")", nil
}

// ofClass is the value of e, which must be of class c (or NULL).
func (x *exprs) ofClass(e sql.Expression, c class) (string, error) {
	s, ec, err := x.value(e)
	if err != nil {
		return "", err
	}
	if ec != c && ec != classNull {
		return "", errors.New("duckplan: CASE, IF, IFNULL or COALESCE over values of different types is not translated")
	}
	return s, nil
}

// isCondition reports whether e is a comparison or connective, which
// DuckDB computes as a BOOLEAN.
func isCondition(e sql.Expression) bool {
	switch e.(type) {
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual, *expression.And, *expression.Or,
		*expression.Xor, *expression.Not, *expression.IsNull, *expression.IsTrue, *expression.InTuple,
		*expression.HashInTuple, *expression.Between:
		return true
	}
	return false
}

// cond translates e where MySQL tests a condition (WHERE, ON, HAVING, the
// operands of AND): a DuckDB BOOLEAN, NULL where MySQL's is NULL.
func (x *exprs) cond(e sql.Expression) (string, error) {
	switch e := e.(type) {
	case *expression.Equals:
		return x.compare(e.Left(), e.Right(), "=")
	case *expression.NullSafeEquals:
		return x.compare(e.Left(), e.Right(), "IS NOT DISTINCT FROM")
	case *expression.LessThan:
		return x.compare(e.Left(), e.Right(), "<")
	case *expression.LessThanOrEqual:
		return x.compare(e.Left(), e.Right(), "<=")
	case *expression.GreaterThan:
		return x.compare(e.Left(), e.Right(), ">")
	case *expression.GreaterThanOrEqual:
		return x.compare(e.Left(), e.Right(), ">=")
	case *expression.And:
		return x.connect(e.LeftChild, e.RightChild, "AND")
	case *expression.Or:
		return x.connect(e.LeftChild, e.RightChild, "OR")
	case *expression.Xor:
		// MySQL's XOR is NULL when either side is, as <> of BOOLEANs is.
		return x.connect(e.LeftChild, e.RightChild, "<>")
	case *expression.Not:
		p, err := x.cond(e.Child)
		return "(NOT " + p + ")", err
	case *expression.IsNull:
		v, _, err := x.value(e.Child)
		return "(" + v + " IS NULL)", err
	case *expression.IsTrue:
		return x.isTrue(e)
	case *expression.InTuple:
		return x.in(e.Left(), e.Right())
	case *expression.HashInTuple:
		ch := e.Children()
		return x.in(ch[0], ch[1])
	case *expression.Between:
		return x.between(e)
	case *expression.Literal:
		return x.literalCond(e)
	}
	return "", notTranslated(e)
}

func (x *exprs) connect(l, r sql.Expression, op string) (string, error) {
	ls, err := x.cond(l)
	if err != nil {
		return "", err
	}
	rs, err := x.cond(r)
	if err != nil {
		return "", err
	}
	return "(" + ls + " " + op + " " + rs + ")", nil
}

// isTrue is IS TRUE or IS FALSE of a condition; MySQL's IS TRUE of a
// number tests it against 0, which is not translated.
func (x *exprs) isTrue(e *expression.IsTrue) (string, error) {
	if !isCondition(e.Child) {
		return "", errors.New("duckplan: IS TRUE or IS FALSE of a value is not translated")
	}
	p, err := x.cond(e.Child)
	if err != nil {
		return "", err
	}
	if strings.HasSuffix(e.String(), expression.IsFalseStr) {
		return "(" + p + " IS FALSE)", nil
	}
	return "(" + p + " IS TRUE)", nil
}

// literalCond is a constant condition: TRUE, FALSE or NULL, as GMS's
// planner leaves them in filters.
func (x *exprs) literalCond(e *expression.Literal) (string, error) {
	switch v := e.Value().(type) {
	case nil:
		return "NULL", nil
	case bool:
		if v {
			return "TRUE", nil
		}
		return "FALSE", nil
	}
	if types.IsInteger(e.Type()) {
		s, err := intLiteral(e.Value())
		if err != nil {
			return "", err
		}
		return "(" + s + " <> 0)", nil
	}
	return "", fmt.Errorf("duckplan: the condition %s is not translated", e)
}

// operands translates the values a comparison compares, when DuckDB
// compares them as MySQL does.
func (x *exprs) operands(es ...sql.Expression) ([]string, error) {
	out := make([]string, len(es))
	classes := make([]class, len(es))
	for i, e := range es {
		var err error
		if out[i], classes[i], err = x.value(e); err != nil {
			return nil, err
		}
		for j := 0; j < i; j++ {
			if !comparable(classes[i], classes[j]) || classes[i] == classFloat && es[i].Type() != es[j].Type() {
				return nil, errNotComparable
			}
		}
	}
	dateLiterals(es, classes, out)
	return out, nil
}

// dateLiterals writes a DATETIME literal at midnight compared with a DATE
// as that DATE: equal in MySQL's comparison (the DATE at midnight), and
// DuckDB then compares dates, which it can push into Parquet scans.
func dateLiterals(es []sql.Expression, classes []class, out []string) {
	hasDate := false
	for _, c := range classes {
		hasDate = hasDate || c == classDate
	}
	if !hasDate {
		return
	}
	for i, e := range es {
		l, ok := e.(*expression.Literal)
		if !ok || classes[i] != classDatetime {
			continue
		}
		if t, ok := l.Value().(time.Time); ok && t.Equal(t.Truncate(24*time.Hour)) {
			out[i] = "DATE '" + t.Format("2006-01-02") + "'"
		}
	}
}

func (x *exprs) compare(l, r sql.Expression, op string) (string, error) {
	if lt, ok := l.(expression.Tuple); ok {
		return x.compareRows(lt, r, op)
	}
	s, err := x.operands(l, r)
	if err != nil {
		return "", err
	}
	return "(" + s[0] + " " + op + " " + s[1] + ")", nil
}

// compareRows is the equality of rows (a, b) = (c, d), which GMS's merge
// joins test: a = c AND b = d, NULL where MySQL's is.
func (x *exprs) compareRows(l expression.Tuple, r sql.Expression, op string) (string, error) {
	rt, ok := r.(expression.Tuple)
	if !ok || len(rt) != len(l) || (op != "=" && op != "IS NOT DISTINCT FROM") {
		return "", errors.New("duckplan: this comparison of rows is not translated")
	}
	parts := make([]string, len(l))
	for i := range l {
		var err error
		if parts[i], err = x.compare(l[i], rt[i], op); err != nil {
			return "", err
		}
	}
	return "(" + strings.Join(parts, " AND ") + ")", nil
}

// in is IN of a list: NULL when no element matches and one is NULL, as
// in MySQL.
func (x *exprs) in(left, right sql.Expression) (string, error) {
	tuple, ok := right.(expression.Tuple)
	if !ok {
		return "", fmt.Errorf("duckplan: IN of %s is not translated", right)
	}
	if _, ok := left.(expression.Tuple); ok {
		return "", errors.New("duckplan: IN of a row is not translated")
	}
	s, err := x.operands(append([]sql.Expression{left}, tuple...)...)
	if err != nil {
		return "", err
	}
	return "(" + s[0] + " IN (" + strings.Join(s[1:], ", ") + "))", nil
}

func (x *exprs) between(e *expression.Between) (string, error) {
	s, err := x.operands(e.Val, e.Lower, e.Upper)
	if err != nil {
		return "", err
	}
	return "(" + s[0] + " BETWEEN " + s[1] + " AND " + s[2] + ")", nil
}

// aggregate translates an aggregate function of a GROUP BY; ok is false
// for other expressions.
func (x *exprs) aggregate(e sql.Expression) (s string, ok bool, err error) {
	if sum, wrapped := gmsfix.WrappedSum(e); wrapped {
		s, err := x.aggregateOf("sum", sum.Child, classInt, classDecimal)
		return s, true, err
	}
	if avg, typ, wrapped := gmsfix.WrappedAvg(e); wrapped {
		s, err := x.exactAvg(avg.Child, typ)
		return s, true, err
	}
	switch e := e.(type) {
	case *aggregation.Count:
		if l, ok := e.Child.(*expression.Literal); ok && l.Value() != nil {
			return "count(*)" + x.over, true, nil
		}
		if _, ok := e.Child.(*expression.Star); ok {
			return "count(*)" + x.over, true, nil
		}
		s, _, err := x.value(e.Child)
		return "count(" + s + ")" + x.over, true, err
	case *aggregation.CountDistinct:
		if x.over != "" {
			return "", true, errors.New("duckplan: COUNT(DISTINCT) over a window is not translated")
		}
		if len(e.Children()) != 1 {
			return "", true, errors.New("duckplan: COUNT(DISTINCT) of several values is not translated")
		}
		s, c, err := x.value(e.Children()[0])
		if err == nil && (c == classFloat || c == classDouble) {
			err = errors.New("duckplan: COUNT(DISTINCT) of a floating-point value is not translated")
		}
		return "count(DISTINCT " + s + ")", true, err
	case *aggregation.Min:
		s, err := x.aggregateOf("min", e.Child, orderable...)
		return s, true, err
	case *aggregation.Max:
		s, err := x.aggregateOf("max", e.Child, orderable...)
		return s, true, err
	case *aggregation.Sum:
		// An exact SUM is gmsfix's (WrappedSum): GMS's own sums floats.
		return "", true, errors.New("duckplan: SUM of a floating-point value (its rounding depends on the order of the rows) is not translated")
	case *aggregation.Avg:
		// An exact AVG is gmsfix's (WrappedAvg): GMS's own sums floats.
		return "", true, errors.New("duckplan: AVG of a floating-point value (its rounding depends on the order of the rows) is not translated")
	}
	return "", false, nil
}

// orderable are the classes whose order DuckDB and MySQL agree on.
var orderable = []class{classInt, classUnsigned, classDecimal, classText, classBinary, classDate, classDatetime}

func (x *exprs) aggregateOf(fn string, arg sql.Expression, classes ...class) (string, error) {
	s, c, err := x.value(arg)
	if err != nil {
		return "", err
	}
	for _, ok := range classes {
		if c == ok || c == classNull {
			return fn + "(" + s + ")" + x.over, nil
		}
	}
	return "", fmt.Errorf("duckplan: %s of type %s is not translated", strings.ToUpper(fn), arg.Type())
}

// notTranslated is the refusal of an expression outside the allowlist,
// named as the user wrote it where GMS knows the name.
func notTranslated(e sql.Expression) error {
	switch e := e.(type) {
	case sql.FunctionExpression:
		return fmt.Errorf("duckplan: function %s is not translated", strings.ToUpper(e.FunctionName()))
	case *expression.Arithmetic:
		return fmt.Errorf("duckplan: operator %s is not translated", e.Operator())
	}
	kind := reflect.TypeOf(e).Elem().Name()
	if s := e.String(); !strings.Contains(s, "\n") && len(s) <= 60 {
		return fmt.Errorf("duckplan: expression %s (%s) is not translated", s, kind)
	}
	return fmt.Errorf("duckplan: expression %s is not translated", kind)
}

// isAggregate reports whether e is an aggregate function.
func isAggregate(e sql.Expression) bool {
	if _, ok := gmsfix.WrappedSum(e); ok {
		return true
	}
	_, ok := e.(sql.Aggregation)
	return ok
}
