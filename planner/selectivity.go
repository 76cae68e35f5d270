package planner

import (
	"github.com/lakesql/lakesql/storage/predicate"
)

// Default selectivities, the share of rows a predicate is assumed to keep
// when nothing but its shape is known: MySQL's guesses without statistics
// (an equality keeps a tenth, a range a third), and go-mysql-server's 0.85
// for anything else.
const (
	equalitySelectivity = 0.1
	rangeSelectivity    = 1.0 / 3
	betweenSelectivity  = 1.0 / 9
	otherSelectivity    = 0.85
)

// Selectivity estimates the share of rows p keeps, from its shape alone:
// each comparison by its operator, AND as independent conjuncts, OR as the
// union of independent alternatives, NOT of a comparison as its
// complement. Conjuncts that read only the columns in exact (partition
// columns, which pruning already decided for every kept row) keep every
// row.
func Selectivity(p predicate.Predicate, exact []int) float64 {
	switch x := p.(type) {
	case predicate.Constant:
		if predicate.Tri(x) == predicate.True {
			return 1
		}
		return 0
	case *predicate.Compound:
		return compoundSelectivity(x, exact)
	case *predicate.LeafPredicate:
		if readsOnly(x, exact) {
			return 1
		}
		return leafSelectivity(x)
	}
	return otherSelectivity
}

func compoundSelectivity(c *predicate.Compound, exact []int) float64 {
	if readsOnly(c, exact) {
		return 1
	}
	if c.IsAnd() {
		s := 1.0
		for _, child := range c.Children() {
			s *= Selectivity(child, exact)
		}
		return s
	}
	missed := 1.0
	for _, child := range c.Children() {
		missed *= 1 - Selectivity(child, exact)
	}
	return 1 - missed
}

func leafSelectivity(l *predicate.LeafPredicate) float64 {
	n := float64(len(l.Literals()))
	switch l.Op() {
	case predicate.OpEq, predicate.OpIsNull, predicate.OpStartsWith:
		return equalitySelectivity
	case predicate.OpIn:
		return min(n*equalitySelectivity, otherSelectivity)
	case predicate.OpLt, predicate.OpLe, predicate.OpGt, predicate.OpGe:
		return rangeSelectivity
	case predicate.OpBetween:
		return betweenSelectivity
	case predicate.OpNotEq, predicate.OpIsNotNull, predicate.OpNotStartsWith:
		return 1 - equalitySelectivity
	case predicate.OpNotIn:
		return max(1-n*equalitySelectivity, 1-otherSelectivity)
	case predicate.OpNotBetween:
		return 1 - betweenSelectivity
	}
	return otherSelectivity
}

func readsOnly(p predicate.Predicate, columns []int) bool {
	if len(columns) == 0 {
		return false
	}
	for _, c := range predicate.Columns(p) {
		found := false
		for _, e := range columns {
			found = found || c == e
		}
		if !found {
			return false
		}
	}
	return true
}
