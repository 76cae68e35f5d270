package table

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// postponeBucket is the bucket of files written by postpone-bucket tables
// (bucket = -2); batch reads do not see them until compaction assigns real
// buckets (AbstractBatchTableScan onlyReadRealBuckets).
const postponeBucket = -2

// Plan is everything a read of one snapshot touches: the snapshot, the
// schema rows are returned in, and the live data files grouped by partition
// and bucket.
type Plan struct {
	// Snapshot is the pinned snapshot, nil for a table with no snapshot.
	Snapshot *spec.Snapshot
	// Schema is the schema rows are read in: the latest schema for a read
	// of the latest snapshot, the snapshot's own schema for time travel
	// (as Java's AbstractFileStoreTable.tryTimeTravel does).
	Schema  *spec.TableSchema
	Buckets []BucketPlan
	// Fallback is set when the schema names a fallback branch.
	Fallback *FallbackRead
}

// BucketPlan is the live files of one bucket of one partition.
type BucketPlan struct {
	// Partition is the serialized partition BinaryRow.
	Partition []byte
	Bucket    int32
	// Dir is the bucket directory, where files without an external path are.
	Dir   string
	Files []spec.DataFileMeta
	// DeletionFiles locates the deletion vector of each data file that has
	// one, by data file name.
	DeletionFiles map[string]DeletionFile
}

// DeletionFile is where a data file's deletion vector is stored.
// Mirrors org.apache.paimon.table.source.DeletionFile.
type DeletionFile struct {
	Path string
	Meta spec.DeletionVectorMeta
}

// PlanRead pins the snapshot tt selects and lists what reading it needs.
func (t *Table) PlanRead(ctx context.Context, tt snapshot.TimeTravel) (*Plan, error) {
	snap, err := t.snapshots.Resolve(ctx, tt)
	if err != nil {
		return nil, err
	}
	readSchema, err := t.readSchema(ctx, snap, tt)
	if err != nil {
		return nil, err
	}
	if err := checkSchemaSupported(readSchema); err != nil {
		return nil, err
	}
	plan := &Plan{Snapshot: snap, Schema: readSchema}
	if snap == nil {
		return plan, nil
	}
	if plan.Buckets, err = t.planBuckets(ctx, snap, readSchema); err != nil {
		return nil, fmt.Errorf("plan snapshot %d of %s: %w", snap.ID, t.dir, err)
	}
	return plan, nil
}

func (t *Table) readSchema(ctx context.Context, snap *spec.Snapshot, tt snapshot.TimeTravel) (*spec.TableSchema, error) {
	if snap == nil || tt.IsLatest() {
		return t.schemas.Latest(ctx)
	}
	return t.schemas.Schema(ctx, snap.SchemaID)
}

func (t *Table) planBuckets(ctx context.Context, snap *spec.Snapshot, readSchema *spec.TableSchema) ([]BucketPlan, error) {
	entries, err := t.LiveFiles(ctx, snap)
	if err != nil {
		return nil, err
	}
	indexes, err := t.IndexFiles(ctx, snap)
	if err != nil {
		return nil, err
	}
	if err := checkIndexSupported(indexes); err != nil {
		return nil, err
	}
	skipLevel0, err := batchScanSkipsLevel0(readSchema)
	if err != nil {
		return nil, err
	}
	buckets, err := t.groupByBucket(ctx, entries, skipLevel0)
	if err != nil {
		return nil, err
	}
	inDataDir, _ := readSchema.CoreOptions().Get(optionIndexFileInDataDir)
	t.attachDeletionFiles(buckets, indexes, strings.EqualFold(inDataDir, "true"))
	return buckets, nil
}

// batchScanSkipsLevel0 mirrors CoreOptions.batchScanSkipLevel0: in
// deletion-vector tables (unless merge-on-read) and first-row tables,
// level-0 files are not visible to batch reads until compaction has
// resolved them against the older levels.
func batchScanSkipsLevel0(s *spec.TableSchema) (bool, error) {
	opts := s.CoreOptions()
	dv, err := opts.DeletionVectorsEnabled()
	if err != nil {
		return false, err
	}
	if dv {
		mor, _ := opts.Get("deletion-vectors.merge-on-read")
		return !strings.EqualFold(mor, "true"), nil
	}
	engine, err := opts.MergeEngine()
	return engine == spec.MergeEngineFirstRow, err
}

