package compact

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/leasetest"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

var (
	testNow    = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	intType    = spec.DataType{Root: spec.Int, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
)

func field(name string, t spec.DataType) spec.DataField { return spec.DataField{Name: name, Type: t} }

// testTable is a table created through the catalog, with deterministic
// uuids shared by its writers, committers and compactions.
type testTable struct {
	t     testing.TB
	io    fileio.FileIO
	dir   string
	mu    sync.Mutex
	uuids int
	ident int64
}

func newMemTable(t testing.TB, def catalog.TableDefinition) *testTable {
	return newTableOn(t, memio.New(), "wh", def)
}

func newLocalTable(t testing.TB, def catalog.TableDefinition) *testTable {
	return newTableOn(t, localio.New(), t.TempDir(), def)
}

func newTableOn(t testing.TB, fsys fileio.FileIO, warehouse string, def catalog.TableDefinition) *testTable {
	t.Helper()
	ctx := context.Background()
	c := catalog.New(fsys, warehouse, func() time.Time { return testNow })
	if err := c.CreateDatabase(ctx, "db", true); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable(ctx, "db", "t", def, false); err != nil {
		t.Fatal(err)
	}
	dir, err := c.TablePath("db", "t")
	if err != nil {
		t.Fatal(err)
	}
	return &testTable{t: t, io: fsys, dir: dir}
}

func (tt *testTable) newUUID() string {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	tt.uuids++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", tt.uuids)
}

func (tt *testTable) now() time.Time { return testNow }

// options are compaction options on the table with a deterministic clock
// and uuids.
func (tt *testTable) options(mode Mode) Options {
	return Options{FileIO: tt.io, TableDir: tt.dir, Mode: mode, Now: tt.now, NewUUID: tt.newUUID, Leases: leasetest.New("lease", nil, 0)}
}

func (tt *testTable) compact(mode Mode) Result {
	tt.t.Helper()
	res, err := Table(context.Background(), tt.options(mode))
	if err != nil {
		tt.t.Fatal(err)
	}
	return res
}

// record is one row with its change kind.
type record struct {
	row  []any
	kind spec.RowKind
}

func insert(row ...any) record    { return record{row: row, kind: spec.RowKindInsert} }
func deleteRow(row ...any) record { return record{row: row, kind: spec.RowKindDelete} }

// writeCommit writes records with a fresh writer and commits them as
// writer-test, one identifier per call.
func (tt *testTable) writeCommit(records ...record) {
	tt.t.Helper()
	if err := tt.tryWriteCommit("writer-test", records); err != nil {
		tt.t.Fatal(err)
	}
}

func (tt *testTable) tryWriteCommit(user string, records []record) error {
	ctx := context.Background()
	w, err := write.Open(ctx, write.Options{FileIO: tt.io, TableDir: tt.dir, Now: tt.now, NewUUID: tt.newUUID,
		SpillDir: tt.t.TempDir()})
	if err != nil {
		return err
	}
	defer w.Close()
	for _, r := range records {
		if err := w.Write(ctx, r.row, r.kind); err != nil {
			return err
		}
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		return err
	}
	c, err := commit.New(commit.Options{FileIO: tt.io, TableDir: tt.dir, Core: tt.schema().CoreOptions(),
		Now: tt.now, NewUUID: tt.newUUID, Rand: rand.New(rand.NewPCG(1, 2)),
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		return err
	}
	tt.mu.Lock()
	tt.ident++
	ident := tt.ident
	tt.mu.Unlock()
	_, err = c.Commit(ctx, commit.Request{CommitUser: user, Identifier: ident, Messages: msgs})
	return err
}

func (tt *testTable) open() *table.Table {
	tt.t.Helper()
	tbl, err := table.Open(context.Background(), tt.io, tt.dir)
	if err != nil {
		tt.t.Fatal(err)
	}
	return tbl
}

func (tt *testTable) schema() *spec.TableSchema {
	tt.t.Helper()
	s, err := tt.open().LatestSchema(context.Background())
	if err != nil {
		tt.t.Fatal(err)
	}
	return s
}

// read returns the rows of the latest snapshot, rendered and sorted.
func (tt *testTable) read() []string {
	tt.t.Helper()
	return readTable(tt.t, tt.open(), table.ReadOptions{})
}

func readTable(t testing.TB, tbl *table.Table, opts table.ReadOptions) []string {
	t.Helper()
	rows, err := tbl.Read(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(all))
	for i, r := range all {
		out[i] = renderRow(r)
	}
	slices.Sort(out)
	return out
}

func renderRow(row []any) string {
	parts := make([]string, len(row))
	for i, v := range row {
		if v == nil {
			parts[i] = "NULL"
			continue
		}
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, "|")
}

func (tt *testTable) latest() *spec.Snapshot {
	tt.t.Helper()
	snap, err := tt.open().Snapshots().Latest(context.Background())
	if err != nil {
		tt.t.Fatal(err)
	}
	return snap
}

func (tt *testTable) liveFiles() []spec.ManifestEntry {
	tt.t.Helper()
	return liveFilesOf(tt.t, tt.open())
}

func liveFilesOf(t testing.TB, tbl *table.Table) []spec.ManifestEntry {
	t.Helper()
	ctx := context.Background()
	snap, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := tbl.LiveFiles(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// levelsOf counts live files per level.
func levelsOf(entries []spec.ManifestEntry) map[int32]int {
	out := map[int32]int{}
	for _, e := range entries {
		out[e.File.Level]++
	}
	return out
}

// dataFilesOnDisk lists the data files under the table's bucket
// directories, relative to the table.
func dataFilesOnDisk(t testing.TB, fsys fileio.FileIO, dir string) []string {
	t.Helper()
	var out []string
	var walk func(rel string)
	walk = func(rel string) {
		infos, err := fsys.List(context.Background(), path.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range infos {
			name := path.Base(info.Path)
			child := path.Join(rel, name)
			switch {
			case info.IsDir && rel == "" && (name == "schema" || name == "snapshot" || name == "manifest" || name == "commit-user" || name == "index"):
			case info.IsDir:
				walk(child)
			case strings.HasPrefix(name, "data-"):
				out = append(out, child)
			}
		}
	}
	walk("")
	slices.Sort(out)
	return out
}

// assertRows compares sorted row lists and reports the rows one has and
// the other lacks (at most ten of each).
func assertRows(t testing.TB, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	extra, missing := diffSorted(got, want), diffSorted(want, got)
	t.Fatalf("%s: %d rows, want %d\n unexpected %q\n missing    %q", what, len(got), len(want), head(extra), head(missing))
}

// diffSorted returns the rows of a that b lacks, as multisets.
func diffSorted(a, b []string) []string {
	counts := map[string]int{}
	for _, r := range b {
		counts[r]++
	}
	var out []string
	for _, r := range a {
		if counts[r] > 0 {
			counts[r]--
			continue
		}
		out = append(out, r)
	}
	return out
}

func head(rows []string) []string { return rows[:min(len(rows), 10)] }

// on returns the table in fsys, a copy of tt's warehouse, going on from
// tt's uuids and commit identifiers so that names never repeat.
func (tt *testTable) on(t testing.TB, fsys fileio.FileIO) *testTable {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return &testTable{t: t, io: fsys, dir: tt.dir, uuids: tt.uuids, ident: tt.ident}
}
