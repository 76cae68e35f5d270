package duckplan

import (
	"errors"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// The division operators are translated only over columns and constants
// of signed integers (and, for %, DECIMALs), and never inside other
// arithmetic: GMS computes a / nested in arithmetic, or over arithmetic,
// in float64 and with scales it derives from the values (expression.Div,
// getFinalScale).

// division is /, DIV or % of l and r.
func (x *exprs) division(op string, l, r sql.Expression, classes ...class) (string, string, error) {
	operands := []sql.Expression{l, r}
	out := make([]string, 2)
	for i, e := range operands {
		if !isColumnOrConstant(e) {
			return "", "", fmt.Errorf("duckplan: %s of a computed value is not translated", op)
		}
		s, c, err := x.value(e)
		if err != nil {
			return "", "", err
		}
		if c != classNull && !contains(classes, c) {
			return "", "", fmt.Errorf("duckplan: %s of type %s is not translated", op, e.Type())
		}
		out[i] = s
	}
	return out[0], out[1], nil
}

func contains(classes []class, c class) bool {
	for _, k := range classes {
		if k == c {
			return true
		}
	}
	return false
}

func isColumnOrConstant(e sql.Expression) bool {
	switch e.(type) {
	case *expression.GetField, *expression.Literal:
		return true
	}
	return false
}

// divide is / of integers as GMS v0.20.0 computes it (expression.Div.div
// and Eval): the quotient rounded half away from zero to 11 decimals,
// truncated to 9, then rounded half away from zero to 4, MySQL's scale of
// an integer quotient (div_precision_increment); NULL when dividing by 0.
// The rounding is done on magnitudes in HUGEINTs, the sign put back
// after; the 11 digits of the first rounding fit with BIGINT operands.
func (x *exprs) divide(e *expression.Div) (string, error) {
	l, r, err := x.division("/", e.LeftChild, e.RightChild, classInt)
	if err != nil {
		return "", err
	}
	a := "(abs(CAST(" + l + " AS HUGEINT)) * CAST(100000000000 AS HUGEINT))"
	b := "abs(CAST(" + r + " AS HUGEINT))"
	rounded11 := "((" + a + " + " + b + " // 2) // " + b + ")"
	truncated9 := "(" + rounded11 + " // 100)"
	rounded4 := "((" + truncated9 + " + 50000) // 100000)"
	sign := "(sign(CAST(" + l + " AS HUGEINT)) * sign(CAST(" + r + " AS HUGEINT)))"
	return "(CAST(" + sign + " * " + rounded4 + " AS DECIMAL(38,0)) * CAST('0.0001' AS DECIMAL(4,4)))", nil
}

// intDivide is DIV of signed integers: BIGINT division truncating toward
// zero, NULL when dividing by 0, in DuckDB as in GMS
// (expression.IntDiv); the one overflow, of the smallest BIGINT by -1,
// fails in DuckDB as in MySQL, where GMS wraps.
func (x *exprs) intDivide(e *expression.IntDiv) (string, error) {
	l, r, err := x.division("DIV", e.LeftChild, e.RightChild, classInt)
	if err != nil {
		return "", err
	}
	return "(" + widened(l, classInt) + " // " + widened(r, classInt) + ")", nil
}

// modulo is % of signed integers or DECIMALs: the remainder of the
// division truncating toward zero, with the dividend's sign, NULL for a
// divisor of 0, as GMS's decimal Mod and DuckDB's % compute it. Two
// integers are taken as HUGEINTs, so that the smallest BIGINT % -1 is 0
// as in MySQL, not DuckDB's overflow of the quotient; with a DECIMAL,
// DuckDB takes an integer as a DECIMAL of its digits.
func (x *exprs) modulo(e *expression.Mod) (string, error) {
	l, r, err := x.division("%", e.LeftChild, e.RightChild, classInt, classDecimal)
	if err != nil {
		return "", err
	}
	if !types.IsDecimal(e.LeftChild.Type()) && !types.IsDecimal(e.RightChild.Type()) {
		l, r = "CAST("+l+" AS HUGEINT)", "CAST("+r+" AS HUGEINT)"
	}
	return "(" + l + " % " + r + ")", nil
}

// errDivisionInArithmetic refuses arithmetic over a division.
var errDivisionInArithmetic = errors.New("duckplan: arithmetic over /, DIV or % is not translated")

// hasDivision reports whether e holds /, DIV or %.
func hasDivision(e sql.Expression) bool {
	return transform.InspectExpr(e, func(e sql.Expression) bool {
		switch e.(type) {
		case *expression.Div, *expression.IntDiv, *expression.Mod:
			return true
		}
		return false
	})
}
