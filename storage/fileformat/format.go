// Package fileformat reads a Paimon data file with the reader of its
// format. Java picks a FormatReaderFactory by each file's extension
// (PojoDataFileMeta.fileFormat), so one table may hold files of several
// formats: file.format changed, file.format.per.level, or lakesql's
// Parquet files in an orc or avro table. Reads and compactions both open
// files here, so that whatever a read takes a compaction takes too.
package fileformat

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/lakesql/lakesql/storage/avroio"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/orcio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
)

// Data file formats lakesql reads (CoreOptions.FILE_FORMAT identifiers).
const (
	Parquet = "parquet"
	Avro    = "avro"
	ORC     = "orc"
	Blob    = "blob"
)

// Of takes the format of a data file from its last extension, as Java
// does, and refuses the formats lakesql cannot read.
func Of(name string) (string, error) {
	switch format := strings.TrimPrefix(path.Ext(name), "."); format {
	case Parquet, Avro, ORC, Blob:
		return format, nil
	default:
		return "", fmt.Errorf("%w: %s data files (%s)", lakeerr.ErrUnsupported, format, name)
	}
}

// Reader is an open data file, whatever its format. Rows come by row
// group; a group's statistics let a filter skip it. Values are the file
// schema's, in package spec's representation, for every format alike.
type Reader interface {
	RowGroups() []parquetio.RowGroup
	// ColumnStats returns a column's statistics in a row group; ok is
	// false when the file keeps none.
	ColumnStats(g int, c parquetio.ColumnRequest) (stats parquetio.ColumnStats, ok bool, err error)
	// PageStats returns the statistics of a column's pages in a row
	// group; ok is false when the file keeps none.
	PageStats(g int, c parquetio.ColumnRequest) (pages []parquetio.PageStats, ok bool, err error)
	// Rows reads the columns from the given row ranges, in that order.
	Rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (RowBatches, error)
	// KeyValues reads the records of a primary-key file (Java KeyValue).
	KeyValues(keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (KeyValueIterator, error)
	Close()
}

// RowBatches streams rows; Position is the file position of the first row
// of the last batch, the address deletion vectors use.
type RowBatches interface {
	NextBatch(dst [][]any) (int, error)
	Position() int64
	Close() error
}

// VectorReader is a Reader that decodes flat columns into typed vectors
// (package vector) without boxing a value: Parquet and ORC files.
type VectorReader interface {
	// CanVectorize reports whether NewVectorIterator reads the column.
	CanVectorize(c parquetio.ColumnRequest) bool
	// NewVectorIterator reads the columns from the given row groups, in
	// that order.
	NewVectorIterator(columns []parquetio.ColumnRequest, groups []int) (VectorBatches, error)
}

// VectorBatches streams batches of vectors, one per column; Position is
// the file position of the first row of the last batch.
type VectorBatches interface {
	Next(maxRows int) ([]*vector.Vector, int, error)
	Position() int64
	Close() error
}

// VectorsOf is r as a VectorReader, nil for formats without vectors.
func VectorsOf(r Reader) VectorReader {
	v, _ := r.(VectorReader)
	return v
}

// KeyValueIterator streams the records of a primary-key file, in the
// file's order, each with its position; it ends with io.EOF.
type KeyValueIterator interface {
	Next() (parquetio.KeyValue, error)
	Close() error
}

// Open reads the header or footer of data file p, open as file, with the
// reader of format (see Of); rowCount is the file's row count from its
// manifest entry, which Avro files do not keep. Callers that cache
// Parquet footers open Parquet files themselves and wrap them with
// NewParquet.
func Open(format string, file fileio.File, p string, rowCount int64) (Reader, error) {
	switch format {
	case Blob:
		return OpenBlob(file, p)
	case ORC:
		r, err := orcio.Open(file, file.Size(), p)
		if err != nil {
			return nil, err
		}
		return orcFile{r}, nil
	case Avro:
		r, err := avroio.Open(file, p)
		if err != nil {
			return nil, err
		}
		return avroFile{r: r, numRows: rowCount}, nil
	case Parquet:
		r, err := parquetio.Open(file, p)
		if err != nil {
			return nil, err
		}
		return NewParquet(r), nil
	default:
		return nil, fmt.Errorf("%w: %s data files (%s)", lakeerr.ErrUnsupported, format, p)
	}
}

// WholeFile is every row of r, a range per row group.
func WholeFile(r Reader) []parquetio.RowRange {
	groups := r.RowGroups()
	out := make([]parquetio.RowRange, len(groups))
	for i, g := range groups {
		out[i] = parquetio.RowRange{Group: i, To: g.NumRows}
	}
	return out
}

// NewParquet reads an open Parquet file.
func NewParquet(r *parquetio.Reader) Reader { return parquetFile{r} }

// ParquetOf returns the Parquet reader of r, or nil for another format.
func ParquetOf(r Reader) *parquetio.Reader {
	if pq, ok := r.(parquetFile); ok {
		return pq.r
	}
	return nil
}

type parquetFile struct{ r *parquetio.Reader }

func (f parquetFile) RowGroups() []parquetio.RowGroup { return f.r.RowGroups() }

func (f parquetFile) ColumnStats(g int, c parquetio.ColumnRequest) (parquetio.ColumnStats, bool, error) {
	return f.r.ColumnStats(g, c)
}

func (f parquetFile) PageStats(g int, c parquetio.ColumnRequest) ([]parquetio.PageStats, bool, error) {
	return f.r.PageStats(g, c)
}

func (f parquetFile) CanVectorize(c parquetio.ColumnRequest) bool { return f.r.CanVectorize(c) }

func (f parquetFile) NewVectorIterator(columns []parquetio.ColumnRequest, groups []int) (VectorBatches, error) {
	it, err := f.r.NewVectorIterator(columns, groups)
	if err != nil {
		return nil, err
	}
	return it, nil
}

func (f parquetFile) Rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (RowBatches, error) {
	it, err := f.r.NewRowRangeIterator(columns, ranges)
	if err != nil {
		return nil, err
	}
	return it, nil
}

func (f parquetFile) KeyValues(keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (KeyValueIterator, error) {
	it, err := f.r.NewKeyValueRangeIterator(keyNames, valueFields, ranges)
	if err != nil {
		return nil, err
	}
	return it, nil
}

func (parquetFile) Close() {}

// avroFile is an Avro data file: one row group, of the manifest's row
// count, without statistics (Avro keeps none), so filters are applied to
// its rows, after the manifest's statistics pruned whole files.
type avroFile struct {
	r       *avroio.Reader
	numRows int64
}

func (f avroFile) RowGroups() []parquetio.RowGroup {
	return []parquetio.RowGroup{{NumRows: f.numRows}}
}

func (avroFile) ColumnStats(int, parquetio.ColumnRequest) (parquetio.ColumnStats, bool, error) {
	return parquetio.ColumnStats{}, false, nil
}

func (avroFile) PageStats(int, parquetio.ColumnRequest) ([]parquetio.PageStats, bool, error) {
	return nil, false, nil
}

// Rows reads the whole file, whose one row group has no page statistics
// to narrow it by, unless no range is asked for.
func (f avroFile) Rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (RowBatches, error) {
	if len(ranges) == 0 {
		return noRows{}, nil
	}
	cols := make([]avroio.Column, len(columns))
	for i, c := range columns {
		cols[i] = avroio.Column{Name: c.Name, Type: c.Type}
	}
	it, err := f.r.NewRowIterator(cols)
	if err != nil {
		return nil, err
	}
	return it, nil
}

func (f avroFile) KeyValues(keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (KeyValueIterator, error) {
	return layoutKeyValues(f, f.r.HasField, f.r.Name(), keyNames, valueFields, ranges)
}

func (f avroFile) Close() { f.r.Close() }

// layoutKeyValues reads the fields of Java's KeyValue layout from a file
// of a row format (Avro, ORC); a file without the _KEY_ fields is a
// thin-mode file (data-file.thin-mode), as for Parquet.
func layoutKeyValues(f Reader, hasField func(string) bool, name string, keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (KeyValueIterator, error) {
	thin := len(keyNames) > 0 && !hasField(parquetio.KeyColumnPrefix+keyNames[0])
	layout, err := parquetio.NewKeyValueLayout(keyNames, valueFields, thin)
	if err != nil {
		return nil, err
	}
	rows, err := f.Rows(layout.Columns(), ranges)
	if err != nil {
		return nil, err
	}
	return &layoutRecords{rows: rows, layout: layout, name: name}, nil
}

// layoutRecords splits rows of a KeyValueLayout into records.
type layoutRecords struct {
	rows   RowBatches
	layout *parquetio.KeyValueLayout
	name   string
}

func (l *layoutRecords) Next() (parquetio.KeyValue, error) {
	var one [1][]any
	if _, err := l.rows.NextBatch(one[:]); err != nil {
		return parquetio.KeyValue{}, err
	}
	kv, err := l.layout.Split(one[0])
	if err != nil {
		return parquetio.KeyValue{}, fmt.Errorf("%w (file %s, row %d)", err, l.name, l.rows.Position())
	}
	kv.Position = l.rows.Position()
	return kv, nil
}

func (l *layoutRecords) Close() error { return l.rows.Close() }

// noRows is a file read of no row group.
type noRows struct{}

func (noRows) NextBatch([][]any) (int, error) { return 0, io.EOF }
func (noRows) Position() int64                { return 0 }
func (noRows) Close() error                   { return nil }

// orcFile is an ORC data file: one row group per stripe, pruned by the
// stripe statistics of its integer, date and string columns and narrowed
// by their row index.
type orcFile struct{ r *orcio.File }

func (f orcFile) RowGroups() []parquetio.RowGroup {
	stripes := f.r.Stripes()
	out := make([]parquetio.RowGroup, len(stripes))
	for i, s := range stripes {
		out[i] = parquetio.RowGroup{FirstRow: s.FirstRow, NumRows: s.NumRows}
	}
	return out
}

func (f orcFile) ColumnStats(g int, c parquetio.ColumnRequest) (parquetio.ColumnStats, bool, error) {
	s, ok, err := f.r.StripeStats(g, c.Name, c.Type)
	return parquetio.ColumnStats{NullCount: s.NullCount, Min: s.Min, Max: s.Max}, ok, err
}

// PageStats are the statistics of the stripe's row groups, from ORC's
// row index: a filtered read narrows a stripe to them as it narrows a
// Parquet row group to its pages.
func (f orcFile) PageStats(g int, c parquetio.ColumnRequest) ([]parquetio.PageStats, bool, error) {
	groups, ok, err := f.r.RowGroupStats(g, c.Name, c.Type)
	if !ok || err != nil {
		return nil, ok, err
	}
	pages := make([]parquetio.PageStats, len(groups))
	for i, rg := range groups {
		pages[i] = parquetio.PageStats{FirstRow: rg.FirstRow, OnlyNulls: rg.OnlyNulls, Min: rg.Min, Max: rg.Max}
	}
	return pages, true, nil
}

func (f orcFile) CanVectorize(c parquetio.ColumnRequest) bool {
	return f.r.CanVectorize(c.Name, c.Type)
}

// NewVectorIterator reads stripes (the file's row groups) as vectors.
func (f orcFile) NewVectorIterator(columns []parquetio.ColumnRequest, groups []int) (VectorBatches, error) {
	it, err := f.r.NewVectorIterator(orcFields(columns), groups)
	if err != nil {
		return nil, err
	}
	return it, nil
}

func orcFields(columns []parquetio.ColumnRequest) []spec.DataField {
	fields := make([]spec.DataField, len(columns))
	for i, c := range columns {
		fields[i] = spec.DataField{Name: c.Name, Type: c.Type}
	}
	return fields
}

func (f orcFile) Rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (RowBatches, error) {
	fields := orcFields(columns)
	stripeRanges := make([]orcio.RowRange, len(ranges))
	for i, r := range ranges {
		stripeRanges[i] = orcio.RowRange{Stripe: r.Group, From: r.From, To: r.To}
	}
	return f.r.NewRowIterator(fields, stripeRanges)
}

func (f orcFile) KeyValues(keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (KeyValueIterator, error) {
	return layoutKeyValues(f, f.r.HasField, f.r.Name(), keyNames, valueFields, ranges)
}

func (orcFile) Close() {}
