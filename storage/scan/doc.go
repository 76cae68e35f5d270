// Package scan plans the read of one snapshot of a Paimon table: which
// manifests, partitions, buckets and data files a filter can match, how the
// kept files are cut into splits, and what can be answered from metadata
// alone. It mirrors Java's ManifestsReader, AbstractFileStoreScan,
// KeyValueFileStoreScan, AppendOnlyFileStoreScan, BucketSelectConverter,
// MergeTreeSplitGenerator and AppendOnlySplitGenerator.
//
// # Pruning
//
// A plan is pinned to one snapshot: every step reads only the manifests of
// that snapshot's base and delta lists. The filter is a predicate.Predicate
// over the rows of the read schema and prunes in Java's order:
//
//  1. Manifests, by the partition statistics of the manifest list, before
//     the manifest is read.
//  2. Entries, by their decoded partition value. The conjuncts that read
//     only partition keys are decided exactly here and leave the residual.
//  3. Buckets, when every bucket-key field is pinned by = or IN: the
//     Cartesian product of the literals (at most 1000 rows) is hashed with
//     the bucket function for each entry's total bucket count. Fixed-bucket
//     tables with the default bucket function only.
//  4. Level-0 files of deletion-vector and first-row tables, which batch
//     reads do not see (and postpone-bucket files, which no batch read sees).
//  5. Files by key statistics (primary-key tables): always safe, a key
//     outside a file's range is not in the file.
//  6. Files by value statistics where Java allows it: append tables; for
//     primary-key tables, files of deletion-vector and first-row reads, and
//     files of buckets that hold one sorted run. A bucket with overlapping
//     runs is kept whole when any of its files might match and dropped
//     whole otherwise; partial-update and aggregation tables without
//     deletion vectors keep such buckets.
//
// Every pruned file keeps its reason, for EXPLAIN. Pruning is conservative:
// the residual filter (every conjunct not decided by the partition value)
// is always applied to the rows that are read, so pruning never decides
// alone whether a row is returned.
//
// # Splits
//
// Kept files are grouped by (partition, bucket). Append buckets are sorted
// by minimum sequence number and packed in order by
// max(file size, source.split.open-file-cost) up to
// source.split.target-size. Primary-key buckets whose files are all above
// level 0 without retractions, and either one level or keys unique across
// levels (deletion vectors, first-row), are packed the same way and read
// without merging; other buckets are cut into IntervalPartition sections,
// which are packed whole. A packed group of one file without retractions
// is read raw; anything else is merged.
package scan
