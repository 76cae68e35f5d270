package jdbc

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/catalog/tablelock"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// catalogOptions returns the options of a fresh catalog in each database
// the tests can reach: a SQLite file always, and the PostgreSQL of
// .ci/postgres when LAKESQL_POSTGRES_JDBC names it (a catalog key of its
// own per call keeps tests and runs apart there: they share its tables).
func catalogOptions(t *testing.T) map[string]map[string]string {
	all := map[string]map[string]string{
		"sqlite": {"metastore": "jdbc", "uri": "jdbc:sqlite:" + filepath.Join(t.TempDir(), "catalog.db"), "lock.enabled": "true"},
	}
	if uri := os.Getenv("LAKESQL_POSTGRES_JDBC"); uri != "" {
		all["postgresql"] = map[string]string{
			"metastore": "jdbc", "uri": uri, "lock.enabled": "true",
			"jdbc.user": os.Getenv("LAKESQL_POSTGRES_USER"), "jdbc.password": os.Getenv("LAKESQL_POSTGRES_PASSWORD"),
			"catalog-key": fmt.Sprintf("test-%d", time.Now().UnixNano()),
		}
	}
	return all
}

func forEachDatabase(t *testing.T, test func(t *testing.T, options map[string]string)) {
	for name, options := range catalogOptions(t) {
		t.Run(name, func(t *testing.T) { test(t, options) })
	}
}

func open(t *testing.T, options map[string]string, s Settings) *Catalog {
	t.Helper()
	opts, err := ParseOptions(options, false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Open(context.Background(), opts, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestMetastore(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, options map[string]string) {
		ctx := context.Background()
		c := open(t, options, Settings{})
		if zone := c.SessionTimeZone(); (zone != "") != (c.dialect.protocol == "postgresql") {
			t.Fatalf("session time zone %q on %s", zone, c.dialect.protocol)
		}
		must(t, c.CreateDatabase(ctx, "pay", "/wh/pay.db"))
		if err := c.CreateDatabase(ctx, "pay", "/wh/pay.db"); !errors.Is(err, catalog.ErrDatabaseExists) {
			t.Fatalf("second CreateDatabase: %v, want ErrDatabaseExists", err)
		}
		must(t, c.AddTable(ctx, "pay", "orders"))
		must(t, c.AddTable(ctx, "pay", "payments"))
		must(t, c.AddTable(ctx, "ledger", "entries")) // a database known only by its table, as Java allows
		if err := c.AddTable(ctx, "pay", "orders"); !errors.Is(err, catalog.ErrTableExists) {
			t.Fatalf("second AddTable: %v, want ErrTableExists", err)
		}
		expectStrings(t, "databases", must1(c.ListDatabases(ctx)), "ledger", "pay")
		expectStrings(t, "tables", must1(c.ListTables(ctx, "pay")), "orders", "payments")
		if removed := must1(c.RemoveTable(ctx, "pay", "orders")); !removed {
			t.Fatal("RemoveTable of a recorded table reported false")
		}
		if removed := must1(c.RemoveTable(ctx, "pay", "orders")); removed {
			t.Fatal("RemoveTable of a removed table reported true")
		}
		if exists := must1(c.TableExists(ctx, "pay", "payments")); !exists {
			t.Fatal("payments is missing")
		}
		must(t, c.DropDatabase(ctx, "pay"))
		expectStrings(t, "databases after drop", must1(c.ListDatabases(ctx)), "ledger")
		if exists := must1(c.DatabaseExists(ctx, "pay")); exists {
			t.Fatal("dropped database still exists")
		}
	})
}

func TestCatalogKeysSeparateCatalogs(t *testing.T) {
	options := catalogOptions(t)["sqlite"]
	ctx := context.Background()
	a := open(t, options, Settings{})
	other := maps.Clone(options)
	other["catalog-key"] = "other"
	b := open(t, other, Settings{})
	must(t, a.CreateDatabase(ctx, "pay", "/a/pay.db"))
	if dbs := must1(b.ListDatabases(ctx)); len(dbs) != 0 {
		t.Fatalf("catalog key other sees %v", dbs)
	}
}

func TestCheckNameRefusesUpperCase(t *testing.T) {
	c := open(t, catalogOptions(t)["sqlite"], Settings{})
	if err := c.CheckName("table", "Orders"); !errors.Is(err, catalog.ErrInvalidName) {
		t.Fatalf("CheckName(Orders) = %v, want ErrInvalidName", err)
	}
	must(t, c.CheckName("table", "orders_2026"))
}

func TestLockExcludesOtherHolders(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, options map[string]string) {
		ctx := context.Background()
		slept := make(chan time.Duration, 100)
		sleep := func(ctx context.Context, d time.Duration) error {
			slept <- d
			return sleepTimer(ctx, time.Millisecond)
		}
		first, second := open(t, options, Settings{}), open(t, options, Settings{Sleep: sleep})
		target := tablelock.Target{Database: "pay", Object: "orders"}
		entered := make(chan struct{})
		leave := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- first.RunWithLock(ctx, target, func(context.Context) error {
				close(entered)
				<-leave
				return nil
			})
		}()
		<-entered
		ran := false
		secondDone := make(chan error, 1)
		go func() {
			secondDone <- second.RunWithLock(ctx, target, func(context.Context) error { ran = true; return nil })
		}()
		// The second process must be retrying, not running, while the
		// first holds the lock.
		<-slept
		<-slept
		close(leave)
		must(t, <-done)
		must(t, <-secondDone)
		if !ran {
			t.Fatal("the second holder never ran")
		}
		if held := lockRows(t, first); len(held) != 0 {
			t.Fatalf("lock rows left behind: %v", held)
		}
	})
}

