package parquetio

import (
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

const (
	// maxPageValues and maxPageSize bound what one page header may claim.
	// Decoding allocates what the header claims (the decompressed body
	// here, level buffers in parquet-go) before the data can disprove it,
	// so a damaged header could otherwise exhaust memory. Real pages are
	// far smaller: parquet-mr cuts pages at 1 MiB and 20,000 rows.
	maxPageValues = 1 << 24
	maxPageSize   = 1 << 28
)

// chunkReaderAt serves one column chunk, read from the file in a single
// request and decompressed, at its file offset. Like parquet-mr, which
// reads whole row groups, this trades memory for few large reads on
// object stores.
type chunkReaderAt struct {
	base int64
	data []byte
}

func (c *chunkReaderAt) ReadAt(p []byte, off int64) (int, error) {
	rel := off - c.base
	if rel < 0 || rel > int64(len(c.data)) {
		return 0, io.EOF
	}
	n := copy(p, c.data[rel:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// openChunk reads and checks column chunk leaf of row group g and returns
// its page reader.
func (r *Reader) openChunk(src *trackedSource, g, leaf int) (parquet.Pages, error) {
	meta := &r.meta.RowGroups[g].Columns[leaf].MetaData
	path := columnPathString(meta.PathInSchema)
	if !supportedCodec(meta.Codec) {
		return nil, unsupportedf(r.name, "column %s: compression codec %s", path, meta.Codec)
	}
	start := meta.DataPageOffset
	if meta.DictionaryPageOffset != 0 {
		start = meta.DictionaryPageOffset
	}
	if start < 0 || meta.TotalCompressedSize < 0 || start > r.size || meta.TotalCompressedSize > r.size-start {
		return nil, corruptionf(r.name, "column %s: chunk [%d,+%d) outside file of %d bytes", path, start, meta.TotalCompressedSize, r.size)
	}
	data := make([]byte, meta.TotalCompressedSize)
	if _, err := src.ReadAt(data, start); err != nil {
		return nil, src.classify(r.name, err)
	}
	return r.pagesAt(g, leaf, start, data, meta.TotalUncompressedSize)
}

func columnPathString(path []string) string { return strings.Join(path, ".") }

// readPageHeader decodes the page header at the start of data and checks
// that the page fits in the chunk and declares plausible sizes.
func readPageHeader(name, path string, protocol *thrift.CompactProtocol, data []byte) (*format.PageHeader, int, error) {
	size, err := checkThriftStruct(data)
	h := new(format.PageHeader)
	if err == nil {
		err = thrift.Unmarshal(protocol, data[:size], h)
	}
	switch {
	case err != nil:
		return nil, 0, corruptionf(name, "column %s: page header: %v", path, err)
	case h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(data)-size:
		return nil, 0, corruptionf(name, "column %s: page of %d bytes overruns its chunk", path, h.CompressedPageSize)
	case h.UncompressedPageSize < 0 || h.UncompressedPageSize > maxPageSize:
		return nil, 0, corruptionf(name, "column %s: page claims %d uncompressed bytes", path, h.UncompressedPageSize)
	}
	return h, size, checkPageHeader(name, path, h)
}

func checkPageHeader(name, path string, h *format.PageHeader) error {
	var numValues int32
	var enc format.Encoding
	switch {
	case h.DataPageHeader.Valid:
		numValues, enc = h.DataPageHeader.V.NumValues, h.DataPageHeader.V.Encoding
	case h.DataPageHeaderV2.Valid:
		numValues, enc = h.DataPageHeaderV2.V.NumValues, h.DataPageHeaderV2.V.Encoding
	case h.DictionaryPageHeader.Valid:
		numValues, enc = h.DictionaryPageHeader.V.NumValues, h.DictionaryPageHeader.V.Encoding
	default:
		return corruptionf(name, "column %s: page of type %s has no header", path, h.Type)
	}
	if numValues < 0 || numValues > maxPageValues {
		return corruptionf(name, "column %s: page claims %d values", path, numValues)
	}
	if parquet.LookupEncoding(enc) == (encoding.NotSupported{}) {
		return unsupportedf(name, "column %s: encoding %s", path, enc)
	}
	return nil
}

// leafCursor walks the (repetition level, definition level, value) entries
// of one leaf column across the pages of the current row group.
type leafCursor struct {
	// flat is set for a column that never repeats: one entry per row.
	flat   bool
	pages  parquet.Pages
	page   parquet.Page
	values parquet.ValueReader
	buf    []parquet.Value
	pos    int
	done   bool
}

const cursorBufferSize = 512

// valueBuffers are the cursors' buffers of decoded values, 12 KiB each:
// a point read opens a cursor per column of each file it reads, and
// allocating their buffers anew made a fifth of its garbage.
var valueBuffers = sync.Pool{New: func() any {
	buf := make([]parquet.Value, 0, cursorBufferSize)
	return &buf
}}

func newLeafCursor(flat bool) *leafCursor { return &leafCursor{flat: flat} }

// reset points the cursor at the pages of a new column chunk.
func (c *leafCursor) reset(pages parquet.Pages) {
	c.close()
	c.pages, c.buf, c.pos, c.done = pages, c.buf[:0], 0, false
}

// peek returns the next entry without consuming it, or nil at the end of
// the column chunk. The pointer is valid until the cursor moves.
func (c *leafCursor) peek() (*parquet.Value, error) {
	if c.pos < len(c.buf) {
		return &c.buf[c.pos], nil
	}
	if err := c.fill(); err != nil {
		return nil, err
	}
	if c.pos < len(c.buf) {
		return &c.buf[c.pos], nil
	}
	return nil, nil
}

// next consumes the next entry; running out of entries means the chunk
// holds fewer values than the row group claims rows.
func (c *leafCursor) next() (*parquet.Value, error) {
	v, err := c.peek()
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, errMissingValues
	}
	c.pos++
	return v, nil
}

var errMissingValues = errors.New("column chunk ends before the row group")

func (c *leafCursor) fill() error {
	if cap(c.buf) == 0 {
		c.buf = (*valueBuffers.Get().(*[]parquet.Value))[:0]
	}
	for !c.done {
		if c.values != nil {
			n, err := c.values.ReadValues(c.buf[:cap(c.buf)])
			c.buf, c.pos = c.buf[:n], 0
			if err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			if err != nil || n == 0 {
				// The page is released on the next fill, once the values
				// still buffered from it have been decoded.
				c.values = nil
			}
			if n > 0 {
				return nil
			}
			continue
		}
		c.releasePage()
		page, err := c.pages.ReadPage()
		if errors.Is(err, io.EOF) {
			c.done = true
			return nil
		}
		if err != nil {
			return err
		}
		c.page, c.values = page, page.Values()
	}
	return nil
}

func (c *leafCursor) releasePage() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
}

func (c *leafCursor) close() {
	c.releasePage()
	c.values = nil
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
	if cap(c.buf) > 0 {
		// Cleared, so that the pool holds no page's values alive.
		buf := c.buf[:0]
		clear(buf[:cap(buf)])
		valueBuffers.Put(&buf)
		c.buf, c.pos = nil, 0
	}
}
