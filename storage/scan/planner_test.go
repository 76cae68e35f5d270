package scan

import (
	"context"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestPlannerReadsOnlyNeededManifests plans one day of a table of 50
// manifests: only the manifest lists and the one manifest holding the day
// are read, and a second plan reads nothing through the shared cache.
func TestPlannerReadsOnlyNeededManifests(t *testing.T) {
	bt := newBenchTable(t, 10, 20_000, 400)
	day, err := predicate.Leaf(predicate.ColumnOf(0, benchSchema.Fields[0]), predicate.OpEq, spec.DateValue(20100))
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Snapshot: bt.snapshot, Schema: bt.schema, Filter: day,
		SchemaOf: func(int64) (*spec.TableSchema, error) { return bt.schema, nil }}
	p := NewPlanner(bt.reader, NewManifestCache(DefaultCacheEntries))
	plan, err := p.Plan(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	totals := plan.Explain.Totals()
	if p.ManifestReads() != 3 || totals.Manifests.Total != 50 || totals.Manifests.Kept != 1 {
		t.Fatalf("read %d files, kept %d of %d manifests; want 3 files, 1 of 50", p.ManifestReads(), totals.Manifests.Kept, totals.Manifests.Total)
	}
	if totals.Files.Kept == 0 || len(plan.Splits) == 0 {
		t.Fatalf("no file of the day kept:\n%s", plan.Explain.String())
	}
	if _, err := p.Plan(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if p.ManifestReads() != 3 {
		t.Errorf("second plan read %d more files, want none", p.ManifestReads()-3)
	}
}

func TestManifestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := NewManifestCache(10)
	put := func(name string, weight int) { c.put(&cacheItem{name: name, weight: weight}) }
	put("a", 4)
	put("b", 4)
	if _, ok := c.get("a"); !ok {
		t.Fatal("a evicted too early")
	}
	put("c", 4) // over budget: b is the least recently used
	if _, ok := c.get("b"); ok {
		t.Error("b not evicted")
	}
	if _, ok := c.get("a"); !ok {
		t.Error("a evicted though recently used")
	}
	put("huge", 11)
	if _, ok := c.get("huge"); ok || c.Len() != 2 {
		t.Errorf("an item over the budget was cached (%d items)", c.Len())
	}
}

// TestCachedLiveFilesPlanAsMerged plans filters of the same and of other
// days through one cache, each twice and in turn, and finds every plan
// equal to a plan without a cache: the cached live files of a manifest
// list serve any filter.
func TestCachedLiveFilesPlanAsMerged(t *testing.T) {
	bt := newBenchTable(t, 10, 2_000, 100)
	day, key := predicate.ColumnOf(0, benchSchema.Fields[0]), predicate.ColumnOf(1, benchSchema.Fields[1])
	var filters []predicate.Predicate
	for _, d := range []spec.DateValue{20010, 20010, 20050, 20010} {
		for _, k := range []int64{-1, 5_500, 1_999_000} {
			f, err := predicate.Leaf(day, predicate.OpEq, d)
			if err != nil {
				t.Fatal(err)
			}
			if k >= 0 {
				g, err := predicate.Leaf(key, predicate.OpEq, k)
				if err != nil {
					t.Fatal(err)
				}
				f = predicate.And(f, g)
			}
			filters = append(filters, f)
		}
	}
	cached, uncached := NewPlanner(bt.reader, NewManifestCache(DefaultCacheEntries)), NewPlanner(bt.reader, nil)
	for _, f := range append(filters, nil) {
		in := Input{Snapshot: bt.snapshot, Schema: bt.schema, Filter: f,
			SchemaOf: func(int64) (*spec.TableSchema, error) { return bt.schema, nil }}
		got, err := cached.Plan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		want, err := uncached.Plan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Splits, want.Splits) || !reflect.DeepEqual(got.Explain, want.Explain) {
			t.Fatalf("filter %v: cached plan differs:\n%s\nwant\n%s", f, got.Explain.String(), want.Explain.String())
		}
	}
}
