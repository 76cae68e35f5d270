package parquetio

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/klauspost/compress/zstd"
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
	stats          columnStatsBuilder

	reps, defs  []uint8
	values      []byte
	bools       []bool // BOOLEAN values, bit-packed when the page is cut
	pageEntries int    // entries (values and nulls) of the open page
	pageRows    int    // rows of the open page
	pageNulls   int

	chunk            []byte // encoded pages of the row group
	numValues        int64
	uncompressedSize int64
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
	c.stats.nulls++
}

func (c *columnWriter) bufferedSize() int {
	return len(c.values) + len(c.bools)/8 + len(c.reps) + len(c.defs)
}

// cutPage encodes the open page as a v1 data page, PLAIN values with RLE
// levels as parquet-mr writes them, and appends it to the chunk.
func (c *columnWriter) cutPage(enc *zstd.Encoder) error {
	entries := c.pageEntries
	if entries == 0 {
		return nil
	}
	body, err := c.pageBody()
	if err != nil {
		return err
	}
	compressed := enc.EncodeAll(body, nil)
	header := format.PageHeader{
		Type:                 format.DataPage,
		UncompressedPageSize: int32(len(body)),
		CompressedPageSize:   int32(len(compressed)),
	}
	header.DataPageHeader.Set(format.DataPageHeader{
		NumValues:               int32(entries),
		Encoding:                format.Plain,
		DefinitionLevelEncoding: format.RLE,
		RepetitionLevelEncoding: format.RLE,
		Statistics:              format.Statistics{NullCount: int64(c.pageNulls)},
	})
	head, err := thrift.Marshal(new(thrift.CompactProtocol), &header)
	if err != nil {
		return err
	}
	c.chunk = append(append(c.chunk, head...), compressed...)
	c.numValues += int64(entries)
	c.uncompressedSize += int64(len(head) + len(body))
	c.reps, c.defs, c.values, c.bools = c.reps[:0], c.defs[:0], c.values[:0], c.bools[:0]
	c.pageEntries, c.pageNulls, c.pageRows = 0, 0, 0
	return nil
}

func (c *columnWriter) pageBody() ([]byte, error) {
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
	if c.physical == format.Boolean {
		return appendBitPacked(body, c.bools), nil
	}
	return append(body, c.values...), nil
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

// chunkMetadata describes the chunk once written at offset.
func (c *columnWriter) chunkMetadata(offset int64) format.ColumnChunk {
	return format.ColumnChunk{
		FileOffset: offset,
		MetaData: format.ColumnMetaData{
			Type:                  c.physical,
			Encoding:              []format.Encoding{format.Plain, format.RLE},
			PathInSchema:          c.path,
			Codec:                 format.Zstd,
			NumValues:             c.numValues,
			TotalUncompressedSize: c.uncompressedSize,
			TotalCompressedSize:   int64(len(c.chunk)),
			DataPageOffset:        offset,
			Statistics:            c.stats.statistics(),
		},
	}
}

// resetChunk prepares the column for the next row group.
func (c *columnWriter) resetChunk() {
	c.chunk, c.numValues, c.uncompressedSize = c.chunk[:0], 0, 0
	c.stats.reset()
}
