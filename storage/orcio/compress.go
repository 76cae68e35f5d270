package orcio

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// defaultBlockSize is orc.compress.size's default, the PostScript's
// compressionBlockSize when a writer leaves it out.
const defaultBlockSize = 256 << 10

// maxBlockSize bounds the declared chunk size, so that a damaged
// PostScript cannot make each chunk allocate without end. Writers use
// 256 KiB (Java's default) up to a few MiB.
const maxBlockSize = 16 << 20

// A compressed ORC stream is a sequence of chunks, each with a 3-byte
// little-endian header: length << 1 | isOriginal. An original chunk is
// stored as is (the codec did not make it smaller); the others are one
// block of the file's codec (zlib without its header, that is raw
// DEFLATE; snappy and lz4 raw blocks; zstd frames) that inflates to at
// most the PostScript's compressionBlockSize. An uncompressed file has no
// chunk headers at all.

// decompressor inflates the streams of one file.
type decompressor struct {
	kind      CompressionKind
	blockSize int
}

func newDecompressor(ps postScript) (decompressor, error) {
	switch ps.compression {
	case CompressionNone, CompressionZlib, CompressionSnappy, CompressionLZ4, CompressionZstd:
	default:
		return decompressor{}, fmt.Errorf("%w: %s compression", errUnsupported, ps.compression)
	}
	if ps.compression != CompressionNone && (ps.blockSize == 0 || ps.blockSize > maxBlockSize) {
		return decompressor{}, corruptf("compression block size %d", ps.blockSize)
	}
	return decompressor{kind: ps.compression, blockSize: int(ps.blockSize)}, nil
}

// inflate returns the uncompressed bytes of stream b; limit bounds their
// total, as a damaged or hostile file could otherwise expand without end.
func (d decompressor) inflate(b []byte, limit int) ([]byte, error) {
	if d.kind == CompressionNone {
		return b, nil
	}
	var out []byte
	for len(b) > 0 {
		if len(b) < 3 {
			return nil, corruptf("truncated chunk header")
		}
		header := int(b[0]) | int(b[1])<<8 | int(b[2])<<16
		n := header >> 1
		if n > len(b)-3 {
			return nil, corruptf("chunk of %d bytes with %d left", n, len(b)-3)
		}
		chunk := b[3 : 3+n]
		b = b[3+n:]
		if header&1 == 1 {
			if len(out) == 0 && len(b) == 0 {
				return chunk, nil
			}
			out = append(out, chunk...)
		} else {
			var err error
			if out, err = d.block(out, chunk); err != nil {
				return nil, corruptf("%s chunk: %v", d.kind, err)
			}
		}
		if len(out) > limit {
			return nil, corruptf("stream inflates beyond %d bytes", limit)
		}
	}
	return out, nil
}

// block appends the inflated chunk to out.
func (d decompressor) block(out, chunk []byte) ([]byte, error) {
	switch d.kind {
	case CompressionZlib:
		r := flate.NewReader(bytes.NewReader(chunk))
		defer r.Close()
		var buf bytes.Buffer
		buf.Grow(min(d.blockSize, 4*len(chunk)+64))
		n, err := io.Copy(&buf, io.LimitReader(r, int64(d.blockSize)+1))
		if err != nil {
			return nil, err
		}
		if n > int64(d.blockSize) {
			return nil, fmt.Errorf("inflates beyond the block size %d", d.blockSize)
		}
		return append(out, buf.Bytes()...), nil
	case CompressionSnappy:
		n, err := snappy.DecodedLen(chunk)
		if err != nil {
			return nil, err
		}
		if n > d.blockSize {
			return nil, fmt.Errorf("inflates to %d bytes, beyond the block size %d", n, d.blockSize)
		}
		start := len(out)
		out = slices.Grow(out, n)[:start+n]
		_, err = snappy.Decode(out[start:], chunk)
		return out, err
	case CompressionLZ4:
		start := len(out)
		out = slices.Grow(out, d.blockSize)[:start+d.blockSize]
		n, err := lz4.UncompressBlock(chunk, out[start:])
		return out[:start+n], err
	default:
		dec, err := zstdDecoder()
		if err != nil {
			return nil, err
		}
		start := len(out)
		out, err := dec.DecodeAll(chunk, out)
		if err == nil && len(out)-start > d.blockSize {
			err = fmt.Errorf("inflates beyond the block size %d", d.blockSize)
		}
		return out, err
	}
}

// zstdDecoder is shared by every file, as parquetio shares its own:
// DecodeAll is safe for concurrent use. Chunks are at most maxBlockSize.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxBlockSize))
})
