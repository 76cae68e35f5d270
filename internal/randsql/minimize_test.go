package randsql

import (
	"slices"
	"testing"
)

// TestShrinkListKeepsOnlyWhatIsNeeded: with a test that needs items 3 and
// 11, 20 items shrink to exactly those.
func TestShrinkListKeepsOnlyWhatIsNeeded(t *testing.T) {
	var items []int
	for i := range 20 {
		items = append(items, i)
	}
	got := shrinkList(items, func(xs []int) bool { return slices.Contains(xs, 3) && slices.Contains(xs, 11) })
	if !slices.Equal(got, []int{3, 11}) {
		t.Fatalf("got %v", got)
	}
}

// TestReductionsShrink: every reduction of a generated query renders to
// shorter SQL and leaves the original alone; ORDER BY keys stay within
// the output columns.
func TestReductionsShrink(t *testing.T) {
	for seed := range uint64(50) {
		for _, q := range Generate(seed).Queries {
			before := q.SQL()
			for _, r := range reductions(q) {
				if len(r.SQL()) >= len(before) {
					t.Fatalf("seed %d: reduction is not smaller:\n%s\n%s", seed, before, r.SQL())
				}
				for _, k := range r.OrderBy {
					if k.Item >= len(r.Branches[0].Items) {
						t.Fatalf("seed %d: ORDER BY c%d of %d columns: %s", seed, k.Item, len(r.Branches[0].Items), r.SQL())
					}
				}
			}
			if q.SQL() != before {
				t.Fatalf("seed %d: reductions changed the query", seed)
			}
		}
	}
}
