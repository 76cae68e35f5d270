package compact

import (
	"context"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/leasetest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var (
	// testNow is the time on every table's clock.
	testNow    = tabletest.Epoch
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	intType    = spec.DataType{Root: spec.Int, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
)

func field(name string, t spec.DataType) spec.DataField { return spec.DataField{Name: name, Type: t} }

// testTable is a table of a compaction test, written through the real
// write and commit paths; tabletest.Table says how it is deterministic.
type testTable struct{ *tabletest.Table }

func newMemTable(t testing.TB, def catalog.TableDefinition) *testTable {
	return &testTable{tabletest.New(t, def)}
}

func newLocalTable(t testing.TB, def catalog.TableDefinition) *testTable {
	return &testTable{tabletest.NewLocal(t, def)}
}

// options are compaction options on the table, on its clock and uuids,
// with leases named alike in every run.
func (tt *testTable) options(mode Mode) Options {
	return Options{FileIO: tt.FS, TableDir: tt.Dir, Mode: mode, Now: tt.Now, NewUUID: tt.NewUUID,
		Leases: leasetest.New("lease", nil, 0)}
}

func (tt *testTable) compact(mode Mode) Result {
	tt.T.Helper()
	res, err := Table(context.Background(), tt.options(mode))
	if err != nil {
		tt.T.Fatal(err)
	}
	return res
}

// writeCommit writes records with a fresh writer and commits them as
// writer-test.
func (tt *testTable) writeCommit(records ...tabletest.Record) {
	tt.T.Helper()
	writetest.Commit(tt.Table, "writer-test", records...)
}

// tryWriteCommit is writeCommit as user, returning the error.
func (tt *testTable) tryWriteCommit(user string, records []tabletest.Record) error {
	_, err := writetest.TryCommit(tt.Table, user, records)
	return err
}

// readTable returns the rows opts read from tbl, rendered and sorted.
// openTable opens the table in dir.
func openTable(t testing.TB, fsys fileio.FileIO, dir string) *table.Table {
	t.Helper()
	tbl, err := table.Open(context.Background(), fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func readTable(t testing.TB, tbl *table.Table, opts table.ReadOptions) []string {
	t.Helper()
	rows, err := tabletest.ReadTable(tbl, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rows
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
	return &testTable{tt.Table.On(t, fsys, tt.Now)}
}
