package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleFlowTypes is the analyzer rule id of typeFlowFunctions.
const ruleFlowTypes analyzer.RuleId = 10_301

// typeFlowFunctions gives COALESCE, IFNULL, CASE and IF MySQL's result
// type, the
// aggregate of their value arguments' types (aggregateType), and converts
// each value to it. GMS v0.20.0 takes the type of the last DECIMAL
// argument for COALESCE (function.Coalesce.Type), so COALESCE(amt, 53.50)
// with amt DECIMAL(12,2) was DECIMAL(4,2) and failed "Out of range" on
// 115.25, also in UPDATE … SET amt = COALESCE(amt, 98.75); it made
// COALESCE of a DATE and a string LONGTEXT of the DATE as a DATETIME
// ('2024-01-01 00:00:00'); and CASE over DECIMALs is DECIMAL(65,10)
// (expression.combinedCaseBranchType) whatever their scales; IF of
// DECIMAL(12,2) and DECIMAL(9,3) was DECIMAL(65,2), IFNULL(dt, 'x') a DATE
// holding 'x'. IFNULL becomes the COALESCE it equals, IF the CASE. Arguments of
// types aggregateType does not cover keep GMS's expressions.
//
// A column of an exact SUM is read as the DECIMAL typeExactSums makes it
// later: GMS types it DOUBLE, and COALESCE(SUM(amt), 0) took that type and
// answered 1.00025e+06 for 1000250.00.
func typeFlowFunctions(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	sums := exactSumColumns(n)
	return rewritePlan(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *expression.GetField:
			return fieldOfColumnType(x, sums)
		case *function.Coalesce:
			return typedCoalesce(ctx, x)
		case *function.IfNull:
			coalesce, err := function.NewCoalesce(x.Left(), x.Right())
			if err != nil {
				return nil, transform.SameTree, err
			}
			if out, same, err := typedCoalesce(ctx, coalesce.(*function.Coalesce)); err != nil || same == transform.NewTree {
				return out, same, err
			}
		case *expression.Case:
			if out, ok := newTypedCase(ctx, x, x.Type()); ok {
				return out, transform.NewTree, nil
			}
		case *function.If:
			args := x.Children()
			c := expression.NewCase(nil, []expression.CaseBranch{{Cond: args[0], Value: args[1]}}, args[2])
			if out, ok := newTypedCase(ctx, c, x.Type()); ok {
				return out, transform.NewTree, nil
			}
		}
		return e, transform.SameTree, nil
	})
}

// newTypedCase is c with the aggregate type of its values, when that is not
// gmsType or some value needs converting to it.
func newTypedCase(ctx *sql.Context, c *expression.Case, gmsType sql.Type) (*typedCase, bool) {
	typ, ok := caseType(c)
	if !ok || types.TypesEqual(typ, gmsType) && sameTypes(ctx, caseValues(c), typ) {
		return nil, false
	}
	return &typedCase{Case: c, typ: typ}, true
}

// typedCoalesce is GMS's COALESCE over the arguments converted to their
// aggregate type, which is then its type too.
func typedCoalesce(ctx *sql.Context, c *function.Coalesce) (sql.Expression, transform.TreeIdentity, error) {
	args := c.Children()
	typ, ok := aggregateType(expressionTypes(args))
	if !ok || sameTypes(ctx, args, typ) {
		return c, transform.SameTree, nil
	}
	converted := make([]sql.Expression, len(args))
	for i, arg := range args {
		converted[i] = newToAggregate(ctx, arg, typ)
	}
	out, err := function.NewCoalesce(converted...)
	return out, transform.NewTree, err
}

func expressionTypes(es []sql.Expression) []sql.Type {
	ts := make([]sql.Type, len(es))
	for i, e := range es {
		ts[i] = e.Type()
	}
	return ts
}

// sameTypes reports whether every expression of es already has type typ
// or is NULL.
func sameTypes(ctx *sql.Context, es []sql.Expression, typ sql.Type) bool {
	for _, e := range es {
		if newToAggregate(ctx, e, typ) != e {
			return false
		}
	}
	return true
}

// caseType is the aggregate type of the values of c.
func caseType(c *expression.Case) (sql.Type, bool) {
	return aggregateType(expressionTypes(caseValues(c)))
}

// caseValues are the expressions whose values c returns.
func caseValues(c *expression.Case) []sql.Expression {
	var values []sql.Expression
	for _, b := range c.Branches {
		values = append(values, b.Value)
	}
	if c.Else != nil {
		values = append(values, c.Else)
	}
	return values
}

// typedCase is a CASE of MySQL's type: GMS's conditions, its value
// converted from the type of the branch taken to the aggregate type.
type typedCase struct {
	*expression.Case
	typ sql.Type
}

var _ sql.Expression = (*typedCase)(nil)

func (c *typedCase) Type() sql.Type { return c.typ }

func (c *typedCase) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return c.typ.CollationCoercibility(ctx)
}

func (c *typedCase) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := c.Case.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &typedCase{Case: e.(*expression.Case), typ: c.typ}, nil
}

// Eval is expression.Case.Eval without its conversion to GMS's type.
func (c *typedCase) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	for _, b := range c.Branches {
		cond := b.Cond
		if c.Expr != nil {
			cond = expression.NewEquals(c.Expr, b.Cond)
		}
		res, err := sql.EvaluateCondition(ctx, cond, row)
		if err != nil {
			return nil, err
		}
		if sql.IsTrue(res) {
			return c.value(ctx, b.Value, row)
		}
	}
	if c.Else == nil {
		return nil, nil
	}
	return c.value(ctx, c.Else, row)
}

func (c *typedCase) value(ctx *sql.Context, e sql.Expression, row sql.Row) (any, error) {
	v, err := e.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	return convertToAggregate(ctx, v, e.Type(), c.typ)
}

// TypedCase is the GMS CASE (also IF, which GMS plans as a CASE) that a
// CASE of MySQL's type wraps, and that type, for the backend to translate
// it as any CASE: ok is false for other expressions.
func TypedCase(e sql.Expression) (c *expression.Case, typ sql.Type, ok bool) {
	if t, ok := e.(*typedCase); ok {
		return t.Case, t.typ, true
	}
	return nil, nil, false
}
