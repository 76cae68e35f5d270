package predicate

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

var seedFlag = flag.Uint64("predicate.seed", 0, "seed of the randomized predicate tests (0: time-based)")

func testSeed(t *testing.T) uint64 {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -predicate.seed=%d)", seed, seed)
	return seed
}

// propColumn is a column of the randomized tests: a tiny domain of values
// (NULL is added separately) and literals to compare them with, of the Go
// types a SQL layer hands over, including ones between or outside the
// column's values.
type propColumn struct {
	col      Column
	values   []any
	literals []any
}

func propColumns(t *testing.T) []propColumn {
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	long := "2026-04-16-payment-"
	top := string(rune(0x10FFFF))
	return []propColumn{
		{column(t, 0, "n", "TINYINT"),
			[]any{int8(-128), int8(-1), int8(0), int8(1), int8(2), int8(127)},
			[]any{int64(-1), int64(0), int64(1), int64(2), int64(127), int64(300), int64(-300), 1.5, -0.5, "1", " 2.0", "1.5", true, nil}},
		{column(t, 1, "d", "DOUBLE"),
			[]any{-1.5, negZero, 0.0, 1.0, 2.5, math.Inf(1), math.Inf(-1), nan},
			[]any{-1.5, 0.0, negZero, 1.0, 2.0, 2.5, int64(1), "2.5", "0.1", 1e308, -1e308, nil}},
		{column(t, 2, "s", "STRING"),
			[]any{"", "a", "ab", "b", long + "000001", long + "000002", long + "1", "abcdefghijklmnop", "abcdefghijklmnoq",
				"abcdefghijklmno" + top + "x", "abcdefghijklmnp", top + top},
			[]any{"", "a", "ab", "b", "c", long, long + "000001", long + "0", "2026-04-16-paymf", "abcdefghijklmnop", "abcdefghijklmno",
				"abcdefghijklmno" + top, "abcdefghijklmnp", top, []byte("ab"), nil}},
		{column(t, 3, "m", "DECIMAL(4, 1)"),
			[]any{spec.NewDecimal(-999, 1), spec.NewDecimal(-15, 1), spec.NewDecimal(0, 1), spec.NewDecimal(15, 1), spec.NewDecimal(999, 1)},
			[]any{"1.5", "1.55", "-1.45", 0.1, int64(0), int64(100), "99.9", "-99.95", spec.NewDecimal(150, 2), nil}},
		{column(t, 4, "f", "FLOAT"),
			[]any{float32(0.1), float32(0.5), float32(-2), float32(0), float32(math.Inf(1)), float32(math.NaN())},
			[]any{0.1, 0.5, -2.0, "0.1", int64(0), 1e39, nil}},
		{column(t, 5, "day", "DATE"),
			[]any{spec.DateValue(20558), spec.DateValue(20559), spec.DateValue(20560)},
			[]any{"2026-04-16", "2026-04-16 10:00:00", "2026-04-17 00:00:00", spec.DateValue(20558), time.Date(2026, 4, 15, 23, 0, 0, 0, time.UTC), nil}},
	}
}

type propGen struct {
	r    *rand.Rand
	cols []propColumn
}

func (g *propGen) pick(list []any) any { return list[g.r.IntN(len(list))] }

// predicate builds a random predicate of at most depth levels, retrying
// leaves whose literals do not convert.
func (g *propGen) predicate(depth int) Predicate {
	if depth == 0 || g.r.IntN(3) == 0 {
		return g.leaf()
	}
	switch g.r.IntN(3) {
	case 0:
		return Not(g.predicate(depth - 1))
	case 1:
		return And(g.children(depth)...)
	}
	return Or(g.children(depth)...)
}

func (g *propGen) children(depth int) []Predicate {
	out := make([]Predicate, 2+g.r.IntN(2))
	for i := range out {
		out[i] = g.predicate(depth - 1)
	}
	return out
}

