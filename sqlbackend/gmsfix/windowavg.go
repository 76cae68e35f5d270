package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// ruleWindowAvgs is the analyzer rule id of typeWindowAvgs.
const ruleWindowAvgs analyzer.RuleId = 10_101

// windowAvgIncrement is what AVG adds to the scale of an exact argument
// (MySQL's div_precision_increment, 4 by default).
const windowAvgIncrement = 4

// typeWindowAvgs gives AVG over a window MySQL's type and values
// (windowAvg). GMS v0.20.0 declares a window AVG of the argument's type
// (aggregation.Avg.Type) and computes it in float64
// (aggregation.AvgAgg): AVG(int) OVER () was an INT, rounded; over only
// NULLs AVG(decimal) OVER (…) panicked converting NaN to a DECIMAL and
// AVG(double) was NaN. The rule replaces those AVGs and retypes every
// reference to them. AVG without a window is left to GMS's GroupBy.
func typeWindowAvgs(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	avgs, ok := windowAvgColumns(n)
	if !ok {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprs(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch e := e.(type) {
		case *aggregation.Avg:
			if e.Window() != nil {
				return newWindowAvg(e), transform.NewTree, nil
			}
		case *expression.GetField:
			if typ, ok := avgs[e.Id()]; ok && !types.TypesEqual(e.Type(), typ) {
				retyped := expression.NewGetFieldWithTable(e.Index(), int(e.TableId()), typ, e.Database(), e.Table(), e.Name(), e.IsNullable())
				return retyped.WithId(e.Id()).(sql.Expression), transform.NewTree, nil
			}
		}
		return e, transform.SameTree, nil
	})
}

// windowAvgColumns maps the column id of every AVG a Window computes, and
// of each alias of one (the column an ORDER BY above names), to its MySQL
// result type, and reports whether n has a Window.
func windowAvgColumns(n sql.Node) (map[sql.ColumnId]sql.Type, bool) {
	avgs := map[sql.ColumnId]sql.Type{}
	windows := false
	transform.Inspect(n, func(n sql.Node) bool {
		if w, ok := n.(*plan.Window); ok {
			windows = true
			for _, e := range w.SelectExprs {
				addWindowAvg(avgs, e)
			}
		}
		return true
	})
	if windows {
		addAvgAliases(n, avgs)
	}
	return avgs, windows
}

// addWindowAvg records e when it is a window AVG, or an alias of one.
func addWindowAvg(avgs map[sql.ColumnId]sql.Type, e sql.Expression) {
	alias, aliased := e.(*expression.Alias)
	if aliased {
		e = alias.Child
	}
	var typ sql.Type
	switch avg := e.(type) {
	case *aggregation.Avg:
		if avg.Window() == nil {
			return
		}
		typ = windowAvgType(avg.Child.Type())
		avgs[avg.Id()] = typ
	case *windowAvg:
		typ = avg.typ
		avgs[avg.Id()] = typ
	default:
		return
	}
	if aliased {
		avgs[alias.Id()] = typ
	}
}

// addAvgAliases records the aliases projections give window AVG columns:
// `SELECT AVG(x) OVER (…) AS c0 … ORDER BY c0` sorts by c0's column, which
// kept GMS's DOUBLE type over DECIMAL values, and compared them all as
// equal (a partitioned table's rows stayed in scan order).
func addAvgAliases(n sql.Node, avgs map[sql.ColumnId]sql.Type) {
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		if a, ok := e.(*expression.Alias); ok {
			if f, ok := a.Child.(*expression.GetField); ok {
				if typ, ok := avgs[f.Id()]; ok {
					avgs[a.Id()] = typ
				}
			}
		}
		return true
	})
}

// windowAvgType is MySQL's type of AVG over a value of type t: DECIMAL(p+4,
// s+4) for an integer or a DECIMAL, DOUBLE for anything else
// (https://dev.mysql.com/doc/refman/8.0/en/aggregate-functions.html#function_avg).
func windowAvgType(t sql.Type) sql.Type {
	precision, scale, ok := exactPrecision(t)
	if !ok {
		return types.Float64
	}
	typ, err := types.CreateDecimalType(
		uint8(min(precision+windowAvgIncrement, maxDecimalPrecision)),
		min(scale+windowAvgIncrement, types.DecimalTypeMaxScale))
	if err != nil {
		return types.Float64
	}
	return typ
}

// windowAvg is AVG over a window, of MySQL's type: an exact average of
// an integer or a DECIMAL, a DOUBLE otherwise, NULL over a frame without
// values.
type windowAvg struct {
	*aggregation.Avg
	typ sql.Type
}

