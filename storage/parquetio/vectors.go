package parquetio

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// VectorIterator decodes batches of rows of flat columns into typed
// vectors, without boxing a value: the columnar twin of RowIterator for
// top-level primitive columns. Pages are decoded by parquet-go into typed
// slices, which are copied (dictionary pages: looked up) into the vectors
// with NULLs laid out by definition level. It is not safe for concurrent
// use; Close releases its page buffers.
type VectorIterator struct {
	*groupWalk
	columns []*vectorColumn // nil for columns absent from the file
	out     []*vector.Vector
}

// CanVectorize reports whether NewVectorIterator reads the column: a
// column absent from the file (all NULL), or a top-level primitive column
// whose Parquet type holds the requested type as vector.KindOf lays it
// out. Other columns are read by a RowIterator.
func (r *Reader) CanVectorize(req ColumnRequest) bool {
	node := r.findColumn(req)
	if node == nil {
		_, ok := vector.KindOf(req.Type)
		return ok
	}
	return vectorizable(node, req.Type)
}

// vectorizable mirrors the checks of decoderFor for the types with a
// vector kind, so both paths accept the same files.
func vectorizable(n *schemaNode, t spec.DataType) bool {
	if _, ok := vector.KindOf(t); !ok || !n.isLeaf() || n.isRepeated() {
		return false
	}
	phys := n.physical()
	_, signed, annotated := n.integer()
	unsigned := annotated && !signed
	switch t.Root {
	case spec.Boolean:
		return phys == format.Boolean && !unsigned
	case spec.TinyInt, spec.SmallInt, spec.Int:
		return phys == format.Int32 && !unsigned
	case spec.BigInt:
		return phys == format.Int64 && !unsigned
	case spec.Float:
		return phys == format.Float && !unsigned
	case spec.Double:
		return phys == format.Double && !unsigned
	case spec.Decimal:
		_, scale, ok := n.decimal()
		return (!ok || scale == t.Scale) && (phys == format.Int32 || phys == format.Int64)
	case spec.Char, spec.VarChar, spec.Binary, spec.VarBinary:
		return isByteArray(n)
	case spec.Date:
		return phys == format.Int32
	case spec.Time:
		unit, annotated := n.timeOfDay()
		return phys == format.Int32 && (!annotated || unit == unitMillis)
	}
	return false
}

// NewVectorIterator reads the requested columns, each of which must pass
// CanVectorize, from the given row groups in the given order; positions
// stay file positions.
func (r *Reader) NewVectorIterator(columns []ColumnRequest, rowGroups []int) (*VectorIterator, error) {
	if err := r.checkRowGroups(rowGroups); err != nil {
		return nil, err
	}
	return r.NewVectorRangeIterator(columns, r.wholeGroups(rowGroups))
}

// NewVectorRangeIterator reads the requested columns, as NewVectorIterator
// does, from the given row ranges only, in the given order, reading only
// the pages that hold them where the file has offset indexes.
func (r *Reader) NewVectorRangeIterator(columns []ColumnRequest, ranges []RowRange) (it *VectorIterator, err error) {
	defer recoverCorruption(r.name, &err)
	if err := r.checkRanges(ranges); err != nil {
		return nil, err
	}
	it = &VectorIterator{columns: make([]*vectorColumn, len(columns)), out: make([]*vector.Vector, len(columns))}
	var chunks []chunkReader
	var leaves []int
	for i, req := range columns {
		if !r.CanVectorize(req) {
			return nil, unsupportedf(r.name, "column %s: cannot decode as a %s vector", req.Name, typeName(req.Type))
		}
		it.out[i] = vector.New(req.Type)
		if node := r.findColumn(req); node != nil {
			it.columns[i] = &vectorColumn{node: node, kind: it.out[i].Kind}
			chunks, leaves = append(chunks, it.columns[i]), append(leaves, node.leaf)
		}
	}
	it.groupWalk = r.newGroupWalk(ranges, chunks, leaves)
	return it, nil
}

// Position returns the file position of the first row of the last batch;
// the rows of a batch have consecutive positions.
func (it *VectorIterator) Position() int64 { return it.position }

// Next decodes up to maxRows rows and returns one vector per requested
// column, valid until the next call. It returns fewer rows at the end of
// a row group, and 0, io.EOF after the last row.
func (it *VectorIterator) Next(maxRows int) ([]*vector.Vector, int, error) {
	n, err := it.next(maxRows, it.decode)
	if n == 0 && err != nil {
		return nil, 0, err
	}
	return it.out, n, err
}

// decode reads the next n rows of every column into its vector.
func (it *VectorIterator) decode(n int) error {
	for i, c := range it.columns {
		v := it.out[i]
		v.Reset(n)
		if c == nil {
			for j := range n {
				v.SetNull(j)
			}
			continue
		}
		if err := c.read(v, n); err != nil {
			return err
		}
	}
	return nil
}

