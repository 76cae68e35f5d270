package sqlbackend

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/sqlbackend/metrics"
)

// loadSmallFiles creates table name(a, b) holding a = 0..rows-1, b = a*7%11,
// partitioned by a: a file per row, as one-row INSERTs of sqllogictest's
// scripts and CDC trickles leave tables, written by one commit.
func loadSmallFiles(c *conn, name string, rows int) {
	values := make([]string, rows)
	for i := range rows {
		values[i] = fmt.Sprintf("(%d, %d)", i, i*7%11)
	}
	c.mustExec(fmt.Sprintf("CREATE TABLE %s (a INT NOT NULL, b INT) PARTITION BY LIST COLUMNS (a)", name),
		fmt.Sprintf("INSERT INTO %s VALUES %s", name, strings.Join(values, ", ")))
}

// A nested-loop join builds its inner side again for every outer row; the
// inner table is planned and read twice in the statement, and its kept
// rows replayed after that, with the answers of the plain plan.
func TestRescansReplayTheStatementsRows(t *testing.T) {
	m := metrics.New()
	h := newMetricsHarness(t, m)
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d")
	loadSmallFiles(c, "outer_t", 30)
	loadSmallFiles(c, "inner_t", 20)
	q := "SELECT o.a, i.a FROM outer_t o JOIN inner_t i ON o.a + i.a = 25 OR o.b < i.b - 8"
	if plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+q)), "\n"); !strings.Contains(plan, "InnerJoin") {
		t.Fatalf("the join is no nested loop; the test does not test what it should:\n%s", plan)
	}
	scans := func() float64 {
		return tableMetric(t, m, "lakesql_scans_total", "d", "inner_t") + tableMetric(t, m, "lakesql_scans_total", "d", "outer_t")
	}
	before := scans()
	on := sortedStrings(format(c.mustQuery(q)))
	if got := scans() - before; got > 3 {
		t.Errorf("the two tables were planned %v times, want at most 3: the outer once, the inner twice", got)
	}
	c.mustExec("SET lakesql_planner_rewrites = OFF")
	off := sortedStrings(format(c.mustQuery(q)))
	if len(on) == 0 || !slices.Equal(on, off) {
		t.Errorf("rescans replayed %d rows %v, plain scans %d rows %v", len(on), on, len(off), off)
	}
}

// The join planner sees the rows a filtered input keeps and what a nested
// loop costs when it rebuilds a join subtree per row: in the shape of a
// select4 query of sqllogictest, where GMS alone put a cross product of
// the large inputs on the right of cross joins with the small ones and
// rebuilt it for every small row, no nested-loop join has a join on its
// right.
func TestJoinPlanKeepsJoinSubtreesOuter(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d")
	for name, rows := range map[string]int{"t2": 20, "t3": 20, "t5": 20, "t6": 60, "t8": 60, "t9": 20} {
		loadSmallFiles(c, name, rows)
	}
	q := `SELECT t6.a, t8.a, t2.a, t3.a, t5.a, t9.a FROM t3, t6, t8, t2, t5, t9
		WHERE t2.a IN (3, 4, 5) AND t3.a IN (5, 6, 7, 8) AND t5.a IN (1, 2, 3) AND t9.a IN (8, 9, 10, 11) AND t8.b = t5.b`
	plan := format(c.mustQuery("EXPLAIN PLAN " + q))
	for i, line := range plan {
		if !strings.HasSuffix(line, "CrossJoin]") && !strings.HasSuffix(line, "InnerJoin]") {
			continue
		}
		if right := rightChild(plan, i); strings.Contains(right, "Join") {
			t.Errorf("a nested-loop join rebuilds a join per outer row: %s\n%s", right, strings.Join(plan, "\n"))
		}
	}
	if got, want := len(c.mustQuery(q)), 3*4*4*60*matchingB(60, []int{1, 2, 3}); got != want {
		t.Errorf("the join returned %d rows, want %d", got, want)
	}
}

// matchingB counts the pairs of a row of a loadSmallFiles table of rows
// rows and a row with a in as whose b are equal.
func matchingB(rows int, as []int) int {
	n := 0
	for i := range rows {
		for _, a := range as {
			if i*7%11 == a*7%11 {
				n++
			}
		}
	}
	return n
}

// rightChild is the text of the second child of the plan node on line i
// of an EXPLAIN PLAN tree: a node's children are the following lines
// indented four columns deeper, up to the next line as shallow as the
// node, and its last one is the right input of a join.
func rightChild(plan []string, i int) string {
	depth, _ := nodeText(plan[i])
	right := ""
	for _, line := range plan[i+1:] {
		d, text := nodeText(line)
		if d <= depth {
			break
		}
		if d == depth+4 {
			right = text
		}
	}
	return right
}

// nodeText is the column, in characters, where a plan line's text starts
// after the tree drawing, and that text.
func nodeText(line string) (int, string) {
	runes := []rune(strings.Trim(line, "[]"))
	for col, r := range runes {
		if !strings.ContainsRune(" │├└─", r) {
			return col, string(runes[col:])
		}
	}
	return len(runes), ""
}
