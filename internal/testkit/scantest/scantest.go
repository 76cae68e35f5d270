// Package scantest writes small Paimon tables for scan tests and
// benchmarks: data files with exact statistics at chosen levels, retractions
// and deletion vectors, committed through storage/commit. It does what a
// writer and a compaction would leave behind, without their policies, so a
// test can build any layout (overlapping level-0 files, sorted runs,
// deletion vectors on any file).
//
// It lived in storage/scan, which storage/commit imports; its own import
// of storage/commit ran back up the stack. In testkit it sits above every
// package it imports and is imported only by tests.
package scantest

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// Table is a table being written. It is not safe for concurrent use.
type Table struct {
	FS     fileio.FileIO
	Dir    string
	Schema *spec.TableSchema
	// RowGroupSize is the Parquet row group size in bytes (0: the default),
	// small to test row-group skipping.
	RowGroupSize int64
	committer    *commit.Committer
	commits      int64
	files        int
	seq          int64
	clock        time.Time
}

// Create creates table db.name in the warehouse and returns its writer.
func Create(ctx context.Context, fs fileio.FileIO, warehouse, db, name string, def catalog.TableDefinition) (*Table, error) {
	clock := time.Date(2026, 4, 16, 0, 0, 0, 0, time.UTC)
	c := catalog.New(fs, warehouse, func() time.Time { return clock })
	if err := c.CreateDatabase(ctx, db, true); err != nil {
		return nil, err
	}
	if err := c.CreateTable(ctx, db, name, def, false); err != nil {
		return nil, err
	}
	dir, err := c.TablePath(db, name)
	if err != nil {
		return nil, err
	}
	t := &Table{FS: fs, Dir: dir, clock: clock}
	if t.Schema, err = readSchema(ctx, fs, dir); err != nil {
		return nil, err
	}
	uuids := 0
	t.committer, err = commit.New(commit.Options{
		FileIO: fs, TableDir: dir, Core: t.Schema.CoreOptions(),
		Now: func() time.Time { t.clock = t.clock.Add(time.Second); return t.clock },
		NewUUID: func() string {
			uuids++
			return fmt.Sprintf("00000000-0000-4000-8000-%012d", uuids)
		},
	})
	return t, err
}

func readSchema(ctx context.Context, fs fileio.FileIO, dir string) (*spec.TableSchema, error) {
	data, err := fs.ReadFile(ctx, path.Join(dir, "schema", "schema-0"))
	if err != nil {
		return nil, err
	}
	return spec.DecodeSchema(data)
}

// Record is one row of a data file; Kind is RowKindInsert for append
// tables.
type Record struct {
	Kind   spec.RowKind
	Values []any
}

// File is a written data file and where it lives.
type File struct {
	Partition    []byte
	Bucket       int32
	TotalBuckets int32
	Meta         spec.DataFileMeta
}

// WriteFile writes records (of a primary-key table: sorted by key, one
// per key) as one data file of a bucket at a level. Sequence numbers
// continue across files, in record order.
func (t *Table) WriteFile(ctx context.Context, partition []any, bucket, level int32, records []Record) (File, error) {
	part, err := spec.SerializeBinaryRow(t.partitionTypes(), partition)
	if err != nil {
		return File{}, err
	}
	rel, err := spec.PartitionPath(t.Schema.PartitionKeys, t.partitionTypes(), partition,
		t.Schema.CoreOptions().PartitionDefaultName(), true)
	if err != nil {
		return File{}, err
	}
	t.files++
	name := fmt.Sprintf("data-%08d-0.parquet", t.files)
	data, err := t.encode(records)
	if err != nil {
		return File{}, err
	}
	p := path.Join(t.Dir, rel, fmt.Sprintf("bucket-%d", bucket), name)
	if err := t.FS.PutIfAbsent(ctx, p, data); err != nil {
		return File{}, err
	}
	meta, err := t.meta(name, int64(len(data)), level, records)
	if err != nil {
		return File{}, err
	}
	n, _ := t.Schema.CoreOptions().Bucket()
	return File{Partition: part, Bucket: bucket, TotalBuckets: int32(max(n, 1)), Meta: meta}, nil
}

