package randsql

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// queryGen draws the queries of a case. Every query is deterministic in
// MySQL 8.0: LIMIT only under an ORDER BY of every output column, no
// column outside GROUP BY in a grouped block (ONLY_FULL_GROUP_BY),
// ROW_NUMBER only over an order that is unique per row, and comparisons
// only between values of one class.
type queryGen struct {
	r       *rand.Rand
	tables  []*Table
	aliases int
}

// scope is the FROM clause of a block: the tables whose columns its
// expressions use (a subquery gets its own, and correlates with the
// enclosing block's through an equality).
type scope struct {
	from []*From
}

func (s *scope) cols() []*Col {
	var out []*Col
	for _, f := range s.from {
		out = append(out, colsOf(f)...)
	}
	return out
}

func colsOf(f *From) []*Col {
	var out []*Col
	for _, c := range f.Table.Columns {
		out = append(out, &Col{Alias: f.Alias, Name: c.Name, T: c.Type, values: c.values})
	}
	return out
}

// query draws one query of one of the shapes.
func (g *queryGen) query() *Query {
	g.aliases = 0
	switch weighted(g.r, 2, 2, 6, 3, 2) {
	case 0:
		return g.wholeTableAggregate()
	case 1:
		return g.union()
	case 2:
		return g.plain()
	case 3:
		return g.grouped()
	default:
		return g.keySelect()
	}
}

func (g *queryGen) newAlias(prefix string) string {
	g.aliases++
	return fmt.Sprintf("%s%d", prefix, g.aliases)
}

// wholeTableAggregate is COUNT, SUM, MIN and MAX of one table without
// GROUP BY, filtered by partition keys or the primary key or not at all:
// the aggregates lakesql may answer from storage metadata.
func (g *queryGen) wholeTableAggregate() *Query {
	f := &From{Table: g.tables[g.r.IntN(len(g.tables))], Alias: g.newAlias("a")}
	sc := &scope{from: []*From{f}}
	s := &Select{From: sc.from}
	s.Items = append(s.Items, &Agg{Name: "COUNT"})
	for range 1 + g.r.IntN(3) {
		c := g.pickCol(sc.cols())
		name := []string{"MIN", "MAX", "COUNT", "SUM"}[g.r.IntN(4)]
		if name == "SUM" && !c.T.numeric() {
			name = "MAX"
		}
		s.Items = append(s.Items, &Agg{Name: name, Arg: c})
	}
	if g.r.IntN(3) > 0 {
		s.Where = []Expr{g.keyPred(f)}
	}
	return &Query{Branches: []*Select{s}}
}

// keySelect reads one row of a keyed table by its whole primary key, as
// applications do, or a range of its last key column: the statements
// lakesql's server answers from a cached plan of their shape. Half of
// them select every column, so shapes repeat with other keys within a
// case.
func (g *queryGen) keySelect() *Query {
	var keyed []*Table
	for _, t := range g.tables {
		if len(t.PrimaryKey) > 0 {
			keyed = append(keyed, t)
		}
	}
	if len(keyed) == 0 {
		return g.plain()
	}
	f := &From{Table: keyed[g.r.IntN(len(keyed))], Alias: g.newAlias("a")}
	cols := colsOf(f)
	s := &Select{From: []*From{f}}
	if g.r.IntN(2) == 0 {
		for _, c := range cols {
			s.Items = append(s.Items, c)
		}
	} else {
		for range 1 + g.r.IntN(3) {
			s.Items = append(s.Items, g.pickCol(cols))
		}
	}
	for _, c := range cols {
		if f.Table.isKey(c.Name) {
			s.Where = append(s.Where, &Cmp{Op: "=", L: c, R: g.lit(c)})
		}
	}
	q := &Query{Branches: []*Select{s}}
	if g.r.IntN(3) == 0 {
		g.keyRange(q, s)
	}
	g.r.Shuffle(len(s.Where), func(i, j int) { s.Where[i], s.Where[j] = s.Where[j], s.Where[i] })
	return q
}

