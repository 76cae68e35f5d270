package table

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// countingIO counts the data files opened and the bytes read from them,
// and how many are open at the end.
type countingIO struct {
	fileio.FileIO
	opened, open, bytes atomic.Int64
}

func (c *countingIO) Open(ctx context.Context, p string) (fileio.File, error) {
	f, err := c.FileIO.Open(ctx, p)
	if err != nil || !strings.HasSuffix(p, ".parquet") {
		return f, err
	}
	c.opened.Add(1)
	c.open.Add(1)
	return &countingFile{File: f, io: c}, nil
}

type countingFile struct {
	fileio.File
	io     *countingIO
	closed sync.Once
}

func (f *countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	f.io.bytes.Add(int64(n))
	return n, err
}

func (f *countingFile) Close() error {
	f.closed.Do(func() { f.io.open.Add(-1) })
	return f.File.Close()
}

var (
	intType    = spec.DataType{Root: spec.Int, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
)

// appendTable writes an append table of files files of rows rows each,
// k = 0, 1, ... in order, in one partition.
func appendTable(t *testing.T, files, rows int) (*scantest.Table, *countingIO) {
	t.Helper()
	ctx := context.Background()
	fs := &countingIO{FileIO: memio.New()}
	w, err := scantest.Create(ctx, fs, "wh", "db", "t", catalog.TableDefinition{
		Fields: []spec.DataField{{Name: "k", Type: intType}, {Name: "s", Type: stringType}},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.RowGroupSize = 16 << 10
	var change scantest.Change
	for i := range files {
		var records []scantest.Record
		for j := range rows {
			records = append(records, scantest.Record{Values: []any{int32(i*rows + j), fmt.Sprintf("payload %d", (i*rows+j)*7919%100003)}})
		}
		f, err := w.WriteFile(ctx, nil, 0, 0, records)
		if err != nil {
			t.Fatal(err)
		}
		change.Partition, change.TotalBuckets = f.Partition, f.TotalBuckets
		change.Add = append(change.Add, f.Meta)
	}
	if _, err := w.Commit(ctx, []scantest.Change{change}); err != nil {
		t.Fatal(err)
	}
	return w, fs
}

func TestLimitStopsReadingEarly(t *testing.T) {
	w, fs := appendTable(t, 20, 10)
	tbl, err := Open(context.Background(), fs, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	all := mustRead(t, tbl, ReadOptions{Parallelism: 1})
	if len(all) != 200 || fs.opened.Load() != 20 {
		t.Fatalf("full read: %d rows from %d files, want 200 from 20", len(all), fs.opened.Load())
	}
	for _, parallelism := range []int{1, 4} {
		fs.opened.Store(0)
		got := mustRead(t, tbl, ReadOptions{Limit: 5, Parallelism: parallelism})
		if len(got) != 5 {
			t.Errorf("parallelism %d: %d rows, want 5", parallelism, len(got))
		}
		if n := fs.opened.Load(); n > 3 {
			t.Errorf("parallelism %d: LIMIT 5 opened %d of 20 files", parallelism, n)
		}
		if n := fs.open.Load(); n != 0 {
			t.Errorf("parallelism %d: %d files left open", parallelism, n)
		}
	}
}

// TestRowGroupsAndColumnsPruned checks that a selective filter on a
// column sorted within files reads only some row groups, and a projection
// only some columns.
func TestRowGroupsAndColumnsPruned(t *testing.T) {
	w, fs := appendTable(t, 1, 40000)
	tbl, err := Open(context.Background(), fs, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	mustRead(t, tbl, ReadOptions{})
	full := fs.bytes.Load()
	fs.bytes.Store(0)
	k := predicate.ColumnOf(0, spec.DataField{ID: 0, Name: "k", Type: intType})
	p, err := predicate.Leaf(k, predicate.OpEq, 31500)
	if err != nil {
		t.Fatal(err)
	}
	got := mustRead(t, tbl, ReadOptions{Filter: p})
	if len(got) != 1 || got[0][0] != int32(31500) {
		t.Fatalf("k = 31500: got %v", got)
	}
	if filtered := fs.bytes.Load(); filtered*2 > full {
		t.Errorf("k = 31500 read %d bytes, the full read %d", filtered, full)
	}
	fs.bytes.Store(0)
	mustRead(t, tbl, ReadOptions{Columns: []string{"k"}})
	if projected := fs.bytes.Load(); projected*4 > full*3 {
		t.Errorf("reading k alone read %d bytes, the full read %d", projected, full)
	}
}

func TestCloseMidReadReleasesFiles(t *testing.T) {
	w, fs := appendTable(t, 8, 600)
	tbl, err := Open(context.Background(), fs, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := tbl.Read(context.Background(), ReadOptions{Parallelism: 4, Unordered: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rows.Next(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if n := fs.open.Load(); n != 0 {
		t.Errorf("%d files open after Close", n)
	}
	if _, err := rows.Next(); err == nil {
		t.Error("Next after Close returned a row")
	}
}

func TestExplainNamesSnapshotFilesAndResidual(t *testing.T) {
	w, fs := appendTable(t, 3, 10)
	tbl, err := Open(context.Background(), fs, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	k := predicate.ColumnOf(0, spec.DataField{ID: 0, Name: "k", Type: intType})
	p, err := predicate.Leaf(k, predicate.OpGe, 25)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := tbl.PlanScan(context.Background(), snapshot.TimeTravel{}, p)
	if err != nil {
		t.Fatal(err)
	}
	text := plan.Scan.Explain.String()
	for _, want := range []string{"snapshot 1 ", "files: 1 of 3 kept", "value stats", "residual: k >= 25"} {
		if !strings.Contains(text, want) {
			t.Errorf("explanation lacks %q:\n%s", want, text)
		}
	}
}
