package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// newAlterCatalog returns a catalog with table db.t: primary key (k, dt),
// partitioned by dt, plus v and n, 4 buckets.
func newAlterCatalog(t *testing.T) *Catalog {
	t.Helper()
	c, _ := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	mustCreateTable(t, c, "db", "t", TableDefinition{
		Fields:        columns(t, "k", "INT", "dt", "STRING", "v", "STRING", "n", "INT NOT NULL"),
		PartitionKeys: []string{"dt"},
		PrimaryKeys:   []string{"k", "dt"},
		Options:       map[string]string{"bucket": "4"},
	})
	return c
}

func mustAlter(t *testing.T, c *Catalog, changes ...SchemaChange) *spec.TableSchema {
	t.Helper()
	s, err := c.AlterTable(context.Background(), "db", "t", changes...)
	if err != nil {
		t.Fatalf("alter %v: %v", changes, err)
	}
	return s
}

func fieldNames(s *spec.TableSchema) []string {
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	return names
}

func TestAlterAddColumn(t *testing.T) {
	c := newAlterCatalog(t)
	dir, _ := c.TablePath("db", "t")
	schema0, _ := c.io.ReadFile(context.Background(), dir+"/schema/schema-0")

	s := mustAlter(t, c,
		AddColumn{Name: "last", Type: mustParseType(t, "BIGINT"), Comment: "appended"},
		AddColumn{Name: "first", Type: mustParseType(t, "DATE"), First: true},
		AddColumn{Name: "after_v", Type: mustParseType(t, "DOUBLE"), After: "v"},
	)
	assertNames(t, "columns", fieldNames(s), "first", "k", "dt", "v", "after_v", "n", "last")
	ids := map[string]int{}
	collectFieldIDs(s.Fields, ids)
	if ids["last"] != 4 || ids["first"] != 5 || ids["after_v"] != 6 || s.HighestFieldID != 6 {
		t.Fatalf("new field ids %v, highest %d", ids, s.HighestFieldID)
	}
	if s.ID != 1 || s.Version != spec.CurrentSchemaVersion || s.TimeMillis != testTimeMillis {
		t.Fatalf("schema id %d version %d time %d", s.ID, s.Version, s.TimeMillis)
	}
	if got := latestSchema(t, c, "db", "t"); got.ID != 1 || got.Fields[6].Description != "appended" {
		t.Fatalf("published schema %d, last column %+v", got.ID, got.Fields[6])
	}
	after, _ := c.io.ReadFile(context.Background(), dir+"/schema/schema-0")
	if !bytes.Equal(schema0, after) {
		t.Fatal("ALTER rewrote schema-0")
	}
}

func TestAlterAddNestedColumnAssignsIDs(t *testing.T) {
	c := newAlterCatalog(t)
	intType := mustParseType(t, "INT")
	inner := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{{Name: "y", Type: intType}}}
	row := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{
		{Name: "x", Type: intType}, {Name: "r", Type: inner},
	}}
	s := mustAlter(t, c, AddColumn{Name: "nested", Type: row})
	ids := map[string]int{}
	collectFieldIDs(s.Fields, ids)
	want := map[string]int{"k": 0, "dt": 1, "v": 2, "n": 3, "nested": 4, "x": 5, "y": 6, "r": 7}
	if !maps.Equal(ids, want) || s.HighestFieldID != 7 {
		t.Fatalf("ids %v highest %d, want %v highest 7", ids, s.HighestFieldID, want)
	}
}

