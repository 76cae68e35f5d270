package parquetio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// Pages are decompressed here rather than by parquet-go, whose codecs size
// their output from the compressed data itself (a corrupt page can make
// them allocate until the process dies). Every page must decompress to
// exactly the size its header declares, which checkPageHeader bounds.

func supportedCodec(c format.CompressionCodec) bool {
	switch c {
	case format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.Zstd, format.Lz4Raw:
		return true
	}
	return false
}

var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxPageSize))
})

// decompress inflates one page body of a known decompressed size.
func decompress(codec format.CompressionCodec, src []byte, size int) ([]byte, error) {
	var out []byte
	var err error
	switch codec {
	case format.Uncompressed:
		out = src
	case format.Snappy:
		out, err = decodeSnappy(src, size)
	case format.Gzip:
		var r *gzip.Reader
		if r, err = gzip.NewReader(bytes.NewReader(src)); err == nil {
			out, err = readBounded(r, size)
		}
	case format.Brotli:
		out, err = readBounded(brotli.NewReader(bytes.NewReader(src)), size)
	case format.Zstd:
		out, err = decodeZstd(src, size)
	case format.Lz4Raw:
		out = make([]byte, size)
		var n int
		n, err = lz4.UncompressBlock(src, out)
		out = out[:n]
	default:
		err = fmt.Errorf("codec %s", codec)
	}
	if err == nil && len(out) != size {
		err = fmt.Errorf("page decompresses to %d bytes, its header says %d", len(out), size)
	}
	return out, err
}

func decodeSnappy(src []byte, size int) ([]byte, error) {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return nil, err
	}
	if n != size {
		return nil, fmt.Errorf("snappy block of %d bytes, header says %d", n, size)
	}
	return snappy.Decode(make([]byte, size), src)
}

func decodeZstd(src []byte, size int) ([]byte, error) {
	dec, err := zstdDecoder()
	if err != nil {
		return nil, err
	}
	return dec.DecodeAll(src, make([]byte, 0, size))
}

// readBounded reads a stream expected to hold size bytes, reading one more
// to detect a longer one without inflating all of it.
func readBounded(r io.Reader, size int) ([]byte, error) {
	buf := make([]byte, size+1)
	n, err := io.ReadFull(r, buf)
	switch {
	case err == nil:
		return nil, fmt.Errorf("page decompresses to more than the %d bytes its header says", size)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return buf[:n], nil
	}
	return nil, err
}

// decodedChunk rewrites the pages of a stored column chunk as uncompressed
// pages for parquet-go, checking each header, checksum and size first.
func decodedChunk(name, path string, data []byte, codec format.CompressionCodec) ([]byte, error) {
	var protocol thrift.CompactProtocol
	out := make([]byte, 0, len(data))
	for off := 0; off < len(data); {
		h, size, err := readPageHeader(name, path, &protocol, data[off:])
		if err != nil {
			return nil, err
		}
		off += size
		stored := data[off : off+int(h.CompressedPageSize)]
		off += len(stored)
		if h.CRC != 0 && int32(crc32.ChecksumIEEE(stored)) != h.CRC {
			return nil, corruptionf(name, "column %s: page checksum mismatch", path)
		}
		body, err := pageBody(h, stored, codec)
		if err != nil {
			return nil, corruptionf(name, "column %s: %v", path, err)
		}
		h.CompressedPageSize, h.CRC = int32(len(body)), 0
		head, err := thrift.Marshal(&protocol, h)
		if err != nil {
			return nil, err
		}
		out = append(append(out, head...), body...)
	}
	return out, nil
}

// pageBody decompresses a page; in v2 data pages only the values after
// the levels are compressed, and only when the header says so.
func pageBody(h *format.PageHeader, stored []byte, codec format.CompressionCodec) ([]byte, error) {
	size := int(h.UncompressedPageSize)
	if !h.DataPageHeaderV2.Valid {
		return decompress(codec, stored, size)
	}
	v2 := &h.DataPageHeaderV2.V
	rep, def := int(v2.RepetitionLevelsByteLength), int(v2.DefinitionLevelsByteLength)
	if rep < 0 || def < 0 || rep+def > len(stored) || rep+def > size {
		return nil, fmt.Errorf("v2 page levels of %d+%d bytes do not fit", rep, def)
	}
	if v2.IsCompressed.Valid && !v2.IsCompressed.V {
		codec = format.Uncompressed
	}
	values, err := decompress(codec, stored[rep+def:], size-rep-def)
	return append(stored[:rep+def:rep+def], values...), err
}
