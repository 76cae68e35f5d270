package spec

import (
	"bytes"
	"compress/bzip2"
	"compress/flate"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"sync"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Avro Object Container Files
// (https://avro.apache.org/docs/1.11.1/specification/#object-container-files):
//
//	"Obj" 0x01 | metadata map<bytes> | 16-byte sync marker
//	then blocks of: object count (long) | byte size (long) | data | sync marker

var (
	avroMagic = [4]byte{'O', 'b', 'j', 1}
	orcMagic  = []byte("ORC")
	// parquetMagic starts the files Java writes with manifest.format=parquet.
	parquetMagic = []byte("PAR1")
)

const (
	avroSyncSize = 16
	// avroBlockTarget is the uncompressed size after which the writer starts
	// a new block: Avro Java's default sync interval, which Paimon uses.
	avroBlockTarget = 64000
	// avroMaxBlockSize bounds one decompressed block, so that a small hostile
	// file cannot expand into gigabytes. Java writes blocks of about 64 KB.
	avroMaxBlockSize = 16 << 20
	// avroMaxSchemaText bounds the writer schema text; Java's are about
	// 2 KB.
	avroMaxSchemaText = 1 << 20
)

// avroAPI writes records. Records are read with the API of their avroPlan
// (see avroMaxPlans).
var avroAPI = avroConfig.Freeze()

// avroFile is a container file whose framing avroScanBlocks has checked.
// Its slices point into the file.
type avroFile struct {
	schema  []byte // the avro.schema metadata
	codec   ocf.CodecName
	blocks  []avroBlock
	records int // total object count of the blocks, capped
}

// avroBlock is one block of records, still compressed.
type avroBlock struct {
	count int64
	data  []byte
}

// avroScanBlocks reads the header and checks the framing of every block
// before any record is decoded, so that a file is rejected as a whole:
// each block must declare at least one record and no more bytes than the
// file has left, and end with the header's sync marker. Files written with
// manifest.format=orc or parquet are reported as unsupported rather than
// corrupt (package manifest reads those before they get here).
func avroScanBlocks(data []byte) (avroFile, error) {
	if bytes.HasPrefix(data, orcMagic) {
		return avroFile{}, fmt.Errorf("%w: ORC manifests (manifest.format=orc)", lakeerr.ErrUnsupported)
	}
	if bytes.HasPrefix(data, parquetMagic) {
		return avroFile{}, fmt.Errorf("%w: Parquet manifests (manifest.format=parquet)", lakeerr.ErrUnsupported)
	}
	if !bytes.HasPrefix(data, avroMagic[:]) {
		return avroFile{}, fmt.Errorf("not an Avro container file: %w", lakeerr.ErrCorruption)
	}
	c := avroCursor{data: data[len(avroMagic):]}
	file, syncMarker := avroReadHeader(&c)
	if c.err != nil {
		return avroFile{}, fmt.Errorf("avro header: %w: %w", c.err, lakeerr.ErrCorruption)
	}
	if err := avroCheckCodec(file.codec); err != nil {
		return avroFile{}, err
	}
	if len(file.schema) > avroMaxSchemaText {
		return avroFile{}, fmt.Errorf("avro schema of %d bytes: %w", len(file.schema), lakeerr.ErrCorruption)
	}
	for len(c.data) > 0 {
		block := avroReadBlock(&c, syncMarker)
		if c.err != nil {
			return avroFile{}, fmt.Errorf("avro block: %w: %w", c.err, lakeerr.ErrCorruption)
		}
		file.blocks = append(file.blocks, block)
		file.records = int(min(int64(file.records)+block.count, math.MaxInt32))
	}
	return file, nil
}

// avroReadHeader reads the header after the magic: the metadata map, of
// which only the schema and the codec matter, and the sync marker.
func avroReadHeader(c *avroCursor) (avroFile, []byte) {
	var file avroFile
	for n := c.long(); n != 0 && c.err == nil; n = c.long() {
		if n < 0 {
			n = -n
			c.long() // the byte size of a block of entries
		}
		for ; n > 0 && c.err == nil; n-- {
			key, value := c.bytes(), c.bytes()
			switch string(key) {
			case "avro.schema":
				file.schema = value
			case "avro.codec":
				file.codec = ocf.CodecName(value)
			}
		}
	}
	return file, c.next(avroSyncSize)
}

func avroReadBlock(c *avroCursor, syncMarker []byte) avroBlock {
	count := c.long()
	if c.err == nil && count <= 0 {
		c.fail(fmt.Errorf("invalid object count %d", count))
	}
	block := avroBlock{count: count, data: c.bytes()}
	if marker := c.next(avroSyncSize); c.err == nil && !bytes.Equal(marker, syncMarker) {
		c.fail(errors.New("sync marker mismatch"))
	}
	return block
}

func avroCheckCodec(codec ocf.CodecName) error {
	switch codec {
	case ocf.Null, "", ocf.ZStandard, ocf.Snappy, ocf.Deflate, avroBzip2:
		return nil
	}
	return fmt.Errorf("avro codec %q: %w", codec, lakeerr.ErrUnsupported)
}

// avroCursor reads the container framing from a byte slice, returning
// parts of it rather than copies. The first error sticks, and then every
// read returns nothing.
type avroCursor struct {
	data []byte
	err  error
}

func (c *avroCursor) fail(err error) {
	if c.err == nil {
		c.err = err
		c.data = nil
	}
}

// long reads a zigzag varint, which is what binary.Varint decodes.
func (c *avroCursor) long() int64 {
	v, n := binary.Varint(c.data)
	switch {
	case n == 0:
		c.fail(io.ErrUnexpectedEOF)
	case n < 0:
		c.fail(errors.New("varint overflow"))
	default:
		c.data = c.data[n:]
	}
	return v
}

// bytes reads a length and that many bytes.
func (c *avroCursor) bytes() []byte {
	return c.next(c.long())
}

func (c *avroCursor) next(n int64) []byte {
	if c.err == nil && (n < 0 || n > int64(len(c.data))) {
		c.fail(fmt.Errorf("%d bytes wanted, %d left", n, len(c.data)))
	}
	if c.err != nil {
		return nil
	}
	b := c.data[:n:n]
	c.data = c.data[n:]
	return b
}

// avroInflater decompresses blocks, each to at most avroMaxBlockSize
// bytes, into a buffer it reuses from block to block and, pooled, from file
// to file: decoded records never point into it, because hamba copies bytes
// and strings out.
type avroInflater struct {
	buf   []byte
	zstd  *zstd.Decoder
	flate io.ReadCloser
}

// avroInflaters holds inflaters between files. One is returned only after
// a file decoded without panicking, as a panic may have left it
// inconsistent.
var avroInflaters = sync.Pool{New: func() any { return new(avroInflater) }}

// avroMaxPooledBuffer is the largest buffer kept in the pool; larger ones
// come from hostile or unusual files and are left to the collector.
const avroMaxPooledBuffer = 1 << 20

func (f *avroInflater) release() {
	if cap(f.buf) > avroMaxPooledBuffer {
		f.buf = nil
	}
	avroInflaters.Put(f)
}

func (f *avroInflater) inflate(codec ocf.CodecName, block []byte) ([]byte, error) {
	var out []byte
	var err error
	switch codec {
	case ocf.ZStandard:
		out, err = f.zstdBlock(block)
	case ocf.Snappy:
		out, err = f.snappyBlock(block)
	case ocf.Deflate:
		out, err = f.deflateBlock(block)
	case avroBzip2:
		out, err = f.bzip2Block(block)
	default:
		return block, nil
	}
	if cap(out) > cap(f.buf) {
		f.buf = out[:0]
	}
	return out, err
}

func (f *avroInflater) zstdBlock(block []byte) ([]byte, error) {
	if f.zstd == nil {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(avroMaxBlockSize))
		if err != nil {
			panic(fmt.Sprintf("spec: zstd decoder options: %v", err))
		}
		f.zstd = d
	}
	return f.zstd.DecodeAll(block, f.buf[:0])
}

