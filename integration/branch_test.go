package integration

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// TestReadBranch: `t$branch_<name>` reads a Paimon branch, as Java's
// Identifier does, at its latest snapshot or AS OF one of its own; it is
// never written. The branch is laid out as Java's
// BranchManager.createBranch(name, tag) leaves it: the table's schemas and
// the tagged snapshot copied below branch/branch-<name>/.
func TestReadBranch(t *testing.T) {
	warehouse := t.TempDir()
	s := startServer(t, serverConfig(warehouse))
	root := s.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE DATABASE sales", ordersDDL,
		"INSERT INTO sales.orders VALUES ('2026-04-16', 1, 10), ('2026-04-17', 2, 20)",
		"INSERT INTO sales.orders VALUES ('2026-04-17', 3, 30)")
	tableDir := filepath.Join(warehouse, "sales.db", "orders")
	copyFile(t, filepath.Join(tableDir, "schema", "schema-0"), filepath.Join(tableDir, "branch", "branch-b1", "schema", "schema-0"))
	copyFile(t, filepath.Join(tableDir, "snapshot", "snapshot-1"), filepath.Join(tableDir, "branch", "branch-b1", "snapshot", "snapshot-1"))
	servertest.Exec(t, root, "UPDATE sales.orders SET amount = 11 WHERE id = 1")

	wantSysTableRows(t, root, "SELECT id, amount FROM sales.`orders$branch_b1` ORDER BY id", "1 10", "2 20")
	wantSysTableRows(t, root, "SELECT COUNT(*) FROM sales.`orders$branch_b1` FOR VERSION AS OF 1", "2")
	wantSysTableRows(t, root, "SELECT id, amount FROM sales.orders ORDER BY id", "1 11", "2 20", "3 30")

	conn := sysTableSession(t, root)
	wantWireError(t, conn, "INSERT INTO sales.`orders$branch_b1` VALUES ('2026-04-18', 9, 90)", 1235, "42000",
		`Paimon branch "b1" (sales.orders$branch_b1) cannot be written`)
	wantWireError(t, conn, "ALTER TABLE sales.`orders$branch_b1` ADD COLUMN note VARCHAR(10)", 1235, "42000", "cannot be altered")
	wantWireError(t, conn, "SELECT * FROM sales.`orders$branch_nope`", 1146, "42S02", `orders has no branch "nope"`)
	wantSysTableRows(t, root, "SELECT COUNT(*) FROM sales.`orders$branch_b1`", "2")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
