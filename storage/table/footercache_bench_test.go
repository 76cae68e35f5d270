package table

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/footercache"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// objectStore makes the data files of a FileIO cost what an object store
// charges: every request waits rtt. With prefetch, Open is one request
// that also brings the file's last prefetch bytes, which later reads get
// for free, as s3io's Open does; without, Open and every read are one
// request each. Other files cost nothing, so that only data file access
// is measured.
type objectStore struct {
	fileio.FileIO
	rtt      time.Duration
	prefetch int64
	requests atomic.Int64
}

func (s *objectStore) request(ctx context.Context) error {
	s.requests.Add(1)
	t := time.NewTimer(s.rtt)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (s *objectStore) Open(ctx context.Context, p string) (fileio.File, error) {
	f, err := s.FileIO.Open(ctx, p)
	if err != nil || !strings.HasSuffix(p, ".parquet") {
		return f, err
	}
	if err := s.request(ctx); err != nil {
		f.Close()
		return nil, err
	}
	return &objectStoreFile{File: f, ctx: ctx, store: s, free: f.Size() - s.prefetch}, nil
}

type objectStoreFile struct {
	fileio.File
	ctx   context.Context
	store *objectStore
	// free is the offset from which reads cost nothing.
	free int64
}

func (f *objectStoreFile) ReadAt(p []byte, off int64) (int, error) {
	if f.store.prefetch == 0 || off < f.free {
		if err := f.store.request(f.ctx); err != nil {
			return 0, err
		}
	}
	return f.File.ReadAt(p, off)
}

// footerBenchFiles is the number of data files BenchmarkDataFileFooters
// reads, each of footerBenchRows rows in several row groups.
const (
	footerBenchFiles = 20
	footerBenchRows  = 20_000
)

// writeFooterBenchTable writes an append table of footerBenchFiles files,
// each holding k = 0 … footerBenchRows-1 in order.
func writeFooterBenchTable(b *testing.B, fs fileio.FileIO) string {
	ctx := context.Background()
	w, err := scantest.Create(ctx, fs, "wh", "db", "t", catalog.TableDefinition{
		Fields: []spec.DataField{{Name: "k", Type: intType}, {Name: "s", Type: stringType}},
	})
	if err != nil {
		b.Fatal(err)
	}
	w.RowGroupSize = 64 << 10
	var change scantest.Change
	for i := range footerBenchFiles {
		records := make([]scantest.Record, footerBenchRows)
		for k := range records {
			records[k] = scantest.Record{Values: []any{int32(k), fmt.Sprintf("payment %d of file %d", k*7919%100003, i)}}
		}
		f, err := w.WriteFile(ctx, nil, 0, 0, records)
		if err != nil {
			b.Fatal(err)
		}
		change.Partition, change.TotalBuckets = f.Partition, f.TotalBuckets
		change.Add = append(change.Add, f.Meta)
	}
	if _, err := w.Commit(ctx, []scantest.Change{change}); err != nil {
		b.Fatal(err)
	}
	return w.Dir
}

// BenchmarkDataFileFooters reads the 20 files of a table from a simulated
// object store (10 ms per request), with the footer cache off, cold (a
// new cache every read) and warm (footers cached by an earlier read).
// Reads: every row; one k, which needs one row group of each file; and
// k < 100 AND k > 19900, which every file's statistics keep and no row
// group matches. The stores: s3io's, whose Open fetches the last 64 KiB,
// and a plain one that fetches nothing unasked.
func BenchmarkDataFileFooters(b *testing.B) {
	mem := memio.New()
	dir := writeFooterBenchTable(b, mem)
	k := predicate.ColumnOf(0, spec.DataField{ID: 0, Name: "k", Type: intType})
	leaf := func(op predicate.Op, v int32) predicate.Predicate {
		p, err := predicate.Leaf(k, op, v)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	reads := []struct {
		name   string
		filter predicate.Predicate
		rows   int
	}{
		{"all", nil, footerBenchFiles * footerBenchRows},
		{"one-k", leaf(predicate.OpEq, 12_345), footerBenchFiles},
		{"no-row-group", predicate.And(leaf(predicate.OpLt, 100), leaf(predicate.OpGt, footerBenchRows-100)), 0},
	}
	for _, prefetch := range []int64{64 << 10, 0} {
		for _, read := range reads {
			for _, cache := range []string{"off", "cold", "warm"} {
				name := fmt.Sprintf("store=%s/read=%s/cache=%s", storeName(prefetch), read.name, cache)
				b.Run(name, func(b *testing.B) {
					store := &objectStore{FileIO: mem, rtt: 10 * time.Millisecond, prefetch: prefetch}
					benchFooterRead(b, store, dir, read.filter, read.rows, cache)
				})
			}
		}
	}
}

func storeName(prefetch int64) string {
	if prefetch > 0 {
		return "s3io"
	}
	return "plain"
}

// benchFooterRead measures reads of the table at dir through a footer
// cache. A cold read opens the table anew, which costs no request: only
// data files are slow.
func benchFooterRead(b *testing.B, store *objectStore, dir string, filter predicate.Predicate, want int, cache string) {
	open := func() *Table {
		size := int64(32 << 20)
		if cache == "off" {
			size = 0
		}
		tbl, err := Open(context.Background(), footercache.New(store, size), dir)
		if err != nil {
			b.Fatal(err)
		}
		return tbl
	}
	tbl := open()
	if cache == "warm" {
		mustReadB(b, tbl, ReadOptions{})
	}
	store.requests.Store(0)
	for b.Loop() {
		if cache == "cold" {
			b.StopTimer()
			tbl = open()
			b.StartTimer()
		}
		if rows := mustReadB(b, tbl, ReadOptions{Filter: filter}); len(rows) != want {
			b.Fatalf("%d rows, want %d", len(rows), want)
		}
	}
	b.ReportMetric(float64(store.requests.Load())/float64(b.N), "requests/op")
}
