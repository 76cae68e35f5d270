package sqlbackend

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A hash join on one DECIMAL key finds every match, whatever the scales
// of its two sides: GMS keyed its hash table by decimal.Decimal values,
// which are never equal as map keys.
func TestHashJoinOnDecimalKey(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE a (k DECIMAL(10,2), v INT)",
		"CREATE TABLE b (k DECIMAL(12,4), w INT)",
		"CREATE TABLE n (k INT, w INT)")
	var as, bs, ns []string
	for i := range 300 {
		as = append(as, fmt.Sprintf("(%d.%02d, %d)", i, (i%2)*25, i))
	}
	for i := range 100 {
		frac := "2500" // equal to a's .25 for odd i, to no key for even i
		if i >= 50 {
			frac = "7500"
		}
		bs = append(bs, fmt.Sprintf("(%d.%s, %d)", i, frac, i))
		ns = append(ns, fmt.Sprintf("(%d, %d)", i, i))
	}
	c.mustExec("INSERT INTO a VALUES "+strings.Join(as, ", "),
		"INSERT INTO b VALUES "+strings.Join(bs, ", "),
		"INSERT INTO n VALUES "+strings.Join(ns, ", "))
	var odd, even []string
	for i := range 100 {
		if i%2 == 1 && i < 50 {
			odd = append(odd, fmt.Sprintf("[%d %d]", i, i))
		}
		if i%2 == 0 {
			even = append(even, fmt.Sprintf("[%d %d]", i, i))
		}
	}
	for q, want := range map[string][]string{
		"SELECT a.v, b.w FROM a JOIN b ON a.k = b.k": sortedStrings(odd),
		"SELECT a.v, b.w FROM b JOIN a ON b.k = a.k": sortedStrings(odd),
		"SELECT a.v, n.w FROM a JOIN n ON a.k = n.k": sortedStrings(even),
		"SELECT a.v, n.w FROM n JOIN a ON n.k = a.k": sortedStrings(even),
	} {
		plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+q)), "\n")
		if !strings.Contains(plan, "HashJoin") {
			t.Errorf("%s is not a hash join:\n%s", q, plan)
		}
		if got := sortedLines(c.mustQuery(q)); !slices.Equal(got, want) {
			t.Errorf("%s:\n got %d rows %v\nwant %d rows %v", q, len(got), clip(got), len(want), clip(want))
		}
	}
}

func sortedStrings(s []string) []string {
	slices.Sort(s)
	return s
}

func clip(rows []string) []string {
	if len(rows) > 6 {
		return append(rows[:6:6], "…")
	}
	return rows
}
