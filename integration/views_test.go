package integration

import (
	"context"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// TestViewsOverTheWire: a view created on one server is listed in
// information_schema.VIEWS and shown by SHOW CREATE VIEW on another server
// over the same warehouse, and reads the tables at the statement's
// snapshot. Reading a view needs a current database: go-mysql-server v0.20
// binds a view's query in it (planbuilder.bindOnlyWithDatabase).
func TestViewsOverTheWire(t *testing.T) {
	warehouse := newWarehouse(t)
	a := startServer(t, serverConfig(warehouse)).Connect(t, "root", "")
	b := sysTableSession(t, startServer(t, serverConfig(warehouse)).Connect(t, "root", ""))
	servertest.Exec(t, a, "CREATE DATABASE shop",
		"CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, amount BIGINT, status VARCHAR(10))",
		"INSERT INTO shop.orders VALUES (1, 10, 'PAID'), (2, 20, 'OPEN')",
		"CREATE VIEW shop.paid AS SELECT id, amount FROM shop.orders WHERE status = 'PAID'")
	wantSysTableRows(t, b, "SELECT TABLE_NAME, IS_UPDATABLE FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop'", "paid YES")
	sysTableExec(t, b, "USE shop")
	var name, create string
	if err := b.QueryRowContext(context.Background(), "SHOW CREATE VIEW paid").Scan(&name, &create, new(string), new(string)); err != nil {
		t.Fatal(err)
	}
	if name != "paid" || !strings.Contains(create, "status") {
		t.Fatalf("SHOW CREATE VIEW: %q %q", name, create)
	}
	servertest.Exec(t, a, "INSERT INTO shop.orders VALUES (3, 30, 'PAID')")
	wantSysTableRows(t, b, "SELECT SUM(amount) FROM paid", "40")
	sysTableExec(t, b, "DROP VIEW paid")
	wantSysTableRows(t, a, "SELECT COUNT(*) FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop'", "0")
}
