package gmsfix

import (
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
	"github.com/shopspring/decimal"

	lakesqltypes "github.com/lakesql/lakesql/planner/sqltypes"
)

// keepDecimalLiterals keeps the decimal literals compared with a column
// as written. GMS v0.20.0's planbuilder converts the literal of
// column-op-literal to a DECIMAL column's type when the column's text is
// at least as long as the literal's (planbuilder/scalar.go
// typeExpandComparisonLiteral), which rounds it to the column's scale:
// qty = 7.5 with qty DECIMAL(6,0) became qty = 8 and matched 8, and
// amt > 2.505 became amt > 2.51, where MySQL compares the values exactly.
// The parser wraps each such literal in a CAST to a DECIMAL one digit
// wider, which the planbuilder keeps (a CAST to the literal's own type it
// drops, factory.buildConvert), and compareNumbersAsMySQL takes the CAST
// away again (plainDecimalLiteral): the comparison then has the literal
// GMS would have built without the conversion.
func keepDecimalLiterals(stmt ast.Statement) ast.Statement {
	if stmt == nil {
		return nil
	}
	if explain, ok := stmt.(*ast.Explain); ok {
		// Walk does not descend into EXPLAIN.
		keepDecimalLiterals(explain.Statement)
		return stmt
	}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if c, ok := node.(*ast.ComparisonExpr); ok && comparesValues(c.Operator) {
			_, leftCol := c.Left.(*ast.ColName)
			_, rightCol := c.Right.(*ast.ColName)
			if rightCol {
				c.Left = castedDecimal(c.Left)
			}
			if leftCol {
				c.Right = castedDecimal(c.Right)
			}
		}
		return true, nil
	}, stmt)
	return stmt
}

func comparesValues(op string) bool {
	switch op {
	case ast.EqualStr, ast.LessThanStr, ast.GreaterThanStr, ast.LessEqualStr, ast.GreaterEqualStr, ast.NotEqualStr, ast.NullSafeEqualStr:
		return true
	}
	return false
}

// castedDecimal is e, a decimal literal with a fraction, cast to a DECIMAL
// with one more digit of precision; any other e as it is.
func castedDecimal(e ast.Expr) ast.Expr {
	v, ok := e.(*ast.SQLVal)
	if !ok || v.Type != ast.FloatVal || strings.ContainsAny(string(v.Val), "eE") {
		return e
	}
	precision, scale := expression.GetDecimalPrecisionAndScale(string(v.Val))
	if scale == 0 || int(precision) >= maxDecimalPrecision {
		return e
	}
	return &ast.ConvertExpr{Name: "CAST", Expr: v, Type: &ast.ConvertType{
		Type:   "decimal",
		Length: ast.NewIntVal([]byte(strconv.Itoa(int(precision) + 1))),
		Scale:  ast.NewIntVal([]byte(strconv.Itoa(int(scale)))),
	}}
}

// plainDecimalLiteral is a decimal constant operand of a comparison as a
// literal of a DECIMAL type that rounds nothing it is compared with (not a
// column's type): the literal under a CAST to a DECIMAL of its scale and
// at least its precision, or such a CAST folded into a literal (GMS's
// simplifyFilters evaluates constant expressions of filters). MySQL
// compares DECIMAL values exactly whatever their types.
func plainDecimalLiteral(e sql.Expression) (sql.Expression, bool) {
	if conv, ok := e.(*expression.Convert); ok {
		lit, ok := conv.Child.(*expression.Literal)
		if !ok || !types.IsDecimal(conv.Type()) || !types.IsDecimal(lit.Type()) {
			return e, false
		}
		to, from := conv.Type().(sql.DecimalType), lit.Type().(sql.DecimalType)
		if to.Scale() != from.Scale() || to.Precision() < from.Precision() {
			return e, false
		}
		e = expression.NewLiteral(lit.Value(), to)
	}
	lit, ok := e.(*expression.Literal)
	if !ok || !types.IsDecimal(lit.Type()) {
		return e, false
	}
	d, isDecimal := lit.Value().(decimal.Decimal)
	typ := lit.Type().(sql.DecimalType)
	if !isDecimal || !lakesqltypes.DecimalDefinesColumn(typ) || -d.Exponent() > int32(typ.Scale()) {
		return e, false
	}
	return expression.NewLiteral(d, types.MustCreateDecimalType(typ.Precision(), typ.Scale())), true
}