// keyRange turns the last key equality of a key select into a range of
// that column (BETWEEN, or a pair of bounds), ordered by every output
// column half of the time: the range selects the server also answers from
// cached plans.
func (g *queryGen) keyRange(q *Query, s *Select) {
	last := s.Where[len(s.Where)-1].(*Cmp)
	c := last.L.(*Col)
	if g.r.IntN(2) == 0 {
		s.Where[len(s.Where)-1] = &Between{E: c, Lo: g.lit(c), Hi: g.lit(c)}
	} else {
		s.Where[len(s.Where)-1] = &Cmp{Op: []string{">", ">="}[g.r.IntN(2)], L: c, R: g.lit(c)}
		s.Where = append(s.Where, &Cmp{Op: []string{"<", "<="}[g.r.IntN(2)], L: c, R: g.lit(c)})
	}
	if g.r.IntN(2) == 0 {
		for i := range s.Items {
			q.OrderBy = append(q.OrderBy, OrderKey{Item: i, Desc: g.r.IntN(2) == 0})
		}
	}
}

// plain is a block of 1 to 4 joined tables, with filters, subqueries and
// window functions, maybe DISTINCT, ordered and limited.
func (g *queryGen) plain() *Query {
	sc := &scope{}
	s := &Select{From: g.fromClause(sc, 1+weighted(g.r, 4, 4, 2, 1))}
	s.Where = g.where(sc, true)
	for range 1 + g.r.IntN(4) {
		s.Items = append(s.Items, g.item(sc, true))
	}
	if g.r.IntN(3) == 0 {
		for range 1 + g.r.IntN(2) {
			s.Items = append(s.Items, g.window(sc))
		}
	}
	s.Distinct = g.r.IntN(8) == 0
	q := &Query{Branches: []*Select{s}}
	g.orderAndLimit(q)
	return q
}

// grouped is a GROUP BY block (or an aggregate of a join without one)
// with HAVING, maybe window functions over the groups.
func (g *queryGen) grouped() *Query {
	sc := &scope{}
	s := &Select{From: g.fromClause(sc, 1+weighted(g.r, 4, 4, 2))}
	s.Where = g.where(sc, true)
	for range weighted(g.r, 1, 5, 3, 1) {
		c := g.pickCol(sc.cols())
		if !slices.ContainsFunc(s.GroupBy, func(e Expr) bool { return sqlOf(e) == sqlOf(c) }) {
			s.GroupBy = append(s.GroupBy, c)
		}
	}
	s.Items = append(s.Items, s.GroupBy...)
	for range 1 + g.r.IntN(3) {
		s.Items = append(s.Items, g.aggregate(sc.cols()))
	}
	if g.r.IntN(3) == 0 {
		s.Having = []Expr{g.havingPred(sc.cols(), s.GroupBy)}
	}
	windowed := len(s.GroupBy) > 0 && g.r.IntN(4) == 0
	if windowed {
		s.Items = append(s.Items, g.groupWindow(sc.cols(), s.GroupBy))
	}
	q := &Query{Branches: []*Select{s}}
	g.orderAndLimit(q)
	if windowed {
		avoidMariaDBGroupedWindowBugs(q)
	}
	return q
}

// avoidMariaDBGroupedWindowBugs keeps a grouped block with a window
// function clear of two MariaDB 10.11 bugs (see doc.go): with HAVING its
// aggregates are not DISTINCT nor GROUP_CONCAT, and its ORDER BY applies
// to it as a derived table.
func avoidMariaDBGroupedWindowBugs(q *Query) {
	s := q.Branches[0]
	if len(s.Having) > 0 {
		// The select list's aggregates are its items or in its window's
		// ORDER BY and argument; HAVING's never say DISTINCT
		// (havingPred).
		for i, e := range s.Items {
			s.Items[i] = notGroupConcat(e)
			notDistinct(e)
			if w, ok := e.(*Window); ok {
				for _, o := range w.OrderBy {
					notDistinct(o.E)
				}
				if a, ok := w.Fn.(*Agg); ok {
					notDistinct(a.Arg)
				}
			}
		}
	}
	q.Derived = len(q.OrderBy) > 0
}

