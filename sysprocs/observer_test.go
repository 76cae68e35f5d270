package sysprocs

import (
	"fmt"
	"path"
	"reflect"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/table"
)

// recorder is an Observer that keeps every report as text, in order.
type recorder struct{ reports []string }

func (r *recorder) add(format string, args ...any) {
	r.reports = append(r.reports, fmt.Sprintf(format, args...))
}

func (r *recorder) Compacted(db, tbl string, res compact.Result, err error) {
	r.add("compacted %s.%s snapshot=%d rewritten=%d written=%d read>0=%t err=%v",
		db, tbl, res.Snapshot, res.FilesRewritten, res.FilesWritten, res.BytesRead > 0, err != nil)
}

func (r *recorder) CompactionBacklog(db, tbl string, b table.Backlog) {
	r.add("backlog %s.%s %+v", db, tbl, b)
}

func (r *recorder) SnapshotsExpired(db, tbl string, res maintenance.ExpireResult) {
	r.add("expired %s.%s snapshots=%d data=%d manifest-lists=%d", db, tbl,
		res.SnapshotsExpired(), res.Deleted[maintenance.FileKindData], res.Deleted[maintenance.FileKindManifestList])
}

func (r *recorder) FilesDeleted(db, tbl, procedure string, deleted map[maintenance.FileKind]int) {
	r.add("deleted %s.%s by %s files=%d", db, tbl, procedure, total(deleted))
}

func (r *recorder) OrphanFilesDeleted(db, tbl string, res maintenance.OrphanResult) {
	r.add("orphans %s.%s deleted=%v", db, tbl, res.Deleted)
}

func (r *recorder) PartitionsExpired(db, tbl string, res maintenance.PartitionExpireResult) {
	r.add("partitions %s.%s %v snapshot=%d", db, tbl, res.Partitions, res.SnapshotID)
}

func (r *recorder) Reconciled(db, tbl string, rowsCompared, mismatches int64) {
	r.add("reconciled %s.%s rows=%d mismatches=%d", db, tbl, rowsCompared, mismatches)
}

// observed gives the fixture's procedures an observer.
func observed(f *fixture) *recorder {
	r := &recorder{}
	f.procs = New(Options{Catalog: f.cat, FileIO: f.fs, Now: f.clock.Now, NewUUID: f.NewUUID, Logger: quietLogger(), Observer: r})
	return r
}

// takeReports returns what the observer was told since the last call.
func (r *recorder) takeReports() []string {
	out := r.reports
	r.reports = nil
	return out
}

func wantReports(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s reported\n%q\nwant\n%q", what, got, want)
	}
}

