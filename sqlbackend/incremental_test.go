package sqlbackend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
)

// TestIncrementalAuditLog: `t$audit_log FOR VERSION BETWEEN a AND b` is
// every change committed in snapshots (a, b], each with its row kind, the
// way Paimon's incremental-between scan reads them: a deleted row shows
// both its insert and its -D, and a compaction adds no change.
func TestIncrementalAuditLog(t *testing.T) {
	h, c := paymentsHistory(t)
	const q = "SELECT rowkind, pay_id, status FROM `payments$audit_log` %s ORDER BY pay_id, rowkind"
	wantRows(t, c, fmt.Sprintf(q, "FOR VERSION BETWEEN 0 AND 4"),
		"[+I 1 SUCCESS]", "[+I 2 FAILED]", "[-D 2 FAILED]", "[+I 4 PENDING]", "[+I 5 SUCCESS]")
	wantRows(t, c, fmt.Sprintf(q, "FOR VERSION BETWEEN 1 AND 3"), "[+I 2 FAILED]", "[-D 2 FAILED]", "[+I 4 PENDING]")
	wantRows(t, c, fmt.Sprintf(q, "FOR VERSION BETWEEN 2 AND 3"), "[-D 2 FAILED]")
	wantRows(t, c, fmt.Sprintf(q, "FOR VERSION BETWEEN 4 AND 4"))
	plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN "+fmt.Sprintf(q, "FOR VERSION BETWEEN 1 AND 3"))), "\n")
	if !strings.Contains(plan, "changes of snapshots (1, 3]") {
		t.Errorf("EXPLAIN does not name the snapshots the read reads:\n%s", plan)
	}

	// Times stand for the snapshots committed at or before them.
	times := c.mustQuery("SELECT CAST(commit_time AS CHAR) FROM `payments$snapshots` WHERE snapshot_id IN (2, 4) ORDER BY snapshot_id")
	wantRows(t, c, fmt.Sprintf(q, fmt.Sprintf("FOR SYSTEM_TIME BETWEEN '%s' AND '%s'", times[0][0], times[1][0])),
		"[-D 2 FAILED]", "[+I 5 SUCCESS]")

	compactPayments(t, h)
	wantRows(t, c, fmt.Sprintf(q, "FOR VERSION BETWEEN 4 AND 5"))
	c.mustExec("UPDATE payments SET status = 'REFUNDED' WHERE pay_id = 1")
	wantRows(t, c, "SELECT rowkind, pay_id, status FROM `payments$audit_log` FOR VERSION BETWEEN 5 AND 6 a WHERE a.pay_id = 1",
		"[+U 1 REFUNDED]")
}

func TestIncrementalAuditLogErrors(t *testing.T) {
	_, c := paymentsHistory(t)
	wantErrno(t, c, "SELECT * FROM `payments$audit_log` FOR VERSION BETWEEN 3 AND 2", mysql.ERWrongArguments)
	wantErrno(t, c, "SELECT * FROM `payments$audit_log` FOR VERSION BETWEEN 1 AND 99", mysql.ERWrongArguments)
	wantErrno(t, c, "SELECT * FROM `payments$audit_log` FOR VERSION BETWEEN 'no_such_tag' AND 2", mysql.ERWrongArguments)
	wantErrno(t, c, "SELECT * FROM `payments$audit_log` FOR SYSTEM_TIME BETWEEN 1 AND 2", mysql.ERWrongArguments)
	wantErrno(t, c, "SELECT * FROM payments FOR VERSION BETWEEN 1 AND 2", mysql.ERNotSupportedYet)
	wantErrno(t, c, "SELECT * FROM `payments$ro` FOR VERSION BETWEEN 1 AND 2", mysql.ERNotSupportedYet)
}
