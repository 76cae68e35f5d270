package predicate

import (
	"slices"

	"github.com/lakesql/lakesql/storage/spec"
)

// Conjuncts splits p into the operands of its top-level AND; p itself when
// it is not an AND.
func Conjuncts(p Predicate) []Predicate {
	if c, ok := p.(*Compound); ok && c.and {
		return c.Children()
	}
	return []Predicate{p}
}

// Columns returns the sorted distinct indexes of the columns p reads.
func Columns(p Predicate) []int {
	cols := p.appendColumns(nil)
	slices.Sort(cols)
	return slices.Compact(cols)
}

// Extract splits p for a filter that can only see some columns (the
// partition keys, the primary keys): extracted reads only columns in
// columns, residual holds every conjunct of p that reads others, and
// And(extracted, residual) selects exactly the rows p selects.
//
// extracted holds the conjuncts of p over those columns, plus what a
// residual OR implies over them: from (dt = 'a' AND x = 1) OR dt = 'b' it
// takes dt = 'a' OR dt = 'b', and the OR stays in residual. Either side is
// Constant(True) when empty.
func Extract(p Predicate, columns []int) (extracted, residual Predicate) {
	var inside, outside []Predicate
	for _, c := range Conjuncts(p) {
		if readsOnly(c, columns) {
			inside = append(inside, c)
			continue
		}
		outside = append(outside, c)
		inside = append(inside, implied(c, columns))
	}
	return And(inside...), And(outside...)
}

func readsOnly(p Predicate, columns []int) bool {
	for _, col := range p.appendColumns(nil) {
		if !slices.Contains(columns, col) {
			return false
		}
	}
	return true
}

// implied returns a predicate over columns that is TRUE whenever p is:
// leaves over other columns weaken to TRUE. This is sound because trees
// hold no NOT, so AND and OR are monotone in TRUE-ness.
func implied(p Predicate, columns []int) Predicate {
	if readsOnly(p, columns) {
		return p
	}
	c, ok := p.(*Compound)
	if !ok {
		return Constant(True)
	}
	parts := make([]Predicate, len(c.children))
	for i, child := range c.children {
		parts[i] = implied(child, columns)
	}
	return junction(c.and, parts)
}

// Remap moves p to another column space, such as the partition row or the
// key row of a data file: to[i] is the new index of the column at index i,
// or -1 when the new space lacks it. ok is false when p reads a column the
// new space lacks; use Extract first to keep only the columns it has.
func Remap(p Predicate, to []int) (Predicate, bool) { return p.remap(to) }

// EqualityLiterals collects, per column index, the values a row must have
// for p to be TRUE, as bucket pruning needs them: from the conjuncts that are
// x = v, x IN (...), or ORs of those on one column. Several conjuncts on one
// column intersect; an empty list means no value can match. Columns p does
// not pin to values are absent. Lists are sorted and distinct, typed by the
// column; on FLOAT and DOUBLE columns a zero brings its negative twin, which
// compares equal but hashes apart.
func EqualityLiterals(p Predicate) map[int][]any {
	sets := map[int][]any{}
	types := map[int]spec.DataType{}
	for _, c := range Conjuncts(p) {
		col, values, ok := equalityValues(c)
		if !ok {
			continue
		}
		if prev, seen := sets[col.Index]; seen {
			values = intersect(prev, values, comparer(col.Type))
		}
		sets[col.Index], types[col.Index] = values, col.Type
	}
	for i, values := range sets {
		if isFloatType(types[i]) {
			sets[i] = withSignedZeros(values)
		}
	}
	return sets
}

// equalityValues returns the sorted distinct values one column must take
// for p to be TRUE, when p pins one column to a list of values.
func equalityValues(p Predicate) (Column, []any, bool) {
	switch x := p.(type) {
	case *LeafPredicate:
		if x.op == OpEq || x.op == OpIn {
			return x.col, slices.Clone(x.literals), true
		}
	case *Compound:
		if !x.and {
			return unionOfValues(x.children)
		}
	}
	return Column{}, nil, false
}

func unionOfValues(children []Predicate) (Column, []any, bool) {
	var col Column
	var union []any
	for i, child := range children {
		c, values, ok := equalityValues(child)
		if !ok || (i > 0 && c.Index != col.Index) {
			return Column{}, nil, false
		}
		col, union = c, append(union, values...)
	}
	return col, sortedDistinct(union, comparer(col.Type)), true
}

func comparer(t spec.DataType) func(a, b any) int {
	return func(a, b any) int { return compareValues(t, a, b) }
}

// intersect merges two sorted distinct lists.
func intersect(a, b []any, compare func(a, b any) int) []any {
	out := []any{}
	for len(a) > 0 && len(b) > 0 {
		switch c := compare(a[0], b[0]); {
		case c < 0:
			a = a[1:]
		case c > 0:
			b = b[1:]
		default:
			out = append(out, a[0])
			a, b = a[1:], b[1:]
		}
	}
	return out
}

func withSignedZeros(values []any) []any {
	for i, v := range values {
		switch x := v.(type) {
		case float64:
			if x == 0 {
				return slices.Insert(values, i+1, any(-x))
			}
		case float32:
			if x == 0 {
				return slices.Insert(values, i+1, any(-x))
			}
		}
	}
	return values
}
