package gmsfix

import (
	"strconv"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// literal is a SQL numeric literal: a BIGINT (UNSIGNED when it must be),
// or a DECIMAL of its digits.
func literal(t *testing.T, s string) sql.Expression {
	t.Helper()
	if d, err := decimal.NewFromString(s); err == nil && d.Exponent() < 0 {
		scale := uint8(-d.Exponent())
		return expression.NewLiteral(d, types.MustCreateDecimalType(max(uint8(len(d.Coefficient().String())), scale), scale))
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return expression.NewLiteral(i, types.Int64)
	}
	u, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return expression.NewLiteral(u, types.Uint64)
}

// / of integers and DECIMALs is the quotient truncated to whole 9-digit
// words and rounded once, half away from zero, to the dividend's scale
// plus 4 (truncated where those are the same, 0.00005 / 3); the answers
// are MariaDB 10.11's. GMS rounded twice (0.0000499999995 to
// 0.00005000000, then to 0.0001).
func TestExactDivision(t *testing.T) {
	ctx := sql.NewEmptyContext()
	for _, c := range []struct{ l, r, want string }{
		{"499999995", "10000000000000", "0.0000"},
		{"500000000", "10000000000000", "0.0001"},
		{"-500000000", "10000000000000", "-0.0001"},
		{"1", "-20000", "-0.0001"},
		{"9223372036854775807", "-9223372036854775808", "-1.0000"},
		{"-9223372036854775808", "-1", "9223372036854775808.0000"},
		{"-9223372036854775808", "3", "-3074457345618258602.6667"},
		{"9223372036854775807", "2", "4611686018427387903.5000"},
		{"18446744073709551615", "-7", "-2635249153387078802.1429"},
		{"2.50", "4", "0.625000"},
		{"-2.50", "4", "-0.625000"},
		{"1.005", "1000", "0.0010050"},
		{"0.00005", "3", "0.000016666"},
		{"12345678901234567890.123456789", "0.000000001", "12345678901234567890123456789.0000000000000"},
		{"1", "999999999999999999", "0.0000"},
		{"123456789", "0.5", "246913578.0000"},
	} {
		out, _, err := divideExactlyExpr(t, expression.NewDiv(literal(t, c.l), literal(t, c.r)))
		if err != nil {
			t.Fatalf("%s / %s: %v", c.l, c.r, err)
		}
		got, err := out.Eval(ctx, nil)
		if err != nil {
			t.Fatalf("%s / %s: %v", c.l, c.r, err)
		}
		scale := out.Type().(sql.DecimalType).Scale()
		if s := got.(decimal.Decimal).StringFixed(int32(scale)); s != c.want {
			t.Errorf("%s / %s = %s, want %s", c.l, c.r, s, c.want)
		}
	}
}

// A divisor of 0 or a NULL operand is NULL; division by 0 warns.
func TestExactDivisionNull(t *testing.T) {
	ctx := sql.NewEmptyContext()
	for _, d := range []*expression.Div{
		expression.NewDiv(literal(t, "7"), literal(t, "0")),
		expression.NewDiv(literal(t, "7"), literal(t, "0.00")),
		expression.NewDiv(expression.NewLiteral(nil, types.Int64), literal(t, "2")),
	} {
		out, _, err := divideExactlyExpr(t, d)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := out.Eval(ctx, nil); got != nil || err != nil {
			t.Errorf("%s = %v, %v; want NULL", d, got, err)
		}
	}
	if ctx.Session.WarningCount() != 2 {
		t.Errorf("%d warnings, want 2 (Division by 0)", ctx.Session.WarningCount())
	}
}

// Only a / whose value is a result is rounded: inside arithmetic GMS's
// stays, and under CAST and ROUND the quotient is MySQL's unrounded one,
// truncated to whole 9-digit words.
func TestExactDivisionPlaces(t *testing.T) {
	ctx := sql.NewEmptyContext()
	div := func() *expression.Div {
		return expression.NewDiv(literal(t, "499999995"), literal(t, "10000000000000"))
	}
	nested, _, err := divideExactlyExpr(t, expression.NewPlus(div(), literal(t, "1")))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := nested.Children()[0].(*expression.Div); !ok {
		t.Errorf("a / under + is %T, want GMS's Div", nested.Children()[0])
	}
	cast, _, err := divideExactlyExpr(t, expression.NewConvertWithLengthAndScale(div(), "decimal", 20, 12))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := cast.Eval(ctx, nil); err != nil || got.(decimal.Decimal).StringFixed(12) != "0.000049999000" {
		t.Errorf("CAST(499999995 / 10000000000000 AS DECIMAL(20,12)) = %v, %v; want 0.000049999000", got, err)
	}
	r, err := function.NewRound(expression.NewDiv(literal(t, "1"), literal(t, "3")), literal(t, "6"))
	if err != nil {
		t.Fatal(err)
	}
	round, _, err := divideExactlyExpr(t, r)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := round.Eval(ctx, nil); err != nil || got.(decimal.Decimal).StringFixed(6) != "0.333333" {
		t.Errorf("ROUND(1 / 3, 6) = %v, %v; want 0.333333", got, err)
	}
}

// SUM and AVG add MySQL's unrounded quotients (SUM(a/3) over 1, 1, 1, 2
// is 1.666666665, shown 1.6667), which the backend is not given to
// translate.
func TestExactDivisionUnderAggregates(t *testing.T) {
	for _, agg := range []func(sql.Expression) sql.Expression{
		func(e sql.Expression) sql.Expression { return aggregation.NewSum(e) },
		func(e sql.Expression) sql.Expression { return aggregation.NewAvg(e) },
	} {
		out, _, err := divideExactlyExpr(t, agg(expression.NewDiv(literal(t, "1"), literal(t, "3"))))
		if err != nil {
			t.Fatal(err)
		}
		d := out.Children()[0]
		got, err := d.Eval(sql.NewEmptyContext(), nil)
		if err != nil || got.(decimal.Decimal).String() != "0.333333333" {
			t.Errorf("1 / 3 under %T = %v, %v; want 0.333333333", out, got, err)
		}
		if _, _, _, ok := ExactDivision(d); ok {
			t.Errorf("the unrounded quotient under %T is offered for translation", out)
		}
	}
}

// divideExactlyExpr applies divideExactly to e as the one expression of a
// projection.
func divideExactlyExpr(t *testing.T, e sql.Expression) (sql.Expression, bool, error) {
	t.Helper()
	n, same, err := divideExactly(nil, nil, plan.NewProject([]sql.Expression{e}, plan.NewEmptyTableWithSchema(nil)), nil, nil, nil)
	if err != nil {
		return nil, false, err
	}
	return n.(*plan.Project).Projections[0], same == transform.SameTree, nil
}
