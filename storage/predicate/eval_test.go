package predicate

import (
	"math"
	"testing"
)

func TestLeafEvalThreeValued(t *testing.T) {
	x := column(t, 0, "x", "INT")
	s := column(t, 0, "s", "STRING")
	const N = Unknown
	cases := []struct {
		col  Column
		op   Op
		lits []any
		// want per row value: 1, 5, NULL (strings: "abc", "b", NULL)
		want [3]Tri
	}{
		{x, OpEq, []any{int64(1)}, [3]Tri{True, False, N}},
		{x, OpNotEq, []any{int64(1)}, [3]Tri{False, True, N}},
		{x, OpLt, []any{int64(5)}, [3]Tri{True, False, N}},
		{x, OpLe, []any{int64(5)}, [3]Tri{True, True, N}},
		{x, OpGt, []any{int64(1)}, [3]Tri{False, True, N}},
		{x, OpGe, []any{int64(5)}, [3]Tri{False, True, N}},
		{x, OpIn, []any{int64(5), int64(7)}, [3]Tri{False, True, N}},
		{x, OpIn, []any{int64(5), nil}, [3]Tri{N, True, N}},
		{x, OpNotIn, []any{int64(5), int64(7)}, [3]Tri{True, False, N}},
		{x, OpNotIn, []any{int64(5), nil}, [3]Tri{N, False, N}},
		{x, OpBetween, []any{int64(2), int64(5)}, [3]Tri{False, True, N}},
		{x, OpNotBetween, []any{int64(2), int64(5)}, [3]Tri{True, False, N}},
		{x, OpBetween, []any{int64(5), int64(2)}, [3]Tri{False, False, N}},
		{x, OpBetween, []any{nil, int64(2)}, [3]Tri{N, False, N}},
		{x, OpIsNull, nil, [3]Tri{False, False, True}},
		{x, OpIsNotNull, nil, [3]Tri{True, True, False}},
		{x, OpEq, []any{nil}, [3]Tri{N, N, N}},
		{x, OpNotEq, []any{nil}, [3]Tri{N, N, N}},
		{s, OpStartsWith, []any{"ab"}, [3]Tri{True, False, N}},
		{s, OpNotStartsWith, []any{"ab"}, [3]Tri{False, True, N}},
		{s, OpStartsWith, []any{""}, [3]Tri{True, True, N}},
		{s, OpNotStartsWith, []any{""}, [3]Tri{False, False, N}},
		{s, OpLt, []any{"b"}, [3]Tri{True, False, N}},
	}
	for _, tc := range cases {
		p := mustLeaf(t, tc.col, tc.op, tc.lits...)
		rows := [3][]any{{int32(1)}, {int32(5)}, {nil}}
		if tc.col.Type.IsString() {
			rows = [3][]any{{"abc"}, {"b"}, {nil}}
		}
		for i, row := range rows {
			if got := p.Eval(row); got != tc.want[i] {
				t.Errorf("%s on %v = %s, want %s", p, row[0], got, tc.want[i])
			}
			if got, want := Not(p).Eval(row), tc.want[i].Not(); got != want {
				t.Errorf("%s on %v = %s, want %s", Not(p), row[0], got, want)
			}
		}
	}
}

// triLeaf returns c_i = 1, which triValue(v) makes evaluate to v.
func triLeaf(t *testing.T, i int) Predicate {
	return mustLeaf(t, column(t, i, "c", "INT"), OpEq, 1)
}

func triValue(v Tri) any {
	switch v {
	case True:
		return int32(1)
	case False:
		return int32(0)
	}
	return nil
}

func TestCompoundTruthTables(t *testing.T) {
	a, b := triLeaf(t, 0), triLeaf(t, 1)
	values := []Tri{False, Unknown, True}
	for _, va := range values {
		for _, vb := range values {
			row := []any{triValue(va), triValue(vb)}
			if got, want := And(a, b).Eval(row), min(va, vb); got != want {
				t.Errorf("%s AND %s = %s, want %s", va, vb, got, want)
			}
			if got, want := Or(a, b).Eval(row), max(va, vb); got != want {
				t.Errorf("%s OR %s = %s, want %s", va, vb, got, want)
			}
			if got, want := Not(And(a, b)).Eval(row), min(va, vb).Not(); got != want {
				t.Errorf("NOT (%s AND %s) = %s, want %s", va, vb, got, want)
			}
			if got, want := Not(Or(a, b)).Eval(row), max(va, vb).Not(); got != want {
				t.Errorf("NOT (%s OR %s) = %s, want %s", va, vb, got, want)
			}
		}
		if got := Not(a).Eval([]any{triValue(va)}); got != va.Not() {
			t.Errorf("NOT %s = %s", va, got)
		}
	}
}

func TestConstantsFoldInJunctions(t *testing.T) {
	x := mustLeaf(t, column(t, 0, "x", "INT"), OpEq, 1)
	cases := []struct {
		p    Predicate
		want string
	}{
		{And(), "TRUE"},
		{Or(), "FALSE"},
		{And(x, Constant(True)), "x = 1"},
		{And(x, Constant(False)), "FALSE"},
		{Or(x, Constant(True)), "TRUE"},
		{Or(x, Constant(False)), "x = 1"},
		{And(x, Constant(Unknown)), "x = 1 AND NULL"},
		{Not(Constant(Unknown)), "NULL"},
		{Not(And(x, Or(x, x))), "x <> 1 OR (x <> 1 AND x <> 1)"},
		{And(And(x, x), x), "x = 1 AND x = 1 AND x = 1"},
	}
	for _, tc := range cases {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
	// x = 1 AND NULL is FALSE for x = 2, UNKNOWN for x = 1: the UNKNOWN
	// constant must not fold away.
	p := And(x, Constant(Unknown))
	if p.Eval([]any{int32(2)}) != False || p.Eval([]any{int32(1)}) != Unknown {
		t.Errorf("%s evaluates wrongly", p)
	}
}

func TestEvalMissingColumnReadsNull(t *testing.T) {
	p := mustLeaf(t, column(t, 3, "added", "INT"), OpIsNull)
	if got := p.Eval([]any{int32(1)}); got != True {
		t.Errorf("IS NULL on a short row = %s", got)
	}
}

func TestFloatEvalOrder(t *testing.T) {
	d := column(t, 0, "d", "DOUBLE")
	nan := math.NaN()
	cases := []struct {
		op   Op
		lit  any
		v    float64
		want Tri
	}{
		{OpEq, 0.0, math.Copysign(0, -1), True}, // SQL: -0.0 = 0.0
		{OpLt, 0.0, math.Copysign(0, -1), False},
		{OpGt, 1e300, nan, True}, // NaN sorts above everything, as in Paimon
		{OpLt, 1e300, nan, False},
		{OpNotEq, 1.0, nan, True},
		{OpGt, 1e300, math.Inf(1), True},
	}
	for _, tc := range cases {
		p := mustLeaf(t, d, tc.op, tc.lit)
		if got := p.Eval([]any{tc.v}); got != tc.want {
			t.Errorf("%s on %v = %s, want %s", p, tc.v, got, tc.want)
		}
		if got := Not(p).Eval([]any{tc.v}); got != tc.want.Not() {
			t.Errorf("%s on %v = %s, want %s", Not(p), tc.v, got, tc.want.Not())
		}
	}
}

func TestNegationPairs(t *testing.T) {
	for op := OpEq; op <= OpIsNotNull; op++ {
		if op.Negation().Negation() != op || op.Negation() == op {
			t.Errorf("%s: negation %s is not an involution", op, op.Negation())
		}
	}
}
