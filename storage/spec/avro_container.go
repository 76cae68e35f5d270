package spec

import (
	"bytes"
	"compress/flate"
	"crypto/rand"
	"errors"
	"fmt"
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
)

const (
	avroSyncSize = 16
	// avroBlockTarget is the uncompressed size after which the writer starts
	// a new block: Avro Java's default sync interval, which Paimon uses.
	avroBlockTarget = 64000
	// avroMaxBlockSize bounds one decompressed block, so that a small hostile
	// file cannot expand into gigabytes. Java writes blocks of about 64 KB.
	avroMaxBlockSize = 16 << 20
	// avroMaxSchemaText bounds the writer schema, as ocf does; Java's are
	// about 2 KB.
	avroMaxSchemaText = 1 << 20
)

// avroAPI reads container headers and writes records. Decoding records
// uses avroDecoding.api, which is replaced from time to time.
var avroAPI = avroConfig.Freeze()

// avroScan is what avroScanBlocks learned about a container file.
type avroScan struct {
	schema  string // the avro.schema metadata
	records int    // total object count of the blocks, capped
}

// avroScanBlocks checks a container file before ocf reads it, because ocf
// takes a block count of zero or less for the end of the file (ignoring the
// rest), allocates whatever byte size a block declares, and decompresses
// snappy and deflate blocks without bound. Files written with
// manifest.format=orc are reported as unsupported rather than corrupt.
func avroScanBlocks(data []byte) (avroScan, error) {
	if bytes.HasPrefix(data, orcMagic) {
		return avroScan{}, fmt.Errorf("%w: ORC manifests (manifest.format=orc)", lakeerr.ErrUnsupported)
	}
	if !bytes.HasPrefix(data, avroMagic[:]) {
		return avroScan{}, fmt.Errorf("not an Avro container file: %w", lakeerr.ErrCorruption)
	}
	r := avro.NewReader(bytes.NewReader(data), 4096, avro.WithReaderConfig(avroAPI))
	var h ocf.Header
	if r.ReadVal(ocf.HeaderSchema, &h); r.Error != nil {
		return avroScan{}, fmt.Errorf("avro header: %w: %w", r.Error, lakeerr.ErrCorruption)
	}
	codec := ocf.CodecName(h.Meta["avro.codec"])
	if err := avroCheckCodec(codec); err != nil {
		return avroScan{}, err
	}
	scan := avroScan{schema: string(h.Meta["avro.schema"])}
	if len(scan.schema) > avroMaxSchemaText {
		return avroScan{}, fmt.Errorf("avro schema of %d bytes: %w", len(scan.schema), lakeerr.ErrCorruption)
	}
	for r.Peek(); r.Error == nil; r.Peek() {
		count, err := avroScanBlock(r, codec, h.Sync, len(data))
		if err != nil {
			return avroScan{}, fmt.Errorf("avro block: %w: %w", err, lakeerr.ErrCorruption)
		}
		scan.records = int(min(int64(scan.records)+count, math.MaxInt32))
	}
	return scan, nil
}

func avroCheckCodec(codec ocf.CodecName) error {
	switch codec {
	case ocf.Null, "", ocf.ZStandard, ocf.Snappy, ocf.Deflate:
		return nil
	}
	return fmt.Errorf("avro codec %q: %w", codec, lakeerr.ErrUnsupported)
}

// avroScanBlock checks one block and returns its object count. A block
// cannot be larger than the file.
func avroScanBlock(r *avro.Reader, codec ocf.CodecName, sync [avroSyncSize]byte, fileSize int) (int64, error) {
	count, size := r.ReadLong(), r.ReadLong()
	if r.Error == nil && (count <= 0 || size < 0 || size > int64(fileSize)) {
		return 0, fmt.Errorf("invalid count %d or size %d", count, size)
	}
	if codec == ocf.Snappy || codec == ocf.Deflate {
		block := make([]byte, max(size, 0))
		r.Read(block)
		if err := avroCheckBlockSize(codec, block); r.Error == nil && err != nil {
			return 0, err
		}
	} else {
		r.SkipNBytes(int(size))
	}
	var marker [avroSyncSize]byte
	r.Read(marker[:])
	switch {
	case r.Error != nil:
		return 0, r.Error
	case marker != sync:
		return 0, errors.New("sync marker mismatch")
	}
	return count, nil
}

// avroCheckBlockSize bounds what a snappy or deflate block decompresses to.
// zstandard blocks are bounded by the decoder's options instead.
func avroCheckBlockSize(codec ocf.CodecName, block []byte) error {
	var n int
	var err error
	if codec == ocf.Snappy {
		// A raw snappy block, then the CRC-32 of the uncompressed data.
		n, err = snappy.DecodedLen(block[:max(len(block)-4, 0)])
	} else {
		var n64 int64
		n64, err = io.Copy(io.Discard, io.LimitReader(flate.NewReader(bytes.NewReader(block)), avroMaxBlockSize+1))
		n = int(n64)
	}
	if err == nil && n > avroMaxBlockSize {
		err = fmt.Errorf("%s block of %d bytes is too large", codec, n)
	}
	return err
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
