package planner

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"

	"github.com/lakesql/lakesql/storage/predicate"
)

var seedFlag = flag.Uint64("planner.seed", 0, "seed of the randomized pushdown test (0: time-based)")

func testSeed(t *testing.T) uint64 {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -planner.seed=%d)", seed, seed)
	return seed
}

// TestPushFiltersAgreesWithEngine generates random rows and random filters
// and evaluates every conjunct with go-mysql-server's own Eval, the
// semantics the engine applies when it keeps a filter:
//   - a pushed conjunct's predicate has the engine's value (TRUE, FALSE or
//     UNKNOWN) on every row, and the engine evaluates it without error;
//   - a conjunct translated as a superset is TRUE in the predicate wherever
//     the engine says TRUE;
//   - over the whole list, Filter AND the residual conjuncts select exactly
//     the rows all conjuncts select.
func TestPushFiltersAgreesWithEngine(t *testing.T) {
	g := newPropGen(t, testSeed(t))
	ctx := sql.NewEmptyContext()
	counts := map[string]*pushCounts{}
	const cases, rowsPerCase = 2000, 32
	for range cases {
		rows := g.rows(t, rowsPerCase)
		conjuncts := g.conjuncts()
		checkConjuncts(t, ctx, g.tt, conjuncts, rows, counts)
		if t.Failed() {
			return
		}
	}
	checkCoverage(t, g.tt, counts)
}

// pushCounts counts, per column, the conjuncts over it translated exactly
// or as a superset, so that the test proves it exercised every column kind.
type pushCounts struct{ exact, superset int }

func checkConjuncts(t *testing.T, ctx *sql.Context, tt testTable, conjuncts []sql.Expression, rows []testRow, counts map[string]*pushCounts) {
	t.Helper()
	pd := PushFilters(tt.fields, conjuncts)
	parts := splitConjuncts(conjuncts)
	pushed := map[sql.Expression]bool{}
	for _, p := range pd.Pushed {
		pushed[p] = true
	}
	for _, p := range parts {
		alone := PushFilters(tt.fields, []sql.Expression{p})
		if (len(alone.Pushed) == 1) != pushed[p] {
			t.Fatalf("%s is pushed alone (%v) but not within %s", p, len(alone.Pushed) == 1, strs(conjuncts))
		}
		count(counts, p, alone)
		for _, row := range rows {
			checkConjunct(t, ctx, tt, p, alone, row)
		}
	}
	for _, row := range rows {
		checkWhole(t, ctx, tt, pd, parts, row)
	}
}

func count(counts map[string]*pushCounts, e sql.Expression, pd Pushdown) {
	var name string
	sql.Inspect(e, func(x sql.Expression) bool {
		if gf, ok := x.(*expression.GetField); ok && name == "" {
			name = strings.ToLower(gf.Name())
		}
		return true
	})
	if counts[name] == nil {
		counts[name] = &pushCounts{}
	}
	switch {
	case len(pd.Pushed) == 1:
		counts[name].exact++
	case pd.Filter != nil:
		counts[name].superset++
	}
}

func checkConjunct(t *testing.T, ctx *sql.Context, tt testTable, e sql.Expression, pd Pushdown, row testRow) {
	want, err := evalEngine(ctx, e, row.engine)
	switch {
	case len(pd.Pushed) == 1 && err != nil:
		t.Errorf("pushed %s: the engine fails on row %s: %v", e, showRow(tt, row.storage), err)
	case len(pd.Pushed) == 1:
		if got := pd.Filter.Eval(row.storage); got != want {
			t.Errorf("pushed %s as %s: predicate %s, engine %s on row %s", e, pd.Filter, got, want, showRow(tt, row.storage))
		}
	case pd.Filter != nil && err == nil && want == predicate.True:
		if got := pd.Filter.Eval(row.storage); got != predicate.True {
			t.Errorf("superset %s of %s is %s where the engine says TRUE, row %s", pd.Filter, e, got, showRow(tt, row.storage))
		}
	}
}

