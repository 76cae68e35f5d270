// Package globalindex reads Paimon's btree global index files: the keys of
// one column over a range of row ids, each key with the row ids (local to
// the range, from 0) that hold it, in an SST file of sorted blocks.
package globalindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sort"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// ErrUnsupportedKey is returned for a column type whose keys this reader
// does not compare; the caller reads the rows instead.
var ErrUnsupportedKey = errors.New("globalindex: btree keys of this type are not read")

// Footer layout. Mirrors org.apache.paimon.globalindex.btree.BTreeFileFooter
// (ENCODED_LENGTH, MAGIC_NUMBER): a bloom filter handle (offset, size,
// expected entries), the index block's handle, the null bitmap's handle,
// a version and the magic number, little-endian.
const (
	footerLength    = 52
	footerMagic     = 0x50425449
	blockTrailerLen = 5 // BlockTrailer: compression type, CRC32 of block and type
)

// Block compression types of a block trailer.
// Mirrors org.apache.paimon.compression.BlockCompressionType.
const (
	compressionNone = 0
	compressionZstd = 1
	compressionLZ4  = 2
)

// BTree is one btree global index file.
// Mirrors org.apache.paimon.globalindex.btree.BTreeIndexReader.
type BTree struct {
	file   []byte
	codec  keyCodec
	blocks []blockRef
}

// blockRef is an entry of the index block: the last key of a data block
// and where the block is.
type blockRef struct {
	lastKey []byte
	offset  int64
	size    int
}

// OpenBTree reads the footer and index block of a btree index file whose
// keys are of column type t.
func OpenBTree(file []byte, t spec.DataType) (*BTree, error) {
	codec, ok := codecFor(t)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnsupportedKey, t)
	}
	if len(file) < footerLength {
		return nil, corrupt("shorter than its footer")
	}
	footer := file[len(file)-footerLength:]
	if binary.LittleEndian.Uint32(footer[48:]) != footerMagic {
		return nil, corrupt("bad magic number")
	}
	indexOffset, indexSize := int64(binary.LittleEndian.Uint64(footer[20:])), int(binary.LittleEndian.Uint32(footer[28:]))
	b := &BTree{file: file, codec: codec}
	index, err := b.block(indexOffset, indexSize)
	if err != nil {
		return nil, fmt.Errorf("index block: %w", err)
	}
	err = eachEntry(index, func(key, value []byte) error {
		offset, n := binary.Uvarint(value)
		size, m := binary.Uvarint(value[max(n, 0):])
		if n <= 0 || m <= 0 {
			return corrupt("malformed block handle")
		}
		b.blocks = append(b.blocks, blockRef{lastKey: key, offset: int64(offset), size: int(size)})
		return nil
	})
	return b, err
}

// Bound is one end of a key range; Open means no bound.
type Bound struct {
	Key       any
	Inclusive bool
	Open      bool
}

// Range returns the local row ids of the keys between from and to, as
// Java's rangeQuery: NULLs are never among them.
func (b *BTree) Range(from, to Bound) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	start := 0
	if !from.Open {
		var err error
		if start, err = b.firstBlockFrom(from.Key); err != nil {
			return nil, err
		}
	}
	for _, ref := range b.blocks[start:] {
		data, err := b.block(ref.offset, ref.size)
		if err != nil {
			return nil, err
		}
		done := false
		err = eachEntry(data, func(key, value []byte) error {
			if !from.Open {
				c, err := b.codec.compare(key, from.Key)
				if err != nil || c < 0 || c == 0 && !from.Inclusive {
					return err
				}
			}
			if !to.Open {
				c, err := b.codec.compare(key, to.Key)
				if err != nil {
					return err
				}
				if c > 0 || c == 0 && !to.Inclusive {
					done = true
					return errStop
				}
			}
			return addRowIDs(out, value)
		})
		if err != nil && !errors.Is(err, errStop) {
			return nil, err
		}
		if done {
			break
		}
	}
	return out, nil
}

var errStop = errors.New("stop")

// firstBlockFrom is the first data block whose last key is at or after
// key: the blocks before it hold only smaller keys.
func (b *BTree) firstBlockFrom(key any) (int, error) {
	var failed error
	i := sort.Search(len(b.blocks), func(i int) bool {
		c, err := b.codec.compare(b.blocks[i].lastKey, key)
		if err != nil {
			failed = err
		}
		return c >= 0
	})
	return i, failed
}

// addRowIDs adds an entry's row ids: their count, then each, as varints.
func addRowIDs(out *roaring64.Bitmap, value []byte) error {
	count, n := binary.Uvarint(value)
	if n <= 0 || count == 0 {
		return corrupt("malformed row ids")
	}
	value = value[n:]
	for range count {
		id, n := binary.Uvarint(value)
		if n <= 0 {
			return corrupt("malformed row ids")
		}
		out.Add(id)
		value = value[n:]
	}
	return nil
}

