package write

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"path"

	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// bucketFiles writes the data files of one (partition, bucket): it names
// them as Java's DataFilePathFactory does, data-<uuid>-<n>.parquet with one
// uuid per writer and a counter, and rolls to a new file once the open one
// reaches the target size (RollingFileWriter).
type bucketFiles struct {
	env    *writerEnv
	dir    string
	uuid   string
	count  int
	layout fileLayout
	open   *dataFile
	// written lists the files written and not yet handed to a commit
	// message, for Abort and Close to delete.
	written []spec.DataFileMeta
	// ambiguous are the files whose put failed but may have landed, which
	// Abort and Close delete too.
	ambiguous fileio.AmbiguousPuts
}

// fileLayout is what differs between primary-key and append files.
type fileLayout interface {
	// fields are the physical columns of a file.
	fields() []spec.DataField
	// finish fills the key fields of the file's metadata.
	finish(f *dataFile, meta *spec.DataFileMeta) error
}

func newBucketFiles(env *writerEnv, dir string, layout fileLayout) *bucketFiles {
	return &bucketFiles{env: env, dir: dir, uuid: env.newUUID(), layout: layout}
}

// dataFile is one data file being written. Its bytes are buffered in memory
// until it is closed and then stored with a single PutIfAbsent: object
// stores have no append, and a half-written file must never be visible.
// The buffer is bounded by target-file-size (and counts against the write
// memory budget for append writers, whose files stay open between rows).
type dataFile struct {
	name     string
	buf      bytes.Buffer
	writer   *parquetio.Writer
	values   []columnStats
	rows     int64
	deletes  int64
	minSeq   int64
	maxSeq   int64
	firstKey []any
	lastKey  []any
	// index builds the file's data-file indexes; nil when none is declared.
	index *fileindex.Builder
}

// current returns the open file, starting one if needed.
func (b *bucketFiles) current() (*dataFile, error) {
	if b.open != nil {
		return b.open, nil
	}
	f := &dataFile{
		name:   fmt.Sprintf("%s%s-%d.parquet", b.env.settings.dataFilePrefix, b.uuid, b.count),
		minSeq: math.MaxInt64, maxSeq: math.MinInt64,
	}
	b.count++
	w, err := parquetio.NewWriter(&f.buf, b.layout.fields(), b.env.settings.parquet)
	if err != nil {
		return nil, err
	}
	f.writer = w
	if f.index, err = fileindex.NewBuilder(b.env.settings.schema.Fields, b.env.settings.fileIndexes); err != nil {
		return nil, err
	}
	for _, field := range b.env.settings.schema.Fields {
		f.values = append(f.values, newColumnStats(field.Type))
	}
	b.open = f
	return f, nil
}

// observe records one written row in the file's metadata.
func (f *dataFile) observe(value []any, seq int64, kind spec.RowKind) {
	for i, v := range value {
		f.values[i].observe(v)
	}
	if f.index != nil {
		f.index.Add(value)
	}
	f.rows++
	f.minSeq = min(f.minSeq, seq)
	f.maxSeq = max(f.maxSeq, seq)
	if kind.IsRetract() {
		f.deletes++
	}
}

// size is the file's estimated size so far: bytes encoded plus bytes still
// buffered in pages.
func (b *bucketFiles) size() int64 {
	if b.open == nil {
		return 0
	}
	return b.open.writer.EstimatedSize()
}

// rollIfFull closes the open file once it reached the target size.
func (b *bucketFiles) rollIfFull(ctx context.Context) error {
	if b.open != nil && b.open.writer.EstimatedSize() >= b.env.settings.targetFileSize {
		return b.closeFile(ctx)
	}
	return nil
}

// closeFile finishes the open file, stores it and records its metadata.
func (b *bucketFiles) closeFile(ctx context.Context) error {
	f := b.open
	if f == nil {
		return nil
	}
	b.open = nil
	// The footer and the buffered row group are written at once; reserving
	// for them avoids regrowing the buffer several times.
	f.buf.Grow(int(f.writer.EstimatedSize()-int64(f.buf.Len())) + 4096)
	if err := f.writer.Close(); err != nil {
		return fmt.Errorf("encode data file %s: %w", f.name, err)
	}
	meta, err := b.meta(f)
	if err != nil {
		return err
	}
	if err := b.putIndex(ctx, f, &meta); err != nil {
		return err
	}
	p := path.Join(b.dir, f.name)
	if err := b.ambiguous.PutIfAbsent(ctx, b.env.io, p, f.buf.Bytes()); err != nil {
		return errors.Join(fmt.Errorf("write data file %s: %w", p, err), b.env.deleteExtraFiles(ctx, b.dir, meta))
	}
	b.written = append(b.written, meta)
	return nil
}

