package planner

import (
	"math"
	"testing"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestSelectivity(t *testing.T) {
	dt := predicate.ColumnOf(0, spec.DataField{Name: "dt", Type: spec.DataType{Root: spec.VarChar, Length: 10}})
	amount := predicate.ColumnOf(1, spec.DataField{Name: "amount", Type: spec.DataType{Root: spec.BigInt, Nullable: true}})
	leaf := func(c predicate.Column, op predicate.Op, literals ...any) predicate.Predicate {
		p, err := predicate.Leaf(c, op, literals...)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	eq := leaf(amount, predicate.OpEq, int64(5))
	gt := leaf(amount, predicate.OpGt, int64(5))
	day := leaf(dt, predicate.OpEq, "2026-04-16")
	cases := []struct {
		name  string
		p     predicate.Predicate
		exact []int
		want  float64
	}{
		{"equality", eq, nil, 0.1},
		{"range", gt, nil, 1.0 / 3},
		{"in list of three", leaf(amount, predicate.OpIn, int64(1), int64(2), int64(3)), nil, 0.3},
		{"in list longer than the default", leaf(amount, predicate.OpIn, int64(1), int64(2), int64(3), int64(4), int64(5), int64(6), int64(7), int64(8), int64(9), int64(10)), nil, 0.85},
		{"not equal", leaf(amount, predicate.OpNotEq, int64(5)), nil, 0.9},
		{"between", leaf(amount, predicate.OpBetween, int64(1), int64(9)), nil, 1.0 / 9},
		{"and multiplies", predicate.And(eq, gt), nil, 0.1 / 3},
		{"or unites", predicate.Or(eq, gt), nil, 1 - 0.9*2.0/3},
		{"a partition conjunct pruning decided keeps every row", day, []int{0}, 1},
		{"only the undecided conjuncts count", predicate.And(day, gt), []int{0}, 1.0 / 3},
		{"an OR with a decided alternative is taken to keep every row", predicate.Or(day, eq), []int{0}, 1},
		{"false keeps nothing", predicate.Constant(predicate.False), nil, 0},
	}
	for _, c := range cases {
		if got := Selectivity(c.p, c.exact); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: Selectivity(%s) = %v, want %v", c.name, c.p, got, c.want)
		}
	}
}
