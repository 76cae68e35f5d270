package parquetio

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
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
	case format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.Zstd, format.Lz4Raw, format.Lz4:
		return true
	}
	return false
}

var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxPageSize))
})

// decompress inflates one page body of a known decompressed size,
// appending it to dst so that a chunk's pages decode into one buffer.
func decompress(codec format.CompressionCodec, dst, src []byte, size int) ([]byte, error) {
	base := len(dst)
	dst = slices.Grow(dst, size)
	tail := dst[base : base+size]
	var n int
	var err error
	switch codec {
	case format.Uncompressed:
		n = copy(tail, src)
		if len(src) != size {
			n = len(src)
		}
	case format.Snappy:
		n, err = decodeSnappy(tail, src)
	case format.Gzip:
		var r *gzip.Reader
		if r, err = gzip.NewReader(bytes.NewReader(src)); err == nil {
			n, err = readBounded(r, tail)
		}
	case format.Brotli:
		n, err = readBounded(brotli.NewReader(bytes.NewReader(src)), tail)
	case format.Zstd:
		n, err = decodeZstd(tail, src)
	case format.Lz4Raw:
		n, err = lz4.UncompressBlock(src, tail)
	case format.Lz4:
		n, err = decodeHadoopLZ4(tail, src)
	default:
		err = fmt.Errorf("codec %s", codec)
	}
	if err == nil && n != size {
		err = fmt.Errorf("page decompresses to %d bytes, its header says %d", n, size)
	}
	return dst[:base+size], err
}

// decodeHadoopLZ4 decodes the deprecated LZ4 codec as parquet-mr (so Java
// Paimon's file.compression = lz4) writes it: Hadoop's block framing, a
// big-endian uncompressed length per block followed by chunks of a
// big-endian compressed length and an LZ4 block each. Pages that do not
// parse as that framing are tried as one raw LZ4 block, as some other
// writers produced for this codec.
func decodeHadoopLZ4(dst, src []byte) (int, error) {
	if n, ok := hadoopLZ4Frames(dst, src); ok {
		return n, nil
	}
	return lz4.UncompressBlock(src, dst)
}

func hadoopLZ4Frames(dst, src []byte) (int, bool) {
	out := 0
	for len(src) > 0 {
		if len(src) < 4 {
			return 0, false
		}
		block := uint64(binary.BigEndian.Uint32(src))
		src = src[4:]
		if block > uint64(len(dst)-out) {
			return 0, false
		}
		end := out + int(block)
		for out < end {
			if len(src) < 4 {
				return 0, false
			}
			c := uint64(binary.BigEndian.Uint32(src))
			src = src[4:]
			if c == 0 || c > uint64(len(src)) {
				return 0, false
			}
			n, err := lz4.UncompressBlock(src[:c], dst[out:end])
			if err != nil || n == 0 {
				return 0, false
			}
			out += n
			src = src[c:]
		}
	}
	return out, true
}

func decodeSnappy(dst, src []byte) (int, error) {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return 0, err
	}
	if n != len(dst) {
		return n, nil
	}
	out, err := snappy.Decode(dst, src)
	return len(out), err
}

// decodeZstd decodes into dst, whose length is the expected size; a
// longer result is reported by its length (DecodeAll then allocates, but
// only up to the decoder's memory bound).
func decodeZstd(dst, src []byte) (int, error) {
	dec, err := zstdDecoder()
	if err != nil {
		return 0, err
	}
	out, err := dec.DecodeAll(src, dst[:0])
	if len(out) == len(dst) && len(out) > 0 && &out[0] != &dst[0] {
		// The decoder sized its own buffer from the frame header.
		copy(dst, out)
	}
	return len(out), err
}

// readBounded reads a stream expected to fill dst, reading one byte more
// to detect a longer one without inflating all of it; it returns the
// length read, len(dst)+1 for a longer stream.
func readBounded(r io.Reader, dst []byte) (int, error) {
	n, err := io.ReadFull(r, dst)
	switch {
	case err == nil:
		var extra [1]byte
		if m, _ := io.ReadFull(r, extra[:]); m > 0 {
			return n + 1, nil
		}
		return n, nil
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return n, nil
	}
	return n, err
}

// decodedChunk rewrites the pages of a stored column chunk as uncompressed
// pages for parquet-go, checking each header, checksum and size first.
// sizeHint is the chunk's uncompressed size from the footer, which is only
// trusted as a capacity within bounds.
func decodedChunk(name, path string, data []byte, codec format.CompressionCodec, sizeHint int64) ([]byte, error) {
	var protocol thrift.CompactProtocol
	capacity := int64(len(data))
	if sizeHint > capacity && sizeHint <= maxPageSize {
		capacity = sizeHint
	}
	out := make([]byte, 0, capacity)
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
		// The body is decompressed right behind its header, which declares
		// the size decompression is checked to produce.
		h.CompressedPageSize, h.CRC = h.UncompressedPageSize, 0
		head, err := thrift.Marshal(&protocol, h)
		if err != nil {
			return nil, err
		}
		out = append(out, head...)
		if out, err = appendPageBody(out, h, stored, codec); err != nil {
			return nil, corruptionf(name, "column %s: %v", path, err)
		}
	}
	return out, nil
}

// appendPageBody decompresses a page onto dst; in v2 data pages only the
// values after the levels are compressed, and only when the header says
// so.
func appendPageBody(dst []byte, h *format.PageHeader, stored []byte, codec format.CompressionCodec) ([]byte, error) {
	size := int(h.UncompressedPageSize)
	if !h.DataPageHeaderV2.Valid {
		return decompress(codec, dst, stored, size)
	}
	v2 := &h.DataPageHeaderV2.V
	rep, def := int(v2.RepetitionLevelsByteLength), int(v2.DefinitionLevelsByteLength)
	if rep < 0 || def < 0 || rep+def > len(stored) || rep+def > size {
		return nil, fmt.Errorf("v2 page levels of %d+%d bytes do not fit", rep, def)
	}
	if v2.IsCompressed.Valid && !v2.IsCompressed.V {
		codec = format.Uncompressed
	}
	return decompress(codec, append(dst, stored[:rep+def]...), stored[rep+def:], size-rep-def)
}