func checkWhole(t *testing.T, ctx *sql.Context, tt testTable, pd Pushdown, parts []sql.Expression, row testRow) {
	t.Helper()
	all := true
	for _, p := range parts {
		v, err := evalEngine(ctx, p, row.engine)
		if err != nil {
			return
		}
		all = all && v == predicate.True
	}
	residual := true
	for _, p := range pd.Residual {
		v, _ := evalEngine(ctx, p, row.engine)
		residual = residual && v == predicate.True
	}
	filter := pd.Filter == nil || pd.Filter.Eval(row.storage) == predicate.True
	if all != (filter && residual) {
		t.Errorf("conjuncts %s: engine %v, filter %s %v AND residual %v, row %s",
			strs(parts), all, pd.Filter, filter, residual, showRow(tt, row.storage))
	}
}

// checkCoverage fails when some column that admits comparisons never had
// one pushed, which would make the agreement above vacuous for it.
func checkCoverage(t *testing.T, tt testTable, counts map[string]*pushCounts) {
	t.Helper()
	var report []string
	for _, f := range tt.fields {
		c := counts[strings.ToLower(f.Name)]
		if c == nil {
			c = &pushCounts{}
		}
		report = append(report, fmt.Sprintf("%s %d/%d", f.Name, c.exact, c.superset))
		if c.exact == 0 {
			t.Errorf("no conjunct over %s was pushed", f.Name)
		}
	}
	if c := counts["status"]; c == nil || c.superset == 0 {
		t.Errorf("no LIKE was pushed as a superset")
	}
	t.Logf("pushed exactly/as superset per column: %s", strings.Join(report, ", "))
}

// evalEngine evaluates e as the engine's Filter does; a panic inside the
// engine counts as an error.
func evalEngine(ctx *sql.Context, e sql.Expression, row sql.Row) (tri predicate.Tri, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	v, err := e.Eval(ctx, row)
	if err != nil || v == nil {
		return predicate.Unknown, err
	}
	b, err := sql.ConvertToBool(ctx, v)
	if b {
		return predicate.True, err
	}
	return predicate.False, err
}

func showRow(tt testTable, row []any) string {
	parts := make([]string, len(row))
	for i, v := range row {
		parts[i] = fmt.Sprintf("%s=%v", tt.fields[i].Name, v)
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// propGen generates rows of the test table and filters over it.
type propGen struct {
	r     *rand.Rand
	tt    testTable
	pools [][]any
}

func newPropGen(t *testing.T, seed uint64) *propGen {
	tt := newTestTable(t)
	g := &propGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), tt: tt}
	for _, f := range tt.fields {
		g.pools = append(g.pools, valuePool(f.Type))
	}
	return g
}

func (g *propGen) rows(t *testing.T, n int) []testRow {
	rows := make([]testRow, n)
	for i := range rows {
		storage := make([]any, len(g.pools))
		for c, pool := range g.pools {
			if g.r.IntN(7) > 0 {
				storage[c] = pool[g.r.IntN(len(pool))]
			}
		}
		rows[i] = g.tt.row(t, storage)
	}
	return rows
}

func (g *propGen) conjuncts() []sql.Expression {
	out := make([]sql.Expression, 1+g.r.IntN(3))
	for i := range out {
		out[i] = g.expr(3)
	}
	return out
}

func (g *propGen) expr(depth int) sql.Expression {
	if depth == 0 || g.r.IntN(10) < 4 {
		return g.leaf()
	}
	switch g.r.IntN(3) {
	case 0:
		return expression.NewAnd(g.expr(depth-1), g.expr(depth-1))
	case 1:
		return expression.NewOr(g.expr(depth-1), g.expr(depth-1))
	}
	return expression.NewNot(g.expr(depth - 1))
}

