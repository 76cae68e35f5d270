package systables

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// The snapshot-scoped system tables: $files, $manifests, $partitions and
// $buckets describe the data files of one snapshot, at every LSM level
// (Java scans them with an accept-all level filter, so level-0 files that
// batch reads skip are listed too).

// filesFields mirrors FilesTable.TABLE_TYPE, including its camel-case
// deleteRowCount.
var filesFields = columns(
	column("partition", stringType(true)),
	column("bucket", intType(false)),
	column("file_path", stringType(false)),
	column("file_format", stringType(false)),
	column("schema_id", bigintType(false)),
	column("level", intType(false)),
	column("record_count", bigintType(false)),
	column("file_size_in_bytes", bigintType(false)),
	column("min_key", stringType(true)),
	column("max_key", stringType(true)),
	column("null_value_counts", stringType(false)),
	column("min_value_stats", stringType(false)),
	column("max_value_stats", stringType(false)),
	column("min_sequence_number", bigintType(true)),
	column("max_sequence_number", bigintType(true)),
	column("creation_time", timestampMillisType(true)),
	column("deleteRowCount", bigintType(true)),
	column("file_source", stringType(true)),
	column("first_row_id", bigintType(true)),
	column("write_cols", spec.DataType{Root: spec.Array, Nullable: true, Element: new(stringType(true))}),
)

