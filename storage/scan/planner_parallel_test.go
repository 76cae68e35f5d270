package scan

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// jitterFS delays every read by a random few hundred microseconds, so
// that parallel reads finish in an order other than the one they were
// asked in.
type jitterFS struct {
	fileio.FileIO
	mu  sync.Mutex
	rng *rand.Rand
}

func (j *jitterFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	j.mu.Lock()
	d := time.Duration(j.rng.IntN(400)) * time.Microsecond
	j.mu.Unlock()
	time.Sleep(d)
	return j.FileIO.ReadFile(ctx, p)
}

// randomFile is a data file of a random table.
type randomFile struct {
	name   string
	day    int
	bucket int32
	level  int32
	keyLo  int64
}

func (f randomFile) entry(t testing.TB, kind spec.FileKind) spec.ManifestEntry {
	partTypes := []spec.DataType{{Root: spec.Date, Nullable: true}}
	keyTypes := []spec.DataType{{Root: spec.BigInt}}
	e := benchEntry(t, 0, 1, partTypes, keyTypes)
	day := spec.DateValue(20000 + f.day)
	part, err := spec.SerializeBinaryRow(partTypes, []any{day})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := f.keyLo, f.keyLo+99
	zero := int64(0)
	e.Kind, e.Partition, e.Bucket = kind, part, f.bucket
	e.File.FileName, e.File.Level, e.File.FileSize = f.name, f.level, 1<<20+f.keyLo
	e.File.MinKey, _ = spec.SerializeBinaryRow(keyTypes, []any{lo})
	e.File.MaxKey, _ = spec.SerializeBinaryRow(keyTypes, []any{hi})
	e.File.KeyStats, _ = spec.NewSimpleStats(keyTypes, []any{lo}, []any{hi}, []*int64{&zero})
	e.File.ValueStats, _ = spec.NewSimpleStats(typesOf(benchSchema.Fields),
		[]any{day, lo, int64(1), "FAILED"}, []any{day, hi, int64(100000), "SUCCESS"}, []*int64{&zero, &zero, &zero, &zero})
	return e
}

// writeRandomTable writes a snapshot of manifests as a table's history
// leaves them: each manifest adds files, deletes live ones (compaction)
// and moves some to another level (upgrades: a DELETE and an ADD of the
// same file). Folded in another order, the DELETEs would miss their
// ADDs. It returns the snapshot.
func writeRandomTable(t *testing.T, fs fileio.FileIO, reader *manifest.Reader, rng *rand.Rand, manifests int) *spec.Snapshot {
	ctx := context.Background()
	var live []randomFile
	var metas []spec.ManifestFileMeta
	next := 0
	for m := range manifests {
		var entries []spec.ManifestEntry
		for range rng.IntN(12) + 1 {
			f := randomFile{name: fmt.Sprintf("data-%d.parquet", next), day: rng.IntN(20), bucket: int32(rng.IntN(8)),
				level: int32(rng.IntN(3)), keyLo: int64(rng.IntN(100)) * 50}
			next++
			entries = append(entries, f.entry(t, spec.FileKindAdd))
			live = append(live, f)
		}
		for range rng.IntN(4) {
			if len(live) == 0 {
				break
			}
			i := rng.IntN(len(live))
			entries = append(entries, live[i].entry(t, spec.FileKindDelete))
			if rng.IntN(2) == 0 {
				live[i].level = 5
				entries = append(entries, live[i].entry(t, spec.FileKindAdd))
			} else {
				live = append(live[:i], live[i+1:]...)
			}
		}
		metas = append(metas, putManifest(t, fs, reader, fmt.Sprintf("manifest-%d", m), entries))
	}
	split := rng.IntN(len(metas))
	for name, list := range map[string][]spec.ManifestFileMeta{"base": metas[:split], "delta": metas[split:]} {
		data, err := spec.EncodeManifestList(list)
		if err != nil {
			t.Fatal(err)
		}
		if err := fs.PutIfAbsent(ctx, reader.Path(name), data); err != nil {
			t.Fatal(err)
		}
	}
	return &spec.Snapshot{ID: 1, BaseManifestList: "base", DeltaManifestList: "delta"}
}