// union is two or three blocks of the same column classes, UNION or
// UNION ALL, maybe ordered and limited.
func (g *queryGen) union() *Query {
	first := g.unionBranch(nil)
	q := &Query{Branches: []*Select{first}, All: g.r.IntN(2) == 0}
	for range 1 + g.r.IntN(2) {
		q.Branches = append(q.Branches, g.unionBranch(first.Items))
	}
	g.orderAndLimit(q)
	return q
}

// unionBranch is a block of one or two tables; with like set, its items
// have the classes of like's.
func (g *queryGen) unionBranch(like []Expr) *Select {
	sc := &scope{}
	s := &Select{From: g.fromClause(sc, 1+g.r.IntN(2))}
	s.Where = g.where(sc, g.r.IntN(3) == 0)
	if like == nil {
		for range 1 + g.r.IntN(3) {
			s.Items = append(s.Items, g.item(sc, false))
		}
		return s
	}
	for _, e := range like {
		s.Items = append(s.Items, g.itemOfClass(sc.cols(), e.Type()))
	}
	return s
}

// fromClause adds n tables to sc: the first, then each joined (inner or
// left) on an equality with a column of a table before it.
func (g *queryGen) fromClause(sc *scope, n int) []*From {
	for i := range n {
		f := &From{Table: g.tables[g.r.IntN(len(g.tables))], Alias: g.newAlias("a")}
		if i > 0 {
			f.Join = []string{"JOIN", "LEFT JOIN"}[weighted(g.r, 3, 2)]
			f.On = g.joinOn(sc, f)
		}
		sc.from = append(sc.from, f)
	}
	return sc.from
}

// joinOn is an equality of a column of f with a comparable column of the
// tables before it (preferring the same name, which shares a domain), and
// sometimes one more condition on f.
func (g *queryGen) joinOn(sc *scope, f *From) []Expr {
	on := []Expr{g.equiJoin(sc.cols(), colsOf(f))}
	if g.r.IntN(4) == 0 {
		on = append(on, g.valuePred(g.pickCol(colsOf(f))))
	}
	return on
}

// equiJoin is left = right for a comparable pair of columns, one of each
// list; same-named pairs (which share a domain) three times in four.
func (g *queryGen) equiJoin(left, right []*Col) Expr {
	var same, other [][2]*Col
	for _, l := range left {
		for _, r := range right {
			switch {
			case l.Name == r.Name:
				same = append(same, [2]*Col{l, r})
			case comparable(l.T, r.T):
				other = append(other, [2]*Col{l, r})
			}
		}
	}
	pairs := same
	if len(pairs) == 0 || (len(other) > 0 && g.r.IntN(4) == 0) {
		pairs = other
	}
	if len(pairs) == 0 { // no comparable columns: a cross join
		return &Cmp{Op: "=", L: intLit(1), R: intLit(1)}
	}
	p := pairs[g.r.IntN(len(pairs))]
	return &Cmp{Op: "=", L: p[1], R: p[0]}
}

// where draws 0 to 3 conjuncts: key and partition filters (pruning,
// lookups), filters on other columns, and with sub set, subqueries.
func (g *queryGen) where(sc *scope, sub bool) []Expr {
	var preds []Expr
	for range weighted(g.r, 2, 4, 3, 1) {
		switch {
		case sub && g.r.IntN(4) == 0:
			preds = append(preds, g.subqueryPred(sc))
		case g.r.IntN(2) == 0:
			preds = append(preds, g.keyPred(sc.from[g.r.IntN(len(sc.from))]))
		default:
			preds = append(preds, g.pred(sc.cols(), 0))
		}
	}
	return preds
}

// keyPred filters f by its partition keys or primary key (equality, IN
// lists, ranges), falling back to any column of an unkeyed table.
func (g *queryGen) keyPred(f *From) Expr {
	var keys []*Col
	for _, c := range colsOf(f) {
		if f.Table.isPartitionKey(c.Name) || f.Table.isKey(c.Name) || (c.Name == "id" && len(f.Table.PrimaryKey) == 0) {
			keys = append(keys, c)
		}
	}
	if len(keys) == 0 {
		return g.valuePred(g.pickCol(colsOf(f)))
	}
	c := keys[g.r.IntN(len(keys))]
	switch g.r.IntN(5) {
	case 0, 1:
		return &Cmp{Op: "=", L: c, R: g.lit(c)}
	case 2:
		return &InList{E: c, List: g.lits(c, 1+g.r.IntN(4), false)}
	case 3:
		return &Between{E: c, Lo: g.lit(c), Hi: g.lit(c)}
	default:
		return &Logic{Op: "AND", Args: []Expr{
			&Cmp{Op: []string{">", ">="}[g.r.IntN(2)], L: c, R: g.lit(c)},
			&Cmp{Op: []string{"<", "<="}[g.r.IntN(2)], L: c, R: g.lit(c)},
		}}
	}
}

