package gmsfix

import (
	"fmt"
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"

	lakesqltypes "github.com/lakesql/lakesql/planner/sqltypes"
)

// ruleFloatTexts is the analyzer rule id of writeFloatsAsMySQL.
const ruleFloatTexts analyzer.RuleId = 10_105

// FloatTexts is writeFloatsAsMySQL, a post-analysis rule.
var FloatTexts = analyzer.Rule{Id: ruleFloatTexts, Apply: writeFloatsAsMySQL}

// writeFloatsAsMySQL makes CONCAT, CONCAT_WS and CAST(… AS CHAR) turn a
// DOUBLE or FLOAT argument into text laid out as MySQL's (planner/sqltypes
// DoubleText and FloatText), as result rows already are: GMS writes
// 1e15 as 1000000000000000 and 1.5e-16 as 0.00000000000000015 there.
func writeFloatsAsMySQL(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return withSubqueries(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch e := e.(type) {
		case *function.Concat, *function.ConcatWithSeparator:
		case *expression.Convert:
			if !types.IsText(e.Type()) {
				return e, transform.SameTree, nil
			}
		default:
			return e, transform.SameTree, nil
		}
		children := slices.Clone(e.Children())
		changed := false
		for i, c := range children {
			if types.IsFloat(c.Type()) {
				children[i], changed = &floatText{child: c}, true
			}
		}
		if !changed {
			return e, transform.SameTree, nil
		}
		rewritten, err := e.WithChildren(children...)
		return rewritten, transform.NewTree, err
	})
}

// withSubqueries applies f to the expressions of n and of the subqueries
// in them, which a rule is not run on by itself.
func withSubqueries(n sql.Node, f transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprsWithOpaque(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if sq, ok := e.(*plan.Subquery); ok {
			q, same, err := withSubqueries(sq.Query, f)
			if err != nil || same {
				return e, transform.SameTree, err
			}
			return sq.WithQuery(q), transform.NewTree, nil
		}
		return f(e)
	})
}

// floatText is the text MySQL writes for its DOUBLE or FLOAT child.
type floatText struct{ child sql.Expression }

var _ sql.CollationCoercible = (*floatText)(nil)

func (f *floatText) Resolved() bool             { return f.child.Resolved() }
func (f *floatText) IsNullable() bool           { return f.child.IsNullable() }
func (f *floatText) Type() sql.Type             { return types.LongText }
func (f *floatText) Children() []sql.Expression { return []sql.Expression{f.child} }
func (f *floatText) String() string             { return f.child.String() }
func (f *floatText) DebugString() string {
	return fmt.Sprintf("floatText(%s)", sql.DebugString(f.child))
}

func (f *floatText) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, f.child)
}

func (f *floatText) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(f, len(children), 1)
	}
	return &floatText{child: children[0]}, nil
}

func (f *floatText) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := f.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if text, ok := lakesqltypes.FloatValueText(v); ok {
		return text, nil
	}
	converted, _, err := f.child.Type().Convert(ctx, v)
	if err != nil {
		return nil, err
	}
	text, _ := lakesqltypes.FloatValueText(converted)
	return text, nil
}
