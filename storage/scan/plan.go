package scan

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// Plan is what a read of one snapshot touches, and why.
type Plan struct {
	// Snapshot is the pinned snapshot, nil for a table without one.
	Snapshot *spec.Snapshot
	// Schema is the read schema: rows, the filter and statistics are laid
	// out in its fields.
	Schema *spec.TableSchema
	Filter *Filter
	Splits []Split
	// PrimaryKey is set for primary-key tables, whose non-raw splits merge.
	PrimaryKey bool
	Explain    Explanation

	stats    *statsMapper
	schemaOf func(id int64) (*spec.TableSchema, error)
}

// LimitSplits keeps only the splits needed to return limit rows when no
// row is filtered: once the raw-convertible splits without deletion
// vectors seen so far hold limit rows, later splits are dropped, as Java's
// limit pushdown does. It returns how many splits it dropped.
func (p *Plan) LimitSplits(limit int64) int {
	if limit <= 0 || !IsTrue(p.Filter.Residual) {
		return 0
	}
	var rows int64
	for i := range p.Splits {
		s := &p.Splits[i]
		if !s.RawConvertible || len(s.DeletionFiles) > 0 {
			continue
		}
		for j := range s.Files {
			rows += s.Files[j].RowCount
		}
		if rows >= limit {
			dropped := len(p.Splits) - i - 1
			p.Splits = p.Splits[:i+1]
			p.Explain.LimitDroppedSplits = dropped
			p.Explain.count(p.Splits)
			return dropped
		}
	}
	return 0
}

// Input is one planning problem with everything already loaded: planning
// itself does no I/O, so it is tested as data.
type Input struct {
	Snapshot *spec.Snapshot
	Schema   *spec.TableSchema
	// SchemaOf returns the schema files were written with.
	SchemaOf func(id int64) (*spec.TableSchema, error)
	Filter   predicate.Predicate
	// Index is the snapshot's live index entries (deletion vectors).
	Index []spec.IndexManifestEntry
	// Staged are changes not committed yet, applied after the snapshot's
	// own entries: a transaction reading its own writes.
	Staged []spec.ManifestEntry
	// AllLevels plans every level of a primary-key table, merged, where
	// batch reads skip level 0 (first-row and deletion-vector tables):
	// each key as it will read once compacted.
	AllLevels bool
}

// Planning runs the pure steps of a plan. Use Prepare, then ReadManifests
// on the manifests it keeps, then Finish.
type Planning struct {
	in     Input
	st     settings
	pruner *pruner
	plan   *Plan
}

// Prepare compiles the filter against the read schema.
func Prepare(in Input) (*Planning, error) {
	st, err := readSettings(in.Schema)
	if err != nil {
		return nil, err
	}
	if in.AllLevels {
		// Level 0 may repeat keys of the levels above it, so splits
		// holding it merge.
		st.skipLevel0, st.split.uniqueKeys = false, false
	}
	f, err := CompileFilter(in.Schema, in.Filter)
	if err != nil {
		return nil, err
	}
	p := &pruner{
		st: st, filter: f, filtered: !IsTrue(f.Full),
		mapper:     newStatsMapper(in.Schema, f.partitionColumns, in.SchemaOf),
		buckets:    newBucketSelector(in.Schema, f.Full),
		partitions: map[string]partitionValue{},
	}
	plan := &Plan{Snapshot: in.Snapshot, Schema: in.Schema, Filter: f, PrimaryKey: st.primaryKey,
		stats: p.mapper, schemaOf: in.SchemaOf}
	plan.Explain.Residual = f.Residual
	if in.Snapshot != nil {
		plan.Explain.SnapshotID = in.Snapshot.ID
	}
	plan.Explain.SchemaID = in.Schema.ID
	return &Planning{in: in, st: st, pruner: p, plan: plan}, nil
}

// PruneManifests returns the manifests, of a snapshot's data manifests in
// commit order, that can hold a match; only those need to be read.
func (pl *Planning) PruneManifests(metas []spec.ManifestFileMeta) []spec.ManifestFileMeta {
	var kept []spec.ManifestFileMeta
	for i := range metas {
		m := &metas[i]
		r := pl.pruner.manifestReason(m)
		pl.plan.Explain.Manifests = append(pl.plan.Explain.Manifests, ManifestDecision{
			FileName: m.FileName, Files: m.NumAddedFiles - m.NumDeletedFiles, Reason: r})
		if r == Kept {
			kept = append(kept, *m)
		}
	}
	return kept
}