// pred is a predicate over cols: literal comparisons, NULL tests, IN
// lists (NULL in the list included), column comparisons, arithmetic, and
// nested AND, OR and NOT.
func (g *queryGen) pred(cols []*Col, depth int) Expr {
	if depth < 2 && g.r.IntN(6) == 0 {
		switch g.r.IntN(3) {
		case 0:
			return &Logic{Op: "OR", Args: []Expr{g.pred(cols, depth+1), g.pred(cols, depth+1)}}
		case 1:
			return &Logic{Op: "AND", Args: []Expr{g.pred(cols, depth+1), g.pred(cols, depth+1)}}
		default:
			return &Not{E: g.pred(cols, depth+1)}
		}
	}
	c := g.pickCol(cols)
	switch g.r.IntN(6) {
	case 0:
		if other := g.comparableCol(cols, c); other != nil {
			return &Cmp{Op: g.cmpOp(), L: c, R: other}
		}
	case 1:
		if c.T.numeric() {
			return &Cmp{Op: g.cmpOp(), L: g.numericExpr(cols), R: g.lit(c)}
		}
	}
	return g.valuePred(c)
}

// valuePred compares c with literals of its domain.
func (g *queryGen) valuePred(c *Col) Expr {
	switch g.r.IntN(7) {
	case 0:
		return &IsNull{E: c, Negate: g.r.IntN(2) == 0}
	case 1:
		return &InList{E: c, List: g.lits(c, 1+g.r.IntN(4), g.r.IntN(3) == 0), Negate: g.r.IntN(2) == 0}
	case 2:
		return &Between{E: c, Lo: g.lit(c), Hi: g.lit(c), Negate: g.r.IntN(4) == 0}
	default:
		return &Cmp{Op: g.cmpOp(), L: c, R: g.lit(c)}
	}
}

func (g *queryGen) cmpOp() string {
	return []string{"=", "<>", "<", "<=", ">", ">=", "<=>"}[weighted(g.r, 4, 2, 2, 2, 2, 2, 1)]
}

// subqueryPred is a semi join (EXISTS, IN), an anti join (NOT EXISTS, NOT
// IN, whose subquery may yield NULLs), or a comparison with a scalar
// aggregate subquery; correlated with the outer block or not.
func (g *queryGen) subqueryPred(outer *scope) Expr {
	sc := &scope{}
	sub := &Select{From: g.fromClause(sc, 1+weighted(g.r, 4, 1))}
	outerCol := g.pickCol(outer.cols())
	correlated := g.r.IntN(3) > 0
	if correlated {
		sub.Where = append(sub.Where, g.equiJoin(outer.cols(), sc.cols()))
	}
	if g.r.IntN(2) == 0 {
		sub.Where = append(sub.Where, g.pred(sc.cols(), 1))
	}
	inner := g.comparableCol(sc.cols(), outerCol)
	kind := g.r.IntN(3)
	if inner == nil {
		kind = 0
	}
	switch kind {
	case 0:
		sub.Items = []Expr{intLit(1)}
		return &Exists{Sub: sub, Negate: g.r.IntN(2) == 0}
	case 1:
		sub.Items = []Expr{inner}
		return &InSub{E: outerCol, Sub: sub, Negate: g.r.IntN(2) == 0}
	default:
		sub.Items = []Expr{g.scalarAggregate(inner)}
		return &Cmp{Op: g.cmpOp(), L: outerCol, R: &Scalar{Sub: sub}}
	}
}

