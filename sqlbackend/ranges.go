package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/predicate"
)

// rangesPredicate turns the ranges GMS computed for an index (for a lookup
// join, one point per outer row) into the storage predicate selecting the
// same rows: an OR over ranges of an AND over the index columns. A bound
// that cannot be expressed leaves its column unconstrained, which selects
// a superset; the engine re-checks its own condition.
func rangesPredicate(t *Table, index sql.Index, ranges sql.MySQLRangeCollection) predicate.Predicate {
	ix, ok := index.(*tableIndex)
	if !ok {
		return nil
	}
	var alternatives []predicate.Predicate
	for _, r := range ranges {
		var conj []predicate.Predicate
		for i, expr := range r {
			if i >= len(ix.columns) {
				break
			}
			conj = append(conj, columnRange(t, ix.columns[i], expr)...)
		}
		if len(conj) == 0 {
			return nil
		}
		alternatives = append(alternatives, predicate.And(conj...))
	}
	if len(alternatives) == 0 {
		return predicate.Constant(predicate.False)
	}
	return predicate.Or(alternatives...)
}

func columnRange(t *Table, name string, expr sql.MySQLRangeColumnExpr) []predicate.Predicate {
	col, ok := t.column(name)
	if !ok {
		return nil
	}
	var out []predicate.Predicate
	add := func(op predicate.Op, lits ...any) {
		if p, err := predicate.Leaf(col, op, lits...); err == nil {
			out = append(out, p)
		}
	}
	switch lo := expr.LowerBound.(type) {
	case sql.Below: // lower bound Below(k): x >= k
		add(predicate.OpGe, lo.Key)
	case sql.Above: // lower bound Above(k): x > k
		add(predicate.OpGt, lo.Key)
	case sql.AboveNull:
		add(predicate.OpIsNotNull)
	case sql.AboveAll:
		return []predicate.Predicate{predicate.Constant(predicate.False)}
	}
	switch hi := expr.UpperBound.(type) {
	case sql.Above: // upper bound Above(k): x <= k
		add(predicate.OpLe, hi.Key)
	case sql.Below: // upper bound Below(k): x < k
		add(predicate.OpLt, hi.Key)
	case sql.AboveNull: // [BelowNull, AboveNull]: only NULL
		if _, fromNull := expr.LowerBound.(sql.BelowNull); fromNull {
			add(predicate.OpIsNull)
		}
	}
	return out
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
