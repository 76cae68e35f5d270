package table

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestKeyLookupMatchesFilteredScan: on the random primary-key tables of
// the pruning property test (partitions, buckets, overlapping level-0
// files, sorted runs, deletion vectors, partial-update and first-row
// merges), looking a key up returns exactly the rows a scan filtered on
// that key returns, for keys present and absent, in columns out of order,
// and with a row bound small enough that splits are dropped and read
// again.
func TestKeyLookupMatchesFilteredScan(t *testing.T) {
	for seed := range uint64(*metaSeeds * 4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
			g := newGenTable(t, r)
			if !g.pk {
				t.Skip("key lookups need a primary key")
			}
			g.fill(context.Background())
			checkKeyLookups(t, r, g)
		})
	}
}

func checkKeyLookups(t *testing.T, r *rand.Rand, g *genTable) {
	ctx := context.Background()
	tbl, ids := g.open()
	at := snapshot.TimeTravel{SnapshotID: ids[r.IntN(len(ids))]}
	plan, err := tbl.PlanScan(ctx, at, nil)
	if err != nil {
		t.Fatal(err)
	}
	columns := []string{"s", "k", "v"}
	lookup, err := tbl.NewKeyLookup(ctx, plan, KeyLookupOptions{Columns: columns, MaxRows: 1 + r.IntN(40)})
	if err != nil {
		t.Fatal(err)
	}
	for range 60 {
		dt, k := genPartitions[r.IntN(3)], int32(r.IntN(140))
		got, err := lookup.Lookup(ctx, []any{dt, k})
		if err != nil {
			t.Fatal(err)
		}
		want := mustRead(t, tbl, ReadOptions{At: at, Columns: columns, Filter: keyFilter(t, plan.Schema, dt, k), Parallelism: 1})
		if !sameMultiset(rowStrings(got), rowStrings(want)) {
			t.Fatalf("lookup (%s, %d) in %s at snapshot %d: got %v, want %v", dt, k, g.kind, at.SnapshotID, got, want)
		}
	}
}

func keyFilter(t *testing.T, s *spec.TableSchema, dt string, k int32) predicate.Predicate {
	t.Helper()
	onDt, err := predicate.Leaf(predicate.ColumnOf(0, s.Fields[0]), predicate.OpEq, dt)
	if err != nil {
		t.Fatal(err)
	}
	onK, err := predicate.Leaf(predicate.ColumnOf(1, s.Fields[1]), predicate.OpEq, k)
	if err != nil {
		t.Fatal(err)
	}
	return predicate.And(onDt, onK)
}

// A key lookup refuses what it cannot route exactly.
func TestKeyLookupRefusesFilteredPlans(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	g := newGenTable(t, r)
	for !g.pk {
		g = newGenTable(t, r)
	}
	g.fill(ctx)
	tbl, err := Open(ctx, g.w.FS, g.w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := tbl.PlanScan(ctx, snapshot.TimeTravel{}, keyFilter(t, g.w.Schema, "d0", 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.NewKeyLookup(ctx, plan, KeyLookupOptions{}); err == nil {
		t.Fatal("a key lookup on a filtered plan was accepted")
	}
}