// scalarAggregate is MIN, MAX, or SUM or AVG (of a number) of c, or
// COUNT of c when c is a number, for a scalar subquery: one row whatever
// matches.
func (g *queryGen) scalarAggregate(c *Col) Expr {
	names := []string{"MIN", "MAX"}
	if c.T.numeric() {
		names = append(names, "SUM", "AVG", "COUNT")
	}
	return &Agg{Name: names[g.r.IntN(len(names))], Arg: c}
}

// item is an output expression of a non-grouped block: a column,
// arithmetic, COALESCE, CASE, or a correlated scalar subquery.
func (g *queryGen) item(sc *scope, sub bool) Expr {
	cols := sc.cols()
	switch weighted(g.r, 8, 3, 1, 1, 1) {
	case 0:
		return g.pickCol(cols)
	case 1:
		return g.numericExpr(cols)
	case 2:
		c := g.pickCol(cols)
		return &Func{Name: "COALESCE", Args: []Expr{c, g.lit(c)}}
	case 3:
		then := g.pickCol(cols)
		return &CaseWhen{When: g.pred(cols, 1), Then: then, Else: g.itemOfClass(cols, then.T)}
	default:
		if !sub {
			return g.pickCol(cols)
		}
		return g.scalarItem(sc)
	}
}

// scalarItem is a scalar aggregate subquery correlated with the block.
func (g *queryGen) scalarItem(outer *scope) Expr {
	sc := &scope{}
	sub := &Select{From: g.fromClause(sc, 1)}
	sub.Where = []Expr{g.equiJoin(outer.cols(), sc.cols())}
	sub.Items = []Expr{g.scalarAggregate(g.pickCol(sc.cols()))}
	return &Scalar{Sub: sub}
}

// numericExpr is arithmetic over numeric columns and literals: + - * of
// two operands, or a division by a non-zero literal.
func (g *queryGen) numericExpr(cols []*Col) Expr {
	l := g.numericCol(cols)
	if l == nil {
		return intLit(g.r.IntN(10))
	}
	var r Expr = g.numericCol(cols)
	if r == nil || g.r.IntN(2) == 0 {
		r = []*Lit{intLit(2), intLit(3), litOf("0.5", Type{Kind: KindDecimal}), litOf("1.25", Type{Kind: KindDecimal})}[g.r.IntN(4)]
	}
	op := []string{"+", "-", "*", "/"}[weighted(g.r, 3, 3, 2, 1)]
	if op == "/" {
		r = []*Lit{intLit(2), intLit(4), litOf("0.5", Type{Kind: KindDecimal})}[g.r.IntN(3)]
	}
	return &Arith{Op: op, L: l, R: r}
}

// itemOfClass is an expression of the class of t: a column of that class
// if there is one, else a literal.
func (g *queryGen) itemOfClass(cols []*Col, t Type) Expr {
	var fits []*Col
	for _, c := range cols {
		if c.T.Class() == t.Class() || (c.T.numeric() && t.numeric()) {
			fits = append(fits, c)
		}
	}
	if len(fits) > 0 {
		return fits[g.r.IntN(len(fits))]
	}
	switch t.Class() {
	case ClassText:
		return litOf("'x1'", t)
	case ClassDate:
		return litOf("DATE '2024-01-02'", t)
	case ClassDateTime:
		return litOf("TIMESTAMP '2024-01-02 06:30:00'", t)
	default:
		return intLit(g.r.IntN(5))
	}
}

// aggregate is an aggregate of a select list over cols: now and then a
// GROUP_CONCAT, else agg's.
func (g *queryGen) aggregate(cols []*Col) Expr {
	if g.r.IntN(13) == 0 {
		if gc := g.groupConcat(cols); gc != nil {
			return gc
		}
	}
	return g.agg(cols)
}

// agg is COUNT, SUM, AVG, MIN or MAX over cols.
func (g *queryGen) agg(cols []*Col) *Agg {
	c := g.pickCol(cols)
	switch weighted(g.r, 2, 2, 3, 3, 2) {
	case 0:
		return &Agg{Name: "COUNT"}
	case 1:
		return &Agg{Name: "COUNT", Arg: c, Distinct: g.r.IntN(3) == 0}
	case 2:
		if n := g.numericCol(cols); n != nil {
			return &Agg{Name: "SUM", Arg: n, Distinct: g.r.IntN(6) == 0}
		}
	case 3:
		if n := g.numericCol(cols); n != nil {
			return &Agg{Name: "AVG", Arg: n}
		}
	}
	return &Agg{Name: []string{"MIN", "MAX"}[g.r.IntN(2)], Arg: c}
}

