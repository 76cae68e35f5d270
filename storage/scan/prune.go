package scan

import (
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// Reason says why planning left a manifest or a data file out; Kept for
// what it kept.
type Reason uint8

const (
	Kept Reason = iota
	// PrunedByPartition: the partition value (or, for a manifest, the
	// range of partition values) cannot match the filter.
	PrunedByPartition
	// PrunedByBucket: the filter pins the bucket key to values that hash
	// to other buckets.
	PrunedByBucket
	// InvisibleLevel0: level-0 files of deletion-vector and first-row
	// tables, which batch reads see only after compaction.
	InvisibleLevel0
	// PostponeBucket: files of postpone-bucket tables not yet assigned a
	// bucket, which batch reads never see.
	PostponeBucket
	// PrunedByKeyStats: the file's key range cannot match.
	PrunedByKeyStats
	// PrunedByValueStats: the file's value statistics cannot match.
	PrunedByValueStats
	// PrunedByBucketValueStats: no file of an overlapping bucket can
	// match, so the whole bucket is skipped.
	PrunedByBucketValueStats
	// PrunedByFileIndex: the file's data-file index (bloom filter,
	// bitmap) proves no row of it matches.
	PrunedByFileIndex
	// PrunedByGlobalIndex: the table's global index (bitmap, btree) on a
	// column proves no row of the file's row ids matches.
	PrunedByGlobalIndex
)

var reasonNames = [...]string{
	Kept:                     "kept",
	PrunedByPartition:        "partition",
	PrunedByBucket:           "bucket",
	InvisibleLevel0:          "level-0 invisible",
	PostponeBucket:           "postpone bucket",
	PrunedByKeyStats:         "key stats",
	PrunedByValueStats:       "value stats",
	PrunedByBucketValueStats: "value stats (whole bucket)",
	PrunedByFileIndex:        "file index",
	PrunedByGlobalIndex:      "global index",
}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "unknown"
}

// postponeBucket is the bucket of files of postpone-bucket tables
// (bucket = -2) not yet assigned a real bucket (AbstractBatchTableScan
// onlyReadRealBuckets).
const postponeBucket = -2

// pruner decides, entry by entry, what a filter keeps. It is pure: every
// input is already decoded or loaded.
type pruner struct {
	st      settings
	filter  *Filter
	mapper  *statsMapper
	buckets *bucketSelector
	// filtered is false when the filter selects every row, which skips the
	// statistics tests.
	filtered   bool
	partitions map[string]partitionValue
}

type partitionValue struct {
	row  []any // the read row holding only the partition values
	text string
	ok   bool // the partition filter is TRUE for it
}

// manifestReason prunes a manifest by its bucket range (postpone-only
// manifests) and its partition statistics, as
// ManifestsReader.filterManifestFileMeta does.
func (p *pruner) manifestReason(m *spec.ManifestFileMeta) Reason {
	if m.MaxBucket != nil && *m.MaxBucket < 0 {
		return PostponeBucket
	}
	if p.filtered && p.filter.Partition.Test(p.mapper.partitionStats(m)) == predicate.Cannot {
		return PrunedByPartition
	}
	return Kept
}

// partition decodes a partition once per plan.
func (p *pruner) partition(serialized []byte) partitionValue {
	if v, ok := p.partitions[string(serialized)]; ok {
		return v
	}
	v := partitionValue{ok: true}
	values, err := spec.DeserializeBinaryRow(p.mapper.partTypes, serialized)
	if err == nil {
		v.row = p.mapper.partitionRow(values)
		v.text = partitionText(p.mapper.read, values)
		v.ok = p.filter.Partition.Eval(v.row) == predicate.True
	} else {
		v.text = "(undecodable partition)"
	}
	p.partitions[string(serialized)] = v
	return v
}

func partitionText(s *spec.TableSchema, values []any) string {
	if len(s.PartitionKeys) == 0 {
		return ""
	}
	types, err := s.PartitionTypes()
	if err != nil {
		return "(unprintable partition)"
	}
	// The readable form of values, not the legacy directory name (a DATE
	// as a day number).
	text, err := spec.PartitionPath(s.PartitionKeys, types, values, s.CoreOptions().PartitionDefaultName(), false)
	if err != nil {
		return "(unprintable partition)"
	}
	return text
}

// entryReason applies the per-entry steps in Java's order: partition,
// bucket, level, then key statistics and, where Java allows it per file,
// value statistics.
func (p *pruner) entryReason(e *spec.ManifestEntry) Reason {
	switch {
	case e.Bucket == postponeBucket:
		return PostponeBucket
	case !p.partition(e.Partition).ok:
		return PrunedByPartition
	case !p.buckets.selects(e.Bucket, e.TotalBuckets):
		return PrunedByBucket
	case p.st.skipLevel0 && e.File.Level == 0:
		return InvisibleLevel0
	case !p.filtered:
		return Kept
	case p.st.primaryKey && p.filter.Full.Test(p.mapper.keyStats(&e.File)) == predicate.Cannot:
		return PrunedByKeyStats
	case p.valuePerFile() && !p.valuesMightMatch(&e.File):
		return PrunedByValueStats
	}
	return Kept
}

// valuePerFile reports whether files are filtered by value statistics one
// by one: append tables, and primary-key reads that see no level 0 (keys
// are unique across the visible files). Not data-evolution tables: a
// file's statistics hold the values of its columns that newer files of
// the same rows may have replaced.
func (p *pruner) valuePerFile() bool {
	return !p.st.dataEvolution && (!p.st.primaryKey || p.st.skipLevel0)
}

func (p *pruner) valuesMightMatch(f *spec.DataFileMeta) bool {
	return p.filter.Full.Test(p.mapper.valueStats(f)) == predicate.Might
}

// bucketReasons is KeyValueFileStoreScan's whole-bucket filter for the
// kept files of one bucket of a primary-key table: a single sorted run is
// filtered file by file; overlapping runs are kept whole when any file
// might match, unless merged values cannot be bounded by file statistics.
func (p *pruner) bucketReasons(files []*spec.DataFileMeta) []Reason {
	reasons := make([]Reason, len(files))
	if !p.filtered || p.valuePerFile() || p.st.dataEvolution {
		return reasons
	}
	if noOverlapping(files) {
		for i, f := range files {
			if !p.valuesMightMatch(f) {
				reasons[i] = PrunedByValueStats
			}
		}
		return reasons
	}
	if !p.st.mergedValuesPredictable() {
		return reasons
	}
	for _, f := range files {
		if p.valuesMightMatch(f) {
			return reasons
		}
	}
	for i := range reasons {
		reasons[i] = PrunedByBucketValueStats
	}
	return reasons
}

// noOverlapping is Java's: one file, or every file on the same level
// above 0 (one sorted run).
func noOverlapping(files []*spec.DataFileMeta) bool {
	if len(files) <= 1 {
		return true
	}
	for _, f := range files {
		if f.Level == 0 || f.Level != files[0].Level {
			return false
		}
	}
	return true
}
