package integration

import (
	"context"
	"testing"
)

// TestFailedCommitEndsTheTransactionOverTheWire: a COMMIT that fails with
// 1213 ends the transaction, as MySQL's rollback on a deadlock does. The
// connection's next statements read the latest snapshot, not the failed
// transaction's, and autocommit; no ROLLBACK is needed first.
func TestFailedCommitEndsTheTransactionOverTheWire(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	root := s.connect(t, "root", "")
	mustExec(t, root, "CREATE DATABASE tx", `CREATE TABLE tx.orders (
		dt VARCHAR(10) NOT NULL, id BIGINT NOT NULL, amount BIGINT, PRIMARY KEY (dt, id)
	) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 1`,
		"INSERT INTO tx.orders VALUES ('2026-04-16', 1, 10)")
	a := sysTableSession(t, root)
	sysTableExec(t, a, "BEGIN", "INSERT OVERWRITE tx.orders PARTITION (dt='2026-04-16') VALUES (9, 90)")
	mustExec(t, root, "INSERT INTO tx.orders VALUES ('2026-04-16', 2, 20)")
	if _, err := a.ExecContext(context.Background(), "COMMIT"); mysqlErrorNumber(err) != 1213 {
		t.Fatalf("COMMIT of an overwrite whose partition changed: %v, want error 1213", err)
	}
	wantSysTableRows(t, a, "SELECT id FROM tx.orders ORDER BY id", "1", "2")
	sysTableExec(t, a, "INSERT INTO tx.orders VALUES ('2026-04-16', 3, 30)")
	wantSysTableRows(t, root, "SELECT id FROM tx.orders ORDER BY id", "1", "2", "3")
}