type bucketID struct {
	partition string
	bucket    int32
}

func (t *Table) groupByBucket(ctx context.Context, entries []spec.ManifestEntry, skipLevel0 bool) ([]BucketPlan, error) {
	index := map[bucketID]int{}
	var buckets []BucketPlan
	for _, e := range entries {
		if e.Bucket == postponeBucket || (skipLevel0 && e.File.Level == 0) {
			continue
		}
		id := bucketID{string(e.Partition), e.Bucket}
		i, ok := index[id]
		if !ok {
			dir, err := t.bucketDir(ctx, e.File.SchemaID, e.Partition, e.Bucket)
			if err != nil {
				return nil, err
			}
			i = len(buckets)
			index[id] = i
			buckets = append(buckets, BucketPlan{Partition: e.Partition, Bucket: e.Bucket, Dir: dir})
		}
		buckets[i].Files = append(buckets[i].Files, e.File)
	}
	sort.Slice(buckets, func(i, j int) bool {
		if c := bytes.Compare(buckets[i].Partition, buckets[j].Partition); c != 0 {
			return c < 0
		}
		return buckets[i].Bucket < buckets[j].Bucket
	})
	return buckets, nil
}

// bucketDir is <table>/<k1=v1>/.../bucket-<n>. The partition values are
// formatted with the schema the file was written with, whose partition
// options decided the directory name.
func (t *Table) bucketDir(ctx context.Context, schemaID int64, partition []byte, bucket int32) (string, error) {
	s, err := t.schemas.Schema(ctx, schemaID)
	if err != nil {
		return "", err
	}
	rel, err := partitionPath(s, partition)
	if err != nil {
		return "", err
	}
	return path.Join(t.dir, rel, fmt.Sprintf("bucket-%d", bucket)), nil
}

// optionIndexFileInDataDir places index files in their bucket directory
// instead of index/ (CoreOptions index-file-in-data-file-dir).
const optionIndexFileInDataDir = "index-file-in-data-file-dir"

// attachDeletionFiles indexes the deletion vectors of each bucket by data
// file name.
func (t *Table) attachDeletionFiles(buckets []BucketPlan, indexes []spec.IndexManifestEntry, inDataDir bool) {
	byBucket := map[bucketID]*BucketPlan{}
	for i := range buckets {
		byBucket[bucketID{string(buckets[i].Partition), buckets[i].Bucket}] = &buckets[i]
	}
	for _, e := range indexes {
		b := byBucket[bucketID{string(e.Partition), e.Bucket}]
		if e.IndexFile.IndexType != indexTypeDeletionVectors || b == nil {
			continue
		}
		if b.DeletionFiles == nil {
			b.DeletionFiles = map[string]DeletionFile{}
		}
		p := t.indexFilePath(e.IndexFile, b.Dir, inDataDir)
		for _, r := range e.IndexFile.DeletionVectorRanges {
			b.DeletionFiles[r.DataFileName] = DeletionFile{Path: p, Meta: r}
		}
	}
}

func (t *Table) indexFilePath(f spec.IndexFileMeta, bucketDir string, inDataDir bool) string {
	switch {
	case f.ExternalPath != nil:
		return localPath(*f.ExternalPath)
	case inDataDir:
		return path.Join(bucketDir, f.FileName)
	}
	return path.Join(t.dir, "index", f.FileName)
}

// DataFilePath is where a data file of the bucket lives.
func (b *BucketPlan) DataFilePath(f *spec.DataFileMeta) string {
	if f.ExternalPath != nil {
		return localPath(*f.ExternalPath)
	}
	return path.Join(b.Dir, f.FileName)
}

// localPath turns a Hadoop-style "file:" URI, as Java records external
// paths, into a local path; other strings are returned unchanged.
func localPath(uri string) string {
	lower := strings.ToLower(uri)
	if strings.HasPrefix(lower, "file:") {
		rest := uri[len("file:"):]
		if strings.HasPrefix(rest, "//") {
			rest = rest[2:]
		}
		return "/" + strings.TrimLeft(rest, "/")
	}
	return uri
}
