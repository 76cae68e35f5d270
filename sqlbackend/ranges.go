package sqlbackend

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/predicate"
)

// rangesPredicate turns the ranges GMS computed for an index (for a lookup
// join, one point per outer row) into the storage predicate selecting
// exactly the same rows: an OR over ranges of an AND over the index
// columns. Exactly, because a lookup join drops the join conditions its
// key matched (analyzer/indexed_joins.go addLookupJoins) and takes every
// row the lookup returns as a match; a bound that cannot be expressed is
// an error, never a wider read.
func rangesPredicate(ctx *sql.Context, t *Table, index sql.Index, ranges sql.MySQLRangeCollection) (predicate.Predicate, error) {
	ix, ok := index.(*tableIndex)
	if !ok {
		return nil, fmt.Errorf("lookup on index %s of table %s: not a lakesql index", index.ID(), t.name)
	}
	alternatives := make([]predicate.Predicate, 0, len(ranges))
	for _, r := range ranges {
		if len(r) > len(ix.columns) {
			return nil, fmt.Errorf("lookup on %d columns of index %s of table %s: more columns than the index", len(r), ix.id, t.name)
		}
		conj := make([]predicate.Predicate, 0, len(r))
		for i, expr := range r {
			p, err := columnRange(ctx, t, ix.columns[i], expr)
			if err != nil {
				return nil, err
			}
			conj = append(conj, p)
		}
		alternatives = append(alternatives, predicate.And(conj...))
	}
	return predicate.Or(alternatives...), nil
}

// columnRange is the predicate of one column's range. A point is an
// equality rather than two bounds, so that the scan routes it to its
// partition and bucket (equalities are what bucket selection reads).
func columnRange(ctx *sql.Context, t *Table, name string, expr sql.MySQLRangeColumnExpr) (predicate.Predicate, error) {
	col, ok := t.column(name)
	if !ok {
		return nil, fmt.Errorf("lookup on column %s of table %s: no such column", name, t.name)
	}
	if k, ok := pointKey(ctx, expr); ok {
		return predicate.Leaf(col, predicate.OpEq, k)
	}
	lower, err := lowerBound(col, expr.LowerBound)
	if err != nil {
		return nil, err
	}
	upper, err := upperBound(col, expr.LowerBound, expr.UpperBound)
	if err != nil {
		return nil, err
	}
	return predicate.And(lower, upper), nil
}

// pointKey is k when the range is [k, k].
func pointKey(ctx *sql.Context, expr sql.MySQLRangeColumnExpr) (any, bool) {
	lo, ok := expr.LowerBound.(sql.Below)
	if !ok || lo.Key == nil {
		return nil, false
	}
	hi, ok := expr.UpperBound.(sql.Above)
	if !ok || hi.Key == nil {
		return nil, false
	}
	cmp, err := expr.Typ.Compare(ctx, lo.Key, hi.Key)
	return lo.Key, err == nil && cmp == 0
}

// lowerBound is the predicate of a lower cut. NULL sorts below every
// value: BelowNull admits it, AboveNull admits every value but NULL.
func lowerBound(col predicate.Column, cut sql.MySQLRangeCut) (predicate.Predicate, error) {
	switch c := cut.(type) {
	case sql.BelowNull:
		return predicate.Constant(predicate.True), nil
	case sql.AboveNull:
		return predicate.Leaf(col, predicate.OpIsNotNull)
	case sql.Below: // x >= k
		return predicate.Leaf(col, predicate.OpGe, c.Key)
	case sql.Above: // x > k
		return predicate.Leaf(col, predicate.OpGt, c.Key)
	case sql.AboveAll:
		return predicate.Constant(predicate.False), nil
	}
	return nil, fmt.Errorf("lookup on column %s: unknown lower bound %T", col.Name, cut)
}

// upperBound is the predicate of an upper cut. A range ending at
// AboveNull holds only NULL, and only when it starts at BelowNull.
func upperBound(col predicate.Column, lower, cut sql.MySQLRangeCut) (predicate.Predicate, error) {
	switch c := cut.(type) {
	case sql.AboveAll:
		return predicate.Constant(predicate.True), nil
	case sql.Above: // x <= k
		return predicate.Leaf(col, predicate.OpLe, c.Key)
	case sql.Below: // x < k
		return predicate.Leaf(col, predicate.OpLt, c.Key)
	case sql.AboveNull:
		if _, fromNull := lower.(sql.BelowNull); fromNull {
			return predicate.Leaf(col, predicate.OpIsNull)
		}
		return predicate.Constant(predicate.False), nil
	case sql.BelowNull:
		return predicate.Constant(predicate.False), nil
	}
	return nil, fmt.Errorf("lookup on column %s: unknown upper bound %T", col.Name, cut)
}

// column is the predicate column of a field of the read schema.
func (t *Table) column(name string) (predicate.Column, bool) {
	for i, f := range t.schema.Fields {
		if f.Name == name {
			return predicate.ColumnOf(i, f), true
		}
	}
	return predicate.Column{}, false
}