func TestAlterRenameColumn(t *testing.T) {
	c, _ := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	mustCreateTable(t, c, "db", "t", TableDefinition{
		Fields:      columns(t, "a", "INT", "b", "INT", "s", "BIGINT", "n", "INT"),
		PrimaryKeys: []string{"a", "b"},
		Options: map[string]string{"bucket": "2", "bucket-key": "b", "merge-engine": "partial-update",
			"fields.s.sequence-group": "n", "fields.n.ignore-retract": "true", "sequence.field": "s"},
	})
	s := mustAlter(t, c, RenameColumn{Name: "b", NewName: "b2"}, RenameColumn{Name: "s", NewName: "seq"},
		RenameColumn{Name: "n", NewName: "num"})
	assertNames(t, "columns", fieldNames(s), "a", "b2", "seq", "num")
	assertNames(t, "primary keys", s.PrimaryKeys, "a", "b2")
	want := map[string]string{"bucket": "2", "bucket-key": "b2", "merge-engine": "partial-update", "file.format": "parquet",
		"fields.seq.sequence-group": "num", "fields.num.ignore-retract": "true", "sequence.field": "seq"}
	if !maps.Equal(s.Options, want) {
		t.Fatalf("options %v, want %v", s.Options, want)
	}
	if s.Fields[1].Type.String() != "INT NOT NULL" || s.Fields[1].ID != 1 {
		t.Fatalf("renamed key column %+v", s.Fields[1])
	}
}

func TestAlterDropColumn(t *testing.T) {
	c := newAlterCatalog(t)
	s := mustAlter(t, c, DropColumn{Name: "v"})
	assertNames(t, "columns", fieldNames(s), "k", "dt", "n")
	if s.HighestFieldID != 3 {
		t.Fatalf("highest field id %d after drop, want 3: ids are never reused", s.HighestFieldID)
	}
	s = mustAlter(t, c, AddColumn{Name: "v", Type: mustParseType(t, "STRING")})
	if s.Fields[3].ID != 4 {
		t.Fatalf("re-added column has id %d, want 4", s.Fields[3].ID)
	}
}