func (g *propGen) leaf() Predicate {
	for {
		pc := g.cols[g.r.IntN(len(g.cols))]
		if pc.col.Type.IsString() && g.r.IntN(4) == 0 {
			if p, ok := Like(pc.col, g.likePattern(pc), '\\'); ok {
				return p
			}
			continue
		}
		op := Op(1 + g.r.IntN(int(OpIsNotNull)))
		if p, err := Leaf(pc.col, op, g.literals(pc, op)...); err == nil {
			return p
		}
	}
}

func (g *propGen) literals(pc propColumn, op Op) []any {
	n := ops[op].arity
	if n < 0 {
		n = 1 + g.r.IntN(4)
	}
	out := make([]any, n)
	for i := range out {
		out[i] = g.pick(pc.literals)
	}
	return out
}

func (g *propGen) likePattern(pc propColumn) string {
	s, _ := g.pick(pc.literals).(string)
	return strings.NewReplacer("%", `\%`, "_", `\_`).Replace(s) + strings.Repeat("%", g.r.IntN(2))
}

// rows returns 1 to 6 random rows over every column, about one value in
// five NULL.
func (g *propGen) rows() [][]any {
	rows := make([][]any, 1+g.r.IntN(6))
	for i := range rows {
		rows[i] = make([]any, len(g.cols))
		for c, pc := range g.cols {
			if g.r.IntN(5) > 0 {
				rows[i][c] = g.pick(pc.values)
			}
		}
	}
	return rows
}

// statsStyle builds the statistics of one column the way one kind of writer
// does.
type statsStyle int

const (
	// javaStats is Paimon's full collector: Java's compareTo order, so NaN
	// is the max and -0.0 sorts below 0.0.
	javaStats statsStyle = iota
	// parquetStats is a Parquet-spec writer (lakesql's parquetio): IEEE
	// comparisons, NaN left out of the bounds, the first zero seen kept.
	parquetStats
	// truncatedStats is Paimon's default truncate(16) over javaStats.
	truncatedStats
)

// statsStyles are the styles a generated file's statistics are drawn from.
var statsStyles = []statsStyle{javaStats, parquetStats, truncatedStats}

func (g *propGen) stats(rows [][]any, style statsStyle) Stats {
	s := Stats{RowCount: int64(len(rows)), Columns: make([]spec.ColumnStats, len(g.cols))}
	for c, pc := range g.cols {
		var values []any
		for _, row := range rows {
			if row[c] != nil {
				values = append(values, row[c])
			}
		}
		cs := columnStats(pc.col.Type, values, style)
		cs.NullCount = count(int64(len(rows) - len(values)))
		if g.r.IntN(8) == 0 {
			cs.NullCount = nil
		}
		if g.r.IntN(10) == 0 {
			cs.Min = nil
		}
		s.Columns[c] = cs
	}
	if g.r.IntN(10) == 0 {
		s.RowCount = -1
	}
	return s
}

func columnStats(t spec.DataType, values []any, style statsStyle) spec.ColumnStats {
	var cs spec.ColumnStats
	less := func(a, b any) bool { return spec.CompareValues(t, a, b) < 0 }
	if style == parquetStats && isFloatType(t) {
		less = func(a, b any) bool { return asFloat(a) < asFloat(b) }
	}
	for _, v := range values {
		if style == parquetStats && isNaN(v) {
			continue
		}
		if cs.Min == nil || less(v, cs.Min) {
			cs.Min = v
		}
		if cs.Max == nil || less(cs.Max, v) {
			cs.Max = v
		}
	}
	if style == truncatedStats && t.IsString() && cs.Min != nil {
		max, ok := paimonTruncateMax(cs.Max.(string))
		if !ok {
			return spec.ColumnStats{}
		}
		cs.Min, cs.Max = paimonTruncateMin(cs.Min.(string)), max
	}
	return cs
}

func asFloat(v any) float64 {
	if f, ok := v.(float32); ok {
		return float64(f)
	}
	return v.(float64)
}

