package scan

import (
	"context"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// benchDays is the number of daily partitions of the synthetic table.
const benchDays = 365

// benchTable is the metadata of a large synthetic payment table: files
// spread over daily partitions, in manifests that each cover a run of
// days, as manifest merging of daily commits leaves them. The base list
// holds merged manifests; the delta list the last snapshot's manifest.
type benchTable struct {
	schema   *spec.TableSchema
	snapshot *spec.Snapshot
	reader   *manifest.Reader
	// store holds the manifests reader reads.
	store *memio.FS
}

var benchSchema = &spec.TableSchema{
	Version: spec.CurrentSchemaVersion,
	Fields: []spec.DataField{
		{ID: 0, Name: "dt", Type: spec.DataType{Root: spec.Date}},
		{ID: 1, Name: "pay_id", Type: spec.DataType{Root: spec.BigInt}},
		{ID: 2, Name: "amount", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
		{ID: 3, Name: "status", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
	},
	PartitionKeys: []string{"dt"},
	PrimaryKeys:   []string{"dt", "pay_id"},
	Options:       map[string]string{"bucket": "8"},
}

func newBenchTable(b testing.TB, snapshots, files, perManifest int) *benchTable {
	ctx := context.Background()
	fs := memio.New()
	reader := manifest.NewReader(fs, "t")
	partTypes := []spec.DataType{{Root: spec.Date, Nullable: true}}
	keyTypes := []spec.DataType{{Root: spec.BigInt}}
	var metas []spec.ManifestFileMeta
	for start := 0; start < files; start += perManifest {
		var entries []spec.ManifestEntry
		for i := start; i < min(start+perManifest, files); i++ {
			entries = append(entries, benchEntry(b, i, files, partTypes, keyTypes))
		}
		data, err := spec.EncodeManifestEntries(entries)
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("manifest-%d", len(metas))
		if err := fs.PutIfAbsent(ctx, reader.Path(name), data); err != nil {
			b.Fatal(err)
		}
		lo, hi := benchDay(start, files), benchDay(min(start+perManifest, files)-1, files)
		stats, err := spec.NewSimpleStats(partTypes, []any{lo}, []any{hi}, []*int64{new(int64)})
		if err != nil {
			b.Fatal(err)
		}
		metas = append(metas, spec.ManifestFileMeta{FileName: name, FileSize: int64(len(data)),
			NumAddedFiles: int64(len(entries)), PartitionStats: stats})
	}
	base, delta := metas[:len(metas)-1], metas[len(metas)-1:]
	for name, list := range map[string][]spec.ManifestFileMeta{"base": base, "delta": delta} {
		data, err := spec.EncodeManifestList(list)
		if err != nil {
			b.Fatal(err)
		}
		if err := fs.PutIfAbsent(ctx, reader.Path(name), data); err != nil {
			b.Fatal(err)
		}
	}
	snap := &spec.Snapshot{ID: int64(snapshots), BaseManifestList: "base", DeltaManifestList: "delta"}
	return &benchTable{schema: benchSchema, snapshot: snap, reader: reader, store: fs}
}

// benchDay spreads files evenly over the days, in order.
func benchDay(i, files int) spec.DateValue {
	return spec.DateValue(20000 + i*benchDays/files)
}

func benchEntry(b testing.TB, i, files int, partTypes, keyTypes []spec.DataType) spec.ManifestEntry {
	part, err := spec.SerializeBinaryRow(partTypes, []any{benchDay(i, files)})
	if err != nil {
		b.Fatal(err)
	}
	lo, hi := int64(i*1000), int64(i*1000+999)
	minKey, _ := spec.SerializeBinaryRow(keyTypes, []any{lo})
	maxKey, _ := spec.SerializeBinaryRow(keyTypes, []any{hi})
	zero := int64(0)
	keyStats, _ := spec.NewSimpleStats(keyTypes, []any{lo}, []any{hi}, []*int64{&zero})
	valueStats, _ := spec.NewSimpleStats(typesOf(benchSchema.Fields),
		[]any{benchDay(i, files), lo, int64(1), "FAILED"}, []any{benchDay(i, files), hi, int64(100000), "SUCCESS"},
		[]*int64{&zero, &zero, &zero, &zero})
	return spec.ManifestEntry{Kind: spec.FileKindAdd, Partition: part, Bucket: int32(i % 8), TotalBuckets: 8,
		File: spec.DataFileMeta{FileName: fmt.Sprintf("data-%d.parquet", i), FileSize: 64 << 20, RowCount: 1000,
			MinKey: minKey, MaxKey: maxKey, KeyStats: keyStats, ValueStats: valueStats,
			MinSequenceNumber: int64(i), MaxSequenceNumber: int64(i), Level: 5, DeleteRowCount: &zero}}
}

// BenchmarkPlan measures planning one day of a table by the number of
// snapshots (the snapshot id only: manifest merging keeps the number of
// manifests a snapshot lists independent of its history) and of live
// files, with a cold and a warm manifest cache. manifests/op is the number
// of manifest files read from storage per plan.
func BenchmarkPlan(b *testing.B) {
	for _, files := range []int{10_000, 100_000} {
		for _, snapshots := range []int{100, 10_000} {
			t := newBenchTable(b, snapshots, files, 2000)
			day := predicate.ColumnOf(0, benchSchema.Fields[0])
			filter, err := predicate.Leaf(day, predicate.OpEq, spec.DateValue(20100))
			if err != nil {
				b.Fatal(err)
			}
			for _, cached := range []bool{false, true} {
				name := fmt.Sprintf("snapshots=%d/files=%d/cache=%v", snapshots, files, cached)
				b.Run(name, func(b *testing.B) { benchPlan(b, t, filter, cached) })
			}
			b.Run(fmt.Sprintf("snapshots=%d/files=%d/unfiltered", snapshots, files), func(b *testing.B) {
				benchPlan(b, t, nil, true)
			})
		}
	}
}

func benchPlan(b *testing.B, t *benchTable, filter predicate.Predicate, cached bool) {
	cache := NewManifestCache(DefaultCacheEntries)
	in := Input{Snapshot: t.snapshot, Schema: t.schema, Filter: filter,
		SchemaOf: func(int64) (*spec.TableSchema, error) { return t.schema, nil }}
	planner := NewPlanner(t.reader, cache)
	b.ReportAllocs()
	var files int
	var reads int64
	for b.Loop() {
		if !cached {
			planner = NewPlanner(t.reader, nil)
		}
		before := planner.ManifestReads()
		plan, err := planner.Plan(context.Background(), in)
		if err != nil {
			b.Fatal(err)
		}
		reads += planner.ManifestReads() - before
		files = plan.Explain.Totals().Files.Kept
	}
	b.ReportMetric(float64(files), "files-kept")
	b.ReportMetric(float64(reads)/float64(max(b.N, 1)), "manifests/op")
}