func TestAlterUpdateColumnType(t *testing.T) {
	tests := []struct {
		from, to string
		allowed  bool
	}{
		{"TINYINT", "SMALLINT", true},
		{"SMALLINT", "BIGINT", true},
		{"INT", "BIGINT", true},
		{"FLOAT", "DOUBLE", true},
		{"DECIMAL(10, 2)", "DECIMAL(12, 2)", true},
		{"VARCHAR(10)", "VARCHAR(20)", true},
		{"VARCHAR(10)", "STRING", true},
		{"INT", "INT", true},
		{"BIGINT", "INT", false},
		{"INT", "DOUBLE", false},
		{"DOUBLE", "FLOAT", false},
		{"INT", "STRING", false},
		{"DECIMAL(10, 2)", "DECIMAL(12, 3)", false},
		{"DECIMAL(12, 2)", "DECIMAL(10, 2)", false},
		{"VARCHAR(20)", "VARCHAR(10)", false},
		{"CHAR(5)", "VARCHAR(10)", false},
		{"TIMESTAMP(3)", "TIMESTAMP(6)", false},
	}
	for _, tc := range tests {
		t.Run(tc.from+" to "+tc.to, func(t *testing.T) {
			c, _ := newMemCatalog(t)
			mustCreateDatabase(t, c, "db")
			mustCreateTable(t, c, "db", "t", TableDefinition{Fields: columns(t, "c", tc.from+" NOT NULL")})
			s, err := c.AlterTable(context.Background(), "db", "t", UpdateColumnType{Name: "c", NewType: mustParseType(t, tc.to)})
			if !tc.allowed {
				assertIs(t, err, lakeerr.ErrUnsupported)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := s.Fields[0].Type.String(), mustParseType(t, tc.to+" NOT NULL").String(); got != want {
				t.Fatalf("type %s, want %s (nullability kept)", got, want)
			}
		})
	}
}

func TestAlterComments(t *testing.T) {
	c := newAlterCatalog(t)
	s := mustAlter(t, c, UpdateColumnComment{Name: "v", Comment: "value"}, UpdateComment{Comment: "facts"})
	if s.Fields[2].Description != "value" || s.Comment == nil || *s.Comment != "facts" {
		t.Fatalf("column comment %q, table comment %v", s.Fields[2].Description, s.Comment)
	}
	s = mustAlter(t, c, UpdateColumnComment{Name: "v"}, UpdateComment{})
	if s.Fields[2].Description != "" || s.Comment != nil {
		t.Fatalf("comments not cleared: %q, %v", s.Fields[2].Description, s.Comment)
	}
}

func TestAlterOptions(t *testing.T) {
	c := newAlterCatalog(t)
	s := mustAlter(t, c, SetOption{Key: "snapshot.num-retained.max", Value: "5"}, SetOption{Key: "bucket", Value: "8"},
		SetOption{Key: "merge-engine", Value: "first-row"})
	if s.Options["snapshot.num-retained.max"] != "5" || s.Options["bucket"] != "8" || s.Options["merge-engine"] != "first-row" {
		t.Fatalf("options %v", s.Options)
	}
	s = mustAlter(t, c, RemoveOption{Key: "snapshot.num-retained.max"}, RemoveOption{Key: "not-set"})
	if _, ok := s.Options["snapshot.num-retained.max"]; ok {
		t.Fatalf("option not removed: %v", s.Options)
	}
}

// addSnapshot makes the table one with data, as far as option rules go.
func addSnapshot(t *testing.T, c *Catalog) {
	t.Helper()
	dir, _ := c.TablePath("db", "t")
	if err := c.io.PutIfAbsent(context.Background(), dir+"/snapshot/snapshot-1", []byte("{}")); err != nil {
		t.Fatal(err)
	}
}

func TestAlterOptionsOfTableWithData(t *testing.T) {
	c := newAlterCatalog(t)
	mustAlter(t, c, SetOption{Key: "ignore-delete", Value: "true"}, SetOption{Key: "deletion-vectors.enabled", Value: "true"})
	addSnapshot(t, c)
	refused := []SchemaChange{
		SetOption{Key: "bucket", Value: "8"},
		SetOption{Key: "merge-engine", Value: "partial-update"},
		RemoveOption{Key: "bucket-key"},
		SetOption{Key: "sequence.snapshot-ordering", Value: "true"},
		SetOption{Key: "ignore-delete", Value: "false"},
		SetOption{Key: "deletion-vectors.enabled", Value: "false"},
	}
	for _, change := range refused {
		_, err := c.AlterTable(context.Background(), "db", "t", change)
		assertIs(t, err, lakeerr.ErrUnsupported)
	}
	mustAlter(t, c,
		SetOption{Key: "bucket", Value: "4"}, // unchanged
		SetOption{Key: "snapshot.num-retained.max", Value: "3"},
		SetOption{Key: "deletion-vectors.modifiable", Value: "true"},
	)
	s := mustAlter(t, c, SetOption{Key: "deletion-vectors.enabled", Value: "false"}, RemoveOption{Key: "ignore-delete"})
	if s.Options["deletion-vectors.enabled"] != "false" || s.Options["ignore-delete"] != "" {
		t.Fatalf("options %v", s.Options)
	}
}

func TestAlterErrors(t *testing.T) {
	intType := mustParseType(t, "INT")
	invalid, unsupported := ErrInvalidDefinition, lakeerr.ErrUnsupported
	tests := []struct {
		name   string
		change SchemaChange
		want   error
	}{
		{"add existing column", AddColumn{Name: "v", Type: intType}, ErrColumnExists},
		{"add NOT NULL column", AddColumn{Name: "x", Type: intType.WithNullable(false)}, invalid},
		{"add blank column", AddColumn{Name: " ", Type: intType}, invalid},
		{"add first and after", AddColumn{Name: "x", Type: intType, First: true, After: "v"}, invalid},
		{"add after missing column", AddColumn{Name: "x", Type: intType, After: "missing"}, ErrColumnNotFound},
		{"add system column", AddColumn{Name: "_LEVEL", Type: intType}, invalid},
		{"add blob column", AddColumn{Name: "b", Type: mustParseType(t, "BLOB")}, unsupported},
		{"rename missing column", RenameColumn{Name: "missing", NewName: "x"}, ErrColumnNotFound},
		{"rename to existing column", RenameColumn{Name: "v", NewName: "n"}, ErrColumnExists},
		{"rename to blank", RenameColumn{Name: "v", NewName: ""}, invalid},
		{"rename partition column", RenameColumn{Name: "dt", NewName: "day"}, unsupported},
		{"drop missing column", DropColumn{Name: "missing"}, ErrColumnNotFound},
		{"drop primary-key column", DropColumn{Name: "k"}, unsupported},
		{"drop partition column", DropColumn{Name: "dt"}, unsupported},
		{"retype missing column", UpdateColumnType{Name: "missing", NewType: intType}, ErrColumnNotFound},
		{"retype primary-key column", UpdateColumnType{Name: "k", NewType: mustParseType(t, "BIGINT")}, unsupported},
		{"retype partition column", UpdateColumnType{Name: "dt", NewType: mustParseType(t, "STRING")}, unsupported},
		{"comment missing column", UpdateColumnComment{Name: "missing", Comment: "x"}, ErrColumnNotFound},
		{"set primary-key", SetOption{Key: "primary-key", Value: "k"}, unsupported},
		{"set partition", SetOption{Key: "partition", Value: "dt"}, unsupported},
		{"set path", SetOption{Key: "path", Value: "/x"}, unsupported},
		{"remove bucket", RemoveOption{Key: "bucket"}, unsupported},
		{"remove file.format", RemoveOption{Key: "file.format"}, unsupported},
		{"set file.format orc", SetOption{Key: "file.format", Value: "orc"}, unsupported},
		{"set dynamic bucket", SetOption{Key: "bucket", Value: "-1"}, unsupported},
		{"set bucket zero", SetOption{Key: "bucket", Value: "0"}, invalid},
		{"set bad merge-engine", SetOption{Key: "merge-engine", Value: "newest"}, invalid},
		{"set bucket-key outside primary key", SetOption{Key: "bucket-key", Value: "v"}, invalid},
		{"set option of missing column", SetOption{Key: "fields.x.aggregate-function", Value: "sum"}, invalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newAlterCatalog(t)
			// A valid change first: a failing ALTER must not apply it.
			_, err := c.AlterTable(context.Background(), "db", "t", UpdateComment{Comment: "x"}, tc.change)
			assertIs(t, err, tc.want)
			assertSchemaIDs(t, c, 0)
		})
	}
}

