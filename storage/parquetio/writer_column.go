package parquetio

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// columnWriter buffers one leaf column of the current row group: the
// levels and PLAIN values of the open page, then the finished pages.
type columnWriter struct {
	path           []string
	physical       format.Type
	maxDef, maxRep int
	// stats bounds the chunk's values, pageStats the open page's, which
	// join stats when the page is cut.
	stats, pageStats columnStatsBuilder
	dict             *columnDictionary // nil: the column's pages are PLAIN

	reps, defs  []uint8
	values      []byte
	bools       []bool // BOOLEAN values, bit-packed when the page is cut
	pageEntries int    // entries (values and nulls) of the open page
	pageRows    int    // rows of the open page
	pageNulls   int

	chunk            []byte // encoded data pages of the row group
	numValues        int64
	uncompressedSize int64
	plainPages       bool // a data page of the chunk is PLAIN
	pages            []writtenPage
	chunkRows        int64 // rows of the chunk's cut pages
}

// observe records a value the column's encoder has just appended, PLAIN
// without its length prefix.
func (c *columnWriter) observe(value []byte) {
	c.pageStats.observe(value)
	if c.dict != nil {
		c.dict.add(value)
	}
}

// addLevels records the levels of an entry whose value, if any, the
// caller has just appended.
func (c *columnWriter) addLevels(rep, def int) {
	if c.maxRep > 0 {
		c.reps = append(c.reps, uint8(rep))
	}
	if c.maxDef > 0 {
		c.defs = append(c.defs, uint8(def))
	}
	c.pageEntries++
}

func (c *columnWriter) addNull(rep, def int) {
	c.addLevels(rep, def)
	c.pageNulls++
	c.pageStats.nulls++
}

func (c *columnWriter) bufferedSize() int {
	return len(c.values) + len(c.bools)/8 + len(c.reps) + len(c.defs)
}

// cutPage encodes the open page as a v1 data page, its values
// dictionary-encoded or PLAIN with RLE levels as parquet-mr writes them,
// and appends it to the chunk.
func (c *columnWriter) cutPage(zstdLevel int) error {
	entries := c.pageEntries
	if entries == 0 {
		return nil
	}
	body, encoding, err := c.pageBody()
	if err != nil {
		return err
	}
	header := format.PageHeader{Type: format.DataPage}
	header.DataPageHeader.Set(format.DataPageHeader{
		NumValues:               int32(entries),
		Encoding:                encoding,
		DefinitionLevelEncoding: format.RLE,
		RepetitionLevelEncoding: format.RLE,
		Statistics:              format.Statistics{NullCount: int64(c.pageNulls)},
	})
	offset := len(c.chunk)
	size, err := appendPage(&c.chunk, zstdLevel, &header, body)
	if err != nil {
		return err
	}
	bounds := c.pageStats.statistics()
	c.pages = append(c.pages, writtenPage{offset: offset, size: len(c.chunk) - offset, firstRow: c.chunkRows,
		nulls: int64(c.pageNulls), onlyNulls: c.pageNulls == entries, min: bounds.MinValue, max: bounds.MaxValue})
	c.stats.join(&c.pageStats)
	c.pageStats.reset()
	c.chunkRows += int64(c.pageRows)
	c.numValues += int64(entries)
	c.uncompressedSize += size
	c.plainPages = c.plainPages || encoding == format.Plain
	c.reps, c.defs, c.values, c.bools = c.reps[:0], c.defs[:0], c.values[:0], c.bools[:0]
	c.pageEntries, c.pageNulls, c.pageRows = 0, 0, 0
	return nil
}

// appendPage appends a page of body, compressed, behind header to dst
// and returns its uncompressed size.
func appendPage(dst *[]byte, zstdLevel int, header *format.PageHeader, body []byte) (int64, error) {
	compressed, err := compressPage(zstdLevel, body)
	if err != nil {
		return 0, err
	}
	header.UncompressedPageSize = int32(len(body))
	header.CompressedPageSize = int32(len(compressed))
	head, err := thrift.Marshal(new(thrift.CompactProtocol), header)
	if err != nil {
		return 0, err
	}
	*dst = append(append(*dst, head...), compressed...)
	return int64(len(head) + len(body)), nil
}

