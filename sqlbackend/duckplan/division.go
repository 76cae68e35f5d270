package duckplan

import (
	"errors"
	"fmt"
	"strings"

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

// divide is / of signed integers l and r as gmsfix's exact division
// (gmsfix.ExactDivision) and MySQL compute it: the exact quotient rounded
// once, half away from zero, to scale (div_precision_increment, 4, for
// integers); NULL when dividing by 0. The rounding is done on magnitudes
// in HUGEINTs, as (|l|·10^scale + |r| // 2) // |r|, which rounds halves
// up for odd and even |r| alike, and the sign put back after; a BIGINT
// times 10^4 fits.
func (x *exprs) divide(l, r sql.Expression, scale uint8) (string, error) {
	ls, rs, err := x.division("/", l, r, classInt)
	if err != nil {
		return "", err
	}
	unit := "1" + strings.Repeat("0", int(scale))
	a := "(abs(CAST(" + ls + " AS HUGEINT)) * CAST(" + unit + " AS HUGEINT))"
	b := "abs(CAST(" + rs + " AS HUGEINT))"
	rounded := "((" + a + " + " + b + " // 2) // " + b + ")"
	sign := "(sign(CAST(" + ls + " AS HUGEINT)) * sign(CAST(" + rs + " AS HUGEINT)))"
	ulp := "0." + strings.Repeat("0", int(scale)-1) + "1"
	return fmt.Sprintf("(CAST(%s * %s AS DECIMAL(38,0)) * CAST('%s' AS DECIMAL(%d,%d)))", sign, rounded, ulp, scale, scale), nil
}

// errGMSDivision refuses GMS's own /, which gmsfix leaves only where
// MySQL keeps its quotient unrounded (inside arithmetic) or over other
// types than integers and DECIMALs.
var errGMSDivision = errors.New("duckplan: / other than gmsfix's exact division is not translated")

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
