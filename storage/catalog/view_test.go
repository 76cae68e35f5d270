package catalog

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

func view(name, query string) View {
	return View{Name: name, Query: query, CreateStatement: "CREATE VIEW " + name + " AS " + query}
}

// TestViews walks a view through its life on both kinds of storage.
func TestViews(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		if err := c.CreateDatabase(ctx, "db", false); err != nil {
			t.Fatal(err)
		}
		mustCreateTable(t, c, "db", "t", TableDefinition{Fields: columns(t, "a", "INT")})
		if err := c.CreateView(ctx, "db", view("v", "SELECT a FROM t"), false); err != nil {
			t.Fatal(err)
		}
		if err := c.CreateView(ctx, "db", view("v", "SELECT 1"), false); !errors.Is(err, ErrViewExists) {
			t.Fatalf("creating an existing view: %v, want ErrViewExists", err)
		}
		if err := c.CreateView(ctx, "db", view("t", "SELECT 1"), true); !errors.Is(err, ErrTableExists) {
			t.Fatalf("a view named like a table: %v, want ErrTableExists", err)
		}
		if err := c.CreateView(ctx, "db", view("v", "SELECT a + 1 FROM t"), true); err != nil {
			t.Fatal(err)
		}
		got, ok, err := c.GetView(ctx, "db", "V")
		if err != nil || !ok || got.Name != "v" || got.Query != "SELECT a + 1 FROM t" || got.Version != 2 {
			t.Fatalf("GetView(V) = %+v, %v, %v; want v, version 2, replaced", got, ok, err)
		}
		tables, err := c.ListTables(ctx, "db")
		if err != nil || len(tables) != 1 || tables[0] != "t" {
			t.Fatalf("tables %v (%v): views must not list as tables", tables, err)
		}
		if err := c.DropView(ctx, "db", "v", false); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := c.GetView(ctx, "db", "v"); ok || err != nil {
			t.Fatalf("dropped view still found (%v)", err)
		}
		if err := c.DropView(ctx, "db", "v", false); !errors.Is(err, ErrViewNotFound) {
			t.Fatalf("dropping a dropped view: %v, want ErrViewNotFound", err)
		}
		if err := c.DropView(ctx, "db", "v", true); err != nil {
			t.Fatalf("DROP VIEW IF EXISTS of a missing view: %v", err)
		}
		if err := c.CreateView(ctx, "db", view("v", "SELECT 2"), false); err != nil {
			t.Fatalf("re-creating a dropped view: %v", err)
		}
		views, err := c.ListViews(ctx, "db")
		if err != nil || len(views) != 1 || views[0].Query != "SELECT 2" {
			t.Fatalf("ListViews = %+v, %v", views, err)
		}
	})
}

// TestConcurrentViewChanges: concurrent CREATE OR REPLACE VIEWs of one view
// serialize on its version; each lands as one version, and the last one
// published is the view.
func TestConcurrentViewChanges(t *testing.T) {
	c, _ := newMemCatalog(t)
	const writers = 8
	if got := replaceConcurrently(t, c, writers); got.Version != writers {
		t.Fatalf("after %d replacements: %+v; want version %d", writers, got, writers)
	}
}

// TestConcurrentViewChangesKeepingOneVersion: with old versions deleted
// at once, writers that read the versions before others changed the view
// can put a number that was deleted; no change may be lost that way: the
// newest version counts every change (a change may count twice, never
// zero times).
func TestConcurrentViewChangesKeepingOneVersion(t *testing.T) {
	c, _ := newMemCatalog(t)
	c.viewVersionsKept = 0
	const writers = 16
	if got := replaceConcurrently(t, c, writers); got.Version < writers {
		t.Fatalf("after %d replacements: %+v; want version >= %d", writers, got, writers)
	}
}

// replaceConcurrently runs writers CREATE OR REPLACE VIEW db.v at once
// and returns the view they leave.
func replaceConcurrently(t *testing.T, c *Catalog, writers int) View {
	t.Helper()
	ctx := context.Background()
	if err := c.CreateDatabase(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Go(func() { errs[i] = c.CreateView(ctx, "db", view("v", fmt.Sprintf("SELECT %d", i)), true) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	got, ok, err := c.GetView(ctx, "db", "v")
	if err != nil || !ok {
		t.Fatalf("GetView: %+v, %v, %v", got, ok, err)
	}
	return got
}
