package integration

import (
	"context"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

// TestServerAccountsPersistAcrossRestart: CREATE USER and GRANT are saved
// in the warehouse and in force after a restart.
func TestServerAccountsPersistAcrossRestart(t *testing.T) {
	cfg := serverConfig(newWarehouse(t))
	s := startServer(t, cfg)
	servertest.Exec(t, s.Connect(t, "root", ""),
		"CREATE DATABASE sales",
		"CREATE TABLE sales.orders (id BIGINT PRIMARY KEY, amount BIGINT)",
		"INSERT INTO sales.orders VALUES (1, 100)",
		"CREATE USER 'analyst'@'%' IDENTIFIED BY 'analyst-pw'",
		"GRANT SELECT ON sales.* TO 'analyst'@'%'")
	s.Stop(t)
	fsys, root := openWarehouse(t, cfg.Warehouse)
	if _, err := fsys.Stat(context.Background(), path.Join(root, server.PrivilegesFile)); err != nil {
		t.Fatalf("accounts file: %v", err)
	}

	s = startServer(t, cfg)
	grants := servertest.Grants(t, s.Connect(t, "root", ""), "'analyst'@'%'")
	if !slices.ContainsFunc(grants, func(g string) bool { return strings.Contains(g, "GRANT SELECT ON `sales`.*") }) {
		t.Errorf("grants after restart: %q, want SELECT on sales.*", grants)
	}
	analyst := s.Connect(t, "analyst", "analyst-pw")
	var n int
	if err := analyst.QueryRow("SELECT COUNT(*) FROM sales.orders").Scan(&n); err != nil || n != 1 {
		t.Errorf("analyst SELECT after restart: %d, %v; want 1 row", n, err)
	}
	if _, err := analyst.Exec("INSERT INTO sales.orders VALUES (2, 1)"); err == nil {
		t.Error("analyst INSERT after restart succeeded")
	}
	if err := s.Connect(t, "analyst", "wrong").Ping(); servertest.ErrorNumber(err) != 1045 {
		t.Errorf("wrong password after restart: %v, want error 1045", err)
	}
}

// TestServerSelectOnlyUserCannotWrite: an analyst granted SELECT reads,
// and every write is refused.
func TestServerSelectOnlyUserCannotWrite(t *testing.T) {
	s := startServer(t, serverConfig(newWarehouse(t)))
	servertest.Exec(t, s.Connect(t, "root", ""),
		"CREATE DATABASE sales",
		"CREATE TABLE sales.orders (id BIGINT PRIMARY KEY, amount BIGINT)",
		"INSERT INTO sales.orders VALUES (1, 100), (2, 250)",
		"CREATE USER 'analyst'@'%' IDENTIFIED BY 'pw'",
		"GRANT SELECT ON sales.* TO 'analyst'@'%'")

	analyst := s.Connect(t, "analyst", "pw")
	var total int64
	if err := analyst.QueryRow("SELECT SUM(amount) FROM sales.orders").Scan(&total); err != nil || total != 350 {
		t.Fatalf("analyst SELECT: %d, %v; want 350", total, err)
	}
	for _, write := range []string{
		"INSERT INTO sales.orders VALUES (3, 1)",
		"UPDATE sales.orders SET amount = 0 WHERE id = 1",
		"DELETE FROM sales.orders WHERE id = 1",
		"CREATE TABLE sales.more (id BIGINT PRIMARY KEY)",
		"DROP TABLE sales.orders",
		"GRANT INSERT ON sales.* TO 'analyst'@'%'",
		"CREATE USER 'mallory'@'%'",
	} {
		_, err := analyst.Exec(write)
		if err == nil {
			t.Errorf("analyst ran %s", write)
			continue
		}
		if !strings.Contains(err.Error(), "denied") {
			t.Errorf("analyst %s: %v, want an access-denied error", write, err)
		}
	}
	if err := analyst.QueryRow("SELECT SUM(amount) FROM sales.orders").Scan(&total); err != nil || total != 350 {
		t.Errorf("after the refused writes: %d, %v; want 350", total, err)
	}
}