// groupConcat is a GROUP_CONCAT of one or two columns that are not
// DOUBLE; nil when cols has none.
func (g *queryGen) groupConcat(cols []*Col) Expr {
	var usable []Expr
	for _, c := range cols {
		if c.T.Kind != KindDouble {
			usable = append(usable, c)
		}
	}
	if len(usable) == 0 {
		return nil
	}
	gc := &GroupConcat{Distinct: g.r.IntN(3) == 0, Args: []Expr{usable[g.r.IntN(len(usable))]}}
	if g.r.IntN(2) == 0 {
		gc.Args = append(gc.Args, usable[g.r.IntN(len(usable))])
	}
	if g.r.IntN(3) == 0 {
		gc.Separator = "|"
	}
	return gc
}

// havingPred compares an aggregate or a grouping column with a literal.
// A grouping column shares its name with no other one: MariaDB resolves
// HAVING's columns by name alone (see doc.go).
func (g *queryGen) havingPred(cols []*Col, groupBy []Expr) Expr {
	if len(groupBy) > 0 && g.r.IntN(4) == 0 {
		c := groupBy[g.r.IntN(len(groupBy))].(*Col)
		if !slices.ContainsFunc(groupBy, func(e Expr) bool { o := e.(*Col); return o != c && o.Name == c.Name }) {
			return g.valuePred(c)
		}
	}
	if g.r.IntN(2) == 0 {
		return &Cmp{Op: g.cmpOp(), L: &Agg{Name: "COUNT"}, R: intLit(1 + g.r.IntN(3))}
	}
	c := g.pickCol(cols)
	name := []string{"MIN", "MAX", "SUM", "AVG"}[g.r.IntN(4)]
	if (name == "SUM" || name == "AVG") && !c.T.numeric() {
		name = "MIN"
	}
	return &Cmp{Op: g.cmpOp(), L: &Agg{Name: name, Arg: c}, R: g.lit(c)}
}

// window is a window function over the block's rows: ROW_NUMBER over an
// order unique per row, RANK or DENSE_RANK over any order, or an
// aggregate over a partition, ordered (a running total, peers included)
// or not.
func (g *queryGen) window(sc *scope) Expr {
	cols := sc.cols()
	w := &Window{}
	if g.r.IntN(3) > 0 {
		w.PartitionBy = []Expr{g.pickCol(cols)}
	}
	switch g.r.IntN(3) {
	case 0:
		w.Fn = &Rank{Name: "ROW_NUMBER"}
		for _, c := range uniqueOrder(sc) {
			w.OrderBy = append(w.OrderBy, SortExpr{E: c, Desc: g.r.IntN(3) == 0})
		}
	case 1:
		w.Fn = &Rank{Name: []string{"RANK", "DENSE_RANK"}[g.r.IntN(2)]}
		w.OrderBy = []SortExpr{{E: g.pickCol(cols), Desc: g.r.IntN(2) == 0}}
	default:
		// MySQL has no DISTINCT in window aggregates (error 1235).
		agg := g.agg(cols)
		agg.Distinct = false
		w.Fn = agg
		if g.r.IntN(2) == 0 {
			w.OrderBy = []SortExpr{{E: g.pickCol(cols), Desc: g.r.IntN(2) == 0}}
		}
	}
	return w
}

// uniqueOrder is a list of columns that orders the block's rows totally
// up to identical rows: the primary key of each keyed table, every
// column of an append table.
func uniqueOrder(sc *scope) []*Col {
	var out []*Col
	for _, f := range sc.from {
		for _, c := range colsOf(f) {
			if len(f.Table.PrimaryKey) == 0 || f.Table.isKey(c.Name) {
				out = append(out, c)
			}
		}
	}
	return out
}