// block returns the uncompressed block at offset, checked against the
// CRC of its trailer. Mirrors org.apache.paimon.sst.SstFileReader.readBlock.
func (b *BTree) block(offset int64, size int) ([]byte, error) {
	end := offset + int64(size) + blockTrailerLen
	if offset < 0 || size < 0 || end > int64(len(b.file)) {
		return nil, corrupt("block past the end of the file")
	}
	raw := b.file[offset : offset+int64(size)]
	trailer := b.file[offset+int64(size) : end]
	crc := crc32.Update(crc32.ChecksumIEEE(raw), crc32.IEEETable, trailer[:1])
	if crc != binary.LittleEndian.Uint32(trailer[1:]) {
		return nil, corrupt("block checksum mismatch")
	}
	return decompress(raw, trailer[0])
}

// eachEntry calls f with each key and value of a block, in order.
// Mirrors org.apache.paimon.sst.BlockReader and BlockIterator: records
// (varint key length, key, varint value length, value), then either a
// record size (aligned) or each record's position and their count
// (unaligned), an int each, then the layout byte.
func eachEntry(block []byte, f func(key, value []byte) error) error {
	if len(block) < 5 {
		return corrupt("block shorter than its trailer")
	}
	records := block[:len(block)-5]
	if aligned := block[len(block)-1] == 0; !aligned {
		count := int(binary.LittleEndian.Uint32(block[len(block)-5:]))
		if count < 0 || 4*count > len(records) {
			return corrupt("malformed block index")
		}
		records = records[:len(records)-4*count]
	}
	for len(records) > 0 {
		key, rest, err := lengthPrefixed(records)
		if err != nil {
			return err
		}
		value, rest, err := lengthPrefixed(rest)
		if err != nil {
			return err
		}
		if err := f(key, value); err != nil {
			return err
		}
		records = rest
	}
	return nil
}

func lengthPrefixed(b []byte) (field, rest []byte, err error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < n {
		return nil, nil, corrupt("malformed block record")
	}
	return b[w : w+int(n)], b[w+int(n):], nil
}

func corrupt(what string) error {
	return fmt.Errorf("btree global index: %s: %w", what, lakeerr.ErrCorruption)
}

// keyCodec compares a serialized key with a filter literal.
// Mirrors org.apache.paimon.globalindex.btree.KeySerializer.
type keyCodec struct {
	compare func(key []byte, literal any) (int, error)
}

// codecFor is the codec of keys of type t: the integer types, DATE and
// TIME (an int of days or milliseconds), BOOLEAN and strings. Others
// (DECIMAL, FLOAT, DOUBLE, TIMESTAMP) are not read.
func codecFor(t spec.DataType) (keyCodec, bool) {
	switch t.Root {
	case spec.TinyInt:
		return integerCodec(1), true
	case spec.SmallInt:
		return integerCodec(2), true
	case spec.Int, spec.Date, spec.Time:
		return integerCodec(4), true
	case spec.BigInt:
		return integerCodec(8), true
	case spec.Boolean:
		return integerCodec(1), true
	case spec.Char, spec.VarChar:
		return keyCodec{compare: compareString}, true
	}
	return keyCodec{}, false
}

// integerCodec reads a little-endian signed integer of width bytes.
func integerCodec(width int) keyCodec {
	return keyCodec{compare: func(key []byte, literal any) (int, error) {
		if len(key) != width {
			return 0, corrupt(fmt.Sprintf("a key of %d bytes, want %d", len(key), width))
		}
		var k int64
		switch width {
		case 1:
			k = int64(int8(key[0]))
		case 2:
			k = int64(int16(binary.LittleEndian.Uint16(key)))
		case 4:
			k = int64(int32(binary.LittleEndian.Uint32(key)))
		default:
			k = int64(binary.LittleEndian.Uint64(key))
		}
		v, ok := integerLiteral(literal)
		if !ok {
			return 0, fmt.Errorf("%w: literal %T", ErrUnsupportedKey, literal)
		}
		switch {
		case k < v:
			return -1, nil
		case k > v:
			return 1, nil
		}
		return 0, nil
	}}
}

func integerLiteral(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case spec.DateValue:
		return int64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// compareString compares UTF-8 bytes unsigned, as BinaryString.compareTo.
func compareString(key []byte, literal any) (int, error) {
	s, ok := literal.(string)
	if !ok {
		return 0, fmt.Errorf("%w: literal %T", ErrUnsupportedKey, literal)
	}
	return bytes.Compare(key, []byte(s)), nil
}
