package metrics

import (
	"errors"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/table"
)

// Compaction outcomes, the outcome label of lakesql_compactions_total, on
// top of the commit outcomes a failed compaction's error is classified by.
const (
	outcomeCompacted   = "compacted"
	outcomeNothingToDo = "nothing-to-compact"
	outcomeUnsupported = "unsupported"
)

// orphanKind is the kind label of files remove_orphan_files deleted:
// nothing references an orphan, so no metadata says what it was.
const orphanKind = "orphan"

// registerMaintenance registers the compaction and maintenance families.
func (m *Metrics) registerMaintenance(perTable []string) {
	m.compactions = m.counter("lakesql_compactions_total",
		"Compactions (CALL sys.compact, lakesql compact) by outcome: compacted (a COMPACT snapshot), nothing-to-compact, unsupported (a table lakesql cannot compact), or the class of the error that ended it (conflict-retryable, conflict-terminal, unknown-outcome, error).",
		append(perTable, "outcome")...)
	m.compactionBytes = m.counter("lakesql_compaction_bytes_total",
		"Bytes of data files compactions read (direction=read) and wrote (direction=written).", append(perTable, "direction")...)
	m.compactionFiles = m.counter("lakesql_compaction_files_total",
		"Data files of compactions by kind: rewritten (read and replaced), written (new), upgraded (moved to a higher level without rewriting).",
		append(perTable, "kind")...)
	m.maxSortedRuns = m.gauge("lakesql_compaction_max_sorted_runs",
		"Most sorted runs in any bucket of the snapshot in lakesql_compaction_backlog_snapshot_id: every level-0 file is a run and every other non-empty level one more, so an append bucket counts its files. Counted from plans that read every manifest of a snapshot, and after each compaction.",
		perTable...)
	m.backlogBuckets = m.gauge("lakesql_compaction_backlog_buckets",
		"Buckets of that snapshot at or above the compaction trigger: primary-key buckets with num-sorted-run.compaction-trigger sorted runs, append buckets with compaction.min.file-num files below target-file-size.",
		perTable...)
	m.backlogSnapshot = m.gauge("lakesql_compaction_backlog_snapshot_id",
		"Snapshot the compaction backlog gauges were counted from; compare with lakesql_latest_snapshot_id to see how current they are.",
		perTable...)
	m.snapshotsExpired = m.counter("lakesql_snapshots_expired_total", "Snapshots CALL sys.expire_snapshots deleted.", perTable...)
	m.filesDeleted = m.counter("lakesql_files_deleted_total",
		"Files maintenance procedures deleted from storage, by procedure (expire_snapshots, delete_tag, expire_tags, remove_orphan_files) and kind (data, changelog, manifest, index, statistics, manifest-list, index-manifest, snapshot; orphan for what remove_orphan_files deleted, which no metadata describes). expire_partitions deletes no file: its files go when the snapshots that hold them expire.",
		append(perTable, "procedure", "kind")...)
	m.partitionsExpired = m.counter("lakesql_partitions_expired_total", "Partitions CALL sys.expire_partitions dropped.", perTable...)
	m.reconciledRows = m.counter("lakesql_reconcile_rows_compared_total",
		"Rows CALL sys.reconcile compared, the lake's and the source's.", perTable...)
	m.reconcileMismatch = m.counter("lakesql_reconcile_mismatches_total",
		"Keys CALL sys.reconcile found missing in the lake, extra in it or differing.", perTable...)
}

// Compacted counts one compaction of a table: its outcome, the files and
// bytes it read and wrote, and the COMPACT snapshot it published.
func (m *Metrics) Compacted(db, tableName string, res compact.Result, err error) {
	if m == nil {
		return
	}
	m.compactions.WithLabelValues(db, tableName, compactionOutcome(res, err)).Inc()
	if err != nil {
		return
	}
	m.compactionBytes.WithLabelValues(db, tableName, "read").Add(float64(res.BytesRead))
	m.compactionBytes.WithLabelValues(db, tableName, "written").Add(float64(res.BytesWritten))
	m.compactionFiles.WithLabelValues(db, tableName, "rewritten").Add(float64(res.FilesRewritten))
	m.compactionFiles.WithLabelValues(db, tableName, "written").Add(float64(res.FilesWritten))
	m.compactionFiles.WithLabelValues(db, tableName, "upgraded").Add(float64(res.FilesUpgraded))
	m.published(db, tableName, res.Snapshot)
}

