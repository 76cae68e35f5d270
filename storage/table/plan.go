package table

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// Plan is everything a read of one snapshot touches: the snapshot, the
// schema rows are returned in, the kept data files grouped by partition and
// bucket, and the splits they are read in.
type Plan struct {
	// Snapshot is the pinned snapshot, nil for a table with no snapshot.
	Snapshot *spec.Snapshot
	// Schema is the schema rows are read in: the latest schema for a read
	// of the latest snapshot, the snapshot's own schema for time travel
	// (as Java's AbstractFileStoreTable.tryTimeTravel does).
	Schema  *spec.TableSchema
	Buckets []BucketPlan
	// Index is the live index files the plan read, the snapshot's with
	// the staged changes applied: where its deletion vectors come from.
	Index []spec.IndexManifestEntry
	// Splits are the units of parallel reading, in plan order.
	Splits []Split
	// Scan is the planner's view: the filter, what was pruned and why
	// (Scan.Explain), and metadata-only answers (Scan.CountRows,
	// Scan.Extremes).
	Scan *scan.Plan
	// Fallback is set when the schema names a fallback branch.
	Fallback *FallbackRead
	// tag is the tag the snapshot was pinned through, "" for a pin by
	// snapshot: what a read that finds files gone names (vanished.go).
	tag string
}

// Split is a group of files of one bucket read together.
type Split struct {
	// Bucket indexes Plan.Buckets.
	Bucket int
	Files  []spec.DataFileMeta
	// RawConvertible splits are read file by file, without merging.
	RawConvertible bool
	// Unmerged splits return every record of each file, in file order,
	// with its own row kind: the changes of an incremental read (Java's
	// streaming splits, read by MergeFileSplitRead.createNoMergeReader).
	Unmerged bool
}

