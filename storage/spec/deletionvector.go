package spec

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Deletion-vectors index files (index type DELETION_VECTORS, written by
// DeletionFileWriter) start with a version byte, followed by one serialized
// deletion vector per data file. The index manifest's
// _DELETIONS_VECTORS_RANGES gives each vector's offset (of its size field)
// and length. Two formats exist:
//
//	32-bit (BitmapDeletionVector, default):
//	  int32 BE size | int32 BE magic 1581511376 | RoaringBitmap | int32 BE CRC32
//	  size and range length = 4 + bitmap bytes (magic + bitmap)
//	64-bit (Bitmap64DeletionVector, deletion-vectors.bitmap64):
//	  int32 BE size | int32 LE magic 1681511377 | int64 LE count |
//	  count x (int32 LE key | RoaringBitmap) | int32 BE CRC32
//	  size = magic + bitmaps; range length = size + 8
//
// The CRC32 (IEEE) covers the magic and the bitmap data. Bitmaps use the
// portable RoaringBitmap serialization. In the 64-bit format, key k holds the
// low 32 bits of the positions whose high 32 bits are k
// (OptimizedRoaringBitmap64).

// DeletionVectorsIndexVersion is DeletionVectorsIndexFile.VERSION_ID_V1, the
// first byte of every deletion-vectors index file.
const DeletionVectorsIndexVersion = 1

const (
	bitmap32Magic = 1581511376 // BitmapDeletionVector.MAGIC_NUMBER
	bitmap64Magic = 1681511377 // Bitmap64DeletionVector.MAGIC_NUMBER
	// max32Position is RoaringBitmap32.MAX_VALUE; max64Position is
	// OptimizedRoaringBitmap64.MAX_VALUE = toPosition(MAX_INT - 1, MIN_INT).
	max32Position = math.MaxInt32
	max64Position = (math.MaxInt32-1)<<32 | 1<<31
)

// DeletionVector is the set of deleted row positions of one data file.
// Mirrors org.apache.paimon.deletionvectors.BitmapDeletionVector and
// Bitmap64DeletionVector.
type DeletionVector struct {
	bitmap64 bool
	// bitmaps maps the high 32 bits of a position to the bitmap of its low
	// 32 bits; a 32-bit vector only uses key 0.
	bitmaps map[uint32]*roaring.Bitmap
}

// NewDeletionVector returns an empty vector in the 64-bit format if bitmap64
// (option deletion-vectors.bitmap64), else in the 32-bit format.
func NewDeletionVector(bitmap64 bool) *DeletionVector {
	return &DeletionVector{bitmap64: bitmap64, bitmaps: map[uint32]*roaring.Bitmap{}}
}

// Bitmap64 reports whether the vector uses the 64-bit format.
func (dv *DeletionVector) Bitmap64() bool { return dv.bitmap64 }

// Delete marks a row position deleted. Positions beyond what the format can
// hold (2^31-1 for 32-bit vectors, as Java checks) fail with
// lakeerr.ErrUnsupported.
func (dv *DeletionVector) Delete(pos int64) error {
	limit := int64(max32Position)
	if dv.bitmap64 {
		limit = max64Position
	}
	if pos < 0 || pos > limit {
		return fmt.Errorf("spec: row position %d outside deletion vector range [0, %d]: %w", pos, limit, lakeerr.ErrUnsupported)
	}
	key := uint32(pos >> 32)
	if dv.bitmaps[key] == nil {
		dv.bitmaps[key] = roaring.New()
	}
	dv.bitmaps[key].Add(uint32(pos))
	return nil
}

// IsDeleted reports whether the row at pos is deleted.
func (dv *DeletionVector) IsDeleted(pos int64) bool {
	if pos < 0 {
		return false
	}
	bm := dv.bitmaps[uint32(pos>>32)]
	return bm != nil && bm.Contains(uint32(pos))
}

// Positions returns the deleted row positions in ascending order.
func (dv *DeletionVector) Positions() []int64 {
	keys := slices.Sorted(maps.Keys(dv.bitmaps))
	out := make([]int64, 0, dv.Cardinality())
	for _, key := range keys {
		for low := range roaring.Values(dv.bitmaps[key]) {
			out = append(out, int64(key)<<32|int64(low))
		}
	}
	return out
}

// Cardinality is the number of deleted rows.
func (dv *DeletionVector) Cardinality() int64 {
	var n int64
	for _, bm := range dv.bitmaps {
		n += int64(bm.GetCardinality())
	}
	return n
}

// Encode serializes the vector as Java's serializeTo does: the bytes
// DeletionFileWriter appends to an index file. rangeLength is the length the
// index manifest records for it (f2 of _DELETIONS_VECTORS_RANGES).
func (dv *DeletionVector) Encode() (data []byte, rangeLength int32, err error) {
	payload, err := dv.magicAndBitmaps()
	if err != nil {
		return nil, 0, err
	}
	if len(payload) > math.MaxInt32-8 {
		return nil, 0, fmt.Errorf("spec: deletion vector of %d bytes exceeds 2 GiB: %w", len(payload), lakeerr.ErrUnsupported)
	}
	data = binary.BigEndian.AppendUint32(make([]byte, 0, len(payload)+8), uint32(len(payload)))
	data = append(data, payload...)
	data = binary.BigEndian.AppendUint32(data, crc32.ChecksumIEEE(payload))
	if dv.bitmap64 {
		return data, int32(len(data)), nil
	}
	return data, int32(len(payload)), nil
}

// magicAndBitmaps is the checksummed part of the serialized vector.
func (dv *DeletionVector) magicAndBitmaps() ([]byte, error) {
	if !dv.bitmap64 {
		out := binary.BigEndian.AppendUint32(nil, bitmap32Magic)
		return appendBitmap(out, dv.bitmaps[0])
	}
	out := binary.LittleEndian.AppendUint32(nil, bitmap64Magic)
	count := 0
	if len(dv.bitmaps) > 0 {
		count = int(slices.Max(slices.Collect(maps.Keys(dv.bitmaps)))) + 1
	}
	// Java keeps a dense bitmap array up to the highest key and writes the
	// empty bitmaps in between too (at least 12 bytes each).
	if count > math.MaxInt32/12 {
		return nil, fmt.Errorf("spec: deletion vector with %d bitmaps exceeds 2 GiB: %w", count, lakeerr.ErrUnsupported)
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(count))
	for key := range count {
		out = binary.LittleEndian.AppendUint32(out, uint32(key))
		// Like Bitmap64DeletionVector.serializeTo (runLengthEncode), this
		// converts the vector's containers to runs in place where smaller.
		if bm := dv.bitmaps[uint32(key)]; bm != nil {
			bm.RunOptimize()
		}
		var err error
		if out, err = appendBitmap(out, dv.bitmaps[uint32(key)]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// appendBitmap appends the portable serialization of bm (nil = empty).
func appendBitmap(out []byte, bm *roaring.Bitmap) ([]byte, error) {
	if bm == nil {
		bm = roaring.New()
	}
	b, err := bm.ToBytes()
	return append(out, b...), err
}

// AppendDeletionVector appends dv to a deletion-vectors index file being
// built, starting an empty file with the version byte, and returns the
// grown file with the offset and length to record in
// _DELETIONS_VECTORS_RANGES (DeletionFileWriter.write).
func AppendDeletionVector(indexFile []byte, dv *DeletionVector) (file []byte, offset, length int32, err error) {
	data, length, err := dv.Encode()
	if err != nil {
		return nil, 0, 0, err
	}
	if len(indexFile) == 0 {
		indexFile = []byte{DeletionVectorsIndexVersion}
	}
	if len(indexFile)+len(data) > math.MaxInt32 {
		return nil, 0, 0, fmt.Errorf("spec: deletion-vectors index file exceeds 2 GiB: %w", lakeerr.ErrUnsupported)
	}
	return append(indexFile, data...), int32(len(indexFile)), length, nil
}
