package jdbc

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/catalog/tablelock"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
)

// warehouse is a catalog on a local warehouse whose names live in a JDBC
// catalog and whose publishing puts take its lock, as `lakesql serve`
// assembles them.
func warehouse(t *testing.T, jc *Catalog) (*catalog.Catalog, string) {
	root := t.TempDir()
	fs := tablelock.Wrap(localio.New(), root, jc)
	return catalog.NewWithMetastore(fs, root, nil, jc), root
}

func ordersDefinition(t *testing.T) catalog.TableDefinition {
	id, err := spec.ParseDataType("BIGINT")
	must(t, err)
	amount, err := spec.ParseDataType("DECIMAL(12, 2)")
	must(t, err)
	return catalog.TableDefinition{
		Fields:      []spec.DataField{{Name: "id", Type: id}, {Name: "amount", Type: amount}},
		PrimaryKeys: []string{"id"},
		Options:     map[string]string{"bucket": "2"},
	}
}

func TestWarehouseNamesLiveInTheCatalog(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, options map[string]string) {
		ctx := context.Background()
		jc := open(t, options, Settings{})
		c, root := warehouse(t, jc)
		must(t, c.CreateDatabase(ctx, "pay", false))
		must(t, c.CreateTable(ctx, "pay", "orders", ordersDefinition(t), false))
		if recorded := must1(jc.TableExists(ctx, "pay", "orders")); !recorded {
			t.Fatal("CREATE TABLE did not record pay.orders in paimon_tables")
		}
		schema0 := filepath.Join(root, "pay.db", "orders", "schema", "schema-0")
		if exists := must1(fileio.Exists(ctx, localio.New(), schema0)); !exists {
			t.Fatal("CREATE TABLE did not publish schema-0")
		}
		// A table directory the catalog does not name is no table of it,
		// as in Java, where only paimon_tables lists tables.
		must(t, catalog.New(localio.New(), root, nil).CreateTable(ctx, "pay", "stray", ordersDefinition(t), false))
		expectStrings(t, "tables", must1(c.ListTables(ctx, "pay")), "orders")
		if exists := must1(c.TableExists(ctx, "pay", "stray")); exists {
			t.Fatal("an unrecorded directory counts as a table")
		}
		if err := c.CreateTable(ctx, "pay", "Refunds", ordersDefinition(t), false); !errors.Is(err, catalog.ErrInvalidName) {
			t.Fatalf("CREATE TABLE Refunds: %v, want ErrInvalidName", err)
		}
		must(t, c.DropTable(ctx, "pay", "orders", false))
		if recorded := must1(jc.TableExists(ctx, "pay", "orders")); recorded {
			t.Fatal("DROP TABLE left pay.orders in paimon_tables")
		}
		if exists := must1(fileio.Exists(ctx, localio.New(), schema0)); exists {
			t.Fatal("DROP TABLE left the table's files")
		}
		must(t, c.DropDatabase(ctx, "pay", false, true))
		expectStrings(t, "databases", must1(c.ListDatabases(ctx)))
	})
}

// TestCreateTableWaitsForTheLock: schema-0 is published under the lock,
// so while another writer holds the table's lock CREATE TABLE waits, and
// gives up with the retryable ErrLockTimeout having published nothing.
func TestCreateTableWaitsForTheLock(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, options map[string]string) {
		ctx := context.Background()
		clock := time.Unix(0, 0)
		jc := open(t, options, Settings{
			Now:   func() time.Time { return clock },
			Sleep: func(_ context.Context, d time.Duration) error { clock = clock.Add(d); return nil },
		})
		holder := open(t, options, Settings{})
		c, root := warehouse(t, jc)
		must(t, c.CreateDatabase(ctx, "pay", false))
		err := holder.RunWithLock(ctx, tablelock.Target{Database: "pay", Object: "orders"}, func(context.Context) error {
			return c.CreateTable(ctx, "pay", "orders", ordersDefinition(t), false)
		})
		if !errors.Is(err, ErrLockTimeout) {
			t.Fatalf("CREATE TABLE under another holder's lock: %v, want ErrLockTimeout", err)
		}
		schema0 := filepath.Join(root, "pay.db", "orders", "schema", "schema-0")
		if exists := must1(fileio.Exists(ctx, localio.New(), schema0)); exists {
			t.Fatal("schema-0 was published without the lock")
		}
		must(t, c.CreateTable(ctx, "pay", "orders", ordersDefinition(t), false))
	})
}
