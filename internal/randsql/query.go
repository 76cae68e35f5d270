package randsql

import (
	"fmt"
	"slices"
	"strings"
)

// Query is a generated query: one SELECT block, or a UNION [ALL] of
// several with the same number of columns, then ORDER BY and LIMIT over
// the whole result.
type Query struct {
	Branches []*Select
	All      bool // UNION ALL rather than UNION
	OrderBy  []OrderKey
	Limit    int // 0: none
	Offset   int
	// Derived orders and limits the branches as a derived table, SELECT *
	// FROM (…) AS ordered ORDER BY …, where MariaDB 10.11 ignores an ORDER
	// BY of the block itself (see doc.go).
	Derived bool
}

// OrderKey orders the result by one output column, named by its alias.
type OrderKey struct {
	Item int
	Desc bool
}

// Select is one query block. Its output columns are Items, aliased c0,
// c1, … so that ORDER BY and the comparator can name them.
type Select struct {
	Distinct bool
	Items    []Expr
	From     []*From
	Where    []Expr // conjuncts
	GroupBy  []Expr
	Having   []Expr // conjuncts
}

// From is a table of a block's FROM clause: the first has no Join, the
// others are joined to the ones before with an ON condition.
type From struct {
	Join  string // "", "JOIN" or "LEFT JOIN"
	Table *Table
	Alias string
	On    []Expr // conjuncts
}

// alias names output column i.
func alias(i int) string { return fmt.Sprintf("c%d", i) }

// SQL renders the query on one line.
func (q *Query) SQL() string {
	var b strings.Builder
	derived := q.Derived || q.roundsSortKeys()
	if derived {
		b.WriteString("SELECT * FROM (")
	}
	for i, s := range q.Branches {
		if i > 0 {
			if q.All {
				b.WriteString(" UNION ALL ")
			} else {
				b.WriteString(" UNION ")
			}
		}
		s.write(&b)
	}
	if derived {
		b.WriteString(") AS ordered")
	}
	if len(q.OrderBy) > 0 {
		b.WriteString(" ORDER BY ")
		for i, k := range q.OrderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			if q.computedDouble(k.Item) {
				fmt.Fprintf(&b, "ROUND(%s, 9)", alias(k.Item))
			} else {
				b.WriteString(alias(k.Item))
			}
			if k.Desc {
				b.WriteString(" DESC")
			}
		}
	}
	if q.Limit > 0 {
		fmt.Fprintf(&b, " LIMIT %d", q.Limit)
		if q.Offset > 0 {
			fmt.Fprintf(&b, " OFFSET %d", q.Offset)
		}
	}
	return b.String()
}

// The last digits of a computed DOUBLE (a SUM or AVG, a window over
// them) depend on the order of addition, which differs between engines
// and between runs of one: two groups whose averages are equal in exact
// arithmetic come out a few units of the last place apart, either way
// round. Ordered by such a column the rows' order, and which rows a LIMIT
// keeps, would be noise. So the query orders by the column rounded to 9
// decimals, which ties such values and lets the next sort key decide; an
// expression of the ORDER BY needs the query as a derived table, where
// all three engines accept it.
func (q *Query) roundsSortKeys() bool {
	return slices.ContainsFunc(q.OrderBy, func(k OrderKey) bool { return q.computedDouble(k.Item) })
}

// computedDouble reports whether output column i is a DOUBLE some branch
// computes rather than reads from a column.
func (q *Query) computedDouble(i int) bool {
	return slices.ContainsFunc(q.Branches, func(s *Select) bool {
		_, stored := s.Items[i].(*Col)
		return !stored && s.Items[i].Type().Kind == KindDouble
	})
}

func (s *Select) write(b *strings.Builder) {
	b.WriteString("SELECT ")
	if s.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, e := range s.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		e.write(b)
		b.WriteString(" AS " + alias(i))
	}
	b.WriteString(" FROM ")
	for i, f := range s.From {
		if i > 0 {
			b.WriteString(" " + f.Join + " ")
		}
		b.WriteString(f.Table.Name + " " + f.Alias)
		if i > 0 {
			b.WriteString(" ON ")
			writeConjuncts(b, f.On)
		}
	}
	if len(s.Where) > 0 {
		b.WriteString(" WHERE ")
		writeConjuncts(b, s.Where)
	}
	if len(s.GroupBy) > 0 {
		b.WriteString(" GROUP BY ")
		for i, e := range s.GroupBy {
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b)
		}
	}
	if len(s.Having) > 0 {
		b.WriteString(" HAVING ")
		writeConjuncts(b, s.Having)
	}
}

// writeConjuncts writes predicates joined by AND; none is TRUE (an ON
// whose conditions the minimizer dropped).
func writeConjuncts(b *strings.Builder, preds []Expr) {
	if len(preds) == 0 {
		b.WriteString("TRUE")
		return
	}
	for i, p := range preds {
		if i > 0 {
			b.WriteString(" AND ")
		}
		p.write(b)
	}
}

// Plan is what the comparator needs to know about a query's output.
type Plan struct {
	// SortKeys are the output columns the result is ordered by, in ORDER
	// BY order; empty: the rows are a multiset.
	SortKeys []int
	// AvgDecimal marks the output columns that are AVG over a window of
	// a DECIMAL, which README documents lakesql answers as a DOUBLE.
	AvgDecimal []int
}

// Plan derives the comparison plan from the query.
func (q *Query) Plan() Plan {
	var p Plan
	for _, k := range q.OrderBy {
		p.SortKeys = append(p.SortKeys, k.Item)
	}
	for i, e := range q.Branches[0].Items {
		if isAvgOfDecimal(e) {
			p.AvgDecimal = append(p.AvgDecimal, i)
		}
	}
	return p
}

// isAvgOfDecimal reports whether e is AVG over a window of a DECIMAL
// argument.
func isAvgOfDecimal(e Expr) bool {
	w, ok := e.(*Window)
	if !ok {
		return false
	}
	a, ok := w.Fn.(*Agg)
	return ok && a.Name == "AVG" && a.Arg.Type().Kind == KindDecimal
}
