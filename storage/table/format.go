package table

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/lakesql/lakesql/storage/avroio"
	"github.com/lakesql/lakesql/storage/blobio"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/orcio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// formatReader is an open data file as the read path sees it, whatever its
// format: Java picks a FormatReaderFactory by each file's extension, so a
// table may hold files of several formats (file.format changed, or
// file.format.per.level). Rows come by row group; a group's statistics
// let a filter skip it. Values are the file schema's, in package spec's
// representation, for every format alike.
type formatReader interface {
	rowGroups() []parquetio.RowGroup
	// columnStats returns a column's statistics in a row group; ok is
	// false when the file keeps none.
	columnStats(g int, c parquetio.ColumnRequest) (stats parquetio.ColumnStats, ok bool, err error)
	// pageStats returns the statistics of a column's pages in a row
	// group; ok is false when the file keeps none.
	pageStats(g int, c parquetio.ColumnRequest) (pages []parquetio.PageStats, ok bool, err error)
	// rows reads the columns from the given row ranges, in that order.
	rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (rowBatches, error)
	// keyValues reads the records of a primary-key file (Java KeyValue).
	keyValues(keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (keyValueIterator, error)
	close()
}

// rowBatches streams rows; Position is the file position of the first row
// of the last batch, the address deletion vectors use.
type rowBatches interface {
	NextBatch(dst [][]any) (int, error)
	Position() int64
	Close() error
}

type keyValueIterator interface {
	Next() (parquetio.KeyValue, error)
	Close() error
}

// Data file formats lakesql reads (CoreOptions.FILE_FORMAT identifiers).
const (
	formatParquet = "parquet"
	formatAvro    = "avro"
	formatORC     = "orc"
	formatBlob    = "blob"
)

// dataFileFormat takes the format of a data file from its last extension,
// as Java does (PojoDataFileMeta.fileFormat), and refuses the formats
// lakesql cannot read.
func dataFileFormat(name string) (string, error) {
	switch format := strings.TrimPrefix(path.Ext(name), "."); format {
	case formatParquet, formatAvro, formatORC, formatBlob:
		return format, nil
	default:
		return "", unsupported(fmt.Sprintf("%s data files (%s)", format, name))
	}
}

// footerCacheBytes bounds the memory of a table's cached Parquet footers:
// a few hundred data files' (25 to 50 KB each).
const footerCacheBytes = 16 << 20

// openFormat reads the header or footer of data file p, open as file,
// with the reader of its format; a Parquet footer comes from t's cache
// when it holds one for a file of the same size.
func (t *Table) openFormat(format string, file fileio.File, p string, meta *spec.DataFileMeta) (formatReader, error) {
	if format == formatBlob {
		r, err := blobio.Open(file, file.Size(), p)
		if err != nil {
			return nil, err
		}
		return blobFile{r}, nil
	}
	if format == formatORC {
		r, err := orcio.Open(file, file.Size(), p)
		if err != nil {
			return nil, err
		}
		return orcFile{r}, nil
	}
	if format == formatAvro {
		r, err := avroio.Open(file, p)
		if err != nil {
			return nil, err
		}
		return avroFile{r: r, numRows: meta.RowCount}, nil
	}
	pq, err := t.openParquet(file, p)
	if err != nil {
		return nil, err
	}
	if t.pages != nil {
		pq.CachePages(t.pages)
	}
	return parquetFile{pq}, nil
}

func (t *Table) openParquet(file fileio.File, p string) (*parquetio.Reader, error) {
	if f, ok := t.footers.Get(p); ok && f.FileSize() == file.Size() {
		return parquetio.OpenFooter(file, p, f)
	}
	pq, err := parquetio.Open(file, p)
	if err != nil {
		return nil, err
	}
	t.footers.Put(p, pq.Footer)
	return pq, nil
}

type parquetFile struct{ r *parquetio.Reader }

func (f parquetFile) rowGroups() []parquetio.RowGroup { return f.r.RowGroups() }

func (f parquetFile) columnStats(g int, c parquetio.ColumnRequest) (parquetio.ColumnStats, bool, error) {
	return f.r.ColumnStats(g, c)
}

func (f parquetFile) pageStats(g int, c parquetio.ColumnRequest) ([]parquetio.PageStats, bool, error) {
	return f.r.PageStats(g, c)
}

func (f parquetFile) rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (rowBatches, error) {
	it, err := f.r.NewRowRangeIterator(columns, ranges)
	if err != nil {
		return nil, err
	}
	return it, nil
}

func (f parquetFile) keyValues(keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (keyValueIterator, error) {
	it, err := f.r.NewKeyValueRangeIterator(keyNames, valueFields, ranges)
	if err != nil {
		return nil, err
	}
	return it, nil
}

func (parquetFile) close() {}

// avroFile is an Avro data file: one row group, of the manifest's row
// count, without statistics (Avro keeps none), so filters are applied to
// its rows, after the manifest's statistics pruned whole files.
type avroFile struct {
	r       *avroio.Reader
	numRows int64
}

func (f avroFile) rowGroups() []parquetio.RowGroup {
	return []parquetio.RowGroup{{NumRows: f.numRows}}
}

func (avroFile) columnStats(int, parquetio.ColumnRequest) (parquetio.ColumnStats, bool, error) {
	return parquetio.ColumnStats{}, false, nil
}

func (avroFile) pageStats(int, parquetio.ColumnRequest) ([]parquetio.PageStats, bool, error) {
	return nil, false, nil
}

// rows reads the whole file, whose one row group has no page statistics
// to narrow it by, unless no range is asked for.
func (f avroFile) rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (rowBatches, error) {
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

func (f avroFile) keyValues(keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (keyValueIterator, error) {
	return layoutKeyValues(f, f.r.HasField, f.r.Name(), keyNames, valueFields, ranges)
}

// layoutKeyValues reads the fields of Java's KeyValue layout from a file
// of a row format (Avro, ORC); a file without the _KEY_ fields is a
// thin-mode file (data-file.thin-mode), as for Parquet.
func layoutKeyValues(f formatReader, hasField func(string) bool, name string, keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (keyValueIterator, error) {
	thin := len(keyNames) > 0 && !hasField(parquetio.KeyColumnPrefix+keyNames[0])
	layout, err := parquetio.NewKeyValueLayout(keyNames, valueFields, thin)
	if err != nil {
		return nil, err
	}
	rows, err := f.rows(layout.Columns(), ranges)
	if err != nil {
		return nil, err
	}
	return &layoutRecords{rows: rows, layout: layout, name: name}, nil
}

func (f avroFile) close() { f.r.Close() }

// layoutRecords splits rows of a KeyValueLayout into records.
type layoutRecords struct {
	rows   rowBatches
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
// stripe statistics of its integer, date and string columns.
type orcFile struct{ r *orcio.File }

func (f orcFile) rowGroups() []parquetio.RowGroup {
	stripes := f.r.Stripes()
	out := make([]parquetio.RowGroup, len(stripes))
	for i, s := range stripes {
		out[i] = parquetio.RowGroup{FirstRow: s.FirstRow, NumRows: s.NumRows}
	}
	return out
}

func (f orcFile) columnStats(g int, c parquetio.ColumnRequest) (parquetio.ColumnStats, bool, error) {
	s, ok, err := f.r.StripeStats(g, c.Name, c.Type)
	return parquetio.ColumnStats{NullCount: s.NullCount, Min: s.Min, Max: s.Max}, ok, err
}

func (orcFile) pageStats(int, parquetio.ColumnRequest) ([]parquetio.PageStats, bool, error) {
	return nil, false, nil
}

func (f orcFile) rows(columns []parquetio.ColumnRequest, ranges []parquetio.RowRange) (rowBatches, error) {
	fields := make([]spec.DataField, len(columns))
	for i, c := range columns {
		fields[i] = spec.DataField{Name: c.Name, Type: c.Type}
	}
	stripeRanges := make([]orcio.RowRange, len(ranges))
	for i, r := range ranges {
		stripeRanges[i] = orcio.RowRange{Stripe: r.Group, From: r.From, To: r.To}
	}
	return f.r.NewRowIterator(fields, stripeRanges)
}

func (f orcFile) keyValues(keyNames []string, valueFields []spec.DataField, ranges []parquetio.RowRange) (keyValueIterator, error) {
	return layoutKeyValues(f, f.r.HasField, f.r.Name(), keyNames, valueFields, ranges)
}

func (orcFile) close() {}
