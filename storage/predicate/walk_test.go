package predicate

import (
	"errors"
	"testing"
)

// TestRefuted: with leaves on column a refuted and those on b not, AND
// needs one refuted conjunct, OR every disjunct, a constant is refuted
// unless TRUE, NOT proves nothing, and a leaf's error stops the walk.
func TestRefuted(t *testing.T) {
	a, b := column(t, 0, "a", "INT"), column(t, 1, "b", "INT")
	onA, onB := mustLeaf(t, a, OpEq, int32(1)), mustLeaf(t, b, OpEq, int32(1))
	refutes := func(l *LeafPredicate) (bool, error) { return l.Column().Name == "a", nil }
	for _, c := range []struct {
		p    Predicate
		want bool
	}{
		{onA, true},
		{onB, false},
		{And(onA, onB), true},
		{And(onB, onB), false},
		{Or(onA, onB), false},
		{Or(onA, mustLeaf(t, a, OpEq, int32(2))), true},
		{Constant(False), true},
		{Constant(True), false},
		{Not(Or(onB, mustLeaf(t, b, OpGt, int32(5)))), false},
	} {
		if got, err := Refuted(c.p, refutes); err != nil || got != c.want {
			t.Errorf("Refuted(%s) = %v, %v; want %v", c.p, got, err, c.want)
		}
	}
	broken := errors.New("broken index")
	if _, err := Refuted(And(onB, onA), func(*LeafPredicate) (bool, error) { return false, broken }); !errors.Is(err, broken) {
		t.Errorf("a leaf's error: %v", err)
	}
	isA := func(l *LeafPredicate) bool { return l.Column().Name == "a" }
	if !AnyLeaf(Or(onB, And(onB, onA)), isA) || AnyLeaf(And(onB, onB), isA) || AnyLeaf(Constant(True), isA) {
		t.Error("AnyLeaf does not find exactly the leaves on a")
	}
}