func describeRows(rows [][]any) string {
	var b strings.Builder
	for _, row := range rows {
		fmt.Fprintf(&b, "\n    %#v", row)
	}
	return b.String()
}

func TestPruningNeverDropsMatchingRows(t *testing.T) {
	seed := testSeed(t)
	g := &propGen{r: rand.New(rand.NewPCG(seed, 1)), cols: propColumns(t)}
	pruned := 0
	for range 20000 {
		p := g.predicate(3)
		rows := g.rows()
		style := statsStyles[g.r.IntN(len(statsStyles))]
		stats := g.stats(rows, style)
		if p.Test(stats) != Cannot {
			continue
		}
		pruned++
		for _, row := range rows {
			if p.Eval(row) == True {
				t.Fatalf("seed %d: %s pruned by stats %+v (style %d) but TRUE for %#v; rows:%s",
					seed, p, stats, style, row, describeRows(rows))
			}
		}
	}
	if pruned < 2000 {
		t.Errorf("seed %d: only %d of 20000 cases pruned; the test is too weak", seed, pruned)
	}
}

func TestNegationIsExact(t *testing.T) {
	seed := testSeed(t)
	g := &propGen{r: rand.New(rand.NewPCG(seed, 2)), cols: propColumns(t)}
	for range 20000 {
		p := g.predicate(3)
		for _, row := range g.rows() {
			if got, want := Not(p).Eval(row), p.Eval(row).Not(); got != want {
				t.Fatalf("seed %d: NOT (%s) = %s on %#v, want %s (Not built %s)", seed, p, got, row, want, Not(p))
			}
		}
	}
}

func TestExtractAndRemapKeepSemantics(t *testing.T) {
	seed := testSeed(t)
	g := &propGen{r: rand.New(rand.NewPCG(seed, 3)), cols: propColumns(t)}
	for range 10000 {
		p := g.predicate(3)
		keep := g.columnSubset()
		extracted, residual := Extract(p, keep)
		if cols := Columns(extracted); !isSubset(cols, keep) {
			t.Fatalf("seed %d: Extract(%s, %v) extracted %s reading %v", seed, p, keep, extracted, cols)
		}
		projected, ok := Remap(extracted, projection(len(g.cols), keep))
		if !ok {
			t.Fatalf("seed %d: Remap(%s) failed", seed, extracted)
		}
		for _, row := range g.rows() {
			whole := p.Eval(row) == True
			if split := And(extracted, residual).Eval(row) == True; split != whole {
				t.Fatalf("seed %d: %s is %v on %#v but extracted %s AND residual %s is %v",
					seed, p, whole, row, extracted, residual, split)
			}
			if whole && extracted.Eval(row) != True {
				t.Fatalf("seed %d: %s TRUE on %#v but extracted %s is not", seed, p, row, extracted)
			}
			if got, want := projected.Eval(project(row, keep)), extracted.Eval(row); got != want {
				t.Fatalf("seed %d: remapped %s = %s, want %s", seed, projected, got, want)
			}
			checkEqualityLiterals(t, seed, p, row)
		}
	}
}

// checkEqualityLiterals asserts that a row making p TRUE holds one of the
// collected values, identical (a float zero's sign included, as a bucket hash
// sees it) in every pinned column.
func checkEqualityLiterals(t *testing.T, seed uint64, p Predicate, row []any) {
	if p.Eval(row) != True {
		return
	}
	for col, values := range EqualityLiterals(p) {
		if !slices.ContainsFunc(values, func(v any) bool { return identical(v, row[col]) }) {
			t.Fatalf("seed %d: %s TRUE on %#v but column %d is not in %v", seed, p, row, col, values)
		}
	}
}

func identical(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	}
	return spec.CompareValues(spec.DataType{}, a, b) == 0
}

func (g *propGen) columnSubset() []int {
	var keep []int
	for i := range g.cols {
		if g.r.IntN(2) == 0 {
			keep = append(keep, i)
		}
	}
	return keep
}

