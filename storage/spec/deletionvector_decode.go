package spec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// ReadDeletionVector decodes the deletion vector at offset of a whole
// deletion-vectors index file, where offset and length come from the index
// manifest's _DELETIONS_VECTORS_RANGES (DeletionVectorsIndexFile.
// readDeletionVector). The version byte, sizes, magic and CRC are checked;
// any mismatch fails with lakeerr.ErrCorruption.
func ReadDeletionVector(indexFile []byte, offset, length int64) (*DeletionVector, error) {
	if len(indexFile) == 0 || indexFile[0] != DeletionVectorsIndexVersion {
		return nil, corruptDataf("deletion-vectors index file does not start with version %d", DeletionVectorsIndexVersion)
	}
	if offset < 1 || offset >= int64(len(indexFile)) {
		return nil, corruptDataf("deletion vector offset %d outside %d-byte index file", offset, len(indexFile))
	}
	return DecodeDeletionVector(indexFile[offset:], length)
}

// DecodeDeletionVector decodes one serialized deletion vector at the start
// of b (b may continue past it). rangeLength is the length recorded in the
// index manifest: magic plus bitmap bytes for a 32-bit vector, the whole
// serialized vector for a 64-bit one. It is checked against the size field,
// as DeletionVector.read does.
func DecodeDeletionVector(b []byte, rangeLength int64) (*DeletionVector, error) {
	if len(b) < 8 {
		return nil, corruptDataf("deletion vector of %d bytes is truncated", len(b))
	}
	size := int64(int32(binary.BigEndian.Uint32(b)))
	bitmap64 := binary.LittleEndian.Uint32(b[4:]) == bitmap64Magic
	switch {
	case binary.BigEndian.Uint32(b[4:]) == bitmap32Magic:
		if size != rangeLength {
			return nil, corruptDataf("deletion vector size %d, index manifest says %d", size, rangeLength)
		}
	case bitmap64:
		if size != rangeLength-8 {
			return nil, corruptDataf("64-bit deletion vector size %d, index manifest length %d", size, rangeLength)
		}
	default:
		return nil, corruptDataf("deletion vector has unknown magic number %d", int32(binary.BigEndian.Uint32(b[4:])))
	}
	if size < 4 || size+8 > int64(len(b)) {
		return nil, corruptDataf("deletion vector size %d does not fit in %d bytes", size, len(b))
	}
	payload := b[4 : 4+size]
	if crc := binary.BigEndian.Uint32(b[4+size:]); crc != crc32.ChecksumIEEE(payload) {
		return nil, corruptDataf("deletion vector checksum %08x does not match its data", crc)
	}
	if bitmap64 {
		return decodeBitmap64(payload[4:])
	}
	bm, n, err := readRoaringPrefix(payload[4:])
	if err != nil {
		return nil, err
	}
	if n != len(payload)-4 {
		return nil, corruptDataf("deletion vector bitmap of %d bytes followed by %d more", n, len(payload)-4-n)
	}
	return &DeletionVector{bitmaps: map[uint32]*roaring.Bitmap{0: bm}}, nil
}

// decodeBitmap64 reads OptimizedRoaringBitmap64.deserialize's format: an
// int64 LE count, then count (int32 LE key, bitmap) pairs with strictly
// ascending keys.
func decodeBitmap64(b []byte) (*DeletionVector, error) {
	if len(b) < 8 {
		return nil, corruptDataf("64-bit deletion vector has no bitmap count")
	}
	count := int64(binary.LittleEndian.Uint64(b))
	if count < 0 || count > math.MaxInt32 {
		return nil, corruptDataf("64-bit deletion vector has %d bitmaps", count)
	}
	dv := NewDeletionVector(true)
	rest, lastKey := b[8:], int64(-1)
	for ; count > 0; count-- {
		if len(rest) < 4 {
			return nil, corruptDataf("64-bit deletion vector is truncated")
		}
		key := int64(int32(binary.LittleEndian.Uint32(rest)))
		if key <= lastKey || key > math.MaxInt32-1 {
			return nil, corruptDataf("64-bit deletion vector key %d after %d", key, lastKey)
		}
		bm, n, err := readRoaringPrefix(rest[4:])
		if err != nil {
			return nil, err
		}
		dv.bitmaps[uint32(key)] = bm
		rest, lastKey = rest[4+n:], key
	}
	if len(rest) != 0 {
		return nil, corruptDataf("64-bit deletion vector has %d trailing bytes", len(rest))
	}
	return dv, nil
}

// readRoaringPrefix parses the portable RoaringBitmap at the start of b and
// returns it with the number of bytes it used. The bitmap does not alias b.
func readRoaringPrefix(b []byte) (*roaring.Bitmap, int, error) {
	bm := roaring.New()
	n, err := bm.ReadFrom(bytes.NewReader(b))
	if err == nil {
		err = bm.Validate()
	}
	if err != nil {
		return nil, 0, fmt.Errorf("spec: deletion vector bitmap: %v: %w", err, lakeerr.ErrCorruption)
	}
	return bm, int(n), nil
}