func putManifest(t *testing.T, fs fileio.FileIO, reader *manifest.Reader, name string, entries []spec.ManifestEntry) spec.ManifestFileMeta {
	data, err := spec.EncodeManifestEntries(entries)
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.PutIfAbsent(context.Background(), reader.Path(name), data); err != nil {
		t.Fatal(err)
	}
	partTypes := []spec.DataType{{Root: spec.Date, Nullable: true}}
	lo, hi := spec.DateValue(1<<30), spec.DateValue(0)
	var added, deleted int64
	for i := range entries {
		day, err := spec.DeserializeBinaryRow(partTypes, entries[i].Partition)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi = min(lo, day[0].(spec.DateValue)), max(hi, day[0].(spec.DateValue))
		if entries[i].Kind == spec.FileKindAdd {
			added++
		} else {
			deleted++
		}
	}
	stats, err := spec.NewSimpleStats(partTypes, []any{lo}, []any{hi}, []*int64{new(int64)})
	if err != nil {
		t.Fatal(err)
	}
	return spec.ManifestFileMeta{FileName: name, FileSize: int64(len(data)),
		NumAddedFiles: added, NumDeletedFiles: deleted, PartitionStats: stats}
}

// TestParallelPlanningEqualsSequential plans random tables with every
// manifest read one after another and many at once, over storage that
// finishes reads out of order: the plans are identical, and their live
// files are those manifest.Reader folds one manifest at a time, in the
// same order.
func TestParallelPlanningEqualsSequential(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			store := memio.New()
			reader := manifest.NewReader(&jitterFS{FileIO: store, rng: rand.New(rand.NewPCG(seed, 8))}, "t")
			snap := writeRandomTable(t, store, manifest.NewReader(store, "t"), rng, 20+rng.IntN(40))
			oracle, err := manifest.NewReader(store, "t").LiveEntries(context.Background(), snap)
			if err != nil {
				t.Fatal(err)
			}
			day, err := predicate.Leaf(predicate.ColumnOf(0, benchSchema.Fields[0]), predicate.OpLe, spec.DateValue(20000+rng.IntN(20)))
			if err != nil {
				t.Fatal(err)
			}
			for _, filter := range []predicate.Predicate{nil, day} {
				in := Input{Snapshot: snap, Schema: benchSchema, Filter: filter,
					SchemaOf: func(int64) (*spec.TableSchema, error) { return benchSchema, nil }}
				want, err := NewPlannerParallel(reader, nil, 1).Plan(context.Background(), in)
				if err != nil {
					t.Fatal(err)
				}
				if filter == nil {
					checkLiveOrder(t, want.Explain.Files, oracle)
				}
				for _, parallelism := range []int{4, DefaultParallelism, 64} {
					got, err := NewPlannerParallel(reader, nil, parallelism).Plan(context.Background(), in)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got.Explain, want.Explain) || !reflect.DeepEqual(got.Splits, want.Splits) {
						t.Fatalf("filter %v, parallelism %d: the plan differs from the sequential one:\n%s\nwant\n%s",
							filter, parallelism, got.Explain.String(), want.Explain.String())
					}
				}
			}
		})
	}
}

func checkLiveOrder(t *testing.T, files []FileDecision, oracle []spec.ManifestEntry) {
	t.Helper()
	var got, want []string
	for _, f := range files {
		got = append(got, fmt.Sprintf("%s@%d", f.FileName, f.Level))
	}
	for _, e := range oracle {
		want = append(want, fmt.Sprintf("%s@%d", e.File.FileName, e.File.Level))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("live files\n%v\nwant, as manifest.Reader folds them,\n%v", got, want)
	}
}

// failingFS fails the read of one manifest at once; every other read
// waits for its context to end, as a slow store's would.
type failingFS struct {
	fileio.FileIO
	fail    string
	started atomic.Int64
}

var errBroken = errors.New("broken manifest")

func (f *failingFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if !strings.Contains(p, "/manifest-") || strings.HasSuffix(p, "/base") || strings.HasSuffix(p, "/delta") {
		return f.FileIO.ReadFile(ctx, p)
	}
	f.started.Add(1)
	if strings.HasSuffix(p, "/"+f.fail) {
		return nil, errBroken
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestFirstManifestErrorCancelsTheRest checks that a failed manifest read
// stops the plan: the reads in flight are cancelled, no more start, and
// the error is the failure, not a cancellation it caused.
func TestFirstManifestErrorCancelsTheRest(t *testing.T) {
	store := memio.New()
	snap := writeRandomTable(t, store, manifest.NewReader(store, "t"), rand.New(rand.NewPCG(1, 2)), 30)
	fs := &failingFS{FileIO: store, fail: "manifest-2"}
	in := Input{Snapshot: snap, Schema: benchSchema,
		SchemaOf: func(int64) (*spec.TableSchema, error) { return benchSchema, nil }}
	_, err := NewPlannerParallel(manifest.NewReader(fs, "t"), nil, 4).Plan(context.Background(), in)
	if !errors.Is(err, errBroken) {
		t.Fatalf("plan: %v, want the broken manifest's error", err)
	}
	if n := fs.started.Load(); n > 4 {
		t.Errorf("%d manifest reads started, want at most the 4 in flight when the first failed", n)
	}
}
