package scan

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// slowStore makes every read wait rtt, as a GET from an object store does.
type slowStore struct {
	fileio.FileIO
	rtt time.Duration
}

func (s slowStore) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if s.rtt > 0 {
		t := time.NewTimer(s.rtt)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return s.FileIO.ReadFile(ctx, p)
}

// BenchmarkPlanObjectStore plans a snapshot of 50 manifests (5,000 files)
// with a cold cache from a store answering each read in 10 ms, and, for
// the cost of the goroutines alone, from memory (rtt=0), by the number of
// manifest files read at once: 1 is the sequential path, 4 what
// min(2*GOMAXPROCS, 16) gave on a 2-CPU machine before DefaultParallelism.
// Unfiltered plans read the 2 manifest lists and all 50 manifests; a plan
// of one day reads the lists and 1 manifest.
func BenchmarkPlanObjectStore(b *testing.B) {
	t := newBenchTable(b, 10, 5_000, 100)
	day, err := predicate.Leaf(predicate.ColumnOf(0, benchSchema.Fields[0]), predicate.OpEq, spec.DateValue(20100))
	if err != nil {
		b.Fatal(err)
	}
	filters := []struct {
		name string
		pred predicate.Predicate
	}{{"all", nil}, {"one-day", day}}
	for _, rtt := range []time.Duration{10 * time.Millisecond, 0} {
		reader := manifest.NewReader(slowStore{FileIO: t.store, rtt: rtt}, "t")
		for _, filter := range filters {
			for _, parallelism := range []int{1, 4, DefaultParallelism} {
				name := fmt.Sprintf("rtt=%v/read=%s/parallelism=%d", rtt, filter.name, parallelism)
				b.Run(name, func(b *testing.B) { benchPlanFrom(b, reader, t, filter.pred, parallelism) })
			}
		}
	}
}

func benchPlanFrom(b *testing.B, reader *manifest.Reader, t *benchTable, filter predicate.Predicate, parallelism int) {
	in := Input{Snapshot: t.snapshot, Schema: t.schema, Filter: filter,
		SchemaOf: func(int64) (*spec.TableSchema, error) { return t.schema, nil }}
	var reads int64
	for b.Loop() {
		p := NewPlannerParallel(reader, nil, parallelism)
		if _, err := p.Plan(context.Background(), in); err != nil {
			b.Fatal(err)
		}
		reads += p.ManifestReads()
	}
	b.ReportMetric(float64(reads)/float64(b.N), "files-read/op")
}
