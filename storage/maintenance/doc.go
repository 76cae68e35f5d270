// Package maintenance keeps a Paimon table's history bounded and its
// storage clean: snapshot expiry, tags, rollback, orphan file removal,
// partition expiry, and the watermark gate readers reconcile on. It is the
// storage side of the sys.expire_snapshots, sys.create_tag,
// sys.delete_tag, sys.rollback_to, sys.remove_orphan_files,
// sys.expire_partitions and sys.wait_watermark procedures, and mirrors
// Java's ExpireSnapshotsImpl, SnapshotDeletion, TagManager, TagTimeExpire,
// RollbackHelper, LocalOrphanFilesClean and PartitionExpire.
//
// # What is never deleted
//
// Every deleting operation computes the files that must survive from
// everything that still needs them, read in full: every snapshot it does
// not delete, every tag, every other branch. Data files are protected
// through live sets (a file's live interval is contiguous, so the live set
// of the first snapshot of a run plus what later deltas add covers the
// run). A snapshot, tag or manifest that cannot be read stops the
// operation before it deletes anything more: Java skips what it cannot
// read, and apache/paimon#6479 and #7710 show it deleting live data as a
// result. Candidates, on the other hand, may be read leniently: a
// manifest an interrupted run already deleted, or a damaged one of a
// snapshot that is going anyway, only means fewer candidates (and files
// left for orphan removal). testdata/expire_tags is the matrix of these
// cases, built from Paimon's bugs.
//
// The decisions are pure functions tested as data: expireEnd and
// expireBegin (which snapshots expire), planDeletion (which candidates
// nothing protects), orphans (which listed files are unused and old
// enough), partitionSelection and partitionTimeExtractor (which partitions
// expire), tagAge (which tags expire).
//
// # Crashes and concurrency
//
// Deletions run in an order that leaves every retained snapshot and tag
// readable at every step: data files first, then the metadata that names
// them, then snapshot files oldest first, then the hints. A re-run
// finishes an interrupted run's work; deletes of files that are already
// gone are not errors. Two expiries, an expiry and a writer, an expiry and
// CreateTag, or orphan removal and anything else may run at once; when
// one sees another change what it protects, it stops with
// lakeerr.ErrRetryableConflict, having deleted nothing it should not, and
// a later run succeeds. RollbackTo is, as in Java, not safe against
// writers publishing at the same time (it detects most of them). Orphan
// removal keeps the files lakesql writers have not committed yet by their
// write leases (see package lease), and those of other writers by its age
// threshold.
//
// # Files written besides Java's
//
// Expiry records snapshot/.expiring-<end> while it runs (an intent
// CreateTag honours; Java's listing ignores it) and refreshes commit-user
// receipts (see package commit) before deleting snapshots; RollbackTo
// resets receipts that name rolled-back snapshots. Orphan removal reads
// the write leases in _lakesql/leases and deletes the stale ones.
//
// Reference: Apache Paimon paimon-core org.apache.paimon.table,
// org.apache.paimon.operation, org.apache.paimon.utils,
// org.apache.paimon.tag and org.apache.paimon.partition, read at commit
// 5dacde516bf6 (2026-08).
package maintenance