// Finish merges the entries of the kept manifests (in commit order) into
// the live files, decides each file, and cuts the kept ones into splits.
func (pl *Planning) Finish(entries [][]spec.ManifestEntry) (*Plan, error) {
	merger := manifest.NewMerger()
	for _, es := range entries {
		if err := merger.Add(es); err != nil {
			return nil, err
		}
	}
	return pl.FinishLive(merger.Live())
}

// FinishLive is Finish given the live files merged already; it does not
// modify them.
func (pl *Planning) FinishLive(live []spec.ManifestEntry) (*Plan, error) {
	kept := pl.decide(live)
	if err := pl.buildSplits(kept, deletionFiles(pl.in.Index)); err != nil {
		return nil, err
	}
	pl.plan.Explain.count(pl.plan.Splits)
	return pl.plan, nil
}

// bucketKey identifies one bucket of one partition.
type bucketKey struct {
	partition string
	bucket    int32
}

// bucketFiles are the kept live entries of one bucket.
type bucketFiles struct {
	key     bucketKey
	entries []*spec.ManifestEntry
}

// decide records a decision for every live file and returns the kept ones
// grouped by bucket, in (partition bytes, bucket) order.
func (pl *Planning) decide(live []spec.ManifestEntry) []bucketFiles {
	decisions := make([]FileDecision, len(live))
	index := map[bucketKey]int{}
	var groups []bucketFiles
	var positions [][]int
	for i := range live {
		e := &live[i]
		decisions[i] = pl.decision(e, pl.pruner.entryReason(e))
		if decisions[i].Reason != Kept {
			continue
		}
		k := bucketKey{string(e.Partition), e.Bucket}
		g, ok := index[k]
		if !ok {
			g = len(groups)
			index[k] = g
			groups = append(groups, bucketFiles{key: k})
			positions = append(positions, nil)
		}
		groups[g].entries = append(groups[g].entries, e)
		positions[g] = append(positions[g], i)
	}
	for g := range groups {
		groups[g].entries = pl.applyBucketFilter(groups[g].entries, positions[g], decisions)
	}
	pl.plan.Explain.Files = decisions
	groups = slices.DeleteFunc(groups, func(b bucketFiles) bool { return len(b.entries) == 0 })
	slices.SortFunc(groups, func(a, b bucketFiles) int {
		if c := cmp.Compare(a.key.partition, b.key.partition); c != 0 {
			return c
		}
		return cmp.Compare(a.key.bucket, b.key.bucket)
	})
	return groups
}

func (pl *Planning) applyBucketFilter(entries []*spec.ManifestEntry, at []int, decisions []FileDecision) []*spec.ManifestEntry {
	files := make([]*spec.DataFileMeta, len(entries))
	for i, e := range entries {
		files[i] = &e.File
	}
	var kept []*spec.ManifestEntry
	for i, r := range pl.pruner.bucketReasons(files) {
		decisions[at[i]].Reason = r
		if r == Kept {
			kept = append(kept, entries[i])
		}
	}
	return kept
}

func (pl *Planning) decision(e *spec.ManifestEntry, r Reason) FileDecision {
	return FileDecision{
		Partition: pl.pruner.partition(e.Partition).text, PartitionKey: string(e.Partition),
		Bucket: e.Bucket, FileName: e.File.FileName, Level: e.File.Level,
		RowCount: e.File.RowCount, FileSize: e.File.FileSize, Reason: r,
	}
}

// deletionFiles indexes the deletion vectors of a snapshot by bucket and
// data file name.
func deletionFiles(index []spec.IndexManifestEntry) map[bucketKey]map[string]DeletionFile {
	out := map[bucketKey]map[string]DeletionFile{}
	for _, e := range index {
		if e.IndexFile.IndexType != IndexTypeDeletionVectors {
			continue
		}
		k := bucketKey{string(e.Partition), e.Bucket}
		if out[k] == nil {
			out[k] = map[string]DeletionFile{}
		}
		for _, r := range e.IndexFile.DeletionVectorRanges {
			out[k][r.DataFileName] = DeletionFile{IndexFile: e.IndexFile.FileName, ExternalPath: e.IndexFile.ExternalPath, Meta: r}
		}
	}
	return out
}

