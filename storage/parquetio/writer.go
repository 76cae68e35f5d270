package parquetio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// WriterOptions tune a Writer; zero values select Java Paimon's defaults.
type WriterOptions struct {
	// PageSize is the buffered size at which a page is cut
	// (parquet.page.size, 1 MiB).
	PageSize int
	// PageRowLimit is the number of rows at which a page is cut whatever
	// its size (parquet.page.row.count.limit, 20,000): a reader decodes a
	// whole page before its first row, so a page of a narrow column held
	// to 1 MiB alone would keep a LIMIT 1 or a point lookup decoding
	// 130,000 values.
	PageRowLimit int
	// RowGroupSize is the buffered size at which a row group is cut
	// (parquet.block.size, 128 MiB).
	RowGroupSize int64
	// ZstdLevel is the zstd compression level (file.compression.zstd-level,
	// 1).
	ZstdLevel int
}

func (o WriterOptions) withDefaults() WriterOptions {
	if o.PageSize <= 0 {
		o.PageSize = 1 << 20
	}
	if o.PageRowLimit <= 0 {
		o.PageRowLimit = 20_000
	}
	if o.RowGroupSize <= 0 {
		o.RowGroupSize = 128 << 20
	}
	if o.ZstdLevel <= 0 {
		o.ZstdLevel = 1
	}
	return o
}

// createdBy identifies the writer in a form parquet-mr parses, so it does
// not mistake the file for one of its own buggy releases.
const createdBy = "lakesql version 0.1"

// Writer writes a Paimon data file the way Java Paimon does: message
// paimon_schema with field ids, parquet-mr's v1 writer's encodings
// (PLAIN_DICTIONARY falling back to PLAIN, see columnDictionary; RLE
// levels; v1 data pages), pages of at most 1 MiB and 20,000 rows, zstd,
// column and offset indexes of the pages (writer_pageindex.go), and the
// timestamp layouts of ParquetSchemaConverter. It avoids the v2
// writer's DELTA encodings and pages, which older readers refuse.
//
// Every field node carries its Paimon field id, 0 included, as Java's
// do: Paimon matches columns by name, but engines reading Paimon files by
// field id (Iceberg-compatible readers) need them all.
//
// A failed Write leaves the file incomplete: the Writer then returns the
// same error from every call and the caller must discard the output.
type Writer struct {
	out       io.Writer
	offset    int64
	opts      WriterOptions
	schema    []schemaElement
	columns   []*columnWriter
	fields    []fieldShredder
	rowGroups []format.RowGroup
	// pageIndexes are each row group's chunks' page indexes, written
	// after the last row group.
	pageIndexes [][]chunkPageIndex
	groupRows   int64
	numRows     int64
	err         error
}

var errWriterClosed = errors.New("parquetio: writer closed")

// NewWriter starts a data file holding fields, in order, on out. The
// caller closes out after Close.
func NewWriter(out io.Writer, fields []spec.DataField, opts WriterOptions) (*Writer, error) {
	opts = opts.withDefaults()
	b := &writerBuilder{}
	root := schemaElement{Name: paimonMessageName}
	root.NumChildren.Set(int32(len(fields)))
	b.schema = append(b.schema, root)
	w := &Writer{out: out, opts: opts}
	for _, f := range fields {
		s, err := b.field(f.Name, f.Type, f.ID, f.ID, 0, levels{})
		if err != nil {
			return nil, err
		}
		w.fields = append(w.fields, s)
	}
	w.schema, w.columns = b.schema, b.columns
	if err := w.write([]byte("PAR1")); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *Writer) write(b []byte) error {
	n, err := w.out.Write(b)
	w.offset += int64(n)
	return err
}

// Write appends one row: a value per field, in the spec Go types.
func (w *Writer) Write(row []any) error {
	if w.err != nil {
		return w.err
	}
	if len(row) != len(w.fields) {
		return fmt.Errorf("parquetio: row of %d values for %d fields", len(row), len(w.fields))
	}
	for i, f := range w.fields {
		if err := f.shred(row[i], 0, 0); err != nil {
			w.err = fmt.Errorf("parquetio: %w", err)
			return w.err
		}
	}
	w.groupRows++
	w.numRows++
	if err := w.cutFullPages(); err != nil {
		w.err = err
	}
	return w.err
}