// groupWindow is a window function over the groups of a grouped block:
// ranks ordered by an aggregate, ROW_NUMBER ordered by every grouping
// column (unique per group), or a sum of an aggregate over a partition.
func (g *queryGen) groupWindow(cols []*Col, groupBy []Expr) Expr {
	switch g.r.IntN(3) {
	case 0:
		w := &Window{Fn: &Rank{Name: "ROW_NUMBER"}}
		for _, e := range groupBy {
			w.OrderBy = append(w.OrderBy, SortExpr{E: e, Desc: g.r.IntN(2) == 0})
		}
		return w
	case 1:
		return &Window{Fn: &Rank{Name: []string{"RANK", "DENSE_RANK"}[g.r.IntN(2)]},
			OrderBy: []SortExpr{{E: notExactAvg(g.agg(cols)), Desc: g.r.IntN(2) == 0}}}
	default:
		agg := &Agg{Name: "COUNT"}
		if n := g.numericCol(cols); n != nil && g.r.IntN(2) == 0 {
			agg = &Agg{Name: "SUM", Arg: n}
		}
		return &Window{Fn: &Agg{Name: "SUM", Arg: agg}, PartitionBy: []Expr{groupBy[g.r.IntN(len(groupBy))]}}
	}
}

// notGroupConcat replaces a GROUP_CONCAT by the COUNT of its first
// argument.
func notGroupConcat(e Expr) Expr {
	if gc, ok := e.(*GroupConcat); ok {
		return &Agg{Name: "COUNT", Arg: gc.Args[0]}
	}
	return e
}

// notDistinct makes e, when it is an aggregate, not DISTINCT.
func notDistinct(e Expr) {
	switch a := e.(type) {
	case *Agg:
		a.Distinct = false
	case *GroupConcat:
		a.Distinct = false
	}
}

// notExactAvg turns an AVG of an integer or DECIMAL, whose NULL MariaDB
// 10.11 ranks as a peer of the first value when a window orders by it
// (see doc.go), into a SUM.
func notExactAvg(e Expr) Expr {
	if a, ok := e.(*Agg); ok && a.Name == "AVG" && a.Arg.Type().Kind != KindDouble {
		a.Name = "SUM"
	}
	return e
}

// orderAndLimit orders the result by some output columns, or by all of
// them (a total order of the output) and then maybe limits it.
func (g *queryGen) orderAndLimit(q *Query) {
	if g.r.IntN(5) < 3 {
		return
	}
	n := len(q.Branches[0].Items)
	perm := g.r.Perm(n)
	keys := 1 + g.r.IntN(n)
	limit := g.r.IntN(2) == 0
	if limit {
		keys = n
	}
	for _, i := range perm[:keys] {
		q.OrderBy = append(q.OrderBy, OrderKey{Item: i, Desc: g.r.IntN(3) == 0})
	}
	if limit {
		q.Limit = 1 + g.r.IntN(8)
		if g.r.IntN(3) == 0 {
			q.Offset = 1 + g.r.IntN(3)
		}
	}
}

func (g *queryGen) pickCol(cols []*Col) *Col { return cols[g.r.IntN(len(cols))] }

// comparableCol is a column of cols comparable with c other than c
// itself, or nil.
func (g *queryGen) comparableCol(cols []*Col, c *Col) *Col {
	var fits []*Col
	for _, o := range cols {
		if (o.Alias != c.Alias || o.Name != c.Name) && comparable(o.T, c.T) {
			fits = append(fits, o)
		}
	}
	if len(fits) == 0 {
		return nil
	}
	return fits[g.r.IntN(len(fits))]
}

func (g *queryGen) numericCol(cols []*Col) *Col {
	var nums []*Col
	for _, c := range cols {
		if c.T.numeric() {
			nums = append(nums, c)
		}
	}
	if len(nums) == 0 {
		return nil
	}
	return nums[g.r.IntN(len(nums))]
}

// lit is a literal of c's domain.
func (g *queryGen) lit(c *Col) Expr { return litOf(c.values(g.r), c.T) }

// lits is n literals of c's domain, and NULL among them if withNull.
func (g *queryGen) lits(c *Col, n int, withNull bool) []Expr {
	var out []Expr
	for range n {
		out = append(out, g.lit(c))
	}
	if withNull {
		out = slices.Insert(out, g.r.IntN(len(out)+1), Expr(nullLit(c.T)))
	}
	return out
}
