package write

import (
	"context"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// restorer answers, for a new bucket writer, what the latest snapshot holds
// in its bucket: Java's FileSystemWriteRestore. The live files of a
// snapshot are read once and indexed; a later writer re-reads them only
// when a newer snapshot has been published since.
type restorer struct {
	table      *table.Table
	snapshotID int64 // of the index; 0 before the first read or for an empty table
	read       bool
	partitions map[string]*partitionFiles
	// keepFiles keeps each bucket's live files and deletion-vector index
	// files, which inline compaction starts from.
	keepFiles bool
}

// partitionFiles summarizes the live files of one partition.
type partitionFiles struct {
	// totalBuckets is the _TOTAL_BUCKETS of the first live file; mixed is
	// set when files disagree (Java: "this should be a bug").
	totalBuckets int32
	mixed        bool
	maxSeq       map[int32]int64 // per bucket
	// files are the live files per bucket, when the restorer keeps them,
	// and vectors the live deletion-vector index files.
	files   map[int32][]spec.DataFileMeta
	vectors map[int32][]spec.IndexFileMeta
}

// nextSequence returns the first sequence number of a new writer of
// (partition, bucket): one above the bucket's largest, or 0. It fails with
// ErrBucketCountChanged unless every live file of the partition was
// written with the table's bucket count. Java checks only the bucket being
// written, which misses a rescaled table while that bucket has no files;
// checking the whole partition refuses the first write of the new layout.
func (r *restorer) nextSequence(ctx context.Context, ts *tableSettings, partition []byte, bucket int) (int64, error) {
	if err := r.refresh(ctx); err != nil {
		return 0, err
	}
	files, ok := r.partitions[string(partition)]
	if !ok {
		return 0, nil
	}
	expected := ts.totalBuckets()
	if files.mixed || files.totalBuckets != expected {
		return 0, bucketCountError(describePartition(ts, partition), expected, files.totalBuckets)
	}
	maxSeq, ok := files.maxSeq[int32(bucket)]
	if !ok {
		return 0, nil
	}
	return maxSeq + 1, nil
}

// liveFiles returns the live files of (partition, bucket) in the snapshot
// the last nextSequence call restored from. The restorer must keep files.
func (r *restorer) liveFiles(partition []byte, bucket int) []spec.DataFileMeta {
	p, ok := r.partitions[string(partition)]
	if !ok {
		return nil
	}
	return slices.Clone(p.files[int32(bucket)])
}

// liveVectors returns the live deletion-vector index files of (partition,
// bucket) in the same snapshot. The restorer must keep files.
func (r *restorer) liveVectors(partition []byte, bucket int) []spec.IndexFileMeta {
	p, ok := r.partitions[string(partition)]
	if !ok {
		return nil
	}
	return slices.Clone(p.vectors[int32(bucket)])
}

// refresh re-indexes the live files when the latest snapshot changed.
func (r *restorer) refresh(ctx context.Context) error {
	id, ok, err := r.table.Snapshots().LatestID(ctx)
	if err != nil {
		return fmt.Errorf("restore writer: %w", err)
	}
	if r.read && (id == r.snapshotID || !ok) {
		return nil
	}
	r.read, r.snapshotID, r.partitions = true, 0, map[string]*partitionFiles{}
	if !ok {
		return nil
	}
	snap, err := r.table.Snapshots().Snapshot(ctx, id)
	if err != nil {
		return fmt.Errorf("restore writer: %w", err)
	}
	entries, err := r.table.LiveFiles(ctx, snap)
	if err != nil {
		return fmt.Errorf("restore writer from snapshot %d: %w", id, err)
	}
	r.snapshotID = id
	for i := range entries {
		r.index(&entries[i])
	}
	if !r.keepFiles {
		return nil
	}
	return r.indexVectors(ctx, snap)
}

// indexVectors keeps the deletion-vector index files of the buckets that
// have live files.
func (r *restorer) indexVectors(ctx context.Context, snap *spec.Snapshot) error {
	index, err := r.table.IndexFiles(ctx, snap)
	if err != nil {
		return fmt.Errorf("restore writer from snapshot %d: %w", snap.ID, err)
	}
	for _, e := range index {
		p, ok := r.partitions[string(e.Partition)]
		if ok && e.Kind == spec.FileKindAdd && e.IndexFile.IndexType == spec.IndexTypeDeletionVectors {
			p.vectors[e.Bucket] = append(p.vectors[e.Bucket], e.IndexFile)
		}
	}
	return nil
}

func (r *restorer) index(e *spec.ManifestEntry) {
	p, ok := r.partitions[string(e.Partition)]
	if !ok {
		p = &partitionFiles{totalBuckets: e.TotalBuckets, maxSeq: map[int32]int64{}, files: map[int32][]spec.DataFileMeta{},
			vectors: map[int32][]spec.IndexFileMeta{}}
		r.partitions[string(e.Partition)] = p
	}
	p.mixed = p.mixed || p.totalBuckets != e.TotalBuckets
	if seq, seen := p.maxSeq[e.Bucket]; !seen || e.File.MaxSequenceNumber > seq {
		p.maxSeq[e.Bucket] = e.File.MaxSequenceNumber
	}
	if r.keepFiles {
		p.files[e.Bucket] = append(p.files[e.Bucket], e.File)
	}
}

// describePartition names a partition in errors as Java does ("partition
// dt=2024-01-01", or "table" when unpartitioned).
func describePartition(ts *tableSettings, partition []byte) string {
	if len(ts.partition.names) == 0 {
		return "table"
	}
	values, err := spec.DeserializeBinaryRow(ts.partition.types, partition)
	if err != nil {
		return "partition " + fmt.Sprintf("%x", partition)
	}
	p, err := spec.PartitionPath(ts.partition.names, ts.partition.types, values, ts.defaultPartition, ts.legacyPartition)
	if err != nil {
		return "partition " + fmt.Sprint(values)
	}
	return "partition " + p
}
