package randsql

import "slices"

// reductions are the queries one step smaller than q: a union branch
// alone; without LIMIT, ORDER BY or one of its keys; without an output
// column or with a simpler one; and in any block, without DISTINCT, a
// joined table, a LEFT (made inner), an ON, WHERE or HAVING conjunct (or
// with a compound one replaced by a part), or a GROUP BY expression.
// A reduction may make the query invalid; the minimizer then finds no
// finding of the signature and moves on.
func reductions(q *Query) []*Query {
	var out []*Query
	add := func(change func(c *Query) bool) {
		if c := q.clone(); change(c) {
			out = append(out, c)
		}
	}
	for b := range q.Branches {
		add(func(c *Query) bool { c.Branches = c.Branches[b : b+1]; return len(q.Branches) > 1 })
	}
	add(func(c *Query) bool { c.Limit, c.Offset = 0, 0; return q.Limit > 0 })
	add(func(c *Query) bool { c.OrderBy, c.Limit, c.Offset = nil, 0, 0; return len(q.OrderBy) > 0 })
	for j := range q.OrderBy {
		add(func(c *Query) bool { c.OrderBy = slices.Delete(c.OrderBy, j, j+1); return q.Limit == 0 })
	}
	for j := range q.Branches[0].Items {
		add(func(c *Query) bool { return len(q.Branches[0].Items) > 1 && c.removeItem(j) })
		add(func(c *Query) bool { return c.simplifyItem(j) })
	}
	for i, s := range q.selects() {
		out = append(out, blockReductions(q, i, s)...)
	}
	return out
}

// blockReductions are the reductions inside block i of q.
func blockReductions(q *Query, i int, s *Select) []*Query {
	var out []*Query
	add := func(change func(b *Select) bool) {
		c := q.clone()
		if change(c.selects()[i]) {
			out = append(out, c)
		}
	}
	add(func(b *Select) bool { b.Distinct = false; return s.Distinct })
	for j, f := range s.From {
		add(func(b *Select) bool { b.From = slices.Delete(b.From, j, j+1); return j > 0 })
		add(func(b *Select) bool { b.From[j].Join = "JOIN"; return f.Join == "LEFT JOIN" })
		for k := range f.On {
			add(func(b *Select) bool { b.From[j].On = slices.Delete(b.From[j].On, k, k+1); return true })
		}
	}
	for j, p := range s.Where {
		add(func(b *Select) bool { b.Where = slices.Delete(b.Where, j, j+1); return true })
		for _, part := range parts(p) {
			add(func(b *Select) bool { b.Where[j] = cloneExpr(part); return true })
		}
	}
	for j := range s.Having {
		add(func(b *Select) bool { b.Having = slices.Delete(b.Having, j, j+1); return true })
	}
	top := slices.Contains(q.Branches, s)
	for j := range s.GroupBy {
		if top {
			c := q.clone()
			c.removeGroup(j)
			out = append(out, c)
			continue
		}
		add(func(b *Select) bool { return b.removeGroup(j) })
	}
	return out
}

// parts are the sub-predicates of a compound predicate.
func parts(p Expr) []Expr {
	switch p := p.(type) {
	case *Logic:
		return p.Args
	case *Not:
		return []Expr{p.E}
	}
	return nil
}

// removeItem drops output column j from every branch and renumbers the
// ORDER BY keys.
func (q *Query) removeItem(j int) bool {
	for _, b := range q.Branches {
		b.Items = slices.Delete(b.Items, j, j+1)
	}
	var keys []OrderKey
	for _, k := range q.OrderBy {
		switch {
		case k.Item < j:
			keys = append(keys, k)
		case k.Item > j:
			keys = append(keys, OrderKey{Item: k.Item - 1, Desc: k.Desc})
		}
	}
	q.OrderBy = keys
	return true
}

// simplifyItem replaces output column j of a single block by a part of
// it: an operand of arithmetic, a function's first argument, a CASE's
// THEN.
func (q *Query) simplifyItem(j int) bool {
	if len(q.Branches) > 1 {
		return false
	}
	items := q.Branches[0].Items
	switch e := items[j].(type) {
	case *Arith:
		items[j] = e.L
	case *Func:
		items[j] = e.Args[0]
	case *CaseWhen:
		items[j] = e.Then
	default:
		return false
	}
	return true
}

// removeGroup drops GROUP BY expression j of a subquery and the output
// columns that are it.
func (s *Select) removeGroup(j int) bool {
	g := sqlOf(s.GroupBy[j])
	s.GroupBy = slices.Delete(s.GroupBy, j, j+1)
	s.Items = slices.DeleteFunc(s.Items, func(e Expr) bool { return sqlOf(e) == g })
	return len(s.Items) > 0
}

// removeGroup drops GROUP BY expression j of the query's single block
// (a grouped block is never a union branch) and the output columns that
// are it, renumbering ORDER BY.
func (q *Query) removeGroup(j int) {
	b := q.Branches[0]
	g := sqlOf(b.GroupBy[j])
	b.GroupBy = slices.Delete(b.GroupBy, j, j+1)
	for i := len(b.Items) - 1; i >= 0 && len(b.Items) > 1; i-- {
		if sqlOf(b.Items[i]) == g {
			q.removeItem(i)
		}
	}
}
