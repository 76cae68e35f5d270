package sqlbackend

import (
	"strings"
	"testing"
)

// TestViews: views are created, read, shown, replaced and dropped through
// SQL, and stored in the warehouse, so another server (another backend on
// the same warehouse) sees them.
func TestViews(t *testing.T) {
	warehouse := t.TempDir()
	h := newHarness(t, warehouse)
	c := h.connect()
	c.mustExec("CREATE DATABASE shop", "USE shop",
		"CREATE TABLE orders (id BIGINT PRIMARY KEY, amount BIGINT, status VARCHAR(10))",
		"INSERT INTO orders VALUES (1, 10, 'PAID'), (2, 20, 'OPEN'), (3, 30, 'PAID')",
		"CREATE VIEW paid AS SELECT id, amount FROM orders WHERE status = 'PAID'")
	wantRows(t, c, "SELECT id, amount FROM paid ORDER BY id", "[1 10]", "[3 30]")
	wantRows(t, c, "SELECT SUM(amount) FROM paid", "[40]")
	wantRows(t, c, "SHOW FULL TABLES", "[orders BASE TABLE]", "[paid VIEW]")
	if got := format(c.mustQuery("SHOW CREATE VIEW paid")); len(got) != 1 || !strings.Contains(got[0], "CREATE VIEW") {
		t.Fatalf("SHOW CREATE VIEW paid: %q", got)
	}

	other := newHarness(t, warehouse).connect()
	other.mustExec("USE shop")
	wantRows(t, other, "SELECT id FROM paid ORDER BY id", "[1]", "[3]")
	other.mustExec("CREATE OR REPLACE VIEW paid AS SELECT id, amount FROM orders WHERE status = 'OPEN'")
	wantRows(t, c, "SELECT id FROM paid", "[2]")

	for _, bad := range []struct{ stmt, want string }{
		{"CREATE VIEW paid AS SELECT 1", "already exists"},
		{"CREATE VIEW orders AS SELECT 1", "already exists"},
		{"CREATE TABLE paid (a INT)", "already exists"},
		{"DROP VIEW nosuch", "does not exist"},
	} {
		if _, err := c.query(bad.stmt); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want an error containing %q", bad.stmt, err, bad.want)
		}
	}
	c.mustExec("DROP VIEW paid", "DROP VIEW IF EXISTS paid")
	wantRows(t, other, "SHOW FULL TABLES", "[orders BASE TABLE]")
}
