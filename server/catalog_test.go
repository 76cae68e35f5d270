package server_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/catalog/jdbc"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestServeOnJDBCCatalog: with Paimon's JDBC catalog, databases and tables
// are created in, listed from and dropped through its tables, and they
// survive a restart.
func TestServeOnJDBCCatalog(t *testing.T) {
	cfg := testConfig(t)
	catalogDB := filepath.Join(t.TempDir(), "catalog.db")
	cfg.Catalog = map[string]string{"metastore": "jdbc", "uri": "jdbc:sqlite:" + catalogDB, "catalog-key": "pay", "lock.enabled": "true"}
	r := start(t, cfg)
	db := r.Connect(t, "root", "")
	servertest.Exec(t, db,
		"CREATE DATABASE shop",
		"CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, amount DECIMAL(12,2))",
		"INSERT INTO shop.orders VALUES (1, 10.50), (2, 3.25)",
		"UPDATE shop.orders SET amount = amount + 1 WHERE id = 2")
	if got := queryString(t, db, "SELECT CAST(SUM(amount) AS CHAR) FROM shop.orders"); got != "14.75" {
		t.Fatalf("SUM(amount) = %s, want 14.75", got)
	}
	if _, err := db.Exec("CREATE TABLE shop.Refunds (id BIGINT)"); err == nil || !strings.Contains(err.Error(), "JDBC catalog") {
		t.Fatalf("CREATE TABLE with an upper case name: %v, want the JDBC catalog's refusal", err)
	}
	expectCatalogTables(t, catalogDB, "shop", "orders")
	// A table directory the catalog does not name is not a table, as for
	// Java: a filesystem-catalog writer's table stays invisible.
	stray := catalog.New(localio.New(), cfg.Warehouse, nil)
	if err := stray.CreateTable(context.Background(), "shop", "stray", catalog.TableDefinition{Fields: orders(t)}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("SELECT * FROM shop.stray"); servertest.ErrorNumber(err) != 1146 {
		t.Fatalf("SELECT from an unrecorded table directory: %v, want 1146", err)
	}
	r.Stop(t)

	r = start(t, cfg)
	db = r.Connect(t, "root", "")
	if got := queryString(t, db, "SELECT COUNT(*) FROM shop.orders"); got != "2" {
		t.Fatalf("after restart COUNT(*) = %s, want 2", got)
	}
	servertest.Exec(t, db, "DROP TABLE shop.orders")
	expectCatalogTables(t, catalogDB, "shop")
}

func orders(t *testing.T) []spec.DataField {
	typ, err := spec.ParseDataType("BIGINT")
	if err != nil {
		t.Fatal(err)
	}
	return []spec.DataField{{Name: "id", Type: typ}}
}

// expectCatalogTables reads paimon_tables as Java would.
func expectCatalogTables(t *testing.T, catalogDB, db string, want ...string) {
	t.Helper()
	opts, err := jdbc.ParseOptions(map[string]string{"metastore": "jdbc", "uri": "jdbc:sqlite:" + catalogDB, "catalog-key": "pay"}, false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := jdbc.Open(context.Background(), opts, jdbc.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.ListTables(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("paimon_tables lists %v for %s, want %v", got, db, want)
	}
}