// filesRows lists the live data files, ordered by partition and bucket,
// in commit order within a bucket.
func filesRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	if src.snapshot == nil {
		return nil, nil
	}
	live, err := src.t.LiveFiles(ctx, src.snapshot)
	if err != nil {
		return nil, err
	}
	live = realBucketsOnly(src, live)
	rows, err := describeRows(src, live, func(fd *fileDescriber, e *spec.ManifestEntry) ([]any, error) {
		return fd.fileRow(ctx, e)
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(rows, byPartitionAndBucket)
	return rows, nil
}

// describeRows renders one row per item, all with one fileDescriber so
// that a read looks each schema and cast up once.
func describeRows[T any](src *systemSource, items []T, row func(*fileDescriber, *T) ([]any, error)) ([][]any, error) {
	fd, err := newFileDescriber(src)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(items))
	for i := range items {
		if rows[i], err = row(fd, &items[i]); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// byPartitionAndBucket orders rows whose first columns are the rendered
// partition and the bucket.
func byPartitionAndBucket(a, b []any) int {
	return cmp.Or(strings.Compare(a[0].(string), b[0].(string)), cmp.Compare(a[1].(int32), b[1].(int32)))
}

func (fd *fileDescriber) fileRow(ctx context.Context, e *spec.ManifestEntry) ([]any, error) {
	f := &e.File
	fileSchema, err := fd.schemaOf(ctx, f.SchemaID)
	if err != nil {
		return nil, err
	}
	partition, err := fd.partitionRow(e.Partition)
	if err != nil {
		return nil, err
	}
	filePath, err := fd.filePath(fileSchema, e)
	if err != nil {
		return nil, err
	}
	minKey, err := fd.key(fileSchema, f.MinKey)
	if err != nil {
		return nil, err
	}
	maxKey, err := fd.key(fileSchema, f.MaxKey)
	if err != nil {
		return nil, err
	}
	stats, err := fd.valueStats(fileSchema, f)
	if err != nil {
		return nil, fmt.Errorf("value stats of %s: %w", f.FileName, err)
	}
	var source, writeCols any
	if f.FileSource != nil {
		source = f.FileSource.String()
	}
	if f.WriteCols != nil {
		cols := make([]any, len(f.WriteCols))
		for i, c := range f.WriteCols {
			cols[i] = c
		}
		writeCols = cols
	}
	return []any{
		partition, e.Bucket, filePath, formatIdentifier(f.FileName), f.SchemaID, f.Level, f.RowCount, f.FileSize,
		minKey, maxKey, stats.nullCounts, stats.mins, stats.maxs, f.MinSequenceNumber, f.MaxSequenceNumber,
		creationTime(f), optional(f.DeleteRowCount), source, optional(f.FirstRowID), writeCols,
	}, nil
}

// creationTime is the file's _CREATION_TIME, a wall clock Java shows as
// written; nil when an old writer left it out.
func creationTime(f *spec.DataFileMeta) any {
	if f.CreationTime == nil {
		return nil
	}
	return spec.TimestampFromTime(*f.CreationTime)
}

// compressionExtensions are the extensions HadoopCompressionType adds
// after the format's own.
var compressionExtensions = []string{"gz", "bz2", "deflate", "snappy", "lz4", "zst"}

// formatIdentifier is DataFilePathFactory.formatIdentifier: the file
// name's extension, looking past a compression extension.
func formatIdentifier(fileName string) string {
	base, ext, ok := cutLast(fileName, ".")
	if !ok {
		return ""
	}
	if slices.Contains(compressionExtensions, ext) {
		if _, format, ok := cutLast(base, "."); ok {
			return format
		}
	}
	return ext
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// fileDescriber renders data files for one system-table read. Java
// renders partitions and value statistics in the read schema (the
// latest, or the snapshot's under AS OF), and keys in each file's own.
type fileDescriber struct {
	src            *systemSource
	render         *valueRenderer
	partitionTypes []spec.DataType
	schemas        map[int64]*spec.TableSchema
}

func newFileDescriber(src *systemSource) (*fileDescriber, error) {
	types, err := src.schema.PartitionTypes()
	if err != nil {
		return nil, err
	}
	return &fileDescriber{
		src: src, render: newValueRenderer(), partitionTypes: types,
		schemas: map[int64]*spec.TableSchema{},
	}, nil
}

func (fd *fileDescriber) schemaOf(ctx context.Context, id int64) (*spec.TableSchema, error) {
	if s, ok := fd.schemas[id]; ok {
		return s, nil
	}
	s, err := fd.src.t.Schemas().Schema(ctx, id)
	if err != nil {
		return nil, err
	}
	fd.schemas[id] = s
	return s, nil
}

// partitionRow renders a serialized partition as Java casts the partition
// row to STRING: "{2026-04-16}", "{}" for an unpartitioned table.
func (fd *fileDescriber) partitionRow(partition []byte) (string, error) {
	values, err := spec.DeserializeBinaryRow(fd.partitionTypes, partition)
	if err != nil {
		return "", err
	}
	return fd.render.rowString(fd.partitionTypes, values)
}

// filePath is where the file lives: its external path as recorded, or
// <table>/<partition path>/bucket-<n>/<name>, the partition path formatted
// with the options of the schema the file was written with.
func (fd *fileDescriber) filePath(fileSchema *spec.TableSchema, e *spec.ManifestEntry) (string, error) {
	if e.File.ExternalPath != nil {
		return *e.File.ExternalPath, nil
	}
	rel, err := fileSchema.PartitionDir(e.Partition)
	if err != nil {
		return "", err
	}
	return path.Join(fd.src.t.Dir(), rel, fmt.Sprintf("bucket-%d", e.Bucket), e.File.FileName), nil
}

// key renders a file's min or max key as Java's Arrays.toString of the
// key row: "[1]", or NULL for the empty keys of append tables. Keys are
// the trimmed primary key of the file's schema.
func (fd *fileDescriber) key(fileSchema *spec.TableSchema, framed []byte) (any, error) {
	if len(framed) == 0 {
		return nil, nil
	}
	arity, _, err := spec.ParseSerializedBinaryRow(framed)
	if err != nil || arity == 0 {
		return nil, err
	}
	fields := fileSchema.Fields
	if names := fileSchema.TrimmedPrimaryKeys(); len(names) > 0 {
		fields = fieldsNamed(fileSchema, names)
	}
	types := make([]spec.DataType, len(fields))
	for i, f := range fields {
		types[i] = f.Type.WithNullable(true)
	}
	values, err := spec.DeserializeBinaryRow(types, framed)
	if err != nil {
		return nil, err
	}
	parts := make([]string, len(values))
	for i, v := range values {
		if parts[i], err = fd.render.internalString(types[i], v); err != nil {
			return nil, err
		}
	}
	return "[" + strings.Join(parts, ", ") + "]", nil
}

func fieldsNamed(s *spec.TableSchema, names []string) []spec.DataField {
	out := make([]spec.DataField, 0, len(names))
	for _, n := range names {
		if i := s.FieldIndex(n); i >= 0 {
			out = append(out, s.Fields[i])
		}
	}
	return out
}

// renderedStats are a file's value statistics as Java's FilesTable shows
// them: maps from column name to value, "{amount=1.00, dt=2026-04-16}".
type renderedStats struct{ nullCounts, mins, maxs string }

// valueStats renders a file's value statistics onto the read schema's
// columns, in name order (Java's TreeMap), as SimpleStatsEvolution maps
// them: by field id, cast to the column's current type; a column the file
// does not have counts all its rows as nulls. Stats whose arity does not
// match their schema are unknown, as stats evolution treats them.
func (fd *fileDescriber) valueStats(fileSchema *spec.TableSchema, f *spec.DataFileMeta) (renderedStats, error) {
	fileFields := fileSchema.Fields
	if f.WriteCols != nil {
		fileFields = fieldsNamed(fileSchema, f.WriteCols)
	}
	decoded, err := spec.DecodeValueStats(f.ValueStats, fileFields, f.ValueStatsCols)
	var arityErr *spec.RowArityError
	known := !errors.As(err, &arityErr)
	if err != nil && known {
		return renderedStats{}, err
	}
	fileIndex := make(map[int]int, len(fileFields))
	for i, ff := range fileFields {
		fileIndex[ff.ID] = i
	}
	readFields := slices.Clone(fd.src.schema.Fields)
	slices.SortFunc(readFields, func(a, b spec.DataField) int { return strings.Compare(a.Name, b.Name) })
	var nulls, mins, maxs []string
	for _, c := range readFields {
		st := spec.ColumnStats{}
		i, inFile := fileIndex[c.ID]
		switch {
		case known && inFile:
			if st, err = fd.castStats(decoded[i], fileFields[i].Type, c.Type); err != nil {
				return renderedStats{}, fmt.Errorf("column %s: %w", c.Name, err)
			}
		case known:
			st.NullCount = &f.RowCount
		}
		minText, err := fd.render.internalString(c.Type, st.Min)
		if err != nil {
			return renderedStats{}, err
		}
		maxText, err := fd.render.internalString(c.Type, st.Max)
		if err != nil {
			return renderedStats{}, err
		}
		nullText := "null"
		if st.NullCount != nil {
			nullText = fmt.Sprint(*st.NullCount)
		}
		nulls = append(nulls, c.Name+"="+nullText)
		mins = append(mins, c.Name+"="+minText)
		maxs = append(maxs, c.Name+"="+maxText)
	}
	return renderedStats{
		nullCounts: "{" + strings.Join(nulls, ", ") + "}",
		mins:       "{" + strings.Join(mins, ", ") + "}",
		maxs:       "{" + strings.Join(maxs, ", ") + "}",
	}, nil
}

// castStats casts a column's bounds from the type the file was written
// with to the column's current type, as schema evolution casts values.
func (fd *fileDescriber) castStats(st spec.ColumnStats, from, to spec.DataType) (spec.ColumnStats, error) {
	if from.WithNullable(true).String() == to.WithNullable(true).String() {
		return st, nil
	}
	for _, bound := range []*any{&st.Min, &st.Max} {
		if *bound == nil {
			continue
		}
		out, err := fd.render.cast(from, to, *bound)
		if err != nil {
			return st, err
		}
		*bound = out
	}
	return st, nil
}

// manifestsFields mirrors ManifestsTable.TABLE_TYPE.
var manifestsFields = columns(
	column("file_name", stringType(false)),
	column("file_size", bigintType(false)),
	column("num_added_files", bigintType(false)),
	column("num_deleted_files", bigintType(false)),
	column("schema_id", bigintType(false)),
	column("min_partition_stats", stringType(true)),
	column("max_partition_stats", stringType(true)),
	column("min_row_id", bigintType(true)),
	column("max_row_id", bigintType(true)),
)

// manifestsRows lists the snapshot's manifests as Java's
// ManifestList.readAllManifests does: base, delta, then changelog.
func manifestsRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	if src.snapshot == nil {
		return nil, nil
	}
	metas, err := src.t.Manifests().DataManifests(ctx, src.snapshot)
	if err != nil {
		return nil, err
	}
	if list := src.snapshot.ChangelogManifestList; list != nil && *list != "" {
		changelog, err := src.t.Manifests().ManifestList(ctx, *list)
		if err != nil {
			return nil, err
		}
		metas = append(metas, changelog...)
	}
	return describeRows(src, metas, func(fd *fileDescriber, m *spec.ManifestFileMeta) ([]any, error) {
		minPartition, maxPartition, err := fd.partitionBounds(m.PartitionStats)
		if err != nil {
			return nil, fmt.Errorf("manifest %s: %w", m.FileName, err)
		}
		return []any{
			m.FileName, m.FileSize, m.NumAddedFiles, m.NumDeletedFiles, m.SchemaID,
			minPartition, maxPartition, optional(m.MinRowID), optional(m.MaxRowID),
		}, nil
	})
}

// partitionBounds renders the smallest and largest partition of a
// manifest as partition rows.
func (fd *fileDescriber) partitionBounds(stats spec.SimpleStats) (minRow, maxRow any, err error) {
	if len(stats.MinValues) == 0 || len(stats.MaxValues) == 0 {
		return nil, nil, nil
	}
	decoded, err := stats.Decode(fd.partitionTypes)
	if err != nil {
		return nil, nil, err
	}
	mins, maxs := make([]any, len(decoded)), make([]any, len(decoded))
	for i, c := range decoded {
		mins[i], maxs[i] = c.Min, c.Max
	}
	if minRow, err = fd.render.rowString(fd.partitionTypes, mins); err != nil {
		return nil, nil, err
	}
	maxRow, err = fd.render.rowString(fd.partitionTypes, maxs)
	return minRow, maxRow, err
}

// fileGroup sums the live files of one partition, or one bucket of it,
// as Java's PartitionEntry and BucketEntry do.
type fileGroup struct {
	partition    []byte
	bucket       int32
	totalBuckets int32
	records      int64
	bytes        int64
	files        int64
	// lastCreated is the newest _CREATION_TIME of the group's entries in
	// the snapshot's manifests, deleted files' included as in Java (see
	// groupFiles); nil if none has one.
	lastCreated *time.Time
}

func (g *fileGroup) add(e *spec.ManifestEntry) {
	g.records += e.File.RowCount
	g.bytes += e.File.FileSize
	g.files++
	g.totalBuckets = e.TotalBuckets
}

func (g *fileGroup) created(e *spec.ManifestEntry) {
	if c := e.File.CreationTime; c != nil && (g.lastCreated == nil || c.After(*g.lastCreated)) {
		g.lastCreated = c
	}
}

func (g *fileGroup) lastUpdate() any {
	if g.lastCreated == nil {
		return nil
	}
	return spec.TimestampFromTime(*g.lastCreated)
}

// postponeBucket is the bucket of a postpone-bucket table's files that
// no compaction has assigned a bucket yet.
const postponeBucket = -2

// postponeTable reports whether the table has bucket = -2.
func postponeTable(src *systemSource) bool {
	if src.schema == nil {
		return false
	}
	n, err := src.schema.CoreOptions().Bucket()
	return err == nil && n == postponeBucket
}

// realBucketsOnly drops the files of a postpone-bucket table that are not
// in a real bucket yet: Java's $files and $partitions read through
// DataTableBatchScan, which calls SnapshotReader.onlyReadRealBuckets for
// bucket = -2 (interop finding F16); $buckets lists them.
func realBucketsOnly(src *systemSource, live []spec.ManifestEntry) []spec.ManifestEntry {
	if !postponeTable(src) {
		return live
	}
	return slices.DeleteFunc(live, func(e spec.ManifestEntry) bool { return e.Bucket == postponeBucket })
}

// groupFiles sums the snapshot's live files per key, in the order keys
// first appear; realOnly leaves out the files realBucketsOnly drops.
// Java sums the unmerged manifest entries (a DELETE subtracts its file),
// which gives the live files' sums, but the newest creation time among
// them all: a file a later commit replaced still counts until a manifest
// compaction drops its ADD and DELETE entries (interop finding F17).
func groupFiles(ctx context.Context, src *systemSource, realOnly bool, key func(*spec.ManifestEntry) string) ([]fileGroup, error) {
	unmerged, err := src.t.UnmergedFiles(ctx, src.snapshot)
	if err != nil {
		return nil, err
	}
	// The live files are the entries merged: the manifests are read once.
	merger := manifest.NewMerger()
	if err := merger.Add(unmerged); err != nil {
		return nil, fmt.Errorf("snapshot %d: %w", src.snapshot.ID, err)
	}
	live := merger.Live()
	if realOnly {
		live, unmerged = realBucketsOnly(src, live), realBucketsOnly(src, unmerged)
	}
	indexOf := map[string]int{}
	var groups []fileGroup
	for i := range live {
		e := &live[i]
		k := key(e)
		j, ok := indexOf[k]
		if !ok {
			j = len(groups)
			indexOf[k] = j
			groups = append(groups, fileGroup{partition: e.Partition, bucket: e.Bucket})
		}
		groups[j].add(e)
	}
	for i := range unmerged {
		if j, ok := indexOf[key(&unmerged[i])]; ok {
			groups[j].created(&unmerged[i])
		}
	}
	return groups, nil
}

// partitionsFields mirrors PartitionsTable.TABLE_TYPE. created_at,
// created_by, updated_by and options come from a catalog that tracks
// partitions (REST); a filesystem catalog has none, so they are NULL.
var partitionsFields = columns(
	column("partition", stringType(true)),
	column("record_count", bigintType(false)),
	column("file_size_in_bytes", bigintType(false)),
	column("file_count", bigintType(false)),
	column("last_update_time", timestampMillisType(true)),
	column("created_at", timestampMillisType(true)),
	column("created_by", stringType(true)),
	column("updated_by", stringType(true)),
	column("options", stringType(true)),
	column("total_buckets", intType(false)),
	column("done", booleanType(false)),
	column("deleted_record_count", bigintType(true)),
)

// partitionsRows lists the snapshot's partitions, sorted by their
// "k1=v1/k2=v2" name.
func partitionsRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	if src.snapshot == nil {
		return nil, nil
	}
	groups, err := groupFiles(ctx, src, true, func(e *spec.ManifestEntry) string { return string(e.Partition) })
	if err != nil {
		return nil, err
	}
	deleted, err := deletedRecordCounts(ctx, src)
	if err != nil {
		return nil, err
	}
	rows, err := describeRows(src, groups, func(fd *fileDescriber, g *fileGroup) ([]any, error) {
		name, err := fd.partitionName(g.partition)
		if err != nil {
			return nil, err
		}
		var deletedRows any = int64(0)
		if n, ok := deleted[string(g.partition)]; ok {
			deletedRows = optional(n)
		}
		return []any{
			name, g.records, g.bytes, g.files, g.lastUpdate(), nil, nil, nil, nil, g.totalBuckets, false, deletedRows,
		}, nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(rows, func(a, b []any) int { return strings.Compare(a[0].(string), b[0].(string)) })
	return rows, nil
}

// partitionName renders a partition as PartitionsTable does: "k=v" pairs
// joined by "/", values cast to STRING, a null value as the default
// partition name, unescaped ("" for an unpartitioned table).
func (fd *fileDescriber) partitionName(partition []byte) (string, error) {
	values, err := spec.DeserializeBinaryRow(fd.partitionTypes, partition)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(values))
	for i, v := range values {
		text := fd.src.schema.CoreOptions().PartitionDefaultName()
		if v != nil {
			if text, err = fd.render.castString(fd.partitionTypes[i], v); err != nil {
				return "", err
			}
		}
		parts[i] = fd.src.schema.PartitionKeys[i] + "=" + text
	}
	return strings.Join(parts, "/"), nil
}

// dvIndexType is the index type of deletion-vector index files.
const dvIndexType = "DELETION_VECTORS"

// deletedRecordCounts sums, per serialized partition, the rows the
// snapshot's deletion vectors delete; a nil count is unknown (a vector
// written before Paimon 1.0 records no cardinality). Partitions without
// vectors, and tables without deletion vectors, delete none.
func deletedRecordCounts(ctx context.Context, src *systemSource) (map[string]*int64, error) {
	enabled, err := src.schema.CoreOptions().DeletionVectorsEnabled()
	if err != nil || !enabled {
		return nil, err
	}
	entries, err := src.t.IndexFiles(ctx, src.snapshot)
	if err != nil {
		return nil, err
	}
	out := map[string]*int64{}
	for _, e := range entries {
		ranges := e.IndexFile.DeletionVectorRanges
		key := string(e.Partition)
		if e.IndexFile.IndexType != dvIndexType || len(ranges) == 0 {
			continue
		}
		if n, seen := out[key]; seen && n == nil {
			continue
		}
		total := new(int64)
		if n := out[key]; n != nil {
			*total = *n
		}
		for _, r := range ranges {
			if r.Cardinality == nil {
				total = nil
				break
			}
			*total += *r.Cardinality
		}
		out[key] = total
	}
	return out, nil
}

// bucketsFields mirrors BucketsTable.TABLE_TYPE.
var bucketsFields = columns(
	column("partition", stringType(true)),
	column("bucket", intType(false)),
	column("record_count", bigintType(false)),
	column("file_size_in_bytes", bigintType(false)),
	column("file_count", bigintType(false)),
	column("last_update_time", timestampMillisType(true)),
)

// bucketsRows lists the snapshot's buckets, sorted by partition and
// bucket.
func bucketsRows(ctx *sql.Context, src *systemSource) ([][]any, error) {
	if src.snapshot == nil {
		return nil, nil
	}
	groups, err := groupFiles(ctx, src, false, func(e *spec.ManifestEntry) string {
		return fmt.Sprintf("%x/%d", e.Partition, e.Bucket)
	})
	if err != nil {
		return nil, err
	}
	rows, err := describeRows(src, groups, func(fd *fileDescriber, g *fileGroup) ([]any, error) {
		partition, err := fd.partitionRow(g.partition)
		if err != nil {
			return nil, err
		}
		return []any{partition, g.bucket, g.records, g.bytes, g.files, g.lastUpdate()}, nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(rows, byPartitionAndBucket)
	return rows, nil
}
