package spec

import (
	"bytes"
	"compress/flate"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"sync"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Avro Object Container Files
// (https://avro.apache.org/docs/1.11.1/specification/#object-container-files):
//
//	"Obj" 0x01 | metadata map<bytes> | 16-byte sync marker
//	then blocks of: object count (long) | byte size (long) | data | sync marker
//
// The container is implemented here rather than with hamba/avro's ocf
// package because that package pulls in a snappy module this repository does
// not carry, and because writing the schema text verbatim keeps our headers
// byte-identical to Java's.

var (
	avroMagic = []byte("Obj\x01")
	orcMagic  = []byte("ORC")
)

const (
	avroSyncSize = 16
	// avroBlockTarget is the uncompressed size after which the writer starts
	// a new block: Avro Java's default sync interval, which Paimon uses.
	avroBlockTarget = 64000
	// avroMaxBlockSize bounds one decompressed block, so that a small hostile
	// file cannot expand into gigabytes. Java writes blocks of about 64 KB.
	avroMaxBlockSize = 16 << 20
	avroCodecZstd    = "zstandard"
)

// avroContainer is a parsed container header and its undecoded blocks.
type avroContainer struct {
	schema []byte
	codec  string
	sync   []byte
	body   avroReader // positioned at the first block
}

// avroOpenContainer parses the container header. Files written with
// manifest.format=orc are reported as unsupported rather than corrupt.
func avroOpenContainer(data []byte) (*avroContainer, error) {
	if bytes.HasPrefix(data, orcMagic) {
		return nil, fmt.Errorf("%w: ORC manifests (manifest.format=orc)", lakeerr.ErrUnsupported)
	}
	if !bytes.HasPrefix(data, avroMagic) {
		return nil, fmt.Errorf("not an Avro container file: %w", lakeerr.ErrCorruption)
	}
	c := &avroContainer{codec: "null", body: avroReader{buf: data, pos: len(avroMagic)}}
	if err := c.readMetadata(); err != nil {
		return nil, fmt.Errorf("avro header: %w", err)
	}
	if c.schema == nil {
		return nil, fmt.Errorf("avro header: no avro.schema: %w", lakeerr.ErrCorruption)
	}
	sync, err := c.body.take(avroSyncSize)
	if err != nil {
		return nil, fmt.Errorf("avro header: %w", err)
	}
	c.sync = sync
	return c, nil
}

func (c *avroContainer) readMetadata() error {
	return c.body.items(func() error {
		key, err := c.body.string()
		if err != nil {
			return err
		}
		value, err := c.body.bytes()
		if err != nil {
			return err
		}
		switch key {
		case "avro.schema":
			c.schema = value
		case "avro.codec":
			c.codec = string(value)
		}
		return nil
	})
}

// nextBlock returns the object count and decompressed data of the next
// block, or count 0 and no error at the end of the file.
func (c *avroContainer) nextBlock() (int, []byte, error) {
	r := &c.body
	if r.remaining() == 0 {
		return 0, nil, nil
	}
	count, err := r.long()
	if err != nil {
		return 0, nil, err
	}
	size, err := r.long()
	if err != nil {
		return 0, nil, err
	}
	raw, err := r.take(size)
	if err != nil {
		return 0, nil, err
	}
	sync, err := r.take(avroSyncSize)
	if err != nil {
		return 0, nil, err
	}
	if !bytes.Equal(sync, c.sync) {
		return 0, nil, fmt.Errorf("avro: sync marker mismatch: %w", lakeerr.ErrCorruption)
	}
	data, err := avroDecompress(c.codec, raw)
	if err != nil {
		return 0, nil, err
	}
	// Every record holds at least its _VERSION, so it takes at least a byte.
	if count <= 0 || count > int64(len(data)) {
		return 0, nil, fmt.Errorf("avro: invalid block count %d: %w", count, lakeerr.ErrCorruption)
	}
	return int(count), data, nil
}

// recordCount sums the object counts of the block headers, without
// decompressing, so that the result can be sized once. It stops at the
// first malformed header; nextBlock reports the error.
func (c *avroContainer) recordCount() int {
	r := c.body
	total := int64(0)
	for r.remaining() > 0 {
		count, err := r.long()
		if err != nil || count <= 0 {
			break
		}
		size, err := r.long()
		if err != nil {
			break
		}
		if _, err := r.take(size); err != nil {
			break
		}
		if _, err := r.take(avroSyncSize); err != nil {
			break
		}
		total = min(total+count, math.MaxInt32)
	}
	return int(total)
}

// avroDecompress returns a block's uncompressed data in a buffer that the
// caller owns (decoded values alias it).
func avroDecompress(codec string, raw []byte) ([]byte, error) {
	var data []byte
	var err error
	switch codec {
	case "null":
		data = bytes.Clone(raw)
	case avroCodecZstd:
		data, err = avroZstdDecoder().DecodeAll(raw, nil)
	case "snappy":
		data, err = avroSnappyDecode(raw)
	case "deflate":
		data, err = avroInflate(raw)
	default:
		return nil, fmt.Errorf("avro codec %q: %w", codec, lakeerr.ErrUnsupported)
	}
	if err != nil {
		return nil, fmt.Errorf("avro %s block: %v: %w", codec, err, lakeerr.ErrCorruption)
	}
	return data, nil
}

// avroSnappyDecode decodes Avro's snappy framing: a raw snappy block followed
// by the big-endian CRC-32 of the uncompressed data.
func avroSnappyDecode(raw []byte) ([]byte, error) {
	if len(raw) < 4 {
		return nil, fmt.Errorf("block shorter than its checksum")
	}
	block, sum := raw[:len(raw)-4], binary.BigEndian.Uint32(raw[len(raw)-4:])
	n, err := snappy.DecodedLen(block)
	if err != nil {
		return nil, err
	}
	if n > avroMaxBlockSize {
		return nil, fmt.Errorf("block of %d bytes is too large", n)
	}
	data, err := snappy.Decode(nil, block)
	if err != nil {
		return nil, err
	}
	if crc32.ChecksumIEEE(data) != sum {
		return nil, fmt.Errorf("checksum mismatch")
	}
	return data, nil
}

// avroInflate decodes Avro's deflate codec: raw DEFLATE without zlib framing.
func avroInflate(raw []byte) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), avroMaxBlockSize+1))
	if err == nil && len(data) > avroMaxBlockSize {
		err = fmt.Errorf("block is too large")
	}
	return data, err
}

