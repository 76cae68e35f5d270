package sqlbackend

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// inexactTable creates d.t with the column types lakesql's DDL cannot make
// and whose values its SQL layer cannot express exactly (TIMESTAMP(9),
// TIMESTAMP(9) WITH LOCAL TIME ZONE, ARRAY<INT>, ROW<x INT>), as Flink or
// Java create them, and writes row 1 with nanoseconds and nested values
// through the storage API, as a Java writer would.
func inexactTable(t *testing.T, warehouse string, c *conn, nested bool) (dir string, row []any) {
	t.Helper()
	c.mustExec("CREATE DATABASE d")
	intType := spec.DataType{Root: spec.Int, Nullable: true}
	def := catalog.TableDefinition{
		Fields: []spec.DataField{
			{ID: 0, Name: "id", Type: spec.DataType{Root: spec.Int}},
			{ID: 1, Name: "s", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}},
			{ID: 2, Name: "ts9", Type: spec.DataType{Root: spec.Timestamp, Precision: 9, Nullable: true}},
			{ID: 3, Name: "lz9", Type: spec.DataType{Root: spec.TimestampLTZ, Precision: 9, Nullable: true}},
			{ID: 4, Name: "arr", Type: spec.DataType{Root: spec.Array, Nullable: true, Element: &intType}},
			{ID: 5, Name: "r", Type: spec.DataType{Root: spec.Row, Nullable: true,
				Fields: []spec.DataField{{ID: 6, Name: "x", Type: intType}}}},
		},
		PrimaryKeys: []string{"id"},
		Options:     map[string]string{"bucket": "1"},
	}
	if !nested {
		def.Fields = def.Fields[:4]
	}
	ctx := context.Background()
	fsys := localio.New()
	if err := catalog.New(fsys, warehouse, nil).CreateTable(ctx, "d", "t", def, false); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(warehouse, "d.db", "t")
	nanos := time.Date(2026, 4, 16, 1, 2, 3, 123456789, time.UTC)
	row = []any{int32(1), "java", spec.TimestampFromTime(nanos), spec.TimestampFromTime(nanos),
		[]any{int32(1), nil, int32(3)}, []any{int32(7)}}[:len(def.Fields)]
	tw, err := write.Open(ctx, write.Options{FileIO: fsys, TableDir: dir, SpillDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	if err := tw.Write(ctx, row, spec.RowKindInsert); err != nil {
		t.Fatal(err)
	}
	msgs, err := tw.PrepareCommit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := commit.New(commit.Options{FileIO: fsys, TableDir: dir, Core: tw.Schema().CoreOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cm.Commit(ctx, commit.Request{CommitUser: "java", Identifier: 1, Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	return dir, row
}

// storedRows reads the table's rows as storage values, by id.
func storedRows(t *testing.T, dir string) map[int32][]any {
	t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, localio.New(), dir)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := tbl.Read(ctx, table.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int32][]any{}
	for {
		r, err := rows.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[r[0].(int32)] = r
	}
}

// TestUpdateKeepsValuesSQLCannotExpress covers interop findings F6 and F7:
// an UPDATE (and INSERT … ON DUPLICATE KEY UPDATE) of other columns keeps
// a Java-written row's TIMESTAMP(9) nanoseconds and its nested values as
// stored; assigning a TIMESTAMP(9) a new value stores the six digits SQL
// gave; a nested value is written from the JSON a SELECT shows, and one
// of another shape fails with error 1366 naming the column.
func TestUpdateKeepsValuesSQLCannotExpress(t *testing.T) {
	warehouse := t.TempDir()
	h := newHarness(t, warehouse)
	c := h.connect()
	dir, javaRow := inexactTable(t, warehouse, c, true)
	c.mustExec("USE d")

	want := append([]any(nil), javaRow...)
	check := func(step string) {
		t.Helper()
		if got := storedRows(t, dir)[1]; !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s: stored %v, want %v", step, got, want)
		}
	}
	c.mustExec("UPDATE t SET s = 'lakesql' WHERE id = 1")
	want[1] = "lakesql"
	check("UPDATE of s")

	c.mustExec("INSERT INTO t (id, s) VALUES (1, 'odku') ON DUPLICATE KEY UPDATE s = 'odku'")
	want[1] = "odku"
	check("ON DUPLICATE KEY UPDATE of s")

	c.mustExec("BEGIN", "UPDATE t SET s = 'tx' WHERE id = 1", "UPDATE t SET s = 'tx2' WHERE id = 1", "COMMIT")
	want[1] = "tx2"
	check("UPDATEs in a transaction")

	// The value shown (microseconds) assigned again keeps the stored one;
	// another value is stored with the digits SQL gave.
	c.mustExec("UPDATE t SET ts9 = '2026-04-16 01:02:03.123456' WHERE id = 1")
	check("UPDATE of ts9 to the value shown")
	c.mustExec("UPDATE t SET ts9 = '2026-04-16 01:02:03.5', lz9 = lz9 WHERE id = 1")
	want[2] = spec.TimestampFromTime(time.Date(2026, 4, 16, 1, 2, 3, 500000000, time.UTC))
	check("UPDATE of ts9 to another value")

	// Nested values are written as the JSON a SELECT shows; one of
	// another shape fails with 1366 naming the column.
	c.mustExec(`UPDATE t SET arr = '[9, null]' WHERE id = 1`, `UPDATE t SET r = JSON_OBJECT('x', 8) WHERE id = 1`,
		`INSERT INTO t VALUES (2, 'x', NULL, NULL, '[1]', '{"x": null}')`)
	want[4], want[5] = []any{int32(9), nil}, []any{int32(8)}
	check("nested writes")
	if got := storedRows(t, dir)[2]; !reflect.DeepEqual(got[4:], []any{[]any{int32(1)}, []any{nil}}) {
		t.Errorf("row 2 stores %v, want [1] and a ROW of NULL", got[4:])
	}
	for _, stmt := range []string{
		`UPDATE t SET arr = '{"a": 1}' WHERE id = 1`,
		`UPDATE t SET arr = '[1.5]' WHERE id = 1`,
		`UPDATE t SET r = '{"y": 1}' WHERE id = 1`,
		`UPDATE t SET r = JSON_OBJECT('x', 1.5) WHERE id = 1`,
	} {
		_, err := c.query(stmt)
		if code := errorCode(err); code != 1366 || !strings.Contains(err.Error(), "column arr") && !strings.Contains(err.Error(), "column r") {
			t.Errorf("%s: %v, want error 1366 naming the column", stmt, err)
		}
	}
	check("refused nested values")
	// New rows without nested values are written as usual.
	c.mustExec("INSERT INTO t (id, s) VALUES (3, 'new')")
	if got := storedRows(t, dir)[3]; got == nil || got[1] != "new" {
		t.Errorf("row 3: %v", got)
	}
}

// TestUpdateKeepsNanoseconds is F6 alone, on a table without nested
// columns: an UPDATE of another column keeps TIMESTAMP(9) and TIMESTAMP(9)
// WITH LOCAL TIME ZONE nanoseconds, as lakesql's compaction does.
func TestUpdateKeepsNanoseconds(t *testing.T) {
	warehouse := t.TempDir()
	h := newHarness(t, warehouse)
	c := h.connect()
	dir, javaRow := inexactTable(t, warehouse, c, false)
	c.mustExec("USE d", "UPDATE t SET s = 'lakesql' WHERE id = 1")
	want := append([]any(nil), javaRow...)
	want[1] = "lakesql"
	if got := storedRows(t, dir)[1]; !reflect.DeepEqual(got, want) {
		t.Fatalf("stored %v, want %v", got, want)
	}
	// The row as shown: six digits.
	if got := format(c.mustQuery("SELECT ts9, lz9 FROM t")); got[0] != "[2026-04-16 01:02:03.123456 +0000 UTC 2026-04-16 01:02:03.123456 +0000 UTC]" {
		t.Errorf("shown %v", got)
	}
}

func errorCode(err error) int { return sql.CastSQLError(err).Num }

// TestRowWithNanosecondKeyIsNotRewritten: a row whose primary key holds a
// TIMESTAMP(9) value with nanoseconds cannot be named by SQL, which shows
// six digits; an UPDATE of it used to add a second row under the cut key
// and a DELETE to delete nothing, both reporting success. They now fail
// with 1235, and a row whose key has no more than six digits is updated
// and deleted as usual.
func TestRowWithNanosecondKeyIsNotRewritten(t *testing.T) {
	warehouse := t.TempDir()
	h := newHarness(t, warehouse)
	c := h.connect()
	c.mustExec("CREATE DATABASE d")
	def := catalog.TableDefinition{
		Fields: []spec.DataField{
			{ID: 0, Name: "id", Type: spec.DataType{Root: spec.Int}},
			{ID: 1, Name: "ts9", Type: spec.DataType{Root: spec.Timestamp, Precision: 9}},
			{ID: 2, Name: "s", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}},
		},
		PrimaryKeys: []string{"id", "ts9"},
		Options:     map[string]string{"bucket": "1"},
	}
	ctx := context.Background()
	fsys := localio.New()
	if err := catalog.New(fsys, warehouse, nil).CreateTable(ctx, "d", "t", def, false); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(warehouse, "d.db", "t")
	tw, err := write.Open(ctx, write.Options{FileIO: fsys, TableDir: dir, SpillDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	for _, r := range [][]any{
		{int32(1), spec.TimestampFromTime(time.Date(2026, 4, 16, 1, 2, 3, 123456789, time.UTC)), "java"},
		{int32(2), spec.TimestampFromTime(time.Date(2026, 4, 16, 1, 2, 3, 123456000, time.UTC)), "java"},
	} {
		if err := tw.Write(ctx, r, spec.RowKindInsert); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err := tw.PrepareCommit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := commit.New(commit.Options{FileIO: fsys, TableDir: dir, Core: tw.Schema().CoreOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cm.Commit(ctx, commit.Request{CommitUser: "java", Identifier: 1, Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	c.mustExec("USE d")
	for _, stmt := range []string{"UPDATE t SET s = 'x' WHERE id = 1", "DELETE FROM t WHERE id = 1"} {
		_, err := c.query(stmt)
		if err == nil {
			t.Errorf("%s: no error; rows %v", stmt, format(c.mustQuery("SELECT * FROM t")))
			continue
		}
		if code := errorCode(err); code != 1235 || !strings.Contains(err.Error(), "key column ts9") {
			t.Errorf("%s: %v, want 1235 naming ts9", stmt, err)
		}
	}
	c.mustExec("UPDATE t SET s = 'x' WHERE id = 2")
	if got := format(c.mustQuery("SELECT id, s FROM t ORDER BY id")); len(got) != 2 || got[0] != "[1 java]" || got[1] != "[2 x]" {
		t.Errorf("after the UPDATE of row 2: %v", got)
	}
	c.mustExec("DELETE FROM t WHERE id = 2")
	if got := format(c.mustQuery("SELECT id, s FROM t ORDER BY id")); len(got) != 1 || got[0] != "[1 java]" {
		t.Errorf("after the DELETE of row 2: %v", got)
	}
}
