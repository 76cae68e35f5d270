package globalindex

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// decompress undoes a block's compression. A compressed block starts with
// its uncompressed length as a varint (SstFileReader.decompressBlock); a
// zstd block is then a zstd frame, an LZ4 block an 8-byte header
// (compressed and original lengths, little-endian ints) and an LZ4 block
// (Java's Lz4BlockCompressor).
func decompress(raw []byte, compression byte) ([]byte, error) {
	if compression == compressionNone {
		return raw, nil
	}
	length, n := binary.Uvarint(raw)
	if n <= 0 || length > maxBlockSize {
		return nil, corrupt("malformed compressed block length")
	}
	payload := raw[n:]
	out := make([]byte, length)
	switch compression {
	case compressionZstd:
		d, err := zstdDecoder()
		if err != nil {
			return nil, err
		}
		got, err := d.DecodeAll(payload, out[:0])
		if err != nil || uint64(len(got)) != length {
			return nil, corrupt(fmt.Sprintf("zstd block: %v", err))
		}
		return got, nil
	case compressionLZ4:
		if len(payload) < 8 {
			return nil, corrupt("LZ4 block shorter than its header")
		}
		compressed, original := binary.LittleEndian.Uint32(payload), binary.LittleEndian.Uint32(payload[4:])
		if uint64(original) != length || uint64(compressed) > uint64(len(payload)-8) {
			return nil, corrupt("malformed LZ4 block header")
		}
		got, err := lz4.UncompressBlock(payload[8:8+compressed], out)
		if err != nil || uint64(got) != length {
			return nil, corrupt(fmt.Sprintf("LZ4 block: %v", err))
		}
		return out, nil
	}
	return nil, corrupt(fmt.Sprintf("compression type %d", compression))
}

// maxBlockSize bounds a block's uncompressed length, so that a corrupt
// length cannot ask for gigabytes; Java's blocks are 64 KiB by default
// (btree-index.block-size).
const maxBlockSize = 256 << 20

var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
})