// putIndex finishes the file's indexes and, as DataFileIndexWriter does,
// embeds them in its manifest entry when they fit the in-manifest
// threshold and otherwise stores them beside it as <file>.index. The
// sidecar is stored first, so a data file never lands without it.
func (b *bucketFiles) putIndex(ctx context.Context, f *dataFile, meta *spec.DataFileMeta) error {
	if f.index == nil {
		return nil
	}
	data, err := f.index.Finish()
	if err != nil {
		return fmt.Errorf("file index of %s: %w", f.name, err)
	}
	if int64(len(data)) <= b.env.settings.indexInManifest {
		meta.EmbeddedIndex = data
		return nil
	}
	name := f.name + indexFileSuffix
	p := path.Join(b.dir, name)
	if err := b.ambiguous.PutIfAbsent(ctx, b.env.io, p, data); err != nil {
		return fmt.Errorf("write file index %s: %w", p, err)
	}
	meta.ExtraFiles = append(meta.ExtraFiles, name)
	return nil
}

// indexFileSuffix names a data file's index beside it
// (DataFilePathFactory.INDEX_PATH_SUFFIX).
const indexFileSuffix = ".index"

// meta fills the DataFileMeta fields the way Java's writers do.
func (b *bucketFiles) meta(f *dataFile) (spec.DataFileMeta, error) {
	modes := &b.env.settings.stats
	valueStats, statsCols, err := simpleStats(b.env.settings.schema.Fields, storedColumns(f.values, modes.value), modes.dense)
	if err != nil {
		return spec.DataFileMeta{}, fmt.Errorf("value stats of %s: %w", f.name, err)
	}
	created := spec.LocalWallClockAsUTC(b.env.now())
	deletes := f.deletes
	source := spec.FileSourceAppend
	meta := spec.DataFileMeta{
		FileName: f.name, FileSize: int64(f.buf.Len()), RowCount: f.rows,
		ValueStats: valueStats, MinSequenceNumber: f.minSeq, MaxSequenceNumber: f.maxSeq,
		SchemaID: b.env.settings.schema.ID, Level: 0, ExtraFiles: []string{},
		CreationTime: &created, DeleteRowCount: &deletes, FileSource: &source, ValueStatsCols: statsCols,
	}
	if err := b.layout.finish(f, &meta); err != nil {
		return spec.DataFileMeta{}, fmt.Errorf("key stats of %s: %w", f.name, err)
	}
	return meta, nil
}

// drain hands the written files over to a commit message.
func (b *bucketFiles) drain() []spec.DataFileMeta {
	files := b.written
	b.written = nil
	return files
}

// discard drops the open file and deletes the written ones and those whose
// put failed ambiguously.
func (b *bucketFiles) discard(ctx context.Context) error {
	b.open = nil
	files := b.drain()
	return errors.Join(b.env.deleteFiles(ctx, b.dir, files), b.ambiguous.DeleteAll(ctx, b.env.io))
}

// appendLayout is the layout of append-table files: exactly the table
// columns, no key.
type appendLayout struct{ settings *tableSettings }

func (l appendLayout) fields() []spec.DataField { return l.settings.fileFields }

// finish gives append files Java's DataFileMeta.forAppend key fields: empty
// min/max key rows and empty key stats.
func (l appendLayout) finish(_ *dataFile, meta *spec.DataFileMeta) error {
	empty := spec.EmptyStats()
	meta.MinKey, meta.MaxKey, meta.KeyStats = empty.MinValues, empty.MaxValues, spec.EmptyStats()
	return nil
}

// keyValueLayout is the layout of primary-key files: _KEY_<k>...,
// _SEQUENCE_NUMBER, _VALUE_KIND, then every table column.
type keyValueLayout struct{ settings *tableSettings }

func (l keyValueLayout) fields() []spec.DataField { return l.settings.fileFields }

// finish sets the first and last key (rows are written in key order) and
// the key stats: the stats of the _KEY_ columns, which hold the key
// columns' values, under the _KEY_ columns' modes, never dense
// (KeyValueDataFileWriter uses SimpleStatsConverter.toBinaryAllMode).
func (l keyValueLayout) finish(f *dataFile, meta *spec.DataFileMeta) error {
	key := l.settings.key
	var err error
	if meta.MinKey, err = spec.SerializeBinaryRow(key.types, f.firstKey); err != nil {
		return err
	}
	if meta.MaxKey, err = spec.SerializeBinaryRow(key.types, f.lastKey); err != nil {
		return err
	}
	keyColumns := make([]storedStats, len(key.indexes))
	keyFields := make([]spec.DataField, len(key.indexes))
	for i, col := range key.indexes {
		keyColumns[i] = f.values[col].result(l.settings.stats.key[i])
		keyFields[i] = l.settings.schema.Fields[col]
	}
	meta.KeyStats, _, err = simpleStats(keyFields, keyColumns, false)
	return err
}

// storedColumns keeps of each column's stats what its mode keeps.
func storedColumns(columns []columnStats, modes []spec.StatsMode) []storedStats {
	out := make([]storedStats, len(columns))
	for i := range columns {
		out[i] = columns[i].result(modes[i])
	}
	return out
}