func TestLockTimesOut(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, options map[string]string) {
		ctx := context.Background()
		clock := time.Unix(0, 0)
		settings := Settings{
			Now:   func() time.Time { return clock },
			Sleep: func(_ context.Context, d time.Duration) error { clock = clock.Add(d); return nil },
		}
		holder, waiter := open(t, options, Settings{}), open(t, options, settings)
		target := tablelock.Target{Database: "pay", Object: "orders"}
		err := holder.RunWithLock(ctx, target, func(context.Context) error {
			return waiter.RunWithLock(ctx, target, func(context.Context) error {
				t.Error("ran without the lock")
				return nil
			})
		})
		if !errors.Is(err, ErrLockTimeout) || !errors.Is(err, lakeerr.ErrRetryableConflict) {
			t.Fatalf("waiting for a held lock: %v, want ErrLockTimeout (a retryable conflict)", err)
		}
		if waited := clock.Sub(time.Unix(0, 0)); waited <= 8*time.Minute {
			t.Fatalf("gave up after %v, before lock-acquire-timeout (8 min)", waited)
		}
	})
}

// TestExpiredLockIsCleared: a row older than its expire_time_seconds
// belongs to a dead holder (JdbcUtils.acquire deletes it), a fresh one
// does not. The old row is two days old so that it is expired in any
// session time zone (PostgreSQL's TIMESTAMP has none).
func TestExpiredLockIsCleared(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, options map[string]string) {
		ctx := context.Background()
		c := open(t, options, Settings{})
		target := tablelock.Target{Database: "pay", Object: "orders"}
		id := c.LockID(target)
		_, err := c.exec(ctx, `INSERT INTO paimon_distributed_locks (lock_id, acquired_at, expire_time_seconds) VALUES (?, ?, ?)`,
			id, time.Now().Add(-48*time.Hour).UTC().Format("2006-01-02 15:04:05"), 60)
		must(t, err)
		held, err := c.tryAcquire(ctx, id)
		if err != nil || !held {
			t.Fatalf("acquiring over an expired row: held=%v err=%v", held, err)
		}
		defer c.release(ctx, id)
		held, err = c.tryAcquire(ctx, id)
		if err != nil || held {
			t.Fatalf("acquiring over a fresh row: held=%v err=%v, want not held", held, err)
		}
	})
}

func TestLockDisabledTakesNoRow(t *testing.T) {
	options := catalogOptions(t)["sqlite"]
	options["lock.enabled"] = "false"
	c := open(t, options, Settings{})
	ran := false
	must(t, c.RunWithLock(context.Background(), tablelock.Target{Database: "pay", Object: "orders"}, func(context.Context) error {
		ran = true
		return nil
	}))
	if !ran {
		t.Fatal("fn did not run")
	}
}

func lockRows(t *testing.T, c *Catalog) []string {
	t.Helper()
	rows, err := c.strings(context.Background(), `SELECT lock_id FROM paimon_distributed_locks`)
	must(t, err)
	return rows
}

func expectStrings(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func must1[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
