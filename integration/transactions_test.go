package integration

import (
	"context"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// TestFailedCommitEndsTheTransactionOverTheWire: a COMMIT that fails with
// 1213 ends the transaction, as MySQL's rollback on a deadlock does. The
// connection's next statements read the latest snapshot, not the failed
// transaction's, and autocommit; no ROLLBACK is needed first.
func TestFailedCommitEndsTheTransactionOverTheWire(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE tx", `CREATE TABLE tx.orders (
		dt VARCHAR(10) NOT NULL, id BIGINT NOT NULL, amount BIGINT, PRIMARY KEY (dt, id)
	) PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (id) SUBPARTITIONS 1`,
		"INSERT INTO tx.orders VALUES ('2026-04-16', 1, 10)")
	a := sysTableSession(t, root)
	sysTableExec(t, a, "BEGIN", "INSERT OVERWRITE tx.orders PARTITION (dt='2026-04-16') VALUES (9, 90)")
	servertest.Exec(t, root, "INSERT INTO tx.orders VALUES ('2026-04-16', 2, 20)")
	if _, err := a.ExecContext(context.Background(), "COMMIT"); servertest.ErrorNumber(err) != 1213 {
		t.Fatalf("COMMIT of an overwrite whose partition changed: %v, want error 1213", err)
	}
	wantSysTableRows(t, a, "SELECT id FROM tx.orders ORDER BY id", "1", "2")
	sysTableExec(t, a, "INSERT INTO tx.orders VALUES ('2026-04-16', 3, 30)")
	wantSysTableRows(t, root, "SELECT id FROM tx.orders ORDER BY id", "1", "2", "3")
}

// TestFailedStatementLeavesNoTransaction: after an autocommit statement
// fails while running, the connection's next statement reads the latest
// snapshot, not the one the failed statement pinned. (GMS never closed
// the failed statement's transaction, so its pins stayed.) Inside an
// explicit transaction the pins stay, as MySQL keeps the transaction.
func TestFailedStatementLeavesNoTransaction(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE tx", "CREATE TABLE tx.t (id BIGINT PRIMARY KEY, v BIGINT)", "INSERT INTO tx.t VALUES (1, 1)")
	a := sysTableSession(t, root)
	if _, err := a.ExecContext(context.Background(), "INSERT INTO tx.t VALUES (2, 'x')"); servertest.ErrorNumber(err) != 1366 {
		t.Fatalf("INSERT of a bad value: %v, want 1366", err)
	}
	servertest.Exec(t, root, "INSERT INTO tx.t VALUES (3, 3)")
	wantSysTableRows(t, a, "SELECT id FROM tx.t ORDER BY id", "1", "3")

	sysTableExec(t, a, "BEGIN", "SELECT COUNT(*) FROM tx.t")
	if _, err := a.ExecContext(context.Background(), "INSERT INTO tx.t VALUES (4, 'x')"); err == nil {
		t.Fatal("INSERT of a bad value in a transaction succeeded")
	}
	servertest.Exec(t, root, "INSERT INTO tx.t VALUES (5, 5)")
	wantSysTableRows(t, a, "SELECT id FROM tx.t ORDER BY id", "1", "3")
	sysTableExec(t, a, "COMMIT")
	wantSysTableRows(t, a, "SELECT id FROM tx.t ORDER BY id", "1", "3", "5")
}