// IndexTypeDeletionVectors is the index type of deletion-vector files.
const IndexTypeDeletionVectors = "DELETION_VECTORS"

func (pl *Planning) buildSplits(groups []bucketFiles, dvs map[bucketKey]map[string]DeletionFile) error {
	for _, g := range groups {
		files := make([]spec.DataFileMeta, len(g.entries))
		for i, e := range g.entries {
			files[i] = e.File
		}
		packed, err := pl.group(files)
		if err != nil {
			return err
		}
		e := g.entries[0]
		for _, p := range packed {
			pl.plan.Splits = append(pl.plan.Splits, Split{
				Partition: e.Partition, Bucket: e.Bucket, TotalBuckets: e.TotalBuckets,
				Files: p.files, RawConvertible: p.raw, DeletionFiles: pick(dvs[g.key], p.files),
			})
		}
	}
	return nil
}

func (pl *Planning) group(files []spec.DataFileMeta) ([]group, error) {
	if pl.st.dataEvolution {
		return splitDataEvolution(files), nil
	}
	if !pl.st.primaryKey {
		return splitAppend(files, pl.st.split), nil
	}
	ranges, err := KeyRanges(pl.in.Schema, pl.in.SchemaOf, files)
	if err != nil {
		return nil, err
	}
	return splitPrimaryKey(ranges, KeyComparator(pl.in.Schema), pl.st.split), nil
}

func pick(dvs map[string]DeletionFile, files []spec.DataFileMeta) map[string]DeletionFile {
	var out map[string]DeletionFile
	for i := range files {
		if df, ok := dvs[files[i].FileName]; ok {
			if out == nil {
				out = map[string]DeletionFile{}
			}
			out[files[i].FileName] = df
		}
	}
	return out
}

// KeyComparator orders trimmed primary keys in the read schema's types.
func KeyComparator(s *spec.TableSchema) lsm.RowComparator {
	types := typesOf(keyFields(s))
	return func(a, b []any) int { return spec.CompareRows(types, a, b) }
}

// KeyRanges decodes each file's min and max key into the read schema's key
// types, which IntervalPartition orders files by.
func KeyRanges(read *spec.TableSchema, schemaOf func(int64) (*spec.TableSchema, error), files []spec.DataFileMeta) ([]lsm.FileMeta[*spec.DataFileMeta], error) {
	out := make([]lsm.FileMeta[*spec.DataFileMeta], len(files))
	for i := range files {
		f := &files[i]
		fileSchema, err := schemaOf(f.SchemaID)
		if err != nil {
			return nil, err
		}
		minKey, maxKey, err := decodeKeyRange(fileSchema, read, f)
		if err != nil {
			return nil, fmt.Errorf("data file %s: %w", f.FileName, err)
		}
		out[i] = lsm.FileMeta[*spec.DataFileMeta]{
			FileName: f.FileName, Level: int(f.Level), MinKey: minKey, MaxKey: maxKey,
			MinSeq: f.MinSequenceNumber, MaxSeq: f.MaxSequenceNumber, Payload: f,
		}
	}
	return out, nil
}

func decodeKeyRange(fileSchema, read *spec.TableSchema, f *spec.DataFileMeta) (minKey, maxKey []any, err error) {
	fileKeys := keyFields(fileSchema)
	mapping, err := schema.NewRowMapping(fileKeys, keyFields(read), schema.Options{})
	if err != nil {
		return nil, nil, err
	}
	if minKey, err = decodeKey(fileKeys, mapping, f.MinKey); err != nil {
		return nil, nil, err
	}
	maxKey, err = decodeKey(fileKeys, mapping, f.MaxKey)
	return minKey, maxKey, err
}

func keyFields(s *spec.TableSchema) []spec.DataField { return fieldsNamed(s, s.TrimmedPrimaryKeys()) }

func typesOf(fields []spec.DataField) []spec.DataType {
	out := make([]spec.DataType, len(fields))
	for i, f := range fields {
		out[i] = f.Type
	}
	return out
}

func decodeKey(fields []spec.DataField, mapping *schema.RowMapping, serialized []byte) ([]any, error) {
	values, err := spec.DeserializeBinaryRow(typesOf(fields), serialized)
	if err != nil {
		return nil, err
	}
	return mapping.Apply(values)
}
