// Package write is the write path of Paimon tables: rows in, level-0
// Parquet data files and commit messages out. It mirrors Java Paimon's
// TableWriteImpl, AbstractFileStoreWrite, MergeTreeWriter and
// AppendOnlyWriter, so that files lakesql writes are read by Java exactly
// as Java's own.
//
// # Layers
//
// A TableWriter validates each row against the table's latest schema,
// computes its partition (a serialized BinaryRow) and bucket (the default
// bucket function over the bucket-key columns), and routes it to the
// writer of that (partition, bucket), created on first use. Creating a
// writer restores from the latest snapshot: sequence numbers continue above
// the bucket's largest, and a bucket count that differs from the one the
// live files were written with is refused ("bucket num changed").
//
//   - Primary-key tables (mergeTreeWriter): every record takes the bucket's
//     next sequence number and goes to an in-memory buffer. All writers of
//     a TableWriter share one memory budget (write-buffer-size); when it is
//     exceeded the largest buffer is sorted and spilled to a local file
//     (write-buffer-spillable) or flushed. A flush merges the buffer and
//     the spilled runs by key and sequence through the table's merge
//     engine, keeping retractions, and writes level-0 files in Paimon's
//     key-value layout, rolled at target-file-size.
//   - Append tables (appendWriter): rows go straight into rolling data files
//     holding exactly the table columns, each row taking one sequence
//     number. Open files count against the same memory budget.
//
// PrepareCommit flushes every writer and returns one commit.Message per
// (partition, bucket) with new files; a commit never re-reads rows.
//
// With Options.Compactor set, primary-key buckets compact inline (Java's
// MergeTreeWriter with its compact manager, run synchronously): after
// PrepareCommit's flush when the table's strategy picks a unit, and after
// any flush that brings a bucket to num-sorted-run.stop-trigger sorted
// runs. The change goes in the message's CompactBefore/CompactAfter, which
// the commit publishes as a COMPACT snapshot after the APPEND one. Tables
// with write-only = true never compact.
//
// # Differences from Java
//
//   - Stats follow Java's stats modes (metadata.stats-mode, default
//     truncate(16); fields.<name>.stats-mode; truncate(128) for the _KEY_
//     columns; metadata.stats-keep-first-n-columns; per level for
//     primary-key files; metadata.stats-dense-store), with three
//     differences, each still a valid bound: a maximum whose last kept
//     character is U+D7FF rounds up to U+E000 (Java writes '?', below the
//     value); TIMESTAMP(7..9) columns keep bounds (Java's Parquet extractor
//     finds none in INT96 columns); binary bounds are kept, truncated, as
//     Java 2.0 does (earlier Java leaves them null).
//   - Bucket-unaware append tables restore their sequence numbers too (Java
//     starts them at 0), so that files keep their write order.
//   - The bucket count is checked against every live file of the
//     partition, not only the bucket being written.
//   - Tables whose new files Java would read differently are refused
//     (lakeerr.ErrUnsupported): dynamic and postpone buckets,
//     partial-update and aggregation tables with deletion vectors,
//     changelog-producer input, row tracking, data evolution, columns
//     with default values. First-row and deduplicate deletion-vector
//     tables are written: their level-0 files wait for the writer's
//     compaction (see compact's lookup.go), which keeps the bucket's
//     deletion-vector index files (BucketCompaction.Vectors); first-row
//     tables take no -D or -U rows unless ignore-delete drops them, as
//     Java's merge function.
//
// Reference: Apache Paimon paimon-core org.apache.paimon.table.sink,
// org.apache.paimon.operation, org.apache.paimon.mergetree and
// org.apache.paimon.append, read at commit 5dacde516bf6 (2026-08).
package write