// Close releases the iterator's page buffers. It is safe to call twice.
func (it *VectorIterator) Close() error { return it.groupWalk.Close() }

// vectorColumn walks the pages of one column chunk.
type vectorColumn struct {
	node  *schemaNode
	kind  vector.Kind
	pages parquet.Pages
	page  parquet.Page
	// The current page: rows rows, of which row are consumed; defs are
	// their definition levels (nil when no row is NULL) and dense the
	// non-null values, of which val are consumed.
	rows, row, val int
	defs           []byte
	dense          denseValues
	// Dictionary-encoded pages are looked up into these buffers.
	gathered denseValues
}

// denseValues are the non-null values of a page in one of the layouts.
type denseValues struct {
	i32     []int32
	i64     []int64
	f32     []float32
	f64     []float64
	bits    []byte // BOOLEAN, one bit per value
	data    []byte
	offsets []uint32 // BYTE_ARRAY: value j is data[offsets[j]:offsets[j+1]]
	size    int      // FIXED_LEN_BYTE_ARRAY: value j is data[j*size:(j+1)*size]
}

func (c *vectorColumn) reset(pages parquet.Pages) {
	c.close()
	c.pages, c.rows, c.row = pages, 0, 0
}

func (c *vectorColumn) close() {
	c.releasePage()
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
}

func (c *vectorColumn) releasePage() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
}

// hasMore reports whether the chunk holds rows past the consumed ones.
func (c *vectorColumn) hasMore() (bool, error) {
	for c.row == c.rows {
		if err := c.nextPage(); err == errMissingValues {
			return false, nil
		} else if err != nil {
			return false, err
		}
	}
	return true, nil
}

// read decodes the next n rows of the chunk into v, which was Reset for
// them.
func (c *vectorColumn) read(v *vector.Vector, n int) error {
	for off := 0; off < n; {
		for c.row == c.rows {
			if err := c.nextPage(); err != nil {
				return err
			}
		}
		m := min(n-off, c.rows-c.row)
		if err := c.copyRows(v, off, m); err != nil {
			return err
		}
		off += m
		c.row += m
	}
	return nil
}

// skipRows makes vectorColumn a rowSkipper: it consumes n rows, page by
// page, without copying their values.
func (c *vectorColumn) skipRows(n, _ int64) error {
	for n > 0 {
		for c.row == c.rows {
			if err := c.nextPage(); err != nil {
				return err
			}
		}
		m := int(min(n, int64(c.rows-c.row)))
		nonNull := m
		if c.defs != nil {
			nonNull = bytes.Count(c.defs[c.row:c.row+m], []byte{byte(c.node.maxDef)})
		}
		c.row, c.val, n = c.row+m, c.val+nonNull, n-int64(m)
	}
	return nil
}

// nextPage loads the next page; running out of pages means the chunk
// holds fewer rows than its row group.
func (c *vectorColumn) nextPage() error {
	c.releasePage()
	page, err := c.pages.ReadPage()
	if errors.Is(err, io.EOF) {
		return errMissingValues
	}
	if err != nil {
		return err
	}
	c.page = page
	c.rows, c.row, c.val = int(page.NumValues()), 0, 0
	c.defs = nil
	if page.NumNulls() > 0 {
		c.defs = page.DefinitionLevels()
		if len(c.defs) != c.rows {
			return fmt.Errorf("page of %d values has %d definition levels", c.rows, len(c.defs))
		}
	}
	if dict := page.Dictionary(); dict != nil {
		indexes := page.Data()
		return c.lookUp(dict, indexes.Int32())
	}
	c.dense = c.denseOf(page)
	return nil
}

func (c *vectorColumn) denseOf(page parquet.Page) denseValues {
	return denseOf(page, c.node.physical())
}

// denseOf lays out the non-null values of a page (or of a dictionary's
// page) of a column of the given physical type, without copying them.
func denseOf(page parquet.Page, physical format.Type) denseValues {
	data := page.Data()
	switch physical {
	case format.Int32:
		return denseValues{i32: data.Int32()}
	case format.Int64:
		return denseValues{i64: data.Int64()}
	case format.Float:
		return denseValues{f32: data.Float()}
	case format.Double:
		return denseValues{f64: data.Double()}
	case format.Boolean:
		return denseValues{bits: data.Boolean()}
	case format.FixedLenByteArray:
		values, size := data.FixedLenByteArray()
		return denseValues{data: values, size: size}
	}
	values, offsets := data.ByteArray()
	return denseValues{data: values, offsets: offsets}
}

