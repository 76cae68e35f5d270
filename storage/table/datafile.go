package table

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakesql/lakesql/storage/fileformat"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/footercache"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// dataFile is one open data file.
type dataFile struct {
	path   string
	file   fileio.File
	format fileformat.Reader
	// fileSchema is the schema the file was written with.
	fileSchema *spec.TableSchema
	deleted    deletionVector // nil when no row is deleted
	// indexed, when set, holds every row position a raw read of the file
	// may return: its bitmap indexes narrowed the filter to them.
	indexed *roaring.Bitmap
	// tracking, when set, fills the row-tracking columns of its rows.
	tracking *rowTracking
}

// deletionVector tells which row positions of a data file are deleted.
type deletionVector interface {
	IsDeleted(position int64) bool
	// Positions lists the deleted positions, ascending.
	Positions() []int64
}

func (r *reader) openDataFile(ctx context.Context, b *BucketPlan, f *spec.DataFileMeta) (*dataFile, error) {
	format, err := fileformat.Of(f.FileName)
	if err != nil {
		return nil, err
	}
	fileSchema, err := r.table.schemas.Schema(ctx, f.SchemaID)
	if err != nil {
		return nil, err
	}
	dv, err := r.deletionVector(ctx, b, f.FileName)
	if err != nil {
		return nil, err
	}
	p := b.DataFilePath(f)
	file, err := openFormatFile(ctx, r.table.io, format, p, f.FileSize)
	if err != nil {
		return nil, fmt.Errorf("open data file %s: %w", p, err)
	}
	fr, err := r.table.openFormat(format, file, p, f)
	if err != nil {
		file.Close()
		return nil, err
	}
	d := &dataFile{path: p, file: file, format: fr, fileSchema: fileSchema, deleted: dv}
	if r.rowTracking {
		n := len(r.schema.Fields)
		d.tracking = &rowTracking{file: p, firstRowID: f.FirstRowID, maxSeq: f.MaxSequenceNumber, rowID: n - 2, seq: n - 1}
	}
	return d, nil
}

// openFormatFile opens a data file of size bytes. The manifest's file size
// lets a footer cache serve a Parquet footer without opening the file (see
// package footercache); it keeps nothing of other formats.
func openFormatFile(ctx context.Context, fsys fileio.FileIO, format, p string, size int64) (fileio.File, error) {
	if format == fileformat.Parquet {
		return footercache.Open(ctx, fsys, p, size)
	}
	return fsys.Open(ctx, p)
}

func (d *dataFile) Close() error {
	d.format.Close()
	return d.file.Close()
}

// parquet returns the file's Parquet reader, or nil for another format.
func (d *dataFile) parquet() *parquetio.Reader {
	return fileformat.ParquetOf(d.format)
}

// projection reads some columns of the read schema from files written
// under one schema: mapping converts the file columns it reads, and to
// places each converted value at its read position in a row as wide as the
// read schema, whose other columns stay NULL.
type projection struct {
	mapping *schema.RowMapping
	to      []int
	width   int
}

func newProjection(fileSchema, read *spec.TableSchema, columns []int) (*projection, error) {
	fields := make([]spec.DataField, len(columns))
	for i, c := range columns {
		fields[i] = read.Fields[c]
	}
	m, err := schema.NewRowMapping(fileSchema.Fields, fields, schema.Options{})
	if err != nil {
		return nil, fmt.Errorf("schema %d: %w", fileSchema.ID, err)
	}
	return &projection{mapping: m, to: columns, width: len(read.Fields)}, nil
}

// apply converts a file row of mapping.FileFields() to a read row.
func (p *projection) apply(fileRow []any) ([]any, error) {
	mapped, err := p.mapping.Apply(fileRow)
	if err != nil || len(p.to) == p.width && isIdentity(p.to) {
		return mapped, err
	}
	row := make([]any, p.width)
	for i, j := range p.to {
		row[j] = mapped[i]
	}
	return row, nil
}

func isIdentity(to []int) bool {
	for i, j := range to {
		if i != j {
			return false
		}
	}
	return true
}

// decodeRows is how many rows a rowIterator decodes at once: Parquet
// decodes column by column, which pays off over many rows.
const decodeRows = 256

// rowIterator streams the live rows of a data file read without merging:
// an append file, or the values of a primary-key file without retractions.
type rowIterator struct {
	data *dataFile
	it   fileformat.RowBatches
	proj *projection
	// buf holds decoded rows; next indexes the next one, whose file
	// position is first+next.
	buf   [][]any
	n     int
	next  int
	first int64
}

func (d *dataFile) rows(p *projection, ranges []parquetio.RowRange) (*rowIterator, error) {
	it, err := d.format.Rows(columnRequests(p.mapping.FileFields()), ranges)
	if err != nil {
		return nil, err
	}
	return &rowIterator{data: d, it: it, proj: p, buf: make([][]any, decodeBatch(ranges))}, nil
}

// decodeBatch is how many rows a read of ranges decodes at once: decodeRows,
// or fewer when the ranges hold fewer, as a point read's one row does.
func decodeBatch(ranges []parquetio.RowRange) int {
	var n int64
	for _, r := range ranges {
		if n += r.To - r.From; n >= decodeRows {
			return decodeRows
		}
	}
	return max(int(n), 1)
}

// Next returns the next live row, as wide as the read schema, or io.EOF.
func (ri *rowIterator) Next() ([]any, error) {
	row, _, err := ri.nextAt()
	return row, err
}