// snappyBlock decodes a raw snappy block followed by the CRC-32 of the
// uncompressed data, checking its size before allocating anything.
func (f *avroInflater) snappyBlock(block []byte) ([]byte, error) {
	if len(block) < crc32.Size {
		return nil, errors.New("snappy block without checksum")
	}
	body, sum := block[:len(block)-crc32.Size], binary.BigEndian.Uint32(block[len(block)-crc32.Size:])
	n, err := snappy.DecodedLen(body)
	if err != nil {
		return nil, err
	}
	if n > avroMaxBlockSize {
		return nil, fmt.Errorf("snappy block of %d bytes is too large", n)
	}
	out, err := snappy.Decode(f.buf[:cap(f.buf)], body)
	if err == nil && crc32.ChecksumIEEE(out) != sum {
		err = errors.New("snappy checksum mismatch")
	}
	return out, err
}

func (f *avroInflater) deflateBlock(block []byte) ([]byte, error) {
	if f.flate == nil {
		f.flate = flate.NewReader(bytes.NewReader(block))
	} else if err := f.flate.(flate.Resetter).Reset(bytes.NewReader(block), nil); err != nil {
		return nil, err
	}
	out := bytes.NewBuffer(f.buf[:0])
	if _, err := out.ReadFrom(io.LimitReader(f.flate, avroMaxBlockSize+1)); err != nil {
		return out.Bytes(), err
	}
	if out.Len() > avroMaxBlockSize {
		return out.Bytes(), fmt.Errorf("deflate block of more than %d bytes is too large", avroMaxBlockSize)
	}
	return out.Bytes(), nil
}

