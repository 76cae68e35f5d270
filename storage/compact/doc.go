// Package compact compacts Paimon tables: it plans which files of each
// bucket to merge, rewrites them through the table's merge engine, and
// commits the result as a COMPACT snapshot under its own commit user, so that
// readers see the same rows in fewer, larger, higher-level files.
//
// # Primary-key tables
//
// Each bucket is an LSM tree (package lsm). A minor compaction asks the
// universal picker (package pick) for one unit; a full compaction takes every
// run into the highest level. The unit is cut into sections of overlapping
// key ranges (IntervalPartition); overlapping sections are merge-read through
// the table's merge engine (the same lsm.Engine reads use) and written as new
// files on the output level, while a large file that overlaps nothing is
// upgraded: it moves to the output level by metadata alone, as the same
// physical file. Retractions (-U/-D) are dropped from the output only when no
// older data can lie below it: the output level is not 0 and is at least the
// highest level holding a file of the bucket. This is Java's dropDelete rule
// (MergeTreeCompactManager.triggerCompaction); a file holding retractions is
// rewritten rather than upgraded into the highest level.
//
// # Append tables
//
// Buckets of fixed-bucket append tables merge windows of small files in
// write order (BucketedAppendCompactManager); partitions of bucket-unaware
// tables pack small files by size (AppendCompactCoordinator). Rows are
// copied; nothing is merged. With deletion vectors, the rows a vector
// deletes are dropped and the bucket's vectors are rewritten without those
// of the files compacted; a full compaction rewrites every file of a
// bucket that has vectors.
//
// # Inline compaction
//
// InlineCompactor gives a write.TableWriter the minor compaction of the
// buckets it writes; the writer commits the change with its own files.
//
// # Concurrency
//
// Writers may append while a compaction runs: their new level-0 files are
// not in the compaction's inputs, so its commit does not conflict with
// them. A compaction whose inputs another commit removed meanwhile (another
// compaction, an overwrite) loses the conflict check of its COMPACT commit;
// it then deletes the files it wrote and plans again from the latest
// snapshot, a bounded number of times. A compaction never makes an append
// fail: the append only adds files, and the conflict check of a COMPACT
// commit is what loses. An overwrite of the same partitions whose base a
// compaction rewrote still lands: a compaction changes no rows, so the
// commit deletes the compaction's output instead of the files the
// overwrite read (JudgeOverwriteTarget in package commit); it fails with a
// retryable OverwriteTargetChanged only if an append or another overwrite
// touched those partitions too. A row-level change (DELETE or UPDATE
// rewriting files) names the files it rewrote, so it fails with a
// retryable DeletedFileNotLive when a compaction replaced them first, and
// is re-run by its statement. Whichever commits second loses: a
// compaction after the overwrite or row-level change loses as above.
//
// First-row and deletion-vector primary-key tables: levels above 0 must
// not repeat a live key, since batch reads of them skip level 0 and do
// not merge. Level-0 files are always rewritten; a first-row record whose
// key a level left in place holds is dropped, and with deletion vectors
// the kept record is marked deleted instead (lookup.go), as Java's lookup
// compaction does. Deletion-vector tables drop retractions at every level
// but 0, and a full compaction rewrites every file with a vector.
//
// # Not supported
//
// Primary-key tables with deletion vectors and a merge engine other than
// deduplicate, changelog-producer lookup or full-compaction (their
// compactions produce changelog files by lookup),
// record-level expiry, postpone buckets, row tracking and data evolution
// are refused with errors wrapping lakeerr.ErrUnsupported.
//
// Reference: Apache Paimon paimon-core org.apache.paimon.mergetree.compact
// (MergeTreeCompactManager, MergeTreeCompactTask, MergeTreeCompactRewriter)
// and org.apache.paimon.append, read at commit 5dacde516bf6 (2026-08).
package compact
