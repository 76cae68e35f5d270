package gmsfix

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"
)

// rangeFramer frames rows by MySQL's RANGE frames
// (https://dev.mysql.com/doc/refman/8.0/en/window-functions-frames.html).
// GMS v0.20.0's range framers (aggregation.rangeFramerBase) are not what
// its window aggregates run: SUM, COUNT, MAX and the others answered over
// the whole partition for RANGE CURRENT ROW and RANGE BETWEEN n PRECEDING
// AND CURRENT ROW, and the framers themselves take a DESC ORDER BY as
// ascending and a NULL key as any other value.
//
// A CURRENT ROW bound is the edge of the current row's peer group (every
// ORDER BY key equal, NULLs equal). An n PRECEDING or FOLLOWING bound,
// over one numeric or temporal key, is the edge of the rows whose key lies
// within n of the current row's, in the direction of the sort (PRECEDING
// is larger keys under DESC); a NULL key's bound is the edge of the NULL
// peers, and a non-NULL key's value range never holds NULLs.
type rangeFramer struct {
	peerCursor
	desc       bool
	start, end rangeBound
	compare    func(ctx context.Context, a, b any) (int, error)

	// [first, last) is the frame of the cursor's row.
	first, last int
}

var _ sql.WindowFramer = (*rangeFramer)(nil)

// rangeBound is one end of a RANGE frame: unbounded, the current row
// (offset nil), or offset PRECEDING or FOLLOWING.
type rangeBound struct {
	unbounded bool
	offset    sql.Expression
	following bool
}

// isRangeFrame reports whether f is a RANGE frame (GMS keeps the kind
// unexported, and names it first in the frame's text).
func isRangeFrame(f sql.WindowFrame) bool {
	return f != nil && strings.HasPrefix(f.String(), "RANGE")
}

// newRangeFramer is the framer of def's RANGE frame, or MySQL's error
// (ER_WINDOW_RANGE_FRAME_ORDER_TYPE, _TEMPORAL_TYPE, _NUMERIC_TYPE) for
// an offset its ORDER BY cannot take.
func newRangeFramer(def *sql.WindowDefinition) (*rangeFramer, error) {
	f := def.Frame
	r := &rangeFramer{
		peerCursor: peerCursor{orderBy: def.OrderBy.ToExpressions()},
		start:      bound(f.UnboundedPreceding(), f.StartNPreceding(), f.StartNFollowing()),
		end:        bound(f.UnboundedFollowing(), f.EndNPreceding(), f.EndNFollowing()),
	}
	if r.start.offset == nil && r.end.offset == nil {
		return r, nil
	}
	if len(def.OrderBy) != 1 {
		return nil, errRangeOrderType
	}
	r.desc = def.OrderBy[0].Order == sql.Descending
	var err error
	r.compare, err = rangeComparer(r.orderBy[0].Type(), r.start.offset, r.end.offset)
	return r, err
}

func bound(unbounded bool, preceding, following sql.Expression) rangeBound {
	if following != nil {
		return rangeBound{offset: following, following: true}
	}
	return rangeBound{unbounded: unbounded, offset: preceding}
}

// MySQL's errors for RANGE offsets its ORDER BY cannot take:
// ER_WINDOW_RANGE_FRAME_ORDER_TYPE, _TEMPORAL_TYPE and _NUMERIC_TYPE.
var (
	errRangeOrderType    = mysql.NewSQLError(3587, mysql.SSUnknownSQLState, "Window '<unnamed window>' with RANGE N PRECEDING/FOLLOWING frame requires exactly one ORDER BY expression, of numeric or temporal type")
	errRangeTemporalType = mysql.NewSQLError(3588, mysql.SSUnknownSQLState, "Window '<unnamed window>' with RANGE frame has ORDER BY expression of datetime type. Only INTERVAL bound value allowed.")
	errRangeNumericType  = mysql.NewSQLError(3589, mysql.SSUnknownSQLState, "Window '<unnamed window>' with RANGE frame has ORDER BY expression of numeric type, INTERVAL bound value not allowed.")
)

// rangeComparer is how keys of type t compare with the bounds the
// offsets make of them: as DATETIMEs, DOUBLEs or exact DECIMALs.
func rangeComparer(t sql.Type, offsets ...sql.Expression) (func(context.Context, any, any) (int, error), error) {
	temporal := types.IsTime(t)
	if !temporal && !types.IsNumber(t) && !types.IsDecimal(t) {
		return nil, errRangeOrderType
	}
	for _, o := range offsets {
		if _, interval := o.(*expression.Interval); o != nil && interval != temporal {
			if temporal {
				return nil, errRangeTemporalType
			}
			return nil, errRangeNumericType
		}
	}
	switch {
	case temporal:
		return types.DatetimeMaxPrecision.Compare, nil
	case types.IsFloat(t):
		return types.Float64.Compare, nil
	}
	return types.InternalDecimalType.Compare, nil
}