// lookUp replaces the dictionary indexes of the page by the values they
// select.
func (c *vectorColumn) lookUp(dict parquet.Dictionary, indexes []int32) error {
	values := c.denseOf(dict.Page())
	n := int32(dict.Len())
	for _, i := range indexes {
		if i < 0 || i >= n {
			return fmt.Errorf("dictionary index %d out of %d values", i, n)
		}
	}
	g := &c.gathered
	switch c.node.physical() {
	case format.Int32:
		g.i32 = gather(g.i32, values.i32, indexes)
		c.dense = denseValues{i32: g.i32}
	case format.Int64:
		g.i64 = gather(g.i64, values.i64, indexes)
		c.dense = denseValues{i64: g.i64}
	case format.Float:
		g.f32 = gather(g.f32, values.f32, indexes)
		c.dense = denseValues{f32: g.f32}
	case format.Double:
		g.f64 = gather(g.f64, values.f64, indexes)
		c.dense = denseValues{f64: g.f64}
	case format.ByteArray, format.FixedLenByteArray:
		g.data, g.offsets = g.data[:0], append(g.offsets[:0], 0)
		for _, i := range indexes {
			g.data = append(g.data, values.value(int(i))...)
			g.offsets = append(g.offsets, uint32(len(g.data)))
		}
		c.dense = denseValues{data: g.data, offsets: g.offsets}
	default:
		return fmt.Errorf("dictionary of %s values", c.node.physical())
	}
	return nil
}

func gather[T any](dst, values []T, indexes []int32) []T {
	dst = dst[:0]
	for _, i := range indexes {
		dst = append(dst, values[i])
	}
	return dst
}

// value returns byte-array value j.
func (d *denseValues) value(j int) []byte {
	if d.offsets == nil {
		return d.data[j*d.size : (j+1)*d.size]
	}
	return d.data[d.offsets[j]:d.offsets[j+1]]
}

// copyRows copies m rows from the page into v at off.
func (c *vectorColumn) copyRows(v *vector.Vector, off, m int) error {
	nonNull := m
	if c.defs != nil {
		maxDef := byte(c.node.maxDef)
		nonNull = 0
		for i, d := range c.defs[c.row : c.row+m] {
			if d < maxDef {
				v.SetNull(off + i)
			} else {
				nonNull++
			}
		}
	}
	if c.val+nonNull > c.dense.len() {
		return fmt.Errorf("page of %d rows holds %d values", c.rows, c.dense.len())
	}
	switch c.kind {
	case vector.Int32s:
		spread(v, off, m, c.dense.i32[c.val:c.val+nonNull], v.Int32)
	case vector.Int64s:
		if c.dense.i32 != nil {
			c.widen(v, off, m, c.dense.i32[c.val:c.val+nonNull])
		} else {
			spread(v, off, m, c.dense.i64[c.val:c.val+nonNull], v.Int64)
		}
	case vector.Float32s:
		spread(v, off, m, c.dense.f32[c.val:c.val+nonNull], v.Float32)
	case vector.Float64s:
		spread(v, off, m, c.dense.f64[c.val:c.val+nonNull], v.Float64)
	case vector.Bools:
		c.bools(v, off, m)
	case vector.Bytes:
		c.bytes(v, off, m, nonNull)
	}
	c.val += nonNull
	return nil
}

func (d *denseValues) len() int {
	switch {
	case d.offsets != nil:
		return len(d.offsets) - 1
	case d.size > 0:
		return len(d.data) / d.size
	}
	return max(len(d.i32), len(d.i64), len(d.f32), len(d.f64), 8*len(d.bits))
}

// spread copies the dense values of m rows to dst at off, skipping the
// NULL rows, which v marks.
func spread[T any](v *vector.Vector, off, m int, dense, dst []T) {
	if !v.HasNulls || len(dense) == m {
		copy(dst[off:off+m], dense)
		return
	}
	j := 0
	for i := off; i < off+m; i++ {
		if !v.Nulls[i] {
			dst[i] = dense[j]
			j++
		}
	}
}

// widen copies INT32-stored DECIMAL values into an Int64s vector.
func (c *vectorColumn) widen(v *vector.Vector, off, m int, dense []int32) {
	j := 0
	for i := off; i < off+m; i++ {
		if !v.IsNull(i) {
			v.Int64[i] = int64(dense[j])
			j++
		}
	}
}

func (c *vectorColumn) bools(v *vector.Vector, off, m int) {
	j := c.val
	for i := off; i < off+m; i++ {
		if !v.IsNull(i) {
			v.Bool[i] = c.dense.bits[j>>3]>>(j&7)&1 != 0
			j++
		}
	}
}

// bytes appends the values of m rows to v's data; a NULL row gets an
// empty range.
func (c *vectorColumn) bytes(v *vector.Vector, off, m, nonNull int) {
	d := &c.dense
	if d.offsets != nil && nonNull == m {
		first, last := d.offsets[c.val], d.offsets[c.val+m]
		base := uint32(len(v.Data)) - first
		v.Data = append(v.Data, d.data[first:last]...)
		for i := range m {
			v.Offsets[off+i+1] = base + d.offsets[c.val+i+1]
		}
		return
	}
	j := c.val
	for i := off; i < off+m; i++ {
		if !v.IsNull(i) {
			v.Data = append(v.Data, d.value(j)...)
			j++
		}
		v.Offsets[i+1] = uint32(len(v.Data))
	}
}
