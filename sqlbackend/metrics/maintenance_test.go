package metrics

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

func TestCompactedCountsOutcomesFilesAndBytes(t *testing.T) {
	m := New()
	done := compact.Result{Snapshot: 7, Attempts: 1, Buckets: 2, FilesRewritten: 4, FilesUpgraded: 2, FilesWritten: 1, BytesRead: 1000, BytesWritten: 400}
	runs := []struct {
		res compact.Result
		err error
	}{
		{res: done},
		{res: compact.Result{Snapshot: 9, FilesRewritten: 3, FilesWritten: 2, BytesRead: 50, BytesWritten: 30}},
		{res: compact.Result{Attempts: 1}},
		{err: fmt.Errorf("%w: lakesql cannot compact a deletion-vectors table", lakeerr.ErrUnsupported)},
		// A COMPACT commit that lost its inputs is a terminal conflict.
		{err: &commit.ConflictError{Kind: commit.DeletedFileNotLive, CommitKind: spec.CommitKindCompact, Attempt: 3}},
		{err: &commit.RetryExhaustedError{Reason: "commit.max-retries", CommitKind: spec.CommitKindCompact, Attempts: 10}},
		{err: fmt.Errorf("put snapshot-8: %w", lakeerr.ErrUnknownOutcome)},
		{err: errors.New("disk full")},
	}
	for _, r := range runs {
		m.Compacted("pay", "payments", r.res, r.err)
	}
	for outcome, n := range map[string]float64{
		outcomeCompacted: 2, outcomeNothingToDo: 1, outcomeUnsupported: 1,
		outcomeConflictRetryable: 1, outcomeConflictTerminal: 1, outcomeUnknown: 1, outcomeError: 1,
	} {
		if got := testutil.ToFloat64(m.compactions.WithLabelValues("pay", "payments", outcome)); got != n {
			t.Errorf("compactions{outcome=%s} = %v, want %v", outcome, got, n)
		}
	}
	expected := `
# HELP lakesql_compaction_bytes_total Bytes of data files compactions read (direction=read) and wrote (direction=written).
# TYPE lakesql_compaction_bytes_total counter
lakesql_compaction_bytes_total{db="pay",direction="read",table="payments"} 1050
lakesql_compaction_bytes_total{db="pay",direction="written",table="payments"} 430
# HELP lakesql_compaction_files_total Data files of compactions by kind: rewritten (read and replaced), written (new), upgraded (moved to a higher level without rewriting).
# TYPE lakesql_compaction_files_total counter
lakesql_compaction_files_total{db="pay",kind="rewritten",table="payments"} 7
lakesql_compaction_files_total{db="pay",kind="upgraded",table="payments"} 2
lakesql_compaction_files_total{db="pay",kind="written",table="payments"} 3
`
	if err := testutil.CollectAndCompare(m.registry, strings.NewReader(expected), "lakesql_compaction_bytes_total", "lakesql_compaction_files_total"); err != nil {
		t.Error(err)
	}
	if got := testutil.ToFloat64(m.snapshotsCreated); got != 2 {
		t.Errorf("snapshots created = %v, want the 2 COMPACT snapshots", got)
	}
	if got := testutil.ToFloat64(m.latestSnapshot); got != 9 {
		t.Errorf("latest snapshot = %v, want 9", got)
	}
}

func TestCompactionBacklogNeverGoesBack(t *testing.T) {
	m := New()
	m.CompactionBacklog("pay", "payments", table.Backlog{SnapshotID: 5, MaxSortedRuns: 6, BucketsAtTrigger: 2, Trigger: 5})
	m.CompactionBacklog("pay", "payments", table.Backlog{SnapshotID: 3, MaxSortedRuns: 9, BucketsAtTrigger: 4, Trigger: 5})
	m.CompactionBacklog("pay", "payments", table.Backlog{})
	m.CompactionBacklog("pay", "refunds", table.Backlog{SnapshotID: 2, MaxSortedRuns: 1, Trigger: 5})
	for _, c := range []struct {
		tableName         string
		runs, buckets, at float64
	}{{"payments", 6, 2, 5}, {"refunds", 1, 0, 2}} {
		got := [3]float64{
			testutil.ToFloat64(m.maxSortedRuns.WithLabelValues("pay", c.tableName)),
			testutil.ToFloat64(m.backlogBuckets.WithLabelValues("pay", c.tableName)),
			testutil.ToFloat64(m.backlogSnapshot.WithLabelValues("pay", c.tableName)),
		}
		if want := [3]float64{c.runs, c.buckets, c.at}; got != want {
			t.Errorf("%s backlog (runs, buckets, snapshot) = %v, want %v", c.tableName, got, want)
		}
	}
	// A newer snapshot replaces the gauges even when it has less backlog.
	m.CompactionBacklog("pay", "payments", table.Backlog{SnapshotID: 8, MaxSortedRuns: 1, Trigger: 5})
	if got := testutil.ToFloat64(m.maxSortedRuns.WithLabelValues("pay", "payments")); got != 1 {
		t.Errorf("after a compaction in snapshot 8: max sorted runs %v, want 1", got)
	}
}

