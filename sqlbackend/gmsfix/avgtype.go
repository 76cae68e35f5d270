package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// ruleExactAvgs is the analyzer rule id of typeExactAvgs.
const ruleExactAvgs analyzer.RuleId = 10_302

// avgScaleIncrement is MySQL's default div_precision_increment: AVG of an
// exact value has 4 more decimals than its argument.
const avgScaleIncrement = 4

// typeExactAvgs gives AVG over an exact value (an integer or a DECIMAL) in
// a GROUP BY or an aggregate query MySQL's result type, DECIMAL(min(65,
// p+4), min(30, s+4)), computed exactly (exactAvg): "AVG() … return a
// DECIMAL value for exact-value arguments (integer or DECIMAL)"
// (https://dev.mysql.com/doc/refman/8.0/en/aggregate-functions.html).
// GMS v0.20.0 declares every AVG a DOUBLE (aggregation.Avg.Type) and
// averages integers as float64. AVG of FLOAT or DOUBLE stays a DOUBLE, as
// in MySQL. AVG over a window keeps GMS's function.
func typeExactAvgs(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return rewritePlanNodes(n, func(n sql.Node) transform.ExprFunc {
		if _, ok := n.(*plan.GroupBy); !ok {
			return nil
		}
		return func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			if avg, ok := e.(*aggregation.Avg); ok {
				if typ, ok := exactAvgType(avg.Child.Type()); ok {
					return &exactAvg{Avg: avg, typ: typ}, transform.NewTree, nil
				}
			}
			return e, transform.SameTree, nil
		}
	})
}

// exactAvgType is MySQL's type of AVG over an exact value of type t.
func exactAvgType(t sql.Type) (sql.DecimalType, bool) {
	precision, scale, ok := exactPrecision(t)
	if !ok {
		return nil, false
	}
	typ, err := types.CreateDecimalType(uint8(min(precision+avgScaleIncrement, maxDecimalPrecision)),
		min(scale+avgScaleIncrement, types.DecimalTypeMaxScale))
	return typ, err == nil
}

// exactAvg is AVG of an integer or DECIMAL argument in a GROUP BY: the
// exact sum divided by the count, rounded half away from zero to the
// type's scale as MySQL's decimal division rounds.
type exactAvg struct {
	*aggregation.Avg
	typ sql.DecimalType
}

var _ sql.Aggregation = (*exactAvg)(nil)

// WrappedAvg is the GMS AVG of an integer or a DECIMAL that an exact AVG
// replaced (typeExactAvgs in a GROUP BY, typeWindowAvgs over a window)
// and the DECIMAL type it gives it, for the backend to compute the same
// value: ok is false for other expressions.
func WrappedAvg(e sql.Expression) (avg *aggregation.Avg, typ sql.DecimalType, ok bool) {
	switch a := e.(type) {
	case *exactAvg:
		return a.Avg, a.typ, true
	case *windowAvg:
		if d, ok := a.typ.(sql.DecimalType); ok {
			return a.Avg, d, true
		}
	}
	return nil, nil, false
}

func (a *exactAvg) Type() sql.Type { return a.typ }

func (a *exactAvg) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := a.Avg.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &exactAvg{Avg: e.(*aggregation.Avg), typ: a.typ}, nil
}

func (a *exactAvg) WithId(id sql.ColumnId) sql.IdExpression {
	return &exactAvg{Avg: a.Avg.WithId(id).(*aggregation.Avg), typ: a.typ}
}

// NewBuffer implements sql.Aggregation.
func (a *exactAvg) NewBuffer() (sql.AggregationBuffer, error) {
	child, err := transform.Clone(a.Child)
	if err != nil {
		return nil, err
	}
	return &exactAvgBuffer{expr: child, scale: int32(a.typ.Scale())}, nil
}

// exactAvgBuffer averages a group's non-NULL values; no value or only
// NULLs average to NULL.
type exactAvgBuffer struct {
	expr  sql.Expression
	sum   decimal.Decimal
	count int64
	scale int32
}

func (b *exactAvgBuffer) Update(ctx *sql.Context, row sql.Row) error {
	v, err := b.expr.Eval(ctx, row)
	if err != nil || v == nil {
		return err
	}
	d, err := exactValue(ctx, v)
	if err != nil {
		return err
	}
	b.sum, b.count = b.sum.Add(d), b.count+1
	return nil
}

func (b *exactAvgBuffer) Eval(*sql.Context) (any, error) {
	if b.count == 0 {
		return nil, nil
	}
	return b.sum.DivRound(decimal.NewFromInt(b.count), b.scale).Round(b.scale), nil
}

func (b *exactAvgBuffer) Dispose() {}