var comparisons = []func(l, r sql.Expression) sql.Expression{
	func(l, r sql.Expression) sql.Expression { return expression.NewEquals(l, r) },
	func(l, r sql.Expression) sql.Expression { return expression.NewNullSafeEquals(l, r) },
	func(l, r sql.Expression) sql.Expression { return expression.NewLessThan(l, r) },
	func(l, r sql.Expression) sql.Expression { return expression.NewLessThanOrEqual(l, r) },
	func(l, r sql.Expression) sql.Expression { return expression.NewGreaterThan(l, r) },
	func(l, r sql.Expression) sql.Expression { return expression.NewGreaterThanOrEqual(l, r) },
	func(l, r sql.Expression) sql.Expression { return expression.NewNot(expression.NewEquals(l, r)) },
}

func (g *propGen) leaf() sql.Expression {
	c := g.r.IntN(len(g.tt.fields))
	col := g.tt.col(g.tt.fields[c].Name)
	switch g.r.IntN(20) {
	case 0, 1, 2, 3, 4, 5, 6:
		cmp := comparisons[g.r.IntN(len(comparisons))]
		if g.r.IntN(4) == 0 {
			return cmp(g.literal(c), col)
		}
		return cmp(col, g.literal(c))
	case 7, 8, 9:
		return g.in(c, col)
	case 10:
		return g.maybeNot(expression.NewIsNull(col))
	case 11:
		if g.r.IntN(2) == 0 {
			return g.maybeNot(expression.NewIsTrue(col))
		}
		return g.maybeNot(expression.NewIsFalse(col))
	case 12, 13:
		return g.maybeNot(expression.NewBetween(col, g.literal(c), g.literal(c)))
	case 14, 15, 16:
		return g.like(c)
	case 17:
		other := g.tt.col(g.tt.fields[g.r.IntN(len(g.tt.fields))].Name)
		return comparisons[g.r.IntN(len(comparisons))](col, other)
	case 18:
		return expression.NewGreaterThan(function.NewAbsVal(col), g.literal(c))
	}
	return []sql.Expression{boolLit(true), boolLit(false), nullLit()}[g.r.IntN(3)]
}

func (g *propGen) maybeNot(e sql.Expression) sql.Expression {
	if g.r.IntN(3) == 0 {
		return expression.NewNot(e)
	}
	return e
}

// in builds IN or NOT IN, as the parser (InTuple) or the analyzer
// (HashInTuple) does.
func (g *propGen) in(c int, col sql.Expression) sql.Expression {
	elems := make([]sql.Expression, 1+g.r.IntN(4))
	for i := range elems {
		if g.r.IntN(10) == 0 {
			elems[i] = nullLit()
		} else {
			elems[i] = g.literal(c)
		}
	}
	var in sql.Expression = expression.NewInTuple(col, tuple(elems...))
	if g.r.IntN(2) == 0 {
		if h, err := expression.NewHashInTuple(sql.NewEmptyContext(), col, tuple(elems...)); err == nil {
			in = h
		}
	}
	return g.maybeNot(in)
}

func (g *propGen) like(c int) sql.Expression {
	if g.r.IntN(4) > 0 {
		c = g.stringColumn()
	}
	col := g.tt.col(g.tt.fields[c].Name)
	var escape sql.Expression
	switch g.r.IntN(6) {
	case 0:
		escape = strLit("|")
	case 1:
		escape = nullLit()
	}
	return g.maybeNot(expression.NewLike(col, strLit(likePatterns[g.r.IntN(len(likePatterns))]), escape))
}

func (g *propGen) stringColumn() int {
	for {
		c := g.r.IntN(len(g.tt.fields))
		if g.tt.fields[c].Type.IsString() {
			return c
		}
	}
}

// literal returns a literal for comparing with column c: mostly a value of
// the column's pool rendered as some literal type, otherwise one of the
// edge literals.
func (g *propGen) literal(c int) sql.Expression {
	if g.r.IntN(10) < 3 {
		return edgeLiterals[g.r.IntN(len(edgeLiterals))]()
	}
	pool := g.pools[c]
	forms := literalForms(pool[g.r.IntN(len(pool))])
	return forms[g.r.IntN(len(forms))]
}
