package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/spec"
)

// testTimeMillis is the clock of every test catalog: the timeMillis of the
// Java fixture pk_table_scan_and_read_mor.
const testTimeMillis = 1756266931880

func testClock() time.Time { return time.UnixMilli(testTimeMillis) }

func newMemCatalog(t *testing.T) (*Catalog, *memio.FS) {
	t.Helper()
	fs := memio.New()
	return New(fs, "/wh", testClock), fs
}

// forEachFileIO runs test over an in-memory warehouse (object-store-like:
// directories exist only through their files) and a local-disk one.
func forEachFileIO(t *testing.T, test func(t *testing.T, c *Catalog)) {
	t.Run("memio", func(t *testing.T) {
		c, _ := newMemCatalog(t)
		test(t, c)
	})
	t.Run("localio", func(t *testing.T) {
		test(t, New(localio.New(), t.TempDir(), testClock))
	})
}

func mustParseType(t *testing.T, s string) spec.DataType {
	t.Helper()
	typ, err := spec.ParseDataType(s)
	if err != nil {
		t.Fatalf("parse type %q: %v", s, err)
	}
	return typ
}

// columns builds fields from name/type pairs.
func columns(t *testing.T, nameTypes ...string) []spec.DataField {
	t.Helper()
	var fields []spec.DataField
	for i := 0; i+1 < len(nameTypes); i += 2 {
		fields = append(fields, spec.DataField{Name: nameTypes[i], Type: mustParseType(t, nameTypes[i+1])})
	}
	return fields
}

func mustCreateDatabase(t *testing.T, c *Catalog, db string) {
	t.Helper()
	if err := c.CreateDatabase(context.Background(), db, false); err != nil {
		t.Fatalf("create database %s: %v", db, err)
	}
}

func mustCreateTable(t *testing.T, c *Catalog, db, table string, def TableDefinition) {
	t.Helper()
	if err := c.CreateTable(context.Background(), db, table, def, false); err != nil {
		t.Fatalf("create table %s.%s: %v", db, table, err)
	}
}

func assertNames(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s = %q, want %q", what, got, want)
	}
}

func assertIs(t *testing.T, err error, targets ...error) {
	t.Helper()
	for _, target := range targets {
		if !errors.Is(err, target) {
			t.Fatalf("error %v does not wrap %v", err, target)
		}
	}
}

func TestDatabaseLifecycle(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		dbs, err := c.ListDatabases(ctx)
		if err != nil || len(dbs) != 0 {
			t.Fatalf("empty warehouse lists %q, %v", dbs, err)
		}
		mustCreateDatabase(t, c, "sales")
		mustCreateDatabase(t, c, "Analytics")
		assertIs(t, c.CreateDatabase(ctx, "sales", false), ErrDatabaseExists)
		if err := c.CreateDatabase(ctx, "sales", true); err != nil {
			t.Fatalf("create existing database with ifNotExists: %v", err)
		}
		dbs, err = c.ListDatabases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertNames(t, "databases", dbs, "Analytics", "sales")
		if exists, err := c.DatabaseExists(ctx, "SALES"); err != nil || exists {
			t.Fatalf("names are case-sensitive: SALES exists = %v, %v", exists, err)
		}

		if err := c.DropDatabase(ctx, "sales", false, false); err != nil {
			t.Fatalf("drop empty database: %v", err)
		}
		dbs, _ = c.ListDatabases(ctx)
		assertNames(t, "databases after drop", dbs, "Analytics")
		err = c.DropDatabase(ctx, "sales", false, false)
		assertIs(t, err, ErrDatabaseNotFound)
		if err := c.DropDatabase(ctx, "sales", true, false); err != nil {
			t.Fatalf("drop missing database with ifExists: %v", err)
		}
	})
}

func TestConcurrentCreateDatabaseHasOneWinner(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		const creators = 16
		errs := make([]error, creators)
		var wg sync.WaitGroup
		for i := range creators {
			wg.Go(func() { errs[i] = c.CreateDatabase(context.Background(), "db", false) })
		}
		wg.Wait()
		winners := 0
		for _, err := range errs {
			if err == nil {
				winners++
				continue
			}
			assertIs(t, err, ErrDatabaseExists)
		}
		if winners != 1 {
			t.Fatalf("%d creators won", winners)
		}
	})
}

func TestCreateDatabaseMakesLocalDirectory(t *testing.T) {
	wh := t.TempDir()
	c := New(localio.New(), wh, testClock)
	mustCreateDatabase(t, c, "db")
	info, err := os.Stat(filepath.Join(wh, "db.db"))
	if err != nil || !info.IsDir() {
		t.Fatalf("database directory: %v, %v", info, err)
	}
	if err := c.DropDatabase(context.Background(), "db", false, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(wh, "db.db")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("database directory survives the drop: %v", err)
	}
}