func assertSchemaIDs(t *testing.T, c *Catalog, want ...int64) {
	t.Helper()
	if got := schemaIDs(t, c, "db", "t"); !slices.Equal(got, want) {
		t.Fatalf("schema ids %v, want %v", got, want)
	}
}

func TestAlterRefusesDroppingLastColumnAndReferencedColumns(t *testing.T) {
	c, _ := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	mustCreateTable(t, c, "db", "t", TableDefinition{
		Fields:  columns(t, "a", "INT", "b", "INT"),
		Options: map[string]string{"bucket": "2", "bucket-key": "a"},
	})
	ctx := context.Background()
	_, err := c.AlterTable(ctx, "db", "t", DropColumn{Name: "a"})
	assertIs(t, err, ErrInvalidDefinition)
	_, err = c.AlterTable(ctx, "db", "t", UpdateColumnType{Name: "a", NewType: mustParseType(t, "BIGINT")})
	assertIs(t, err, lakeerr.ErrUnsupported)
	_, err = c.AlterTable(ctx, "db", "t", DropColumn{Name: "b"}, DropColumn{Name: "a"})
	assertIs(t, err, ErrInvalidDefinition)
	assertSchemaIDs(t, c, 0)
}

func TestAlterMissingTable(t *testing.T) {
	c, _ := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	_, err := c.AlterTable(context.Background(), "db", "t", UpdateComment{Comment: "x"})
	assertIs(t, err, ErrTableNotFound, lakeerr.ErrNotFound)
}

