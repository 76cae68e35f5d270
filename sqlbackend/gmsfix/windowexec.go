package gmsfix

import (
	"errors"
	"io"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// windowBuilder executes plan.Window with MySQL's semantics where GMS
// v0.20.0's execution (rowexec.buildWindow and windowToIter, over
// aggregation.WindowIter) departs from them:
//
//   - over no rows GMS's aggregation.WindowPartitionIter produces one
//     default row when the window has no PARTITION BY (a leftover of
//     aggregates without GROUP BY; DENSE_RANK() OVER (ORDER BY x) over an
//     empty join answered one NULL) and panics in findInclusionBoundary
//     when a frame searches the ORDER BY values (COUNT(*) OVER (ORDER BY
//     x)); a window function adds a column to its block's rows and never
//     a row (https://dev.mysql.com/doc/refman/8.0/en/window-functions-usage.html);
//
//   - with ORDER BY and no frame clause the frame is RANGE BETWEEN
//     UNBOUNDED PRECEDING AND CURRENT ROW, which includes the current
//     row's peers (https://dev.mysql.com/doc/refman/8.0/en/window-functions-frames.html);
//     GMS's window aggregates default to a ROWS frame (SUM, AVG, MIN,
//     FIRST/LAST_VALUE: running values that differ between peers), to
//     the whole partition (MAX, BIT_*), or to a RANGE over the first
//     ORDER BY key only (COUNT);
//
//   - SUM of a DOUBLE over a frame of only NULLs is 0 (aggregation.SumAgg),
//     where every aggregate of no values is NULL
//     (https://dev.mysql.com/doc/refman/8.0/en/aggregate-functions.html);
//
//   - RANK, DENSE_RANK and PERCENT_RANK find peers with Go's != on the
//     values (aggregation.isNewOrderByValue), so equal DECIMALs (and
//     times) read into different objects are not peers, and BLOBs panic.
//
//   - explicit RANGE frames are rangeFramer's.
//
// Everything else, the functions themselves and explicit ROWS frames,
// stays GMS's.
type windowBuilder struct {
	// exec is the builder windowBuilder overrides; it builds the children.
	exec sql.NodeExecBuilder
	// first are tried before it, in order.
	first []sql.NodeExecBuilder
}

// ExecBuilder is GMS's executor with plan.Window built by windowBuilder,
// and the nodes first build (a nil iterator where they do not) built
// their way.
func ExecBuilder(first ...sql.NodeExecBuilder) sql.NodeExecBuilder {
	w := &windowBuilder{first: first}
	w.exec = rowexec.NewOverrideBuilder(w)
	return w.exec
}

// Build implements sql.NodeExecBuilder: nil for every node but a Window
// and those first build, which the overridden builder then builds as
// usual.
func (w *windowBuilder) Build(ctx *sql.Context, n sql.Node, row sql.Row) (sql.RowIter, error) {
	for _, b := range w.first {
		if iter, err := b.Build(ctx, n, row); iter != nil || err != nil {
			return iter, err
		}
	}
	win, ok := n.(*plan.Window)
	if !ok {
		return nil, nil
	}
	child, err := w.exec.Build(ctx, win.Child, row)
	if err != nil {
		return nil, err
	}
	return &windowIter{window: win, child: child}, nil
}

// windowIter reads its child to the end and, unless it had no rows,
// evaluates the window's expressions over them with GMS's WindowIter,
// given MySQL's frames.
type windowIter struct {
	window *plan.Window
	child  sql.RowIter
	inner  sql.RowIter
	done   bool
}

func (i *windowIter) Next(ctx *sql.Context) (sql.Row, error) {
	if i.done {
		return nil, io.EOF
	}
	if i.inner == nil {
		rows, err := drainWindowInput(ctx, i.child)
		i.child = nil
		if err != nil {
			return nil, err
		}
		if len(rows) == 0 {
			i.done = true
			return nil, io.EOF
		}
		blocks, ordinals, err := windowBlocks(i.window)
		if err != nil {
			return nil, err
		}
		i.inner = aggregation.NewWindowIter(blocks, ordinals, sql.RowsToRowIter(rows...))
	}
	return i.inner.Next(ctx)
}

func (i *windowIter) Close(ctx *sql.Context) error {
	var err error
	if i.child != nil {
		err = i.child.Close(ctx)
	}
	if i.inner != nil {
		err = errors.Join(err, i.inner.Close(ctx))
	}
	return err
}

// drainWindowInput reads iter to the end and closes it.
func drainWindowInput(ctx *sql.Context, iter sql.RowIter) ([]sql.Row, error) {
	var rows []sql.Row
	for {
		row, err := iter.Next(ctx)
		if errors.Is(err, io.EOF) {
			return rows, iter.Close(ctx)
		}
		if err != nil {
			return nil, errors.Join(err, iter.Close(ctx))
		}
		rows = append(rows, row)
	}
}

// windowBlocks groups the window's expressions by window (PARTITION BY
// and ORDER BY), one WindowPartitionIter each, and returns with them the
// output column of each of their functions. An expression that is not a
// window function is the value of its row (GMS's LastAgg over an empty
// window).
func windowBlocks(w *plan.Window) ([]*aggregation.WindowPartitionIter, [][]int, error) {
	var blocks []*aggregation.WindowPartition
	var ordinals [][]int
	index := map[uint64]int{}
	for i, e := range w.SelectExprs {
		fn, def, err := windowFunction(e)
		if err != nil {
			return nil, nil, err
		}
		id, err := def.PartitionId()
		if err != nil {
			return nil, nil, err
		}
		framer, err := framerFor(fn, def)
		if err != nil {
			return nil, nil, err
		}
		agg := aggregation.NewAggregation(fn, framer)
		b, ok := index[id]
		if !ok {
			b = len(blocks)
			index[id] = b
			blocks = append(blocks, aggregation.NewWindowPartition(def.PartitionBy, def.OrderBy, nil))
			ordinals = append(ordinals, nil)
		}
		blocks[b].AddAggregation(agg)
		ordinals[b] = append(ordinals[b], i)
	}
	iters := make([]*aggregation.WindowPartitionIter, len(blocks))
	for i, b := range blocks {
		iters[i] = aggregation.NewWindowPartitionIter(b)
	}
	return iters, ordinals, nil
}

// windowFunction is the executable function of one of a Window's
// expressions, and its window.
func windowFunction(e sql.Expression) (sql.WindowFunction, *sql.WindowDefinition, error) {
	if a, ok := e.(*expression.Alias); ok {
		e = a.Child
	}
	if s, ok := e.(*aggregation.Sum); ok && s.Window() != nil {
		// Exact sums are exactSum's; GMS's float SumAgg answers 0 over a
		// frame of only NULLs, MySQL NULL.
		child, err := transform.Clone(s.Child)
		if err != nil {
			return nil, nil, err
		}
		fn, err := (&sumAvgWindow{expr: child, sum: true, scale: -1}).WithWindow(s.Window())
		return fn, s.Window(), err
	}
	if w, ok := e.(sql.WindowAdaptableExpression); ok && w.Window() != nil {
		fn, err := w.NewWindowFunction()
		return fn, w.Window(), err
	}
	fn, err := aggregation.NewLast(e).NewWindowFunction()
	return fn, sql.NewWindowDefinition(nil, nil, nil, "", ""), err
}

// framerFor is the framer of fn over def: the peer groups for the rank
// functions, MySQL's default RANGE frame for an aggregate with ORDER BY
// and no frame clause, rangeFramer for an explicit RANGE frame, and
// otherwise the function's own (the explicit ROWS frame, or the whole
// partition: GMS's planbuilder gives a window without ORDER BY the frame
// ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING).
func framerFor(fn sql.WindowFunction, def *sql.WindowDefinition) (sql.WindowFramer, error) {
	orderBy := def.OrderBy.ToExpressions()
	switch fn.(type) {
	case *aggregation.Rank, *aggregation.DenseRank, *aggregation.PercentRank:
		return &peersFramer{peerCursor: peerCursor{orderBy: orderBy}, peersOnly: true}, nil
	case *aggregation.RowNumber, *aggregation.Lag, *aggregation.Lead:
		return fn.DefaultFramer(), nil
	case *aggregation.NTile:
		// NTILE counts rows; GMS's PeerGroupFramer would only compare them.
		return aggregation.NewPartitionFramer(), nil
	}
	switch {
	case def.Frame == nil && len(orderBy) > 0:
		return &peersFramer{peerCursor: peerCursor{orderBy: orderBy}}, nil
	case isRangeFrame(def.Frame):
		return newRangeFramer(def)
	}
	return fn.DefaultFramer(), nil
}

// peersFramer frames each row of a sorted partition by its peers, the
// rows equal to it on every ORDER BY expression (NULLs equal): RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, from the partition's first
// row through the current row's last peer, or with peersOnly the peer
// group alone (which RANK and DENSE_RANK number).
type peersFramer struct {
	peerCursor
	peersOnly bool
}

var _ sql.WindowFramer = (*peersFramer)(nil)

func (f *peersFramer) NewFramer(p sql.WindowInterval) (sql.WindowFramer, error) {
	return &peersFramer{peerCursor: f.peerCursor.at(p), peersOnly: f.peersOnly}, nil
}

func (f *peersFramer) Next(ctx *sql.Context, buf sql.WindowBuffer) (sql.WindowInterval, error) {
	if err := f.next(ctx, buf); err != nil {
		return sql.WindowInterval{}, err
	}
	return f.Interval()
}

func (f *peersFramer) FirstIdx() int {
	if f.peersOnly {
		return f.peerStart
	}
	return f.partStart
}

func (f *peersFramer) LastIdx() int { return f.peerEnd }

func (f *peersFramer) Interval() (sql.WindowInterval, error) {
	if !f.set {
		return sql.WindowInterval{}, aggregation.ErrPartitionNotSet
	}
	return sql.WindowInterval{Start: f.FirstIdx(), End: f.peerEnd}, nil
}

// peerCursor walks the rows of a sorted partition in order, keeping the
// peer group of the row it is at: the rows equal to it on every ORDER BY
// expression (NULLs equal).
type peerCursor struct {
	orderBy []sql.Expression

	set                bool
	partStart, partEnd int
	// idx is the next row; [peerStart, peerEnd) the peer group of the
	// last one.
	idx, peerStart, peerEnd int
}

// at is the cursor before the first row of partition p.
func (c peerCursor) at(p sql.WindowInterval) peerCursor {
	return peerCursor{orderBy: c.orderBy, set: true, partStart: p.Start, partEnd: p.End,
		idx: p.Start, peerStart: p.Start, peerEnd: p.Start}
}

// next moves to the next row, io.EOF past the partition's last.
func (c *peerCursor) next(ctx *sql.Context, buf sql.WindowBuffer) error {
	if !c.set || c.idx >= c.partEnd {
		return io.EOF
	}
	if c.idx >= c.peerEnd {
		end := c.idx + 1
		for ; end < c.partEnd; end++ {
			same, err := windowPeers(ctx, c.orderBy, buf[c.idx], buf[end])
			if err != nil {
				return err
			}
			if !same {
				break
			}
		}
		c.peerStart, c.peerEnd = c.idx, end
	}
	c.idx++
	return nil
}

// windowPeers reports whether rows a and b are equal on every
// expression, as the ORDER BY compares them (NULLs equal).
func windowPeers(ctx *sql.Context, exprs []sql.Expression, a, b sql.Row) (bool, error) {
	for _, e := range exprs {
		av, err := e.Eval(ctx, a)
		if err != nil {
			return false, err
		}
		bv, err := e.Eval(ctx, b)
		if err != nil {
			return false, err
		}
		if av == nil || bv == nil {
			if av != nil || bv != nil {
				return false, nil
			}
			continue
		}
		cmp, err := e.Type().Compare(ctx, av, bv)
		if err != nil || cmp != 0 {
			return false, err
		}
	}
	return true, nil
}
