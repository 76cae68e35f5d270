package sqlbackend

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/filetest"
	"github.com/lakesql/lakesql/storage/fileio/localio"
)

// A hash join builds its table on the input the planner takes for the
// smaller: a filter that keeps one partition of a 1000-row table leaves 20
// rows, fewer than the 200 of the unfiltered side, and the plan builds on
// them. GMS alone took the filtered side for 85% of its table and built on
// the larger input.
func TestFilteredInputsAreEstimatedByTheirKeptFiles(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	big := make([]string, 1000)
	for i := range big {
		big[i] = fmt.Sprintf("(%d, %d)", i%50, i)
	}
	mid := make([]string, 200)
	for i := range mid {
		mid[i] = fmt.Sprintf("(%d, %d)", i*5, i)
	}
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE big (a INT NOT NULL, x INT) PARTITION BY LIST COLUMNS (a)",
		"INSERT INTO big VALUES "+strings.Join(big, ", "),
		"CREATE TABLE mid (x INT, y INT)",
		"INSERT INTO mid VALUES "+strings.Join(mid, ", "))
	q := "SELECT big.x, mid.y FROM big JOIN mid ON big.x = mid.x WHERE big.a = 7"
	plan := format(c.mustQuery("EXPLAIN PLAN " + q))
	wantEstimate(t, plan, "IndexedTableAccess(big)", 20)
	wantEstimate(t, plan, "name: mid", 200)
	for i, line := range plan {
		if strings.HasSuffix(line, "HashJoin]") && !strings.Contains(strings.Join(plan[i:], "\n"), "HashLookup") {
			t.Fatalf("no hash join build side in the plan:\n%s", strings.Join(plan, "\n"))
		}
		if strings.HasSuffix(line, "HashLookup]") {
			if build := strings.Join(plan[i:], "\n"); !strings.Contains(build, "IndexedTableAccess(big)") {
				t.Errorf("the hash join builds on mid's 200 rows, not on big's 20:\n%s", strings.Join(plan, "\n"))
			}
			return
		}
	}
	t.Fatalf("the join is no hash join:\n%s", strings.Join(plan, "\n"))
}

// wantEstimate checks that the EXPLAIN PLAN line holding node is next to
// the node's estimated rows (printed as its first detail line, so before
// or after node's line).
func wantEstimate(t *testing.T, plan []string, node string, rows int) {
	t.Helper()
	want := fmt.Sprintf("estimated rows: %d]", rows)
	for i, line := range plan {
		if !strings.Contains(line, node) {
			continue
		}
		for _, near := range plan[max(i-1, 0):min(i+2, len(plan))] {
			if strings.HasSuffix(near, want) {
				return
			}
		}
	}
	t.Errorf("EXPLAIN shows no %q next to %s:\n%s", want, node, strings.Join(plan, "\n"))
}

// TestFilteredSelectPlansOnce: GMS asks for the row estimate of a pushed
// filter and for the plan of the lookup that carries it; the statement
// plans the read once, as a select without a filter does: both read the
// pinned snapshot's file equally often.
func TestFilteredSelectPlansOnce(t *testing.T) {
	fsys := filetest.NewCountingFS(localio.New())
	warehouse := t.TempDir()
	h := newHarnessOver(t, warehouse, fsys)
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		"CREATE TABLE t (k INT NOT NULL, v INT, PRIMARY KEY (k))",
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	snapshot := path.Join(warehouse, "d.db", "t", "snapshot", "snapshot-1")
	readsOf := func(q string, want []string) int {
		t.Helper()
		before := fsys.Reads(snapshot)
		if got := format(c.mustQuery(q)); !slices.Equal(got, want) {
			t.Fatalf("%s: %v, want %v", q, got, want)
		}
		return fsys.Reads(snapshot) - before
	}
	whole := readsOf("SELECT v FROM t", []string{"[10]", "[20]", "[30]"})
	point := readsOf("SELECT v FROM t WHERE k = 2", []string{"[20]"})
	if whole == 0 || point != whole {
		t.Errorf("the point select read the snapshot file %d times, the whole select %d", point, whole)
	}
}