func TestAlterWithoutChangesWritesNothing(t *testing.T) {
	c := newAlterCatalog(t)
	s := mustAlter(t, c)
	if s.ID != 0 {
		t.Fatalf("schema %d", s.ID)
	}
	assertSchemaIDs(t, c, 0)
}

// TestAlterTableLakesqlCannotWrite evolves a table written by Java with a
// dynamic bucket, which lakesql would not create.
func TestAlterTableLakesqlCannotWrite(t *testing.T) {
	c, fs := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	java := &spec.TableSchema{
		Version:       spec.CurrentSchemaVersion,
		Fields:        []spec.DataField{{ID: 0, Name: "k", Type: mustParseType(t, "INT NOT NULL")}},
		PrimaryKeys:   []string{"k"},
		PartitionKeys: []string{},
		Options:       map[string]string{"bucket": "-1"},
	}
	data, err := spec.EncodeSchema(java)
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.PutIfAbsent(context.Background(), "/wh/db.db/t/schema/schema-0", data); err != nil {
		t.Fatal(err)
	}
	s := mustAlter(t, c, AddColumn{Name: "v", Type: mustParseType(t, "STRING")})
	assertNames(t, "columns", fieldNames(s), "k", "v")
}

func TestConcurrentAlterTableLosesNoUpdate(t *testing.T) {
	forEachFileIO(t, func(t *testing.T, c *Catalog) {
		mustCreateDatabase(t, c, "db")
		mustCreateTable(t, c, "db", "t", TableDefinition{Fields: columns(t, "k", "INT")})
		const alterers = 8
		errs := make([]error, alterers)
		var wg sync.WaitGroup
		for i := range alterers {
			wg.Go(func() {
				add := AddColumn{Name: fmt.Sprintf("c%d", i), Type: mustParseType(t, "BIGINT")}
				_, errs[i] = c.AlterTable(context.Background(), "db", "t", add)
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		assertSchemaIDs(t, c, 0, 1, 2, 3, 4, 5, 6, 7, 8)
		s := latestSchema(t, c, "db", "t")
		names := fieldNames(s)
		slices.Sort(names)
		assertNames(t, "columns", names, "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "k")
		var ids []int
		for _, f := range s.Fields {
			ids = append(ids, f.ID)
		}
		slices.Sort(ids)
		if !slices.Equal(ids, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}) || s.HighestFieldID != 8 {
			t.Fatalf("field ids %v highest %d", ids, s.HighestFieldID)
		}
	})
}

// alwaysLoses loses every schema publish race, as if other writers kept
// altering the table.
type alwaysLoses struct {
	fileio.FileIO
	puts int
}

func (a *alwaysLoses) PutIfAbsent(_ context.Context, p string, _ []byte) error {
	a.puts++
	return &fs.PathError{Op: "put-if-absent", Path: p, Err: fileio.ErrExist}
}

func TestAlterGivesUpAfterBoundedRetries(t *testing.T) {
	c := newAlterCatalog(t)
	losing := &alwaysLoses{FileIO: c.io}
	_, err := New(losing, c.warehouse, testClock).AlterTable(context.Background(), "db", "t", UpdateComment{Comment: "x"})
	assertIs(t, err, lakeerr.ErrRetryableConflict)
	if losing.puts != maxAlterAttempts {
		t.Fatalf("%d publish attempts, want %d", losing.puts, maxAlterAttempts)
	}
}

// TestAlterJavaWrittenSchema evolves the schema Java wrote for
// pk_table_scan_and_read_mor: the new version keeps Java's option order,
// so the files differ only where the change does.
func TestAlterJavaWrittenSchema(t *testing.T) {
	javaBytes, err := os.ReadFile(filepath.Join(fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor"), "schema", "schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	c, fs := newMemCatalog(t)
	mustCreateDatabase(t, c, "db")
	if err := fs.PutIfAbsent(context.Background(), "/wh/db.db/t/schema/schema-0", javaBytes); err != nil {
		t.Fatal(err)
	}
	s := mustAlter(t, c, AddColumn{Name: "f4", Type: mustParseType(t, "STRING")})
	if s.Fields[4].ID != 4 || s.HighestFieldID != 4 || s.ID != 1 {
		t.Fatalf("new column %+v, highest %d, schema %d", s.Fields[4], s.HighestFieldID, s.ID)
	}
	ours, err := fs.ReadFile(context.Background(), "/wh/db.db/t/schema/schema-1")
	if err != nil {
		t.Fatal(err)
	}
	javaOptions := javaBytes[bytes.Index(javaBytes, []byte(`"options"`)):bytes.Index(javaBytes, []byte(`"timeMillis"`))]
	if !bytes.Contains(ours, javaOptions) {
		t.Fatalf("options of schema-1 are not written as Java wrote them:\n%s\nwant\n%s", ours, javaOptions)
	}
}

// interleavedAlter runs a competing ALTER just before the first schema
// publish it sees, so that publish loses the race deterministically.
type interleavedAlter struct {
	fileio.FileIO
	competitor func() error
	done       bool
}

func (i *interleavedAlter) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if !i.done {
		i.done = true
		if err := i.competitor(); err != nil {
			return err
		}
	}
	return i.FileIO.PutIfAbsent(ctx, p, data)
}

func TestAlterReappliesChangesAfterLosingRace(t *testing.T) {
	c := newAlterCatalog(t)
	ctx := context.Background()
	racing := &interleavedAlter{FileIO: c.io, competitor: func() error {
		_, err := c.AlterTable(ctx, "db", "t", AddColumn{Name: "theirs", Type: mustParseType(t, "INT")})
		return err
	}}
	s, err := New(racing, c.warehouse, testClock).AlterTable(ctx, "db", "t", AddColumn{Name: "ours", Type: mustParseType(t, "INT")})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != 2 {
		t.Fatalf("published schema %d, want 2 after losing schema 1", s.ID)
	}
	assertNames(t, "columns", fieldNames(s), "k", "dt", "v", "n", "theirs", "ours")
	if s.Fields[4].ID != 4 || s.Fields[5].ID != 5 {
		t.Fatalf("field ids %d, %d", s.Fields[4].ID, s.Fields[5].ID)
	}
	assertSchemaIDs(t, c, 0, 1, 2)
}

// A Derived change is computed again from the schema that won the race,
// so it extends the winner's option instead of overwriting it.
func TestAlterRederivesDerivedChangesAfterLosingRace(t *testing.T) {
	c := newAlterCatalog(t)
	ctx := context.Background()
	appendColumn := func(col string) Derived {
		return func(s *spec.TableSchema) ([]SchemaChange, error) {
			list := s.Options["file-index.bloom-filter.columns"]
			if list != "" {
				list += ","
			}
			return []SchemaChange{SetOption{Key: "file-index.bloom-filter.columns", Value: list + col}}, nil
		}
	}
	racing := &interleavedAlter{FileIO: c.io, competitor: func() error {
		_, err := c.AlterTable(ctx, "db", "t", appendColumn("v"))
		return err
	}}
	s, err := New(racing, c.warehouse, testClock).AlterTable(ctx, "db", "t", appendColumn("n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Options["file-index.bloom-filter.columns"]; s.ID != 2 || got != "v,n" {
		t.Fatalf("schema %d has columns option %q, want schema 2 with v,n", s.ID, got)
	}
	failing := Derived(func(*spec.TableSchema) ([]SchemaChange, error) { return nil, errors.New("refused") })
	if _, err := c.AlterTable(ctx, "db", "t", failing); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("failing Derived change: %v", err)
	}
	assertSchemaIDs(t, c, 0, 1, 2)
}