func (t *Table) partitionTypes() []spec.DataType {
	types := make([]spec.DataType, len(t.Schema.PartitionKeys))
	for i, k := range t.Schema.PartitionKeys {
		types[i] = t.Schema.Fields[t.Schema.FieldIndex(k)].Type.WithNullable(true)
	}
	return types
}

// keyIdx returns the positions of the trimmed primary keys.
func (t *Table) keyIdx() []int {
	var out []int
	for _, k := range t.Schema.TrimmedPrimaryKeys() {
		out = append(out, t.Schema.FieldIndex(k))
	}
	return out
}

func (t *Table) encode(records []Record) ([]byte, error) {
	var buf bytes.Buffer
	fields := t.Schema.Fields
	var layout *parquetio.KeyValueLayout
	if len(t.Schema.PrimaryKeys) > 0 {
		var err error
		if layout, err = parquetio.NewKeyValueLayout(t.Schema.TrimmedPrimaryKeys(), fields, false); err != nil {
			return nil, err
		}
		fields = layout.Fields()
	}
	w, err := parquetio.NewWriter(&buf, fields, parquetio.WriterOptions{RowGroupSize: t.RowGroupSize, PageSize: 4 << 10})
	if err != nil {
		return nil, err
	}
	for i, r := range records {
		row := r.Values
		if layout != nil {
			row = layout.Row(parquetio.KeyValue{Key: t.key(r.Values), Seq: t.seq + int64(i) + 1, Kind: r.Kind, Value: r.Values})
		}
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (t *Table) key(values []any) []any {
	idx := t.keyIdx()
	key := make([]any, len(idx))
	for i, j := range idx {
		key[i] = values[j]
	}
	return key
}

// meta describes a written file with exact statistics over all records,
// retractions included, as Java's writers collect them.
func (t *Table) meta(name string, size int64, level int32, records []Record) (spec.DataFileMeta, error) {
	var deletes int64
	for _, r := range records {
		if r.Kind.IsRetract() {
			deletes++
		}
	}
	source := spec.FileSourceAppend
	m := spec.DataFileMeta{
		FileName: name, FileSize: size, RowCount: int64(len(records)), Level: level,
		MinSequenceNumber: t.seq + 1, MaxSequenceNumber: t.seq + int64(len(records)),
		SchemaID: t.Schema.ID, ExtraFiles: []string{}, DeleteRowCount: &deletes, FileSource: &source,
	}
	t.seq += int64(len(records))
	var err error
	if m.ValueStats, err = stats(t.Schema.Fields, records, nil); err != nil {
		return m, err
	}
	if len(t.Schema.PrimaryKeys) == 0 || len(records) == 0 {
		m.KeyStats, m.MinKey, m.MaxKey = spec.EmptyStats(), nil, nil
		return m, nil
	}
	keyFields := make([]spec.DataField, 0)
	for _, j := range t.keyIdx() {
		keyFields = append(keyFields, t.Schema.Fields[j])
	}
	if m.KeyStats, err = stats(keyFields, records, t.keyIdx()); err != nil {
		return m, err
	}
	types := typesOf(keyFields)
	if m.MinKey, err = spec.SerializeBinaryRow(types, t.key(records[0].Values)); err != nil {
		return m, err
	}
	m.MaxKey, err = spec.SerializeBinaryRow(types, t.key(records[len(records)-1].Values))
	return m, err
}

func typesOf(fields []spec.DataField) []spec.DataType {
	out := make([]spec.DataType, len(fields))
	for i, f := range fields {
		out[i] = f.Type
	}
	return out
}

// stats computes min, max and null count of fields over records; columns
// maps field i to its position in a record (nil: the same position).
func stats(fields []spec.DataField, records []Record, columns []int) (spec.SimpleStats, error) {
	lo, hi := make([]any, len(fields)), make([]any, len(fields))
	nulls := make([]*int64, len(fields))
	for i, f := range fields {
		j := i
		if columns != nil {
			j = columns[i]
		}
		nulls[i] = new(int64)
		for _, r := range records {
			v := r.Values[j]
			switch {
			case v == nil:
				*nulls[i]++
			case lo[i] == nil:
				lo[i], hi[i] = v, v
			default:
				if spec.CompareValues(f.Type, v, lo[i]) < 0 {
					lo[i] = v
				}
				if spec.CompareValues(f.Type, v, hi[i]) > 0 {
					hi[i] = v
				}
			}
		}
	}
	return spec.NewSimpleStats(typesOf(fields), lo, hi, nulls)
}

// Change is what one commit does to one bucket: files added (at their
// level), files removed (compacted away), and the bucket's deletion
// vectors replaced.
type Change struct {
	Partition    []byte
	Bucket       int32
	TotalBuckets int32
	Add          []spec.DataFileMeta
	Remove       []spec.DataFileMeta
	// DeletionVectors, when not nil, become the bucket's deletion vectors
	// by data file name; OldIndex is the index file they replace.
	DeletionVectors map[string]*spec.DeletionVector
	OldIndex        *spec.IndexFileMeta
}

// Commit publishes changes as one snapshot (level-0 additions) or two (an
// APPEND then a COMPACT with the rest), and returns the new index file of
// each bucket whose deletion vectors changed, by position in changes.
func (t *Table) Commit(ctx context.Context, changes []Change) (map[int]*spec.IndexFileMeta, error) {
	t.commits++
	req := commit.Request{CommitUser: "scantest", Identifier: t.commits}
	index := map[int]*spec.IndexFileMeta{}
	for i, c := range changes {
		msg := commit.Message{Partition: c.Partition, Bucket: c.Bucket, TotalBuckets: c.TotalBuckets}
		for _, f := range c.Add {
			if f.Level == 0 {
				msg.NewFiles = append(msg.NewFiles, f)
			} else {
				msg.CompactAfter = append(msg.CompactAfter, f)
			}
		}
		msg.CompactBefore = c.Remove
		if c.DeletionVectors != nil {
			f, err := t.writeIndex(ctx, c.DeletionVectors)
			if err != nil {
				return nil, err
			}
			index[i] = f
			msg.CompactNewIndexFiles = []spec.IndexFileMeta{*f}
			if c.OldIndex != nil {
				msg.CompactDeletedIndexFiles = []spec.IndexFileMeta{*c.OldIndex}
			}
		}
		req.Messages = append(req.Messages, msg)
	}
	_, err := t.committer.Commit(ctx, req)
	return index, err
}

// writeIndex writes a deletion-vectors index file to index/.
func (t *Table) writeIndex(ctx context.Context, dvs map[string]*spec.DeletionVector) (*spec.IndexFileMeta, error) {
	t.files++
	f := &spec.IndexFileMeta{IndexType: "DELETION_VECTORS", FileName: fmt.Sprintf("index-%08d-0", t.files)}
	var data []byte
	names := make([]string, 0, len(dvs))
	for name := range dvs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var off, length int32
		var err error
		if data, off, length, err = spec.AppendDeletionVector(data, dvs[name]); err != nil {
			return nil, err
		}
		card := dvs[name].Cardinality()
		f.DeletionVectorRanges = append(f.DeletionVectorRanges, spec.DeletionVectorMeta{
			DataFileName: name, Offset: off, Length: length, Cardinality: &card})
	}
	f.FileSize, f.RowCount = int64(len(data)), int64(len(names))
	return f, t.FS.PutIfAbsent(ctx, path.Join(t.Dir, "index", f.FileName), data)
}