// avroBzip2 is the codec Java's Avro writes with avro.codec = bzip2
// (Avro's BZip2Codec); hamba has no name for it.
const avroBzip2 ocf.CodecName = "bzip2"

func (f *avroInflater) bzip2Block(block []byte) ([]byte, error) {
	out := bytes.NewBuffer(f.buf[:0])
	if _, err := out.ReadFrom(io.LimitReader(bzip2.NewReader(bytes.NewReader(block)), avroMaxBlockSize+1)); err != nil {
		return out.Bytes(), err
	}
	if out.Len() > avroMaxBlockSize {
		return out.Bytes(), fmt.Errorf("bzip2 block of more than %d bytes is too large", avroMaxBlockSize)
	}
	return out.Bytes(), nil
}

// Encoding writes files the way Java's DataFileWriter does: zstandard at
// Paimon's default level 1, blocks of about avroBlockTarget bytes, and the
// format's verbatim schema text in the header.

var avroZstdEncoders = sync.Pool{New: func() any {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(1)), zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(fmt.Sprintf("spec: zstd encoder options: %v", err))
	}
	return e
}}

// avroEncode writes n records, record(i) giving the wire struct of the i-th.
func avroEncode[W any](format *avroFormat, n int, record func(i int) *W) ([]byte, error) {
	var sync [avroSyncSize]byte
	rand.Read(sync[:])
	zenc := avroZstdEncoders.Get().(*zstd.Encoder)
	defer avroZstdEncoders.Put(zenc) // ocf resets it after every block
	var out bytes.Buffer
	enc, err := ocf.NewEncoderWithSchema(format.schema, &out,
		ocf.WithCodec(ocf.ZStandard), ocf.WithZStandardEncoder(zenc), ocf.WithEncodingConfig(avroAPI),
		ocf.WithBlockLength(0), ocf.WithBlockSize(avroBlockTarget), ocf.WithSyncBlock(sync),
		ocf.WithSchemaMarshaler(func(avro.Schema) ([]byte, error) { return []byte(format.text), nil }))
	if err != nil {
		return nil, err
	}
	if err := avroRewriteHeader(&out, format.text, sync); err != nil {
		return nil, err
	}
	for i := range n {
		if err := enc.Encode(record(i)); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// avroRewriteHeader replaces the header ocf wrote into out, whose metadata
// comes from a Go map in random order, with the same entries in Java's
// order (avro.schema, then avro.codec), so that our headers are
// byte-identical to Java's.
func avroRewriteHeader(out *bytes.Buffer, schema string, sync [avroSyncSize]byte) error {
	var header bytes.Buffer
	w := avro.NewWriter(&header, 512, avro.WithWriterConfig(avroAPI))
	w.Write(avroMagic[:])
	w.WriteLong(2)
	w.WriteString("avro.schema")
	w.WriteString(schema)
	w.WriteString("avro.codec")
	w.WriteString(string(ocf.ZStandard))
	w.WriteLong(0)
	w.Write(sync[:])
	if err := w.Flush(); err != nil {
		return err
	}
	if header.Len() != out.Len() {
		return fmt.Errorf("spec: ocf wrote a header of %d bytes, want %d", out.Len(), header.Len())
	}
	out.Reset()
	out.Write(header.Bytes())
	return nil
}
