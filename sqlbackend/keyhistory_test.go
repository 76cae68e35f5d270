package sqlbackend

import (
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
)

// TestKeyHistory: `t$key_history WHERE <key>` names every commit that
// wrote, changed or deleted the key, with its user, identifier and kind:
// a DELETE's -D record, and the row an INSERT OVERWRITE (an OVERWRITE
// snapshot) removed and the row it wrote.
func TestKeyHistory(t *testing.T) {
	_, c := paymentsHistory(t)
	const q = "SELECT snapshot_id, commit_user, commit_identifier, commit_kind, rowkind, pay_id, status FROM `payments$key_history` "
	wantRows(t, c, q+"WHERE pay_id = 5", "[4 correction-job 7 APPEND +I 5 SUCCESS]")
	wantRows(t, c, "SELECT snapshot_id, rowkind, pay_id, status FROM `payments$key_history` WHERE pay_id = 2 ORDER BY snapshot_id",
		"[2 +I 2 FAILED]", "[3 -D 2 FAILED]")
	wantRows(t, c, "SELECT pay_id FROM `payments$key_history` h WHERE h.commit_user = 'correction-job'", "[5]")

	c.mustExec("DELETE FROM payments WHERE dt = '2026-04-16'",
		"INSERT OVERWRITE payments VALUES ('2026-04-17', 5, 6.00, 'REFUNDED')")
	wantRows(t, c, "SELECT snapshot_id, commit_kind, rowkind, pay_id FROM `payments$key_history` WHERE dt = '2026-04-16' AND pay_id = 1 ORDER BY snapshot_id",
		"[1 APPEND +I 1]", "[5 APPEND -D 1]")
	wantRows(t, c, "SELECT snapshot_id, commit_kind, rowkind, amount, status FROM `payments$key_history` WHERE pay_id = 5",
		"[4 APPEND +I 5.00 SUCCESS]", "[6 OVERWRITE -D 5.00 SUCCESS]", "[6 OVERWRITE +I 6.00 REFUNDED]")
	wantRows(t, c, "SELECT COUNT(*) FROM `payments$key_history`", "[9]")

	plan := strings.Join(format(c.mustQuery("EXPLAIN PLAN SELECT * FROM `payments$key_history` WHERE pay_id = 2 AND commit_kind = 'APPEND'")), "\n")
	for _, want := range []string{"pushed[pay_id = 2]", "commit_kind = 'APPEND'"} {
		if !strings.Contains(plan, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, plan)
		}
	}
}

func TestKeyHistoryErrors(t *testing.T) {
	_, c := paymentsHistory(t)
	wantErrno(t, c, "SELECT * FROM `payments$key_history` AS OF 2", mysql.ERNotSupportedYet)
	wantErrno(t, c, "DELETE FROM `payments$key_history` WHERE pay_id = 5", mysqlerr.OpenAsReadOnly)
	c.mustExec("CREATE TABLE events (id BIGINT, v VARCHAR(10))", "INSERT INTO events VALUES (1, 'a')")
	wantErrno(t, c, "SELECT * FROM `events$key_history` WHERE id = 1", mysql.ERNotSupportedYet)
}
