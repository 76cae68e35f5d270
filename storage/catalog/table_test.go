package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

func latestSchema(t *testing.T, c *Catalog, db, name string) *spec.TableSchema {
	t.Helper()
	dir, err := c.TablePath(db, name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewManager(c.io, dir, "").Latest(context.Background())
	if err != nil {
		t.Fatalf("latest schema of %s.%s: %v", db, name, err)
	}
	return s
}

func schemaIDs(t *testing.T, c *Catalog, db, name string) []int64 {
	t.Helper()
	dir, _ := c.TablePath(db, name)
	ids, err := schema.NewManager(c.io, dir, "").IDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestTableLifecycle(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		def := TableDefinition{Fields: columns(t, "a", "INT")}
		assertIs(t, c.CreateTable(ctx, "db", "t", def, false), ErrDatabaseNotFound)
		_, err := c.ListTables(ctx, "db")
		assertIs(t, err, ErrDatabaseNotFound)

		mustCreateDatabase(t, c, "db")
		mustCreateTable(t, c, "db", "t", def)
		assertIs(t, c.CreateTable(ctx, "db", "t", def, false), ErrTableExists)
		if err := c.CreateTable(ctx, "db", "t", def, true); err != nil {
			t.Fatalf("create existing table with ifNotExists: %v", err)
		}
		if exists, err := c.TableExists(ctx, "db", "t"); err != nil || !exists {
			t.Fatalf("TableExists = %v, %v", exists, err)
		}
		// A directory without a schema file is not a table.
		dir, _ := c.TablePath("db", "leftover")
		if err := c.io.PutIfAbsent(ctx, dir+"/bucket-0/data-1.parquet", []byte("x")); err != nil {
			t.Fatal(err)
		}
		tables, err := c.ListTables(ctx, "db")
		if err != nil {
			t.Fatal(err)
		}
		assertNames(t, "tables", tables, "t")

		if err := c.DropTable(ctx, "db", "t", false); err != nil {
			t.Fatalf("drop table: %v", err)
		}
		if exists, _ := c.TableExists(ctx, "db", "t"); exists {
			t.Fatal("table exists after drop")
		}
		assertIs(t, c.DropTable(ctx, "db", "t", false), ErrTableNotFound)
		if err := c.DropTable(ctx, "db", "t", true); err != nil {
			t.Fatalf("drop missing table with ifExists: %v", err)
		}
	})
}

// populateTable writes files of the kinds a table with data holds.
func populateTable(t *testing.T, io fileio.FileIO, dir string) {
	t.Helper()
	for _, p := range []string{"snapshot/snapshot-1", "snapshot/LATEST", "manifest/manifest-list-a-0",
		"manifest/manifest-a-0", "dt=1/bucket-0/data-a-0.parquet", "branch/branch-b/schema/schema-0"} {
		if err := io.PutIfAbsent(context.Background(), dir+"/"+p, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDropTableDeletesSnapshotsFirstAndSchemaLast(t *testing.T) {
	ctx := context.Background()
	c, fs := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	mustCreateTable(t, c, "db", "t", TableDefinition{Fields: columns(t, "a", "INT")})
	if _, err := c.AlterTable(ctx, "db", "t", UpdateComment{Comment: "v1"}); err != nil {
		t.Fatal(err)
	}
	dir, _ := c.TablePath("db", "t")
	populateTable(t, fs, dir)

	traced := errorio.Wrap(fs, nil)
	if err := New(traced, "/wh", testClock).DropTable(ctx, "db", "t", false); err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, op := range traced.Trace() {
		if op.Kind == errorio.Delete {
			deleted = append(deleted, strings.TrimPrefix(op.Path, dir+"/"))
		}
	}
	want := []string{"snapshot/LATEST", "snapshot/snapshot-1", "branch/branch-b/schema/schema-0",
		"dt=1/bucket-0/data-a-0.parquet", "manifest/manifest-a-0", "manifest/manifest-list-a-0",
		"schema/schema-0", "schema/schema-1"}
	assertNames(t, "deletion order", deleted, want...)
	assertNames(t, "files left", fs.Files(), "/wh/db.db/"+databaseMarker)
}

func TestDropTableRemovesLocalDirectories(t *testing.T) {
	wh := t.TempDir()
	c := New(localio.New(), wh, testClock)
	mustCreateDatabase(t, c, "db")
	mustCreateTable(t, c, "db", "t", TableDefinition{Fields: columns(t, "a", "INT")})
	dir, _ := c.TablePath("db", "t")
	populateTable(t, c.io, dir)
	if err := c.DropTable(context.Background(), "db", "t", false); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(wh, "db.db"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != databaseMarker {
		t.Fatalf("database directory after drop holds %v", entries)
	}
}

func TestConcurrentCreateTableHasOneWinner(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		mustCreateDatabase(t, c, "db")
		const creators = 16
		errs := make([]error, creators)
		var wg sync.WaitGroup
		for i := range creators {
			wg.Go(func() {
				def := TableDefinition{Fields: columns(t, fmt.Sprintf("c%d", i), "INT")}
				errs[i] = c.CreateTable(context.Background(), "db", "t", def, false)
			})
		}
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("creators %d and %d both won", winner, i)
			case err == nil:
				winner = i
			default:
				assertIs(t, err, ErrTableExists)
			}
		}
		if winner < 0 {
			t.Fatal("no creator won")
		}
		s := latestSchema(t, c, "db", "t")
		if got, want := s.Fields[0].Name, fmt.Sprintf("c%d", winner); got != want {
			t.Fatalf("schema-0 holds column %s, the winner wrote %s", got, want)
		}
	})
}

