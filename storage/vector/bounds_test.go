package vector

import (
	"fmt"
	"math"
	"testing"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestBoundsOfConjuncts: the bounds the conjuncts on column 0 put on it,
// as the places of sample values, and the conjuncts that bound nothing.
func TestBoundsOfConjuncts(t *testing.T) {
	id := spec.DataField{ID: 1, Name: "id", Type: spec.DataType{Root: spec.BigInt}}
	day := spec.DataField{ID: 2, Name: "day", Type: spec.DataType{Root: spec.Date}}
	name := spec.DataField{ID: 3, Name: "name", Type: spec.DataType{Root: spec.VarChar, Length: 10}}
	leaf := func(f spec.DataField, col int, op predicate.Op, literals ...any) predicate.Predicate {
		p, err := predicate.Leaf(predicate.ColumnOf(col, f), op, literals...)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ids := []int64{math.MinInt64, 4, 5, 6, 9, 10, 11, math.MaxInt64}
	cases := []struct {
		pred  predicate.Predicate
		want  string // the places of ids, or of names for the name column
		empty bool
	}{
		{leaf(id, 0, predicate.OpEq, int64(5)), "[-1 -1 0 1 1 1 1 1]", false},
		{leaf(id, 0, predicate.OpGt, int64(5)), "[-1 -1 -1 0 0 0 0 0]", false},
		{leaf(id, 0, predicate.OpGe, int64(5)), "[-1 -1 0 0 0 0 0 0]", false},
		{leaf(id, 0, predicate.OpLt, int64(10)), "[0 0 0 0 0 1 1 1]", false},
		{leaf(id, 0, predicate.OpLe, int64(10)), "[0 0 0 0 0 0 1 1]", false},
		{leaf(id, 0, predicate.OpBetween, int64(5), int64(10)), "[-1 -1 0 0 0 0 1 1]", false},
		{predicate.And(leaf(id, 0, predicate.OpGe, int64(4)), leaf(id, 0, predicate.OpGt, int64(5)), leaf(id, 0, predicate.OpLe, int64(10)),
			leaf(id, 0, predicate.OpLt, int64(11))), "[-1 -1 -1 0 0 0 1 1]", false},
		{predicate.And(leaf(id, 0, predicate.OpGt, int64(5)), leaf(id, 0, predicate.OpLt, int64(6))), "[-1 -1 -1 1 1 1 1 1]", true},
		{leaf(id, 0, predicate.OpGt, int64(math.MaxInt64)), "", true},
		{leaf(id, 0, predicate.OpLt, int64(math.MinInt64)), "", true},
		// Other conjuncts are left to the filter.
		{predicate.And(leaf(id, 0, predicate.OpLe, int64(9)), leaf(day, 1, predicate.OpEq, spec.DateValue(3)),
			leaf(id, 0, predicate.OpNotEq, int64(6)), leaf(id, 0, predicate.OpIn, int64(1), int64(7))), "[0 0 0 0 0 1 1 1]", false},
		{leaf(name, 0, predicate.OpEq, "b"), "[-1 0 1 1]", false},
		{leaf(name, 0, predicate.OpGt, "b"), "[-1 -1 0 0]", false},
		{leaf(name, 0, predicate.OpLt, "b"), "[0 1 1 1]", false},
		{predicate.And(leaf(name, 0, predicate.OpGe, "b"), leaf(name, 0, predicate.OpLt, "c")), "[-1 0 0 1]", false},
		{predicate.And(leaf(name, 0, predicate.OpGt, "b"), leaf(name, 0, predicate.OpLe, "b")), "[-1 -1 1 1]", true},
	}
	for _, c := range cases {
		b, ok := BoundsOf(c.pred, 0)
		if !ok {
			t.Errorf("%s: no bounds", c.pred)
			continue
		}
		var places []int
		if b.Kind == Bytes {
			for _, x := range []string{"a", "b", "b0", "c"} {
				places = append(places, b.BytesPlace([]byte(x)))
			}
		} else {
			for _, x := range ids {
				places = append(places, b.IntPlace(x))
			}
		}
		if got := fmt.Sprint(places); (c.want != "" && got != c.want) || b.Empty() != c.empty {
			t.Errorf("%s: places %s, empty %v; want %s, %v", c.pred, got, b.Empty(), c.want, c.empty)
		}
	}
	single := []struct {
		pred predicate.Predicate
		want bool
	}{
		{leaf(id, 0, predicate.OpEq, int64(5)), true},
		{predicate.And(leaf(id, 0, predicate.OpGe, int64(5)), leaf(id, 0, predicate.OpLt, int64(6))), true},
		{predicate.And(leaf(id, 0, predicate.OpGt, int64(5)), leaf(id, 0, predicate.OpLt, int64(6))), true},
		{leaf(id, 0, predicate.OpBetween, int64(5), int64(6)), false},
		{leaf(id, 0, predicate.OpGe, int64(5)), false},
		{leaf(id, 0, predicate.OpLe, int64(5)), false},
		{leaf(name, 0, predicate.OpEq, "b"), true},
		{predicate.And(leaf(name, 0, predicate.OpGe, "b"), leaf(name, 0, predicate.OpLe, "b")), true},
		{predicate.And(leaf(name, 0, predicate.OpGe, "b"), leaf(name, 0, predicate.OpLt, "b0")), false},
	}
	for _, c := range single {
		if b, ok := BoundsOf(c.pred, 0); !ok || b.Single() != c.want {
			t.Errorf("%s: bounds %v, single %v; want single %v", c.pred, ok, b.Single(), c.want)
		}
	}
	for _, p := range []predicate.Predicate{
		leaf(id, 0, predicate.OpNotEq, int64(5)),
		leaf(id, 0, predicate.OpIn, int64(5), int64(6)),
		leaf(id, 0, predicate.OpNotBetween, int64(3), int64(5)),
		predicate.Or(leaf(id, 0, predicate.OpEq, int64(5)), leaf(id, 0, predicate.OpEq, int64(7))),
		leaf(day, 1, predicate.OpEq, spec.DateValue(3)),
		leaf(name, 0, predicate.OpStartsWith, "b"),
	} {
		if _, ok := BoundsOf(p, 0); ok {
			t.Errorf("%s: bounds column 0, want none", p)
		}
	}
}