// cutFullPages cuts pages and row groups at row boundaries, so no row
// spans two pages, as parquet-mr does.
func (w *Writer) cutFullPages() error {
	buffered := int64(0)
	for _, c := range w.columns {
		c.pageRows++
		if c.bufferedSize() >= w.opts.PageSize || c.pageRows >= w.opts.PageRowLimit {
			if err := c.cutPage(w.opts.ZstdLevel); err != nil {
				return err
			}
		}
		buffered += int64(c.chunkSize() + c.bufferedSize())
	}
	if buffered >= w.opts.RowGroupSize {
		return w.flushRowGroup()
	}
	return nil
}

func (w *Writer) flushRowGroup() error {
	rg := format.RowGroup{NumRows: w.groupRows, FileOffset: w.offset, Ordinal: int16(len(w.rowGroups))}
	indexes := make([]chunkPageIndex, len(w.columns))
	for i, c := range w.columns {
		if err := c.cutPage(w.opts.ZstdLevel); err != nil {
			return err
		}
		dictionaryPage, dictionarySize, err := c.dictionaryPage(w.opts.ZstdLevel)
		if err != nil {
			return err
		}
		chunk := c.chunkMetadata(w.offset, dictionaryPage, dictionarySize)
		indexes[i] = c.pageIndex(w.offset + int64(len(dictionaryPage)))
		if err := w.write(dictionaryPage); err != nil {
			return err
		}
		if err := w.write(c.chunk); err != nil {
			return err
		}
		rg.Columns = append(rg.Columns, chunk)
		rg.TotalByteSize += chunk.MetaData.TotalUncompressedSize
		rg.TotalCompressedSize += chunk.MetaData.TotalCompressedSize
		c.resetChunk()
	}
	w.rowGroups = append(w.rowGroups, rg)
	w.pageIndexes = append(w.pageIndexes, indexes)
	w.groupRows = 0
	return nil
}

// NumRows returns the number of rows written so far.
func (w *Writer) NumRows() int64 { return w.numRows }

// EstimatedSize returns the bytes written plus those still buffered, for
// rolling files at a target size.
func (w *Writer) EstimatedSize() int64 {
	size := w.offset
	for _, c := range w.columns {
		size += int64(c.chunkSize() + c.bufferedSize())
	}
	return size
}

// Close writes the remaining rows and the footer. It does not close the
// underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	w.err = errWriterClosed
	if w.groupRows > 0 {
		if err := w.flushRowGroup(); err != nil {
			return err
		}
	}
	if err := w.writePageIndexes(); err != nil {
		return err
	}
	orders := make([]format.ColumnOrder, len(w.columns))
	for i := range orders {
		orders[i] = format.ColumnOrder{Value: &format.TypeDefinedOrder{}}
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &fileMetaData{
		Version: 1, Schema: w.schema, NumRows: w.numRows, RowGroups: w.rowGroups,
		CreatedBy: createdBy, ColumnOrders: orders,
	})
	if err != nil {
		return err
	}
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	return w.write(append(footer, "PAR1"...))
}

// levels locates a node: its path and the definition and repetition
// levels reached at it.
type levels struct {
	path     []string
	def, rep int
}

func (l levels) child(name string, optional, repeated bool) levels {
	c := levels{path: append(slices.Clip(l.path), name), def: l.def, rep: l.rep}
	if optional || repeated {
		c.def++
	}
	if repeated {
		c.rep++
	}
	return c
}

// writerBuilder lays out the footer schema and the column writers of a
// file, mirroring Java's ParquetSchemaConverter.
type writerBuilder struct {
	schema  []schemaElement
	columns []*columnWriter
}