func (f *rangeFramer) NewFramer(p sql.WindowInterval) (sql.WindowFramer, error) {
	n := *f
	n.peerCursor = f.peerCursor.at(p)
	n.first, n.last = p.Start, p.Start
	return &n, nil
}

func (f *rangeFramer) Next(ctx *sql.Context, buf sql.WindowBuffer) (sql.WindowInterval, error) {
	if err := f.next(ctx, buf); err != nil {
		return sql.WindowInterval{}, err
	}
	first, err := f.edge(ctx, buf, f.start, false)
	if err != nil {
		return sql.WindowInterval{}, err
	}
	last, err := f.edge(ctx, buf, f.end, true)
	if err != nil {
		return sql.WindowInterval{}, err
	}
	f.first, f.last = first, max(first, last)
	return f.Interval()
}

// edge is the index where the frame of the cursor's row starts (end false) or
// ends (end true, one past its last row).
func (f *rangeFramer) edge(ctx *sql.Context, buf sql.WindowBuffer, b rangeBound, end bool) (int, error) {
	switch {
	case b.unbounded && end:
		return f.partEnd, nil
	case b.unbounded:
		return f.partStart, nil
	}
	var key any
	if b.offset != nil {
		var err error
		if key, err = f.orderBy[0].Eval(ctx, buf[f.idx-1]); err != nil {
			return 0, err
		}
	}
	if key == nil {
		// CURRENT ROW, and the bounds of a NULL key: its peers.
		if end {
			return f.peerEnd, nil
		}
		return f.peerStart, nil
	}
	target, err := shiftKey(ctx, key, b.offset, b.following != f.desc)
	if err != nil {
		return 0, err
	}
	return f.search(ctx, buf, target, end)
}

// search is, in the sorted partition, the first row whose key sorts
// after target (after true) or not before it (after false).
func (f *rangeFramer) search(ctx *sql.Context, buf sql.WindowBuffer, target any, after bool) (int, error) {
	var err error
	n := sort.Search(f.partEnd-f.partStart, func(i int) bool {
		if err != nil {
			return true
		}
		var v any
		if v, err = f.orderBy[0].Eval(ctx, buf[f.partStart+i]); err != nil || v == nil {
			// NULLs sort first ascending, last descending.
			return f.desc
		}
		var cmp int
		if cmp, err = f.compare(ctx, v, target); f.desc {
			cmp = -cmp
		}
		if after {
			return cmp > 0
		}
		return cmp >= 0
	})
	return f.partStart + n, err
}

// shiftKey is key moved by offset, up (plus) or down.
func shiftKey(ctx *sql.Context, key any, offset sql.Expression, plus bool) (any, error) {
	if iv, ok := offset.(*expression.Interval); ok {
		delta, err := iv.EvalDelta(ctx, nil)
		if err != nil || delta == nil {
			return nil, errors.Join(err, errors.New("a RANGE frame's INTERVAL must not be NULL"))
		}
		t, _, err := types.DatetimeMaxPrecision.Convert(ctx, key)
		if err != nil {
			return nil, err
		}
		if plus {
			return delta.Add(t.(time.Time)), nil
		}
		return delta.Sub(t.(time.Time)), nil
	}
	n, err := offset.Eval(ctx, nil)
	if err != nil || n == nil {
		return nil, errors.Join(err, errors.New("a RANGE frame's offset must not be NULL"))
	}
	if f, ok := key.(float64); ok {
		d, _, err := types.Float64.Convert(ctx, n)
		if err != nil {
			return nil, err
		}
		if plus {
			return f + d.(float64), nil
		}
		return f - d.(float64), nil
	}
	return shiftDecimal(ctx, key, n, plus)
}

func shiftDecimal(ctx *sql.Context, key, n any, plus bool) (any, error) {
	k, _, err := types.InternalDecimalType.Convert(ctx, key)
	if err != nil {
		return nil, err
	}
	d, _, err := types.InternalDecimalType.Convert(ctx, n)
	if err != nil {
		return nil, fmt.Errorf("a RANGE frame's offset: %w", err)
	}
	if plus {
		return k.(decimal.Decimal).Add(d.(decimal.Decimal)), nil
	}
	return k.(decimal.Decimal).Sub(d.(decimal.Decimal)), nil
}

func (f *rangeFramer) FirstIdx() int { return f.first }

func (f *rangeFramer) LastIdx() int { return f.last }

func (f *rangeFramer) Interval() (sql.WindowInterval, error) {
	if !f.set {
		return sql.WindowInterval{}, aggregation.ErrPartitionNotSet
	}
	return sql.WindowInterval{Start: f.first, End: f.last}, nil
}