var _ sql.WindowAdaptableExpression = (*windowAvg)(nil)

func newWindowAvg(avg *aggregation.Avg) *windowAvg {
	return &windowAvg{Avg: avg, typ: windowAvgType(avg.Child.Type())}
}

func (a *windowAvg) Type() sql.Type { return a.typ }

func (a *windowAvg) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := a.Avg.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return newWindowAvg(e.(*aggregation.Avg)), nil
}

func (a *windowAvg) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return newWindowAvg(a.Avg.WithWindow(w).(*aggregation.Avg))
}

func (a *windowAvg) WithId(id sql.ColumnId) sql.IdExpression {
	return newWindowAvg(a.Avg.WithId(id).(*aggregation.Avg))
}

// NewWindowFunction implements sql.WindowAdaptableExpression.
func (a *windowAvg) NewWindowFunction() (sql.WindowFunction, error) {
	child, err := transform.Clone(a.Child)
	if err != nil {
		return nil, err
	}
	w := &sumAvgWindow{expr: child, scale: -1}
	if d, ok := a.typ.(sql.DecimalType); ok {
		w.scale = int32(d.Scale())
	}
	return w.WithWindow(a.Window())
}

// sumAvgWindow computes averages (or with sum set, sums) over window
// frames from prefix sums of the partition: decimal sums for an exact
// result (scale >= 0), float64 ones otherwise. It serves AVG (windowAvg),
// exact SUM (exactSum) and SUM of floating-point values (windowexec.go).
type sumAvgWindow struct {
	expr   sql.Expression
	sum    bool
	scale  int32
	framer sql.WindowFramer
	start  int
	// the sums and the numbers of non-NULL values of the partition's
	// first i rows.
	sums   []decimal.Decimal
	floats []float64
	counts []int
}

var _ sql.WindowFunction = (*sumAvgWindow)(nil)

// WithWindow takes the frame of the window definition, if it has one.
func (w *sumAvgWindow) WithWindow(def *sql.WindowDefinition) (sql.WindowFunction, error) {
	out := *w
	if def != nil && def.Frame != nil {
		framer, err := def.Frame.NewFramer(def)
		if err != nil {
			return nil, err
		}
		out.framer = framer
	}
	return &out, nil
}

// DefaultFramer is aggregation.AvgAgg's (windowBuilder supplies MySQL's
// default frames).
func (w *sumAvgWindow) DefaultFramer() sql.WindowFramer {
	if w.framer != nil {
		return w.framer
	}
	return aggregation.NewUnboundedPrecedingToCurrentRowFramer()
}

func (w *sumAvgWindow) StartPartition(ctx *sql.Context, interval sql.WindowInterval, buf sql.WindowBuffer) error {
	n := interval.End - interval.Start
	w.start = interval.Start
	w.sums = make([]decimal.Decimal, n+1)
	w.floats = make([]float64, n+1)
	w.counts = make([]int, n+1)
	for i := range n {
		w.sums[i+1], w.floats[i+1], w.counts[i+1] = w.sums[i], w.floats[i], w.counts[i]
		v, err := w.expr.Eval(ctx, buf[interval.Start+i])
		if err != nil {
			return err
		}
		if v == nil {
			continue
		}
		if err := w.add(ctx, i+1, v); err != nil {
			return err
		}
	}
	return nil
}

// add adds v to the sums of the first i rows.
func (w *sumAvgWindow) add(ctx *sql.Context, i int, v any) error {
	w.counts[i]++
	if w.scale >= 0 {
		d, err := exactValue(ctx, v)
		w.sums[i] = w.sums[i].Add(d)
		return err
	}
	f, _, err := types.Float64.Convert(ctx, v)
	if err != nil {
		return err
	}
	w.floats[i] += f.(float64)
	return nil
}

// Compute is the average (or sum) of the frame's values, NULL for a frame
// without any.
func (w *sumAvgWindow) Compute(_ *sql.Context, interval sql.WindowInterval, _ sql.WindowBuffer) any {
	from, to := interval.Start-w.start, interval.End-w.start
	if to <= from {
		return nil
	}
	count := w.counts[to] - w.counts[from]
	if count == 0 {
		return nil
	}
	if w.scale >= 0 {
		sum := w.sums[to].Sub(w.sums[from])
		if w.sum {
			return sum.Round(w.scale)
		}
		return sum.DivRound(decimal.NewFromInt(int64(count)), w.scale)
	}
	if w.sum {
		return w.floats[to] - w.floats[from]
	}
	return (w.floats[to] - w.floats[from]) / float64(count)
}

func (w *sumAvgWindow) Dispose() {}