// TestObserverSeesCompactions: each sys.compact reports its result and
// then the sorted runs it left; one that fails reports the failure only.
func TestObserverSeesCompactions(t *testing.T) {
	f := newFixture(t)
	r := observed(f)
	for i := int64(1); i <= 3; i++ {
		f.insert(nil, row("2026-04-16", i, "a"))
	}
	ctx := newContext("db", nil)

	f.mustCall(ctx, "compact", "db.orders", "", "minor")
	wantReports(t, "a minor compaction below the trigger", r.takeReports(),
		"compacted db.orders snapshot=0 rewritten=0 written=0 read>0=false err=false",
		"backlog db.orders {SnapshotID:3 MaxSortedRuns:3 BucketsAtTrigger:0 Trigger:5}")
	f.mustCall(ctx, "compact", "db.orders")
	wantReports(t, "a full compaction", r.takeReports(),
		"compacted db.orders snapshot=4 rewritten=3 written=1 read>0=true err=false",
		"backlog db.orders {SnapshotID:4 MaxSortedRuns:1 BucketsAtTrigger:0 Trigger:5}")

	if _, err := f.call(ctx, "compact", "db.orders", "region=eu"); err == nil {
		t.Fatal("a partition spec naming no partition key compacted")
	}
	wantReports(t, "a refused argument, which starts no compaction", r.takeReports())

	// lakesql refuses to compact a table with record-level expiry.
	expiring := ordersTable
	expiring.Options = map[string]string{"bucket": "1", "record-level.expire-time": "1 d", "record-level.time-field": "id"}
	if err := f.cat.CreateTable(ctx, "db", "expiring", expiring, false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.call(ctx, "compact", "db.expiring"); err == nil {
		t.Fatal("compaction of a table with record-level expiry succeeded")
	}
	wantReports(t, "a compaction that failed", r.takeReports(),
		"compacted db.expiring snapshot=0 rewritten=0 written=0 read>0=false err=true")
}

// TestObserverSeesDeletions: expiry, tag deletion and expiry, orphan
// removal and partition expiry report what they deleted or dropped.
func TestObserverSeesDeletions(t *testing.T) {
	f := newFixture(t)
	r := observed(f)
	now := f.clock.Now()
	old := now.AddDate(0, 0, -30).Format("2006-01-02")
	f.insert(nil, row(old, 1, "a"))
	f.insert(nil, row(old, 1, "b"))
	f.insert(nil, row(old, 1, "c"))
	ctx := newContext("db", nil)

	f.mustCall(ctx, "create_tag", "db.orders", "first", int64(1))
	f.mustCall(ctx, "create_tag", "db.orders", "second", int64(2), "1 h")
	wantReports(t, "creating tags", r.takeReports())
	// The compaction replaces every file, so expiry has files to delete.
	f.mustCall(ctx, "compact", "db.orders")
	r.takeReports()

	// The observer is told what the caller is.
	expired := f.mustCall(ctx, "expire_snapshots", "db.orders", int64(1), int64(1))[0]
	wantReports(t, "expire_snapshots", r.takeReports(),
		fmt.Sprintf("expired db.orders snapshots=%d data=%d manifest-lists=%d", expired[1], expired[2], expired[7]))
	if expired[1] != int64(3) || expired[2] == int64(0) {
		t.Errorf("expire_snapshots: %v, want 3 snapshots and some data files deleted", expired)
	}
	deleted := f.mustCall(ctx, "delete_tag", "db.orders", "first")[0]
	f.clock.Advance(2 * time.Hour)
	summary := f.mustCall(ctx, "expire_tags", "db.orders")
	tagFiles := summary[len(summary)-1][2]
	wantReports(t, "deleting and expiring tags of expired snapshots", r.takeReports(),
		fmt.Sprintf("deleted db.orders by delete_tag files=%d", deleted[3]),
		fmt.Sprintf("deleted db.orders by expire_tags files=%d", tagFiles))
	if deleted[3] == int64(0) || tagFiles == int64(0) {
		t.Errorf("delete_tag deleted %v files and expire_tags %v; want both some", deleted[3], tagFiles)
	}

	orphan := path.Join(f.Dir, "dt="+old, "bucket-0", "data-orphan-0.parquet")
	if err := f.fs.PutIfAbsent(ctx, orphan, []byte("left by a crashed writer")); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(48 * time.Hour)
	f.mustCall(ctx, "remove_orphan_files", "db.orders", "", true)
	f.mustCall(ctx, "remove_orphan_files", "db.orders")
	wantReports(t, "a dry run, then a removal", r.takeReports(),
		"orphans db.orders deleted=[]", fmt.Sprintf("orphans db.orders deleted=[%s]", orphan))

	f.mustCall(ctx, "expire_partitions", "db.orders", "7 d", "yyyy-MM-dd")
	wantReports(t, "expire_partitions", r.takeReports(), fmt.Sprintf("partitions db.orders [dt=%s] snapshot=5", old))
}

// A maintenance procedure that fails reports nothing.
func TestObserverIsNotToldOfFailedMaintenance(t *testing.T) {
	f := newFixture(t)
	r := observed(f)
	f.insert(nil, row("2026-04-16", 1, "a"))
	ctx := newContext("db", nil)
	for _, call := range [][]any{
		{"delete_tag", "db.orders", "nosuch"},
		{"expire_snapshots", "db.orders", int64(1), int64(2)},
		{"expire_partitions", "db.orders", "7 d", "no such pattern"},
	} {
		if _, err := f.call(ctx, call[0].(string), call[1:]...); err == nil {
			t.Errorf("%v succeeded", call)
		}
	}
	wantReports(t, "failed maintenance", r.takeReports())
}