// The zstd coder pair is shared: DecodeAll and EncodeAll are safe for
// concurrent use, and building them allocates large tables.
var (
	avroZstdDecoder = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(avroMaxBlockSize), zstd.WithDecoderConcurrency(0))
		if err != nil {
			panic(fmt.Sprintf("spec: zstd decoder options: %v", err))
		}
		return d
	})
	avroZstdEncoder = sync.OnceValue(func() *zstd.Encoder {
		// Paimon's default file.compression.zstd-level is 1.
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(1)))
		if err != nil {
			panic(fmt.Sprintf("spec: zstd encoder options: %v", err))
		}
		return e
	})
)

// avroContainerWriter writes a zstandard-compressed container file with a
// fixed schema text. Records are appended to block and flushed in blocks of
// about avroBlockTarget bytes.
type avroContainerWriter struct {
	out   avroWriter
	block avroWriter
	count int
	sync  [avroSyncSize]byte
}

func newAvroContainerWriter(schema string) *avroContainerWriter {
	w := &avroContainerWriter{}
	rand.Read(w.sync[:])
	w.out.buf = append(w.out.buf, avroMagic...)
	// The same two keys in the same order as Java's DataFileWriter.
	w.out.long(2)
	w.out.string("avro.schema")
	w.out.string(schema)
	w.out.string("avro.codec")
	w.out.string(avroCodecZstd)
	w.out.long(0)
	w.out.buf = append(w.out.buf, w.sync[:]...)
	return w
}

// endRecord marks the end of one record written to w.block.
func (w *avroContainerWriter) endRecord() {
	w.count++
	if len(w.block.buf) >= avroBlockTarget {
		w.flush()
	}
}

func (w *avroContainerWriter) flush() {
	if w.count == 0 {
		return
	}
	compressed := avroZstdEncoder().EncodeAll(w.block.buf, nil)
	w.out.long(int64(w.count))
	w.out.long(int64(len(compressed)))
	w.out.buf = append(w.out.buf, compressed...)
	w.out.buf = append(w.out.buf, w.sync[:]...)
	w.block.buf, w.count = w.block.buf[:0], 0
}

// finish flushes the last block and returns the file.
func (w *avroContainerWriter) finish() []byte {
	w.flush()
	return w.out.buf
}