// dictionaryPage is the chunk's dictionary page and its uncompressed
// size, or nil when no data page of the chunk refers to a dictionary.
func (c *columnWriter) dictionaryPage(zstdLevel int) ([]byte, int64, error) {
	if c.dict == nil || !c.dict.used {
		return nil, 0, nil
	}
	header := format.PageHeader{Type: format.DictionaryPage}
	header.DictionaryPageHeader.Set(format.DictionaryPageHeader{
		NumValues: c.dict.count,
		Encoding:  format.PlainDictionary,
	})
	var page []byte
	size, err := appendPage(&page, zstdLevel, &header, c.dict.entries)
	return page, size, err
}

func (c *columnWriter) pageBody() ([]byte, format.Encoding, error) {
	body, err := c.levels()
	if err != nil {
		return nil, 0, err
	}
	if c.physical == format.Boolean {
		return appendBitPacked(body, c.bools), format.Plain, nil
	}
	if c.dict != nil {
		ids, ok, err := c.dict.pageValues(len(c.values))
		if err != nil {
			return nil, 0, err
		}
		if ok {
			return append(body, ids...), format.PlainDictionary, nil
		}
	}
	return append(body, c.values...), format.Plain, nil
}

// levels are the open page's repetition and definition levels, each
// RLE behind its length.
func (c *columnWriter) levels() ([]byte, error) {
	var body []byte
	var err error
	if c.maxRep > 0 {
		if body, err = appendLevels(body, c.reps, c.maxRep); err != nil {
			return nil, err
		}
	}
	if c.maxDef > 0 {
		if body, err = appendLevels(body, c.defs, c.maxDef); err != nil {
			return nil, err
		}
	}
	return body, nil
}

// appendLevels appends RLE/bit-packed levels behind their 4-byte length,
// the v1 page layout.
func appendLevels(dst []byte, levels []uint8, maxLevel int) ([]byte, error) {
	enc := rle.Encoding{BitWidth: bits.Len(uint(maxLevel))}
	encoded, err := enc.EncodeLevels(nil, levels)
	if err != nil {
		return nil, fmt.Errorf("encoding levels: %w", err)
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(encoded)))
	return append(dst, encoded...), nil
}

// appendBitPacked appends PLAIN booleans: one bit each, least significant
// bit first.
func appendBitPacked(dst []byte, values []bool) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, (len(values)+7)/8)...)
	for i, v := range values {
		if v {
			dst[start+i/8] |= 1 << (i % 8)
		}
	}
	return dst
}

// chunkMetadata describes the chunk once written at offset, its data
// pages behind dictionaryPage (none when empty) of uncompressed size
// dictionarySize.
func (c *columnWriter) chunkMetadata(offset int64, dictionaryPage []byte, dictionarySize int64) format.ColumnChunk {
	meta := format.ColumnMetaData{
		Type:                  c.physical,
		PathInSchema:          c.path,
		Codec:                 format.Zstd,
		NumValues:             c.numValues,
		TotalUncompressedSize: dictionarySize + c.uncompressedSize,
		TotalCompressedSize:   int64(len(dictionaryPage) + len(c.chunk)),
		DataPageOffset:        offset + int64(len(dictionaryPage)),
		Statistics:            c.stats.statistics(),
	}
	if len(dictionaryPage) > 0 {
		meta.DictionaryPageOffset = offset
		meta.Encoding = append(meta.Encoding, format.PlainDictionary)
	}
	if c.plainPages {
		meta.Encoding = append(meta.Encoding, format.Plain)
	}
	meta.Encoding = append(meta.Encoding, format.RLE)
	return format.ColumnChunk{FileOffset: offset, MetaData: meta}
}

// chunkSize is the encoded size of the chunk so far, its dictionary
// counted uncompressed.
func (c *columnWriter) chunkSize() int {
	size := len(c.chunk)
	if c.dict != nil && c.dict.used {
		size += len(c.dict.entries)
	}
	return size
}

// resetChunk prepares the column for the next row group.
func (c *columnWriter) resetChunk() {
	c.chunk, c.numValues, c.uncompressedSize, c.plainPages = c.chunk[:0], 0, 0, false
	c.pages, c.chunkRows = c.pages[:0], 0
	c.stats.reset()
	if c.dict != nil {
		c.dict.reset()
	}
}
