package orcio

import (
	"bytes"
	"compress/flate"
	"errors"
	"testing"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// chunk frames body as one chunk: a 3-byte header of length << 1 |
// original.
func chunk(body []byte, original bool) []byte {
	h := len(body) << 1
	if original {
		h |= 1
	}
	return append([]byte{byte(h), byte(h >> 8), byte(h >> 16)}, body...)
}

func compressBlock(t *testing.T, kind CompressionKind, raw []byte) []byte {
	t.Helper()
	switch kind {
	case CompressionZlib:
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.BestSpeed)
		w.Write(raw)
		w.Close()
		return b.Bytes()
	case CompressionSnappy:
		return snappy.Encode(nil, raw)
	case CompressionLZ4:
		out := make([]byte, lz4.CompressBlockBound(len(raw)))
		n, err := lz4.CompressBlock(raw, out, nil)
		if err != nil || n == 0 {
			t.Fatalf("lz4: %d, %v", n, err)
		}
		return out[:n]
	default:
		enc, _ := zstd.NewWriter(nil)
		defer enc.Close()
		return enc.EncodeAll(raw, nil)
	}
}

// TestStreamsOfEveryCodec inflates streams of several chunks, compressed
// and original ones mixed, in each codec (pyarrow's LZ4 writer stores
// every chunk original, so this is where LZ4 blocks are read).
func TestStreamsOfEveryCodec(t *testing.T) {
	parts := [][]byte{bytes.Repeat([]byte("paimon orc "), 400), []byte("incompressible?"), bytes.Repeat([]byte{7}, 4096)}
	for _, kind := range []CompressionKind{CompressionZlib, CompressionSnappy, CompressionLZ4, CompressionZstd} {
		d, err := newDecompressor(postScript{compression: kind, blockSize: 8192})
		if err != nil {
			t.Fatal(err)
		}
		stream := append(chunk(compressBlock(t, kind, parts[0]), false), chunk(parts[1], true)...)
		stream = append(stream, chunk(compressBlock(t, kind, parts[2]), false)...)
		got, err := d.inflate(stream, 1<<20)
		if want := bytes.Join(parts, nil); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", kind, len(got), err, len(want))
		}
	}
}

// TestInflationIsBounded: a chunk inflating beyond the block size, a
// stream beyond its limit, and a chunk header overrunning the stream are
// corruption.
func TestInflationIsBounded(t *testing.T) {
	big := bytes.Repeat([]byte{1}, 10000)
	for _, kind := range []CompressionKind{CompressionZlib, CompressionSnappy, CompressionLZ4, CompressionZstd} {
		d, _ := newDecompressor(postScript{compression: kind, blockSize: 4096})
		if _, err := d.inflate(chunk(compressBlock(t, kind, big), false), 1<<20); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("%s: chunk beyond the block size: %v", kind, err)
		}
	}
	d, _ := newDecompressor(postScript{compression: CompressionZstd, blockSize: 1 << 16})
	if _, err := d.inflate(chunk(compressBlock(t, CompressionZstd, big), false), 5000); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("stream beyond its limit: %v", err)
	}
	if _, err := d.inflate(chunk([]byte("abc"), true)[:4], 5000); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("truncated chunk: %v", err)
	}
	if _, err := newDecompressor(postScript{compression: CompressionLZO, blockSize: 4096}); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("LZO: %v", err)
	}
}