func TestDatabasesCreatedByOtherWriters(t *testing.T) {
	ctx := context.Background()
	t.Run("empty directory on disk (Java mkdirs)", func(t *testing.T) {
		wh := t.TempDir()
		if err := os.Mkdir(filepath.Join(wh, "java.db"), 0o755); err != nil {
			t.Fatal(err)
		}
		c := New(localio.New(), wh, testClock)
		dbs, err := c.ListDatabases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertNames(t, "databases", dbs, "java")
		assertIs(t, c.CreateDatabase(ctx, "java", false), ErrDatabaseExists)
	})
	t.Run("object under a prefix, no marker", func(t *testing.T) {
		c, fs := newMemCatalog(t)
		if err := fs.PutIfAbsent(ctx, "/wh/java.db/t/schema/schema-0", []byte("{}")); err != nil {
			t.Fatal(err)
		}
		if exists, err := c.DatabaseExists(ctx, "java"); err != nil || !exists {
			t.Fatalf("DatabaseExists = %v, %v", exists, err)
		}
	})
}

func TestListDatabasesSkipsOtherEntries(t *testing.T) {
	ctx := context.Background()
	c, fs := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	for _, p := range []string{"/wh/file.db", "/wh/plain/x", "/wh/.hidden.db/x", "/wh/.db/x"} {
		if err := fs.PutIfAbsent(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
	}
	dbs, err := c.ListDatabases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	assertNames(t, "databases", dbs, "db")
}

func TestDropDatabaseRefusesTablesUnlessCascade(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		mustCreateDatabase(t, c, "db")
		mustCreateTable(t, c, "db", "t", TableDefinition{Fields: columns(t, "a", "INT")})

		assertIs(t, c.DropDatabase(ctx, "db", false, false), ErrDatabaseNotEmpty)
		if exists, _ := c.TableExists(ctx, "db", "t"); !exists {
			t.Fatal("a refused drop deleted the table")
		}
		if err := c.DropDatabase(ctx, "db", false, true); err != nil {
			t.Fatalf("cascade drop: %v", err)
		}
		if dbs, _ := c.ListDatabases(ctx); len(dbs) != 0 {
			t.Fatalf("databases after cascade drop: %q", dbs)
		}
		if exists, _ := c.TableExists(ctx, "db", "t"); exists {
			t.Fatal("table survives the cascade drop")
		}
	})
}

func TestNameValidation(t *testing.T) {
	bad := []struct {
		name      string
		tableOnly bool
		dbOnly    bool
	}{
		{name: ""},
		{name: "."},
		{name: ".."},
		{name: "../escape"},
		{name: "a/b"},
		{name: `a\b`},
		{name: "a\x00b"},
		{name: "a\nb"},
		{name: ".hidden"},
		{name: "\xff\xfe"},
		{name: "sys", dbOnly: true},
		{name: "t$snapshots", tableOnly: true},
		{name: "t$branch_b1", tableOnly: true},
	}
	ctx := context.Background()
	c, fs := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	def := TableDefinition{Fields: columns(t, "a", "INT")}
	for _, tc := range bad {
		if !tc.tableOnly {
			assertIs(t, c.CreateDatabase(ctx, tc.name, false), ErrInvalidName)
			assertIs(t, c.DropDatabase(ctx, tc.name, true, true), ErrInvalidName)
			_, err := c.ListTables(ctx, tc.name)
			assertIs(t, err, ErrInvalidName)
		}
		if !tc.dbOnly {
			assertIs(t, c.CreateTable(ctx, "db", tc.name, def, false), ErrInvalidName)
			assertIs(t, c.DropTable(ctx, "db", tc.name, true), ErrInvalidName)
			_, err := c.AlterTable(ctx, "db", tc.name, UpdateComment{Comment: "x"})
			assertIs(t, err, ErrInvalidName)
			_, err = c.TablePath("db", tc.name)
			assertIs(t, err, ErrInvalidName)
		}
	}
	files := fs.Files()
	assertNames(t, "files after refused names", files, "/wh/db.db/"+databaseMarker)
}

func TestValidNamesAreCaseSensitive(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		mustCreateDatabase(t, c, "Db-1 ünïcode")
		def := TableDefinition{Fields: columns(t, "a", "INT")}
		for _, name := range []string{"T", "t", "with space", "a..b", "x.y"} {
			mustCreateTable(t, c, "Db-1 ünïcode", name, def)
		}
		tables, err := c.ListTables(ctx, "Db-1 ünïcode")
		if err != nil {
			t.Fatal(err)
		}
		assertNames(t, "tables", tables, "T", "a..b", "t", "with space", "x.y")
	})
}

func TestWarehouseWithTrailingSlash(t *testing.T) {
	fs := memio.New()
	c := New(fs, "/wh/", testClock)
	mustCreateDatabase(t, c, "db")
	mustCreateTable(t, c, "db", "t", TableDefinition{Fields: columns(t, "a", "INT")})
	assertNames(t, "files", fs.Files(), "/wh/db.db/"+databaseMarker, "/wh/db.db/t/schema/schema-0")
	if p, _ := c.TablePath("db", "t"); p != "/wh/db.db/t" {
		t.Fatalf("table path %q", p)
	}
}