func TestMaintenanceDeletionsByProcedureAndKind(t *testing.T) {
	m := New()
	m.SnapshotsExpired("pay", "payments", maintenance.ExpireResult{Begin: 1, End: 4, Deleted: map[maintenance.FileKind]int{
		maintenance.FileKindData: 3, maintenance.FileKindManifest: 2, maintenance.FileKindManifestList: 6,
		maintenance.FileKindSnapshot: 3, maintenance.FileKindChangelog: 0,
	}})
	m.SnapshotsExpired("pay", "payments", maintenance.ExpireResult{})
	m.FilesDeleted("pay", "payments", "delete_tag", map[maintenance.FileKind]int{maintenance.FileKindData: 1, maintenance.FileKindManifest: 1})
	m.FilesDeleted("pay", "payments", "expire_tags", nil)
	m.OrphanFilesDeleted("pay", "payments", maintenance.OrphanResult{
		Candidates: []maintenance.OrphanFile{{Path: "a"}, {Path: "b"}, {Path: "c"}}, Deleted: []string{"a", "c"},
	})
	m.OrphanFilesDeleted("pay", "payments", maintenance.OrphanResult{Candidates: []maintenance.OrphanFile{{Path: "d"}}})
	m.PartitionsExpired("pay", "payments", maintenance.PartitionExpireResult{Partitions: []string{"dt=2020-01-01", "dt=2020-01-02"}, SnapshotID: 12, FilesDeleted: 2})
	m.PartitionsExpired("pay", "payments", maintenance.PartitionExpireResult{})
	m.Reconciled("pay", "payments", 2006, 3)
	m.Reconciled("pay", "payments", 10, 0)

	expected := `
# HELP lakesql_snapshots_expired_total Snapshots CALL sys.expire_snapshots deleted.
# TYPE lakesql_snapshots_expired_total counter
lakesql_snapshots_expired_total{db="pay",table="payments"} 3
# HELP lakesql_partitions_expired_total Partitions CALL sys.expire_partitions dropped.
# TYPE lakesql_partitions_expired_total counter
lakesql_partitions_expired_total{db="pay",table="payments"} 2
# HELP lakesql_reconcile_rows_compared_total Rows CALL sys.reconcile compared, the lake's and the source's.
# TYPE lakesql_reconcile_rows_compared_total counter
lakesql_reconcile_rows_compared_total{db="pay",table="payments"} 2016
# HELP lakesql_reconcile_mismatches_total Keys CALL sys.reconcile found missing in the lake, extra in it or differing.
# TYPE lakesql_reconcile_mismatches_total counter
lakesql_reconcile_mismatches_total{db="pay",table="payments"} 3
`
	if err := testutil.CollectAndCompare(m.registry, strings.NewReader(expected), "lakesql_snapshots_expired_total", "lakesql_partitions_expired_total",
		"lakesql_reconcile_rows_compared_total", "lakesql_reconcile_mismatches_total"); err != nil {
		t.Error(err)
	}
	want := map[[2]string]float64{
		{"expire_snapshots", "data"}: 3, {"expire_snapshots", "manifest"}: 2, {"expire_snapshots", "manifest-list"}: 6,
		{"expire_snapshots", "snapshot"}: 3, {"delete_tag", "data"}: 1, {"delete_tag", "manifest"}: 1,
		{"remove_orphan_files", "orphan"}: 2,
	}
	for labels, n := range want {
		if got := testutil.ToFloat64(m.filesDeleted.WithLabelValues("pay", "payments", labels[0], labels[1])); got != n {
			t.Errorf("files deleted{procedure=%s,kind=%s} = %v, want %v", labels[0], labels[1], got, n)
		}
	}
	if got := testutil.CollectAndCount(m.filesDeleted); got != len(want) {
		t.Errorf("%d files-deleted series, want %d: kinds of which nothing was deleted get none", got, len(want))
	}
	if got := testutil.ToFloat64(m.snapshotsCreated); got != 1 {
		t.Errorf("snapshots created = %v, want the partition drop's one", got)
	}
	if got := testutil.ToFloat64(m.latestSnapshot); got != 12 {
		t.Errorf("latest snapshot = %v, want 12", got)
	}
}

func TestNilMetricsRecordNoMaintenance(t *testing.T) {
	var m *Metrics
	m.Compacted("pay", "payments", compact.Result{Snapshot: 1}, nil)
	m.CompactionBacklog("pay", "payments", table.Backlog{SnapshotID: 1})
	m.SnapshotsExpired("pay", "payments", maintenance.ExpireResult{Deleted: map[maintenance.FileKind]int{maintenance.FileKindSnapshot: 1}})
	m.FilesDeleted("pay", "payments", "delete_tag", map[maintenance.FileKind]int{maintenance.FileKindData: 1})
	m.OrphanFilesDeleted("pay", "payments", maintenance.OrphanResult{Deleted: []string{"a"}})
	m.PartitionsExpired("pay", "payments", maintenance.PartitionExpireResult{SnapshotID: 1})
}