func compactionOutcome(res compact.Result, err error) string {
	switch {
	case err == nil && res.Snapshot == 0:
		return outcomeNothingToDo
	case err == nil:
		return outcomeCompacted
	case errors.Is(err, lakeerr.ErrUnsupported):
		return outcomeUnsupported
	}
	return commitOutcome(commit.Result{}, err)
}

// published counts a snapshot a procedure committed, 0 for none.
func (m *Metrics) published(db, tableName string, snapshotID int64) {
	if snapshotID == 0 {
		return
	}
	m.snapshotsCreated.WithLabelValues(db, tableName).Inc()
	m.ObserveSnapshot(db, tableName, snapshotID)
}

// CompactionBacklog sets a table's backlog gauges, unless they already
// show a newer snapshot.
func (m *Metrics) CompactionBacklog(db, tableName string, b table.Backlog) {
	if m == nil || b.SnapshotID <= 0 {
		return
	}
	key := tableKey{db, tableName}
	m.mu.Lock()
	defer m.mu.Unlock()
	if b.SnapshotID < m.backlogAt[key] {
		return
	}
	m.backlogAt[key] = b.SnapshotID
	m.maxSortedRuns.WithLabelValues(db, tableName).Set(float64(b.MaxSortedRuns))
	m.backlogBuckets.WithLabelValues(db, tableName).Set(float64(b.BucketsAtTrigger))
	m.backlogSnapshot.WithLabelValues(db, tableName).Set(float64(b.SnapshotID))
}

// recordPlanBacklog counts the backlog of a plan's snapshot when the plan
// lists all of its files and the gauges do not show that snapshot or a
// newer one yet, so that a table's files are counted once per snapshot
// rather than once per scan.
func (m *Metrics) recordPlanBacklog(db, tableName string, plan *table.Plan) {
	if plan.Snapshot == nil {
		return
	}
	m.mu.Lock()
	counted := plan.Snapshot.ID <= m.backlogAt[tableKey{db, tableName}]
	m.mu.Unlock()
	if counted {
		return
	}
	// A table whose options do not parse fails its reads on its own; the
	// gauges just keep what they had.
	if b, ok, err := table.PlanBacklog(plan); ok && err == nil {
		m.CompactionBacklog(db, tableName, b)
	}
}

// SnapshotsExpired counts what CALL sys.expire_snapshots deleted: the
// snapshots, and the files by kind.
func (m *Metrics) SnapshotsExpired(db, tableName string, res maintenance.ExpireResult) {
	if m == nil {
		return
	}
	m.snapshotsExpired.WithLabelValues(db, tableName).Add(float64(res.SnapshotsExpired()))
	m.FilesDeleted(db, tableName, "expire_snapshots", res.Deleted)
}

// FilesDeleted counts the files a procedure deleted, by kind.
func (m *Metrics) FilesDeleted(db, tableName, procedure string, deleted map[maintenance.FileKind]int) {
	if m == nil {
		return
	}
	for kind, n := range deleted {
		m.countDeleted(db, tableName, procedure, kind.String(), n)
	}
}

// OrphanFilesDeleted counts the files CALL sys.remove_orphan_files deleted.
func (m *Metrics) OrphanFilesDeleted(db, tableName string, res maintenance.OrphanResult) {
	if m == nil {
		return
	}
	m.countDeleted(db, tableName, "remove_orphan_files", orphanKind, len(res.Deleted))
}

// countDeleted adds n to a files-deleted series; kinds of which nothing
// was deleted get no series.
func (m *Metrics) countDeleted(db, tableName, procedure, kind string, n int) {
	if n > 0 {
		m.filesDeleted.WithLabelValues(db, tableName, procedure, kind).Add(float64(n))
	}
}

// Reconciled counts the rows a CALL sys.reconcile compared and the keys
// it found differing.
func (m *Metrics) Reconciled(db, tableName string, rowsCompared, mismatches int64) {
	if m == nil {
		return
	}
	m.reconciledRows.WithLabelValues(db, tableName).Add(float64(rowsCompared))
	m.reconcileMismatch.WithLabelValues(db, tableName).Add(float64(mismatches))
}

// PartitionsExpired counts the partitions CALL sys.expire_partitions
// dropped and the OVERWRITE snapshot that dropped them.
func (m *Metrics) PartitionsExpired(db, tableName string, res maintenance.PartitionExpireResult) {
	if m == nil {
		return
	}
	m.partitionsExpired.WithLabelValues(db, tableName).Add(float64(len(res.Partitions)))
	m.published(db, tableName, res.SnapshotID)
}