// nextAt returns the next live row and its position in the file.
func (ri *rowIterator) nextAt() ([]any, int64, error) {
	for {
		if ri.next == ri.n {
			if err := ri.fill(); err != nil {
				return nil, 0, err
			}
		}
		row, pos := ri.buf[ri.next], ri.first+int64(ri.next)
		ri.buf[ri.next] = nil
		ri.next++
		if ri.data.deleted != nil && ri.data.deleted.IsDeleted(pos) {
			continue
		}
		row, err := ri.proj.apply(row)
		if err == nil && ri.data.tracking != nil {
			err = ri.data.tracking.fill(row, pos)
		}
		return row, pos, err
	}
}

// fill decodes the next batch into fresh rows (returned rows are the
// caller's, so the decoder must not reuse them).
func (ri *rowIterator) fill() error {
	n, err := ri.it.NextBatch(ri.buf)
	if n == 0 && err == nil {
		err = io.EOF
	}
	if n == 0 {
		return err
	}
	ri.n, ri.next, ri.first = n, 0, ri.it.Position()
	return nil
}

func (ri *rowIterator) Close() error {
	return errors.Join(ri.it.Close(), ri.data.Close())
}

func columnRequests(fields []spec.DataField) []parquetio.ColumnRequest {
	out := make([]parquetio.ColumnRequest, len(fields))
	for i, f := range fields {
		out[i] = parquetio.ColumnRequest{Name: f.Name, Type: f.Type}
	}
	return out
}

// rowGroups returns the row groups of d whose column statistics might
// hold a row for which pred is TRUE: all of them for a TRUE pred.
func (r *reader) rowGroups(d *dataFile, pred predicate.Predicate) ([]int, error) {
	groups := d.format.RowGroups()
	var out []int
	for g := range groups {
		keep := true
		if !isTrue(pred) {
			stats, err := r.rowGroupStats(d, g, predicate.Columns(pred))
			if err != nil {
				return nil, err
			}
			keep = pred.Test(stats) == predicate.Might
		}
		if keep {
			out = append(out, g)
		}
	}
	return out, nil
}

// rowGroupStats lays the footer statistics of a row group onto the read
// row, for the columns a predicate reads. A column the file lacks, or has
// with another type, has unknown statistics; so does a zero null count,
// which Parquet cannot tell from an absent one.
func (r *reader) rowGroupStats(d *dataFile, g int, columns []int) (predicate.Stats, error) {
	stats := predicate.Stats{RowCount: d.format.RowGroups()[g].NumRows, Columns: make([]spec.ColumnStats, len(r.schema.Fields))}
	for _, c := range columns {
		req, ok := r.fileColumn(d, c)
		if !ok {
			continue
		}
		cs, ok, err := d.format.ColumnStats(g, req)
		if err != nil || !ok {
			return stats, err
		}
		stats.Columns[c] = spec.ColumnStats{Min: cs.Min, Max: cs.Max}
		if cs.NullCount > 0 {
			n := cs.NullCount
			stats.Columns[c].NullCount = &n
		}
	}
	return stats, nil
}

// fileColumn is the file's column of read column c, whose statistics
// bound c's values; ok is false when the file lacks it or has it with
// another type.
func (r *reader) fileColumn(d *dataFile, c int) (parquetio.ColumnRequest, bool) {
	rf := r.schema.Fields[c]
	ff, ok := d.fileSchema.FieldByID(rf.ID)
	if !ok || ff.Type.WithNullable(true).String() != rf.Type.WithNullable(true).String() {
		return parquetio.ColumnRequest{}, false
	}
	return parquetio.ColumnRequest{Name: ff.Name, Type: ff.Type}, true
}

// keyValues streams the records of a primary-key data file as merge input,
// dropping those whose key fails the pushed key filter. Keys are rebuilt
// from the converted values, so records of files written under different
// schemas compare in the read schema's key types.
type keyValues struct {
	data   *dataFile
	it     fileformat.KeyValueIterator
	proj   *projection
	keyIdx []int // positions of the trimmed primary keys in the read row
	filter predicate.Predicate
	// origin is added to each record's row position to make its Origin.
	origin int64
}

func (d *dataFile) keyValues(p *projection, keyIdx []int, ranges []parquetio.RowRange, keyFilter predicate.Predicate) (*keyValues, error) {
	it, err := d.format.KeyValues(d.fileSchema.TrimmedPrimaryKeys(), p.mapping.FileFields(), ranges)
	if err != nil {
		return nil, err
	}
	return &keyValues{data: d, it: it, proj: p, keyIdx: keyIdx, filter: keyFilter}, nil
}

// Next implements lsm.RecordIterator.
func (kv *keyValues) Next() (lsm.KeyValue, bool, error) {
	for {
		rec, err := kv.it.Next()
		if err == io.EOF {
			return lsm.KeyValue{}, false, nil
		}
		if err != nil {
			return lsm.KeyValue{}, false, err
		}
		if kv.data.deleted != nil && kv.data.deleted.IsDeleted(rec.Position) {
			continue
		}
		value, err := kv.proj.apply(rec.Value)
		if err != nil {
			return lsm.KeyValue{}, false, fmt.Errorf("%s: %w", kv.data.path, err)
		}
		if kv.filter != nil && kv.filter.Eval(value) != predicate.True {
			continue
		}
		key := make([]any, len(kv.keyIdx))
		for i, j := range kv.keyIdx {
			key[i] = value[j]
		}
		return lsm.KeyValue{Key: key, Seq: rec.Seq, Kind: rec.Kind, Value: value, Origin: kv.origin + rec.Position}, true, nil
	}
}

func (kv *keyValues) Close() error {
	return errors.Join(kv.it.Close(), kv.data.Close())
}