func TestLostCreateRaceWrapsErrExist(t *testing.T) {
	ctx := context.Background()
	c, fs := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	// Another writer publishes schema-0 between our existence check (the
	// list of the schema directory) and our put.
	racer := &raceBeforePut{FileIO: fs}
	def := TableDefinition{Fields: columns(t, "a", "INT")}
	err := New(racer, "/wh", testClock).CreateTable(ctx, "db", "t", def, false)
	assertIs(t, err, ErrTableExists, fileio.ErrExist)
	if err := New(racer, "/wh", testClock).CreateTable(ctx, "db", "u", def, true); err != nil {
		t.Fatalf("ifNotExists loser: %v", err)
	}
}

// raceBeforePut publishes every schema-0 itself just before the caller's
// put of it.
type raceBeforePut struct {
	fileio.FileIO
}

func (r *raceBeforePut) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if strings.HasSuffix(p, "/schema/schema-0") {
		_ = r.FileIO.PutIfAbsent(ctx, p, []byte("{}"))
	}
	return r.FileIO.PutIfAbsent(ctx, p, data)
}

func TestCreatedTableIsReadable(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		mustCreateDatabase(t, c, "db")
		mustCreateTable(t, c, "db", "orders", TableDefinition{
			Fields:        columns(t, "id", "BIGINT", "dt", "STRING", "amount", "DECIMAL(12, 2)", "tags", "STRING ARRAY"),
			PartitionKeys: []string{"dt"},
			PrimaryKeys:   []string{"dt", "id"},
			Options:       map[string]string{"bucket": "4"},
		})
		dir, _ := c.TablePath("db", "orders")
		data, err := c.io.ReadFile(ctx, dir+"/schema/schema-0")
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := spec.DecodeSchema(data)
		if err != nil {
			t.Fatalf("DecodeSchema of a created schema: %v", err)
		}
		if decoded.ID != 0 || decoded.Version != spec.CurrentSchemaVersion || decoded.TimeMillis != testTimeMillis {
			t.Fatalf("id %d version %d timeMillis %d", decoded.ID, decoded.Version, decoded.TimeMillis)
		}
		tbl, err := table.Open(ctx, c.io, dir)
		if err != nil {
			t.Fatalf("table.Open: %v", err)
		}
		rows, err := tbl.Read(ctx, table.ReadOptions{})
		if err != nil {
			t.Fatalf("read the new table: %v", err)
		}
		all, err := table.ReadAll(rows)
		if err != nil || len(all) != 0 {
			t.Fatalf("new table reads %d rows, %v", len(all), err)
		}
	})
}

func TestCreateTableDefaults(t *testing.T) {
	c, _ := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	userOptions := map[string]string{"primary-key": " id , k ", "partition": "dt"}
	mustCreateTable(t, c, "db", "pk", TableDefinition{
		Fields:  columns(t, "id", "INT", "k", "STRING", "dt", "DATE", "v", "DOUBLE NOT NULL"),
		Options: userOptions,
		Comment: "orders by day",
	})
	mustCreateTable(t, c, "db", "log", TableDefinition{Fields: columns(t, "line", "STRING")})

	pk := latestSchema(t, c, "db", "pk")
	assertNames(t, "primary keys", pk.PrimaryKeys, "id", "k")
	assertNames(t, "partition keys", pk.PartitionKeys, "dt")
	wantOptions := map[string]string{"bucket": "1", "file.format": "parquet"}
	if !maps.Equal(pk.Options, wantOptions) {
		t.Fatalf("options %v, want %v", pk.Options, wantOptions)
	}
	wantTypes := []string{"INT NOT NULL", "STRING NOT NULL", "DATE", "DOUBLE NOT NULL"}
	for i, f := range pk.Fields {
		if f.Type.String() != wantTypes[i] || f.ID != i {
			t.Fatalf("field %d = %d %s %s, want id %d type %s", i, f.ID, f.Name, f.Type, i, wantTypes[i])
		}
	}
	if pk.Comment == nil || *pk.Comment != "orders by day" {
		t.Fatalf("comment %v", pk.Comment)
	}
	if len(userOptions) != 2 {
		t.Fatalf("CreateTable modified the caller's options: %v", userOptions)
	}
	log := latestSchema(t, c, "db", "log")
	if !maps.Equal(log.Options, map[string]string{"bucket": "-1", "file.format": "parquet"}) || log.Comment != nil {
		t.Fatalf("append table options %v comment %v", log.Options, log.Comment)
	}
}

