package commit

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestReadKeysOfJavaFiles reads the keys of every live data file of the
// Java-written primary-key fixtures, as the write-write check does, and
// compares them with the keys of the same files' records decoded as
// key-value records.
func TestReadKeysOfJavaFiles(t *testing.T) {
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tb := range tables {
		t.Run(tb.Name, func(t *testing.T) {
			checked += checkFixtureKeys(t, tb.Dir)
		})
	}
	if checked == 0 {
		t.Fatal("no primary-key fixture file was checked")
	}
}

// checkFixtureKeys checks the files of one table and returns how many.
func checkFixtureKeys(t *testing.T, dir string) int {
	ctx := context.Background()
	c, err := New(Options{FileIO: fixtures.RemapExternal(localio.New(), filepath.Dir(dir)), TableDir: filepath.ToSlash(dir)})
	if err != nil {
		t.Fatal(err)
	}
	layout, err := c.loadTable(ctx)
	if err != nil || !layout.primaryKey {
		return 0
	}
	r := c.newRun(&Request{}, layout)
	latest, err := r.readLatest(ctx)
	if err != nil || latest == nil {
		return 0
	}
	live, err := r.liveEntries(ctx, latest)
	if errors.Is(err, lakeerr.ErrUnsupported) || errors.Is(err, lakeerr.ErrCorruption) {
		return 0 // row tracking and the like: refused before any key is read
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range live {
		e := &live[i]
		got, err := c.readKeys(ctx, layout, e)
		if errors.Is(err, lakeerr.ErrUnsupported) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", e.File.FileName, err)
		}
		if want := recordKeys(t, c, layout, e); !slices.EqualFunc(got, want, func(a, b []any) bool {
			return spec.CompareRows(layout.keyTypes, a, b) == 0
		}) {
			t.Errorf("%s: keys %v, want %v", e.File.FileName, got, want)
		}
		n++
	}
	return n
}

// recordKeys decodes the file's records in full and returns their keys,
// sorted.
func recordKeys(t *testing.T, c *Committer, layout *tableLayout, e *spec.ManifestEntry) [][]any {
	ctx := context.Background()
	fileSchema, err := c.schemas.Schema(ctx, e.File.SchemaID)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.dataFilePath(fileSchema, e)
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.io.Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pq, err := parquetio.Open(f, p)
	if err != nil {
		t.Fatal(err)
	}
	it, err := pq.NewKeyValueIterator(fileSchema.TrimmedPrimaryKeys(), fileSchema.Fields)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var keys [][]any
	for {
		kv, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, slices.Clone(kv.Key))
	}
	slices.SortStableFunc(keys, func(a, b []any) int { return spec.CompareRows(layout.keyTypes, a, b) })
	return keys
}
