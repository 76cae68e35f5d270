package table

import (
	"context"
	"testing"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestCachesServeRepeatedPointReads: a point read decodes the file's
// footer and the pages that hold its row once; read again, it reads no
// byte of the data file, from the table's footer cache and the page
// cache, and returns the same row. A full read puts nothing in the page
// cache.
func TestCachesServeRepeatedPointReads(t *testing.T) {
	w, fs := appendTable(t, 1, 50_000)
	tbl, err := Open(context.Background(), fs, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	pages := NewPageCache(64 << 20)
	tbl.SetPageCache(pages)
	k := predicate.ColumnOf(0, spec.DataField{ID: 0, Name: "k", Type: intType})
	point, err := predicate.Leaf(k, predicate.OpEq, int32(31_500))
	if err != nil {
		t.Fatal(err)
	}
	first := mustRead(t, tbl, ReadOptions{Filter: point})
	if len(first) != 1 || first[0][0] != int32(31_500) {
		t.Fatalf("k = 31500: got %v", first)
	}
	cold := pages.Stats()
	if cold.Misses == 0 || cold.Bytes == 0 {
		t.Fatalf("after the first read the page cache has %+v", cold)
	}
	fs.bytes.Store(0)
	again := mustRead(t, tbl, ReadOptions{Filter: point})
	if len(again) != 1 || again[0][0] != first[0][0] || again[0][1] != first[0][1] {
		t.Fatalf("k = 31500 again: got %v, first %v", again, first)
	}
	if n := fs.bytes.Load(); n != 0 {
		t.Errorf("the repeated point read read %d bytes of the data file", n)
	}
	warm := pages.Stats()
	if warm.Hits <= cold.Hits || warm.Misses != cold.Misses {
		t.Errorf("the repeated point read: page cache %+v, after the first %+v", warm, cold)
	}
	if all := mustRead(t, tbl, ReadOptions{}); len(all) != 50_000 {
		t.Fatalf("full read: %d rows", len(all))
	}
	if after := pages.Stats(); after.Bytes != warm.Bytes {
		t.Errorf("a full read changed the page cache from %d to %d bytes", warm.Bytes, after.Bytes)
	}
}
