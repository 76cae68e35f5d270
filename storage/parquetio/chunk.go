package parquetio

import (
	"errors"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

const (
	// maxPageValues and maxPageSize bound what one page header may claim.
	// parquet-go allocates buffers of the claimed sizes before decoding, so
	// a hostile header could otherwise exhaust memory. Real pages are far
	// smaller: parquet-mr cuts pages at 1 MiB and 20,000 rows by default.
	maxPageValues = 1 << 24
	maxPageSize   = 1 << 28
)

// chunkReaderAt serves one column chunk, read from the file in a single
// request, at its absolute file offsets. Like parquet-mr, which reads whole
// row groups, this trades memory for few large reads on object stores.
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
	if err := checkPages(r.name, path, data); err != nil {
		return nil, err
	}
	chunk, ok := r.file.RowGroups()[g].ColumnChunks()[leaf].(*parquet.FileColumnChunk)
	if !ok {
		return nil, corruptionf(r.name, "column %s: unexpected chunk layout", path)
	}
	return chunk.PagesFrom(&chunkReaderAt{base: start, data: data}), nil
}

func supportedCodec(c format.CompressionCodec) bool {
	switch c {
	case format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.Zstd, format.Lz4Raw:
		return true
	}
	return false
}

func columnPathString(path []string) string { return strings.Join(path, ".") }

// checkPages walks the page headers of a chunk before parquet-go decodes
// it, rejecting sizes that do not fit and encodings it cannot decode.
func checkPages(name, path string, data []byte) error {
	var protocol thrift.CompactProtocol
	for off := 0; off < len(data); {
		var h format.PageHeader
		in := protocol.NewReaderFromBytes(data[off:])
		if err := thrift.NewDecoder(in).Decode(&h); err != nil {
			return corruptionf(name, "column %s: page header at chunk offset %d: %v", path, off, err)
		}
		off += in.BytesRead()
		if h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(data)-off {
			return corruptionf(name, "column %s: page of %d bytes overruns its chunk", path, h.CompressedPageSize)
		}
		if h.UncompressedPageSize < 0 || h.UncompressedPageSize > maxPageSize {
			return corruptionf(name, "column %s: page claims %d uncompressed bytes", path, h.UncompressedPageSize)
		}
		if err := checkPageHeader(name, path, &h); err != nil {
			return err
		}
		off += int(h.CompressedPageSize)
	}
	return nil
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
	pages  parquet.Pages
	page   parquet.Page
	values parquet.ValueReader
	buf    []parquet.Value
	pos    int
	done   bool
}

const cursorBufferSize = 512

func newLeafCursor() *leafCursor {
	return &leafCursor{buf: make([]parquet.Value, 0, cursorBufferSize)}
}

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
}
