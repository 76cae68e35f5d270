package table

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestSortedRuns(t *testing.T) {
	l0 := func(partition string, bucket int32, size int64) BacklogFile {
		return BacklogFile{Partition: partition, Bucket: bucket, Size: size}
	}
	at := func(level int32, partition string, bucket int32) BacklogFile {
		return BacklogFile{Partition: partition, Bucket: bucket, Level: level, Size: 1000}
	}
	cases := []struct {
		name  string
		files []BacklogFile
		want  []BucketRuns
	}{
		{name: "no files", want: []BucketRuns{}},
		{
			name:  "each level-0 file is a run",
			files: []BacklogFile{l0("p", 0, 10), l0("p", 0, 20), l0("p", 0, 30)},
			want:  []BucketRuns{{Partition: "p", Bucket: 0, SortedRuns: 3, SmallFiles: 3}},
		},
		{
			name:  "a higher level is one run however many files it holds",
			files: []BacklogFile{at(5, "p", 0), at(5, "p", 0), at(5, "p", 0), at(3, "p", 0), l0("p", 0, 10), l0("p", 0, 2000)},
			want:  []BucketRuns{{Partition: "p", Bucket: 0, SortedRuns: 4, SmallFiles: 1}},
		},
		{
			name:  "buckets of different partitions are apart, ordered by partition then bucket",
			files: []BacklogFile{at(5, "q", 0), l0("p", 1, 10), l0("p", 1, 10), at(5, "p", 0), l0("q", 0, 10)},
			want: []BucketRuns{
				{Partition: "p", Bucket: 0, SortedRuns: 1},
				{Partition: "p", Bucket: 1, SortedRuns: 2, SmallFiles: 2},
				{Partition: "q", Bucket: 0, SortedRuns: 2, SmallFiles: 1},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SortedRuns(c.files, 100); !reflect.DeepEqual(got, c.want) {
				t.Errorf("SortedRuns = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestNewBacklog(t *testing.T) {
	files := func(runsPerBucket ...int) []BacklogFile {
		var out []BacklogFile
		for bucket, runs := range runsPerBucket {
			for range runs {
				out = append(out, BacklogFile{Partition: "p", Bucket: int32(bucket), Size: 50})
			}
		}
		return out
	}
	cases := []struct {
		name   string
		schema spec.TableSchema
		files  []BacklogFile
		want   Backlog
	}{
		{
			name:   "primary key, default trigger 5",
			schema: spec.TableSchema{PrimaryKeys: []string{"id"}},
			files:  files(1, 5, 7, 4),
			want:   Backlog{SnapshotID: 9, MaxSortedRuns: 7, BucketsAtTrigger: 2, Trigger: 5},
		},
		{
			name:   "primary key, num-sorted-run.compaction-trigger set",
			schema: spec.TableSchema{PrimaryKeys: []string{"id"}, Options: map[string]string{"num-sorted-run.compaction-trigger": "2"}},
			files:  files(1, 2, 3),
			want:   Backlog{SnapshotID: 9, MaxSortedRuns: 3, BucketsAtTrigger: 2, Trigger: 2},
		},
		{
			name:   "append: only files below target-file-size count toward compaction.min.file-num",
			schema: spec.TableSchema{Options: map[string]string{"compaction.min.file-num": "3", "target-file-size": "60 b"}},
			files: append(files(3, 2),
				BacklogFile{Partition: "p", Bucket: 1, Size: 60}, BacklogFile{Partition: "p", Bucket: 1, Size: 600}),
			want: Backlog{SnapshotID: 9, MaxSortedRuns: 4, BucketsAtTrigger: 1, Trigger: 3},
		},
		{
			name:   "a table without files",
			schema: spec.TableSchema{PrimaryKeys: []string{"id"}},
			want:   Backlog{SnapshotID: 9, Trigger: 5},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := NewBacklog(&c.schema, 9, c.files)
			if err != nil || got != c.want {
				t.Errorf("NewBacklog = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
	bad := spec.TableSchema{Options: map[string]string{"compaction.min.file-num": "many"}}
	if _, err := NewBacklog(&bad, 1, nil); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("compaction.min.file-num = many: %v, want a corruption error", err)
	}
}

// PlanBacklog counts only plans that saw every live file of their
// snapshot.
func TestPlanBacklog(t *testing.T) {
	schema := &spec.TableSchema{PrimaryKeys: []string{"id"}, Options: map[string]string{"num-sorted-run.compaction-trigger": "2"}}
	files := []scan.FileDecision{
		{PartitionKey: "p", Bucket: 0, Level: 0, Reason: scan.Kept},
		{PartitionKey: "p", Bucket: 0, Level: 0, Reason: scan.PrunedByKeyStats},
		{PartitionKey: "q", Bucket: 0, Level: 5, Reason: scan.PrunedByPartition},
	}
	plan := func(manifests []scan.ManifestDecision, files []scan.FileDecision) *Plan {
		return &Plan{Snapshot: &spec.Snapshot{ID: 4}, Schema: schema,
			Scan: &scan.Plan{Explain: scan.Explanation{SnapshotID: 4, Manifests: manifests, Files: files}}}
	}
	cases := []struct {
		name   string
		plan   *Plan
		wantOK bool
		want   Backlog
	}{
		{
			name:   "every manifest read, pruned files included",
			plan:   plan([]scan.ManifestDecision{{Files: 2}, {Files: 1}}, files),
			wantOK: true,
			want:   Backlog{SnapshotID: 4, MaxSortedRuns: 2, BucketsAtTrigger: 1, Trigger: 2},
		},
		{
			// Its adds and deletes cancel out, so only its reason tells
			// that the file list may be wrong.
			name: "a manifest pruned unread",
			plan: plan([]scan.ManifestDecision{{Files: 3}, {Files: 0, Reason: scan.PrunedByPartition}}, files),
		},
		{
			name: "staged files on top of the snapshot's",
			plan: plan([]scan.ManifestDecision{{Files: 2}}, files),
		},
		{name: "no snapshot", plan: &Plan{Schema: schema, Scan: &scan.Plan{}}},
		{name: "no plan"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := PlanBacklog(c.plan)
			if err != nil || ok != c.wantOK || got != c.want {
				t.Errorf("PlanBacklog = %+v, %t, %v; want %+v, %t", got, ok, err, c.want, c.wantOK)
			}
		})
	}
}

// LatestBacklog reads the latest snapshot's live files, and a plan of
// the whole snapshot counts the same: an append table of six level-0
// files in one bucket, all far below target-file-size.
func TestLatestBacklog(t *testing.T) {
	ctx := context.Background()
	w, fs := appendTable(t, 6, 1)
	tbl, err := Open(ctx, fs, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Backlog{SnapshotID: 1, MaxSortedRuns: 6, BucketsAtTrigger: 1, Trigger: 5}
	if got, err := tbl.LatestBacklog(ctx); err != nil || got != want {
		t.Errorf("LatestBacklog = %+v, %v; want %+v", got, err, want)
	}
	plan, err := tbl.PlanRead(ctx, snapshot.TimeTravel{})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := PlanBacklog(plan); err != nil || !ok || got != want {
		t.Errorf("PlanBacklog of a whole read = %+v, %t, %v; want %+v", got, ok, err, want)
	}
}

func TestLatestBacklogWithoutSnapshot(t *testing.T) {
	ctx := context.Background()
	w, err := scantest.Create(ctx, memio.New(), "wh", "db", "t", catalog.TableDefinition{
		Fields: []spec.DataField{{Name: "k", Type: intType}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := Open(ctx, w.FS, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tbl.LatestBacklog(ctx); err != nil || got != (Backlog{}) {
		t.Errorf("LatestBacklog of an empty table = %+v, %v; want none", got, err)
	}
}

// A primary-key bucket's level-0 files are one run each and every other
// level one run, whether planned or listed.
func TestLatestBacklogOfLevels(t *testing.T) {
	ctx := context.Background()
	def := catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "k", Type: spec.DataType{Root: spec.BigInt}},
			{Name: "v", Type: stringType},
		},
		PrimaryKeys: []string{"k"},
		Options:     map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": "4"},
	}
	w, err := scantest.Create(ctx, memio.New(), "wh", "db", "t", def)
	if err != nil {
		t.Fatal(err)
	}
	change := scantest.Change{Bucket: 0, TotalBuckets: 1}
	for i, level := range []int32{0, 0, 3, 5, 5} {
		f, err := w.WriteFile(ctx, nil, 0, level, []scantest.Record{{Kind: spec.RowKindInsert, Values: []any{int64(i), "v"}}})
		if err != nil {
			t.Fatal(err)
		}
		change.Partition = f.Partition
		change.Add = append(change.Add, f.Meta)
	}
	if _, err := w.Commit(ctx, []scantest.Change{change}); err != nil {
		t.Fatal(err)
	}
	tbl, err := Open(ctx, w.FS, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	// The commit publishes the level-0 files and the upper levels as
	// separate snapshots; the backlog is of the last one.
	latest, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Backlog{SnapshotID: latest.ID, MaxSortedRuns: 4, BucketsAtTrigger: 1, Trigger: 4}
	if got, err := tbl.LatestBacklog(ctx); err != nil || got != want {
		t.Errorf("LatestBacklog = %+v, %v; want %+v", got, err, want)
	}
	plan, err := tbl.PlanRead(ctx, snapshot.TimeTravel{})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := PlanBacklog(plan); err != nil || !ok || got != want {
		t.Errorf("PlanBacklog = %+v, %t, %v; want %+v", got, ok, err, want)
	}
}