// field adds a field with Parquet field id id; owner and depth derive the
// ids of collection parts as Java's SpecialFields does.
func (b *writerBuilder) field(name string, t spec.DataType, id, owner, depth int, parent levels) (fieldShredder, error) {
	at := parent.child(name, t.Nullable, false)
	e := newSchemaElement(name, t, id)
	switch t.Root {
	case spec.Array:
		return b.list(e, t, owner, depth, at)
	case spec.Map, spec.Multiset:
		return b.mapField(e, t, owner, depth, at)
	case spec.Row:
		return b.row(e, t, at)
	}
	if !annotatePrimitive(&e, t) {
		return nil, fmt.Errorf("parquetio: column %s: %w: writing %s", name, lakeerr.ErrUnsupported, typeName(t))
	}
	b.schema = append(b.schema, e)
	c := &columnWriter{path: at.path, physical: e.Type.V, maxDef: at.def, maxRep: at.rep,
		stats: newStatsBuilder(t, e.Type.V), pageStats: newStatsBuilder(t, e.Type.V), dict: newColumnDictionary(e.Type.V)}
	b.columns = append(b.columns, c)
	return &leafShredder{path: columnPathString(at.path), column: c, optional: t.Nullable, encode: encoderFor(t)}, nil
}

func (b *writerBuilder) list(e schemaElement, t spec.DataType, owner, depth int, at levels) (fieldShredder, error) {
	if t.Element == nil {
		return nil, fmt.Errorf("parquetio: column %s: ARRAY without element type", columnPathString(at.path))
	}
	e.NumChildren.Set(1)
	e.LogicalType.Value = &format.ListType{}
	e.ConvertedType.Set(deprecated.List)
	b.schema = append(b.schema, e, groupElement("list", format.Repeated, 1))
	repeated := at.child("list", false, true)
	first := len(b.columns)
	element, err := b.field("element", *t.Element, arrayElementFieldID(owner, depth+1), owner, depth+1, repeated)
	if err != nil {
		return nil, err
	}
	return &collectionShredder{path: columnPathString(at.path), optional: t.Nullable, element: element,
		leaves: slices.Clone(b.columns[first:]), entryRep: repeated.rep}, nil
}

func (b *writerBuilder) mapField(e schemaElement, t spec.DataType, owner, depth int, at levels) (fieldShredder, error) {
	keyType, valueType := t.Key, t.Value
	if t.Root == spec.Multiset {
		keyType, valueType = t.Element, &spec.DataType{Root: spec.Int}
	}
	if keyType == nil || valueType == nil {
		return nil, fmt.Errorf("parquetio: column %s: %s without entry types", columnPathString(at.path), typeName(t))
	}
	e.NumChildren.Set(1)
	e.LogicalType.Value = &format.MapType{}
	e.ConvertedType.Set(deprecated.Map)
	keyValue := groupElement("key_value", format.Repeated, 2)
	keyValue.ConvertedType.Set(deprecated.MapKeyValue)
	b.schema = append(b.schema, e, keyValue)
	repeated := at.child("key_value", false, true)
	first := len(b.columns)
	// Parquet map keys cannot be null, so Java declares them NOT NULL.
	key, err := b.field("key", keyType.WithNullable(false), mapKeyFieldID(owner, depth+1), owner, depth+1, repeated)
	if err != nil {
		return nil, err
	}
	value, err := b.field("value", *valueType, mapValueFieldID(owner, depth+1), owner, depth+1, repeated)
	if err != nil {
		return nil, err
	}
	return &collectionShredder{path: columnPathString(at.path), optional: t.Nullable, element: key, value: value,
		leaves: slices.Clone(b.columns[first:]), entryRep: repeated.rep}, nil
}

func (b *writerBuilder) row(e schemaElement, t spec.DataType, at levels) (fieldShredder, error) {
	if len(t.Fields) == 0 {
		return nil, fmt.Errorf("parquetio: column %s: %w: ROW without fields", columnPathString(at.path), lakeerr.ErrUnsupported)
	}
	e.NumChildren.Set(int32(len(t.Fields)))
	b.schema = append(b.schema, e)
	first := len(b.columns)
	s := &rowShredder{path: columnPathString(at.path), optional: t.Nullable}
	for _, f := range t.Fields {
		field, err := b.field(f.Name, f.Type, f.ID, f.ID, 0, at)
		if err != nil {
			return nil, err
		}
		s.fields = append(s.fields, field)
	}
	s.leaves = slices.Clone(b.columns[first:])
	return s, nil
}
