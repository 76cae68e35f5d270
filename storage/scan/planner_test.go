package scan

import (
	"context"
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