// BucketPlan is the kept files of one bucket of one partition.
type BucketPlan struct {
	// Partition is the serialized partition BinaryRow.
	Partition []byte
	Bucket    int32
	// TotalBuckets is the bucket count the bucket's files were written
	// with; 0 or less when the bucket is not one of a fixed count.
	TotalBuckets int32
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

// PlanRead pins the snapshot tt selects and lists what reading it needs,
// without a filter.
func (t *Table) PlanRead(ctx context.Context, tt snapshot.TimeTravel) (*Plan, error) {
	return t.PlanScan(ctx, tt, nil)
}

// PlanScan pins the snapshot tt selects and plans a read of the rows
// filter can select (nil for all): only the manifests, partitions, buckets
// and files that can match are kept, and Plan.Scan.Explain says why. The
// filter is over the columns of the read schema, matched by field id.
func (t *Table) PlanScan(ctx context.Context, tt snapshot.TimeTravel, filter predicate.Predicate) (*Plan, error) {
	snap, err := t.snapshots.Resolve(ctx, tt)
	if err != nil {
		return nil, err
	}
	readSchema, err := t.readSchema(ctx, snap, tt)
	if err != nil {
		return nil, err
	}
	plan, err := t.planSnapshot(ctx, snap, readSchema, filter, Staged{}, false)
	if err != nil {
		return nil, t.vanishedFileError(ctx, snap, tt.Tag, err)
	}
	plan.tag = tt.Tag
	return plan, nil
}

// PlanPinned plans a read of snapshot id the way a read of the latest
// snapshot is planned: in the branch's latest schema, so that a column
// added after the snapshot reads as NULL instead of being missing, and with
// the fallback branch's latest snapshot. The SQL layer pins "the latest
// snapshot" once per statement or transaction and plans against that pin,
// which must not turn into a time-travel read. id 0 plans a table that had
// no snapshot. staged are a transaction's uncommitted changes, read on top
// of the snapshot so that the transaction sees its own writes.
func (t *Table) PlanPinned(ctx context.Context, id int64, filter predicate.Predicate, staged Staged) (*Plan, error) {
	return t.planPinned(ctx, id, filter, staged, false)
}

// PlanPinnedAllLevels is PlanPinned with every level of a primary-key
// table merged, level 0 included, where batch reads skip it (first-row
// and deletion-vector tables, scan.Input.AllLevels): each key as it will
// read once compacted. The SQL layer reads through it where a statement
// writes from what it reads (UPDATE, DELETE, an INSERT's duplicate
// lookups), so that rows another writer left on level 0 are not
// overwritten from the row below them.
func (t *Table) PlanPinnedAllLevels(ctx context.Context, id int64, filter predicate.Predicate, staged Staged) (*Plan, error) {
	return t.planPinned(ctx, id, filter, staged, true)
}

func (t *Table) planPinned(ctx context.Context, id int64, filter predicate.Predicate, staged Staged, allLevels bool) (*Plan, error) {
	var snap *spec.Snapshot
	if id != 0 {
		var err error
		if snap, err = t.snapshots.Snapshot(ctx, id); err != nil {
			return nil, err
		}
	}
	readSchema, err := t.schemas.Latest(ctx)
	if err != nil {
		return nil, err
	}
	plan, err := t.planSnapshot(ctx, snap, readSchema, filter, staged, allLevels)
	if err != nil {
		return nil, t.vanishedFileError(ctx, snap, "", err)
	}
	return plan, t.resolveFallback(ctx, plan, snapshot.TimeTravel{}, filter)
}

// PlanTimeTravel plans a read of the snapshot tt selects exactly as Read
// does, the fallback branch's part included, for callers that execute the
// plan themselves (ExecutePlan) after looking at it.
func (t *Table) PlanTimeTravel(ctx context.Context, tt snapshot.TimeTravel, filter predicate.Predicate) (*Plan, error) {
	plan, err := t.PlanScan(ctx, tt, filter)
	if err != nil {
		return nil, err
	}
	return plan, t.resolveFallback(ctx, plan, tt, filter)
}

func (t *Table) planSnapshot(ctx context.Context, snap *spec.Snapshot, readSchema *spec.TableSchema, filter predicate.Predicate, staged Staged, allLevels bool) (*Plan, error) {
	if err := checkSchemaSupported(readSchema); err != nil {
		return nil, err
	}
	in := scan.Input{Snapshot: snap, Schema: readSchema, Filter: filter, SchemaOf: t.schemaOf(ctx), Staged: staged.Files, AllLevels: allLevels}
	if snap != nil {
		var err error
		if in.Index, err = t.IndexFiles(ctx, snap); err != nil {
			return nil, err
		}
		if err := checkIndexSupported(in.Index); err != nil {
			return nil, err
		}
	}
	in.Index = staged.applyIndex(in.Index)
	sp, err := t.planner.Plan(ctx, in)
	if err == nil {
		err = t.applyFileIndexes(ctx, sp)
	}
	if err == nil {
		err = t.applyGlobalIndexes(ctx, sp, in.Index)
	}
	if err != nil {
		if snap != nil {
			err = fmt.Errorf("plan snapshot %d of %s: %w", snap.ID, t.dir, err)
		}
		return nil, err
	}
	plan, err := t.fromScan(ctx, sp)
	if err != nil {
		return nil, err
	}
	plan.Index = in.Index
	return plan, nil
}

func (t *Table) schemaOf(ctx context.Context) func(int64) (*spec.TableSchema, error) {
	return func(id int64) (*spec.TableSchema, error) { return t.schemas.Schema(ctx, id) }
}

func (t *Table) readSchema(ctx context.Context, snap *spec.Snapshot, tt snapshot.TimeTravel) (*spec.TableSchema, error) {
	if snap == nil || tt.IsLatest() {
		return t.schemas.Latest(ctx)
	}
	return t.schemas.Schema(ctx, snap.SchemaID)
}

// fromScan lays a scan plan out by bucket directory, with the paths of
// deletion vectors resolved.
func (t *Table) fromScan(ctx context.Context, sp *scan.Plan) (*Plan, error) {
	plan := &Plan{Snapshot: sp.Snapshot, Schema: sp.Schema, Scan: sp}
	inDataDir, _ := sp.Schema.CoreOptions().Get(optionIndexFileInDataDir)
	index := map[bucketID]int{}
	for _, s := range sp.Splits {
		id := bucketID{string(s.Partition), s.Bucket}
		i, ok := index[id]
		if !ok {
			dir, err := t.bucketDir(ctx, s.Files[0].SchemaID, s.Partition, s.Bucket)
			if err != nil {
				return nil, err
			}
			i = len(plan.Buckets)
			index[id] = i
			plan.Buckets = append(plan.Buckets, BucketPlan{Partition: s.Partition, Bucket: s.Bucket, TotalBuckets: s.TotalBuckets, Dir: dir})
		}
		b := &plan.Buckets[i]
		b.Files = append(b.Files, s.Files...)
		for name, df := range s.DeletionFiles {
			if b.DeletionFiles == nil {
				b.DeletionFiles = map[string]DeletionFile{}
			}
			b.DeletionFiles[name] = DeletionFile{Path: t.indexFilePath(df, b.Dir, strings.EqualFold(inDataDir, "true")), Meta: df.Meta}
		}
		plan.Splits = append(plan.Splits, Split{Bucket: i, Files: s.Files, RawConvertible: s.RawConvertible})
	}
	return plan, nil
}

type bucketID struct {
	partition string
	bucket    int32
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

// IndexFileDir is the directory a bucket's new index files go to.
func (t *Table) IndexFileDir(s *spec.TableSchema, bucketDir string) string {
	if inDataDir, _ := s.CoreOptions().Get(optionIndexFileInDataDir); strings.EqualFold(inDataDir, "true") {
		return bucketDir
	}
	return path.Join(t.dir, "index")
}

// BucketIndexFilePath is where index file f of the bucket in bucketDir is.
func (t *Table) BucketIndexFilePath(s *spec.TableSchema, bucketDir string, f *spec.IndexFileMeta) string {
	if f.ExternalPath != nil {
		return localPath(*f.ExternalPath)
	}
	return path.Join(t.IndexFileDir(s, bucketDir), f.FileName)
}

func (t *Table) indexFilePath(f scan.DeletionFile, bucketDir string, inDataDir bool) string {
	switch {
	case f.ExternalPath != nil:
		return localPath(*f.ExternalPath)
	case inDataDir:
		return path.Join(bucketDir, f.IndexFile)
	}
	return path.Join(t.dir, "index", f.IndexFile)
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
	if strings.HasPrefix(strings.ToLower(uri), "file:") {
		return "/" + strings.TrimLeft(uri[len("file:"):], "/")
	}
	return uri
}