func TestFieldIDsFollowJavaOrder(t *testing.T) {
	c, _ := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	def := TableDefinition{Fields: columns(t,
		"a", "INT",
		"b", "INT", // replaced below by ROW<c INT, d ROW<e INT>>
		"f", "INT", // replaced below by ARRAY<ROW<g INT>>
		"h", "INT", // replaced below by MAP<INT, ROW<i INT>>
	)}
	row := func(fields ...spec.DataField) spec.DataType {
		return spec.DataType{Root: spec.Row, Nullable: true, Fields: fields}
	}
	field := func(name string, typ spec.DataType) spec.DataField {
		return spec.DataField{ID: 99, Name: name, Type: typ}
	}
	intType := mustParseType(t, "INT")
	def.Fields[1].Type = row(field("c", intType), field("d", row(field("e", intType))))
	inner := row(field("g", intType))
	def.Fields[2].Type = spec.DataType{Root: spec.Array, Nullable: true, Element: &inner}
	value := row(field("i", intType))
	def.Fields[3].Type = spec.DataType{Root: spec.Map, Nullable: true, Key: &intType, Value: &value}
	mustCreateTable(t, c, "db", "nested", def)

	s := latestSchema(t, c, "db", "nested")
	got := map[string]int{}
	collectFieldIDs(s.Fields, got)
	want := map[string]int{"a": 0, "b": 1, "c": 2, "e": 3, "d": 4, "f": 5, "g": 6, "h": 7, "i": 8}
	if !maps.Equal(got, want) || s.HighestFieldID != 8 {
		t.Fatalf("field ids %v highest %d, want %v highest 8", got, s.HighestFieldID, want)
	}
	if def.Fields[1].Type.Fields[0].ID != 99 {
		t.Fatal("CreateTable modified the caller's nested fields")
	}
}

func collectFieldIDs(fields []spec.DataField, into map[string]int) {
	for _, f := range fields {
		into[f.Name] = f.ID
		for _, t := range []*spec.DataType{&f.Type, f.Type.Element, f.Type.Key, f.Type.Value} {
			if t != nil {
				collectFieldIDs(t.Fields, into)
			}
		}
	}
}

// TestSchemaMatchesJavaFixture creates the table Java wrote as
// pk_table_scan_and_read_mor and compares the two schema files.
func TestSchemaMatchesJavaFixture(t *testing.T) {
	javaFile := filepath.Join(fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor"), "schema", "schema-0")
	javaBytes, err := os.ReadFile(javaFile)
	if err != nil {
		t.Fatal(err)
	}
	c, fs := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	mustCreateTable(t, c, "db", "t", TableDefinition{
		// Nullable as a SQL DDL would declare them: the catalog makes the
		// primary-key columns NOT NULL, as Java did.
		Fields:        columns(t, "f0", "STRING", "f1", "INT", "f2", "INT", "f3", "DOUBLE"),
		PartitionKeys: []string{"f1"},
		PrimaryKeys:   []string{"f0", "f1", "f2"},
		Options:       map[string]string{"bucket": "2", "bucket-key": "f2", "manifest.format": "avro"},
	})
	ourBytes, err := fs.ReadFile(context.Background(), "/wh/db.db/t/schema/schema-0")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonKeys(t, ourBytes), jsonKeys(t, javaBytes); !slices.Equal(got, want) {
		t.Fatalf("schema keys %q, Java writes %q", got, want)
	}
	ours, err := spec.DecodeSchema(ourBytes)
	if err != nil {
		t.Fatal(err)
	}
	java, err := spec.DecodeSchema(javaBytes)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ours.Fields) != fmt.Sprint(java.Fields) || ours.HighestFieldID != java.HighestFieldID {
		t.Fatalf("fields %v (highest %d), Java %v (highest %d)", ours.Fields, ours.HighestFieldID, java.Fields, java.HighestFieldID)
	}
	if !maps.Equal(ours.Options, java.Options) || ours.TimeMillis != java.TimeMillis || ours.Version != java.Version {
		t.Fatalf("options %v time %d version %d, Java %v %d %d",
			ours.Options, ours.TimeMillis, ours.Version, java.Options, java.TimeMillis, java.Version)
	}
}

// jsonKeys returns the keys of a JSON object and of the objects in its
// "fields" array, sorted per object.
func jsonKeys(t *testing.T, data []byte) []string {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	keys := slices.Sorted(maps.Keys(top))
	var fields []map[string]json.RawMessage
	if err := json.Unmarshal(top["fields"], &fields); err != nil {
		t.Fatal(err)
	}
	for i, f := range fields {
		for _, k := range slices.Sorted(maps.Keys(f)) {
			keys = append(keys, fmt.Sprintf("fields[%d].%s", i, k))
		}
	}
	return keys
}