func isSubset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// projection maps the kept columns to their positions in the projected row.
func projection(width int, keep []int) []int {
	to := slices.Repeat([]int{-1}, width)
	for i, c := range keep {
		to[c] = i
	}
	return to
}

func project(row []any, keep []int) []any {
	out := make([]any, len(keep))
	for i, c := range keep {
		out[i] = row[c]
	}
	return out
}

// TestCastsAgreeWithExactComparison checks every comparison of every test
// value with every test literal against exact arithmetic on the numbers
// (or instants) they stand for, so rewrites such as x < 1.5 => x <= 1 or
// x = 300 => x IN () are checked without trusting the rewriting code.
func TestCastsAgreeWithExactComparison(t *testing.T) {
	for _, pc := range propColumns(t) {
		if pc.col.Type.IsString() {
			continue
		}
		for _, lit := range pc.literals {
			for _, v := range pc.values {
				row := make([]any, pc.col.Index+1)
				row[pc.col.Index] = v
				want := referenceCompare(t, pc.col.Type, v, lit)
				for _, op := range []Op{OpEq, OpNotEq, OpLt, OpLe, OpGt, OpGe, OpIn, OpNotIn} {
					p := mustLeaf(t, pc.col, op, lit)
					if got := p.Eval(row); got != expectedTri(op, want, lit == nil) {
						t.Errorf("%s %s %#v built as %s: %s on %v, want %s",
							pc.col.Name, op, lit, p, got, v, expectedTri(op, want, lit == nil))
					}
				}
			}
		}
	}
}

func expectedTri(op Op, c int, nullLiteral bool) Tri {
	if nullLiteral {
		return Unknown
	}
	switch op {
	case OpEq, OpIn:
		return triOf(c == 0)
	case OpNotEq, OpNotIn:
		return triOf(c != 0)
	case OpLt:
		return triOf(c < 0)
	case OpLe:
		return triOf(c <= 0)
	case OpGt:
		return triOf(c > 0)
	}
	return triOf(c >= 0)
}

// referenceCompare compares value v of type typ with lit as MySQL would:
// exact numbers, doubles for float columns, DATETIME for dates.
func referenceCompare(t *testing.T, typ spec.DataType, v, lit any) int {
	if lit == nil {
		return 0
	}
	switch typ.Root {
	case spec.Float, spec.Double:
		x := asFloat(v)
		if math.IsNaN(x) {
			return 1
		}
		return cmp.Compare(x, referenceDouble(t, lit))
	case spec.Date:
		days := big.NewInt(int64(v.(spec.DateValue)))
		return new(big.Int).Mul(days, big.NewInt(nanosPerDay)).Cmp(referenceNanos(t, lit))
	}
	return referenceRat(t, v).Cmp(referenceRat(t, lit))
}

func referenceRat(t *testing.T, v any) *big.Rat {
	var text string
	switch x := v.(type) {
	case int8:
		text = strconv.Itoa(int(x))
	case int64:
		text = strconv.FormatInt(x, 10)
	case float64:
		text = strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		text = map[bool]string{false: "0", true: "1"}[x]
	case spec.DecimalValue:
		text = x.String()
	case string:
		text = strings.TrimSpace(x)
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		t.Fatalf("no reference number for %#v", v)
	}
	return r
}

func referenceDouble(t *testing.T, lit any) float64 {
	f, _ := referenceRat(t, lit).Float64()
	return f
}

func referenceNanos(t *testing.T, lit any) *big.Int {
	var wall time.Time
	switch x := lit.(type) {
	case spec.DateValue:
		wall = time.Unix(int64(x)*86400, 0).UTC()
	case time.Time:
		wall = x
	case string:
		var err error
		if wall, err = time.Parse(time.DateTime, x); err != nil {
			wall, err = time.Parse(time.DateOnly, x)
		}
		if err != nil {
			t.Fatalf("no reference instant for %q", x)
		}
	}
	return new(big.Int).Mul(big.NewInt(wall.Unix()), big.NewInt(1_000_000_000))
}
