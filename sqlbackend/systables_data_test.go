package sqlbackend

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/compact"
)

// compactPayments fully compacts pay.payments, moving every file to the
// highest level. It commits on the harness's clock, which transactions'
// read views are taken on.
func compactPayments(t *testing.T, h *harness) {
	t.Helper()
	res, err := compact.Table(context.Background(), compact.Options{FileIO: h.backend.FileIO(), TableDir: openPayments(t, h).Dir(),
		Mode: compact.Full, Now: h.backend.opts.Now})
	if err != nil {
		t.Fatal(err)
	}
	if res.Snapshot == 0 {
		t.Fatal("the compaction committed nothing")
	}
}

// TestAuditLogSystemTable: the audit log is the merged rows of the
// snapshot with their change kinds, the DELETE's -D row included until a
// full compaction drops it; an update stays +U through the compaction.
func TestAuditLogSystemTable(t *testing.T) {
	h, c := paymentsHistory(t)
	const q = "SELECT * FROM `payments$audit_log` %s ORDER BY dt, pay_id"
	wantRows(t, c, fmt.Sprintf(q, ""),
		"[+I 2026-04-16 1 10.50 SUCCESS]", "[+I 2026-04-16 4 <nil> PENDING]",
		"[-D 2026-04-17 2 20.00 FAILED]", "[+I 2026-04-17 5 5.00 SUCCESS]")
	wantRows(t, c, fmt.Sprintf(q, "AS OF 2"),
		"[+I 2026-04-16 1 10.50 SUCCESS]", "[+I 2026-04-16 4 <nil> PENDING]", "[+I 2026-04-17 2 20.00 FAILED]")
	wantRows(t, c, "SELECT rowkind, COUNT(*) FROM `payments$audit_log` GROUP BY rowkind ORDER BY rowkind", "[+I 3]", "[-D 1]")
	c.mustExec("UPDATE payments SET status = 'REFUNDED' WHERE pay_id = 1")
	wantRows(t, c, "SELECT rowkind, status FROM `payments$audit_log` WHERE pay_id = 1", "[+U REFUNDED]")

	compactPayments(t, h)
	wantRows(t, c, "SELECT rowkind, pay_id FROM `payments$audit_log` ORDER BY pay_id", "[+U 1]", "[+I 4]", "[+I 5]")
}

// TestReadOptimizedSystemTable: $ro reads only what was compacted to the
// highest level, so it is empty before the first compaction, equals the
// table right after a full one, and misses later changes until the next.
func TestReadOptimizedSystemTable(t *testing.T) {
	h, c := paymentsHistory(t)
	wantRows(t, c, "SELECT COUNT(*) FROM `payments$ro`", "[0]")
	compactPayments(t, h)
	table := format(c.mustQuery("SELECT * FROM payments ORDER BY dt, pay_id"))
	wantRows(t, c, "SELECT * FROM `payments$ro` ORDER BY dt, pay_id", table...)
	c.mustExec("DELETE FROM payments WHERE pay_id = 1", "INSERT INTO payments VALUES ('2026-04-18', 8, 8.00, 'SUCCESS')")
	wantRows(t, c, "SELECT * FROM `payments$ro` ORDER BY dt, pay_id", table...)
	wantRows(t, c, "SELECT pay_id FROM `payments$ro` AS OF 4")
	compactPayments(t, h)
	wantRows(t, c, "SELECT pay_id FROM `payments$ro` ORDER BY pay_id", "[4]", "[5]", "[8]")
	wantRows(t, c, "SELECT pay_id FROM `payments$ro` AS OF 5 ORDER BY pay_id", "[1]", "[4]", "[5]")
}

