package sqlbackend

import (
	"slices"
	"strings"
	"testing"
)

// With lakesql_planner_rewrites OFF, reads run as plain go-mysql-server
// plans over full scans, and answer the same: the switch the differential
// tests compare every planner rewrite with.
func TestPlannerRewritesSwitch(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay", `INSERT INTO payments VALUES
		('2026-04-16', 1, 1.00, 'SUCCESS'), ('2026-04-16', 2, 2.50, 'FAILED'),
		('2026-04-17', 3, 4.00, 'SUCCESS'), ('2026-04-17', 4, NULL, NULL)`)
	queries := map[string]string{
		"SELECT pay_id, amount FROM payments WHERE dt = '2026-04-17'":                                                               "pushed[",
		"SELECT COUNT(*), SUM(amount), MIN(pay_id), MAX(amount) FROM payments WHERE dt = '2026-04-16'":                              "LakesqlAggregate",
		"SELECT COUNT(*) FROM payments":                                                                                             "table_count(",
		"SELECT a.pay_id, b.status FROM payments a JOIN payments b ON a.dt = b.dt AND a.pay_id = b.pay_id WHERE a.pay_id > 1":       "IndexedTableAccess",
		"SELECT /*+ LOOKUP_JOIN(a, b) */ a.pay_id, b.amount FROM payments a JOIN payments b ON a.dt = b.dt AND a.pay_id = b.pay_id": "keys: ",
	}
	for q, rewritten := range queries {
		on := c.mustQuery(q)
		wantPlanMarker(t, c, q, rewritten, true)
		c.mustExec("SET lakesql_planner_rewrites = OFF")
		off := c.mustQuery(q)
		wantPlanMarker(t, c, q, rewritten, false)
		c.mustExec("SET lakesql_planner_rewrites = ON")
		gotOn, gotOff := format(on), format(off)
		slices.Sort(gotOn)
		slices.Sort(gotOff)
		if !slices.Equal(gotOn, gotOff) {
			t.Errorf("%s: rewrites on %v, off %v", q, gotOn, gotOff)
		}
	}
}

// wantPlanMarker checks that the plan of q shows marker exactly when the
// rewrites are on.
func wantPlanMarker(t *testing.T, c *conn, q, marker string, on bool) {
	t.Helper()
	plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+q)), "\n")
	if strings.Contains(plan, marker) != on {
		t.Errorf("rewrites on=%v: plan of %s shows %q: %v\n%s", on, q, marker, !on, plan)
	}
}
