package randsql

import "slices"

// clone copies the query deeply, so that the minimizer can change a copy;
// tables are shared (they never change).
func (q *Query) clone() *Query {
	c := *q
	c.Branches = cloneSelects(q.Branches)
	c.OrderBy = slices.Clone(q.OrderBy)
	return &c
}

func cloneSelects(s []*Select) []*Select {
	out := make([]*Select, len(s))
	for i, sel := range s {
		out[i] = sel.clone()
	}
	return out
}

func (s *Select) clone() *Select {
	c := *s
	c.Items = cloneExprs(s.Items)
	c.Where = cloneExprs(s.Where)
	c.GroupBy = cloneExprs(s.GroupBy)
	c.Having = cloneExprs(s.Having)
	c.From = make([]*From, len(s.From))
	for i, f := range s.From {
		fc := *f
		fc.On = cloneExprs(f.On)
		c.From[i] = &fc
	}
	return &c
}

func cloneExprs(es []Expr) []Expr {
	if es == nil {
		return nil
	}
	out := make([]Expr, len(es))
	for i, e := range es {
		out[i] = cloneExpr(e)
	}
	return out
}

// cloneExpr copies an expression tree; leaves (columns, literals, ranks)
// never change and are shared.
func cloneExpr(e Expr) Expr {
	switch e := e.(type) {
	case *Arith:
		return &Arith{Op: e.Op, L: cloneExpr(e.L), R: cloneExpr(e.R)}
	case *Cmp:
		return &Cmp{Op: e.Op, L: cloneExpr(e.L), R: cloneExpr(e.R)}
	case *Logic:
		return &Logic{Op: e.Op, Args: cloneExprs(e.Args)}
	case *Not:
		return &Not{E: cloneExpr(e.E)}
	case *IsNull:
		return &IsNull{E: cloneExpr(e.E), Negate: e.Negate}
	case *InList:
		return &InList{E: cloneExpr(e.E), List: cloneExprs(e.List), Negate: e.Negate}
	case *Between:
		return &Between{E: cloneExpr(e.E), Lo: cloneExpr(e.Lo), Hi: cloneExpr(e.Hi), Negate: e.Negate}
	case *Func:
		return &Func{Name: e.Name, Args: cloneExprs(e.Args)}
	case *CaseWhen:
		return &CaseWhen{When: cloneExpr(e.When), Then: cloneExpr(e.Then), Else: cloneExpr(e.Else)}
	case *Agg:
		if e.Arg == nil {
			return &Agg{Name: e.Name}
		}
		return &Agg{Name: e.Name, Distinct: e.Distinct, Arg: cloneExpr(e.Arg)}
	case *GroupConcat:
		return &GroupConcat{Distinct: e.Distinct, Args: cloneExprs(e.Args), Separator: e.Separator}
	case *Window:
		w := &Window{Fn: cloneExpr(e.Fn), PartitionBy: cloneExprs(e.PartitionBy)}
		for _, s := range e.OrderBy {
			w.OrderBy = append(w.OrderBy, SortExpr{E: cloneExpr(s.E), Desc: s.Desc})
		}
		return w
	case *Exists:
		return &Exists{Sub: e.Sub.clone(), Negate: e.Negate}
	case *InSub:
		return &InSub{E: cloneExpr(e.E), Sub: e.Sub.clone(), Negate: e.Negate}
	case *Scalar:
		return &Scalar{Sub: e.Sub.clone()}
	default: // *Col, *Lit, *Rank
		return e
	}
}

// selects lists every block of the query in a fixed order (each block,
// then the subqueries in it), so that two clones list theirs alike.
func (q *Query) selects() []*Select {
	var out []*Select
	var visitExpr func(e Expr)
	var visitSelect func(s *Select)
	visitSelect = func(s *Select) {
		out = append(out, s)
		for _, list := range [][]Expr{s.Items, s.Where, s.GroupBy, s.Having} {
			for _, e := range list {
				visitExpr(e)
			}
		}
		for _, f := range s.From {
			for _, e := range f.On {
				visitExpr(e)
			}
		}
	}
	visitExpr = func(e Expr) {
		switch e := e.(type) {
		case *Exists:
			visitSelect(e.Sub)
		case *InSub:
			visitExpr(e.E)
			visitSelect(e.Sub)
		case *Scalar:
			visitSelect(e.Sub)
		case *Arith:
			visitExpr(e.L)
			visitExpr(e.R)
		case *Cmp:
			visitExpr(e.L)
			visitExpr(e.R)
		case *Logic:
			for _, a := range e.Args {
				visitExpr(a)
			}
		case *Not:
			visitExpr(e.E)
		case *CaseWhen:
			visitExpr(e.When)
			visitExpr(e.Then)
			visitExpr(e.Else)
		}
	}
	for _, b := range q.Branches {
		visitSelect(b)
	}
	return out
}