// TestRowSystemTablesShareTransactionPin: in a transaction $audit_log and
// $ro read the table at the transaction's snapshot, and $audit_log sees
// the transaction's own writes, as the table does.
func TestRowSystemTablesShareTransactionPin(t *testing.T) {
	h, c := paymentsHistory(t)
	compactPayments(t, h)
	other := h.connect()
	other.mustExec("USE pay")
	c.mustExec("START TRANSACTION WITH CONSISTENT SNAPSHOT")
	wantRows(t, c, "SELECT COUNT(*) FROM `payments$audit_log`", "[3]")
	other.mustExec("DELETE FROM payments WHERE pay_id = 4")
	compactPayments(t, h)
	wantRows(t, c, "SELECT COUNT(*) FROM `payments$audit_log`", "[3]")
	wantRows(t, c, "SELECT COUNT(*) FROM `payments$ro`", "[3]")
	c.mustExec("INSERT INTO payments VALUES ('2026-04-19', 10, 1.00, 'SUCCESS')")
	wantRows(t, c, "SELECT rowkind, pay_id FROM `payments$audit_log` WHERE dt = '2026-04-19'", "[+I 10]")
	c.mustExec("ROLLBACK")
	wantRows(t, c, "SELECT COUNT(*) FROM `payments$ro`", "[2]")
}

// TestRowSystemTablesOfJavaFixtures reads $audit_log and $ro of every
// readable Java-written fixture at each snapshot with expected rows: the
// audit rows that are not retractions are the table's rows.
func TestRowSystemTablesOfJavaFixtures(t *testing.T) {
	manifest := fixtures.LoadExpected(t)
	h := newHarness(t, filepath.Join(fixtures.Root(), "paimon-java"))
	c := h.connect()
	for name, m := range manifest.Tables {
		set, tbl, _ := strings.Cut(name, "/")
		if set != "paimon-java" || strings.HasSuffix(tbl, "_with_external") || m.Exempt != nil {
			continue
		}
		t.Run(tbl, func(t *testing.T) {
			for _, id := range m.Snapshots {
				name := fmt.Sprintf("`%s`.`%s", tbl, tbl)
				want := format(c.mustQuery(fmt.Sprintf("SELECT COUNT(*) FROM %s` AS OF %d", name, id)))
				wantRows(t, c, fmt.Sprintf("SELECT COUNT(*) FROM %s$audit_log` AS OF %d WHERE rowkind IN ('+I', '+U')", name, id), want...)
				if _, err := c.query(fmt.Sprintf("SELECT * FROM %s$ro` AS OF %d", name, id)); err != nil {
					t.Errorf("$ro AS OF %d: %v", id, err)
				}
			}
		})
	}
}

// TestRowTrackingSystemTable: `t$row_tracking` of Java's row-tracking
// fixture (two appends, then Java's compaction) gives each row its id and
// sequence number, at every snapshot, AS OF included, as columns that
// filters and joins take; a table without row tracking refuses it with
// 1235 and says which option it needs.
func TestRowTrackingSystemTable(t *testing.T) {
	h := newHarness(t, filepath.Join(fixtures.Root(), "paimon-java"))
	c := h.connect()
	c.mustExec("USE append_table_row_tracking_with_compact")
	name := "`append_table_row_tracking_with_compact$row_tracking`"
	wantRows(t, c, "SELECT f0, _ROW_ID FROM "+name+" ORDER BY _ROW_ID", "[Lily 0]", "[Alice 1]", "[Bob 2]", "[David 3]")
	wantRows(t, c, "SELECT f0, _ROW_ID FROM "+name+" AS OF 1 ORDER BY _ROW_ID", "[Lily 0]", "[Alice 1]")
	wantRows(t, c, "SELECT COUNT(DISTINCT _SEQUENCE_NUMBER) FROM "+name+" WHERE _ROW_ID >= 1", "[2]")
	wantRows(t, c, "SHOW COLUMNS FROM "+name+" LIKE '\\_%'",
		"[_ROW_ID bigint NO  <nil> ]", "[_SEQUENCE_NUMBER bigint NO  <nil> ]")
	wantErrno(t, c, "SELECT * FROM `parquet_append_table`.`parquet_append_table$row_tracking`", mysql.ERNotSupportedYet)
}
