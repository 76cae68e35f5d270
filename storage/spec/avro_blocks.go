package spec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/hamba/avro/v2/ocf"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// AvroBlocks reads an Avro object container file block by block from a
// stream, holding one block in memory at a time: data files
// (file.format = avro) are far larger than manifests, which avroDecode
// reads whole. It checks the framing as avroScanBlocks does (positive
// record counts, lengths within the file, the header's sync marker after
// every block) and decompresses with the same codecs and bounds: no block
// decompresses to more than avroMaxBlockSize bytes.
type AvroBlocks struct {
	in     *bufio.Reader
	left   int64 // bytes of the file not consumed yet
	schema []byte
	codec  ocf.CodecName
	sync   []byte
	raw    []byte // the compressed block, reused
	// inflater is nil once Close returned it to the pool.
	inflater *avroInflater
}

// AvroMaxBlockSize is the most bytes a block of an Avro container file
// may decompress to, and so the largest value it can hold.
const AvroMaxBlockSize = avroMaxBlockSize

const (
	// avroStreamBuffer is how much of a data file one read fetches: large
	// enough that an object store serves a file in few requests, and to
	// hold any header avroMaxSchemaText allows.
	avroStreamBuffer = avroMaxSchemaText + 64<<10
	// avroBlockHead is the most bytes a block's record count and byte
	// size take: two varints.
	avroBlockHead = 2 * binaryMaxVarintLen64
	// avroMaxStoredBlock bounds a block's stored bytes: a block that
	// decompresses to at most avroMaxBlockSize bytes, stored as it is, plus
	// a codec's framing.
	avroMaxStoredBlock = avroMaxBlockSize + 64<<10

	binaryMaxVarintLen64 = 10
)

// NewAvroBlocks reads the header of the container file that in streams,
// a file of size bytes. Close returns its decompression buffers.
func NewAvroBlocks(in io.Reader, size int64) (*AvroBlocks, error) {
	b := &AvroBlocks{in: bufio.NewReaderSize(in, avroStreamBuffer), left: size}
	prefix, err := b.in.Peek(int(min(size, avroStreamBuffer)))
	if err != nil {
		return nil, fmt.Errorf("avro header: %w", truncated(err))
	}
	if !bytes.HasPrefix(prefix, avroMagic[:]) {
		return nil, fmt.Errorf("not an Avro container file: %w", lakeerr.ErrCorruption)
	}
	c := avroCursor{data: prefix[len(avroMagic):]}
	file, syncMarker := avroReadHeader(&c)
	if c.err != nil {
		return nil, fmt.Errorf("avro header: %w: %w", c.err, lakeerr.ErrCorruption)
	}
	if err := avroCheckCodec(file.codec); err != nil {
		return nil, err
	}
	// The header's slices point into bufio's buffer, which later reads
	// overwrite.
	b.schema, b.codec, b.sync = bytes.Clone(file.schema), file.codec, bytes.Clone(syncMarker)
	b.consume(len(prefix) - len(c.data))
	b.inflater = avroInflaters.Get().(*avroInflater)
	return b, nil
}

// Schema returns the writer schema text of the file.
func (b *AvroBlocks) Schema() []byte { return b.schema }

// Next returns the record count and the decompressed records of the next
// block, or io.EOF after the last block. data is valid until the next
// call.
func (b *AvroBlocks) Next() (count int64, data []byte, err error) {
	if b.left == 0 {
		return 0, nil, io.EOF
	}
	if b.inflater == nil {
		return 0, nil, errors.New("spec: AvroBlocks used after Close")
	}
	count, stored, err := b.nextStored()
	if err != nil {
		return 0, nil, fmt.Errorf("avro block: %w", err)
	}
	// An inflater that panicked may be inconsistent: it goes back to the
	// pool only after it returned (see avroInflaters).
	f := b.inflater
	b.inflater = nil
	data, err = f.inflate(b.codec, stored)
	b.inflater = f
	if err != nil {
		return 0, nil, fmt.Errorf("avro block: %w: %w", err, lakeerr.ErrCorruption)
	}
	return count, data, nil
}

// nextStored reads the next block as stored, and checks the sync marker
// after it. Errors of the stream pass through; all others are corruption.
func (b *AvroBlocks) nextStored() (int64, []byte, error) {
	head, err := b.in.Peek(int(min(b.left, avroBlockHead)))
	if err != nil {
		return 0, nil, truncated(err)
	}
	c := avroCursor{data: head}
	count, size := c.long(), c.long()
	switch {
	case c.err != nil:
		return 0, nil, fmt.Errorf("%w: %w", c.err, lakeerr.ErrCorruption)
	case count <= 0:
		return 0, nil, fmt.Errorf("invalid object count %d: %w", count, lakeerr.ErrCorruption)
	case size < 0 || size > avroMaxStoredBlock:
		return 0, nil, fmt.Errorf("invalid block size %d: %w", size, lakeerr.ErrCorruption)
	}
	b.consume(len(head) - len(c.data))
	if size+avroSyncSize > b.left {
		return 0, nil, fmt.Errorf("%d bytes wanted, %d left: %w", size+avroSyncSize, b.left, lakeerr.ErrCorruption)
	}
	if int64(cap(b.raw)) < size+avroSyncSize {
		b.raw = make([]byte, size+avroSyncSize)
	}
	raw := b.raw[:size+avroSyncSize]
	if _, err := io.ReadFull(b.in, raw); err != nil {
		return 0, nil, truncated(err)
	}
	b.left -= int64(len(raw))
	if !bytes.Equal(raw[size:], b.sync) {
		return 0, nil, fmt.Errorf("sync marker mismatch: %w", lakeerr.ErrCorruption)
	}
	return count, raw[:size], nil
}

// truncated classifies a stream that ends before the size its caller
// gave as corruption.
func truncated(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("file ends early: %w", lakeerr.ErrCorruption)
	}
	return err
}

// consume drops n bytes that were peeked.
func (b *AvroBlocks) consume(n int) {
	b.in.Discard(n) // never short: the bytes were peeked
	b.left -= int64(n)
}

// Close returns the decompression buffers to their pool. It is safe to
// call twice.
func (b *AvroBlocks) Close() {
	if b.inflater != nil {
		b.inflater.release()
		b.inflater = nil
	}
}
