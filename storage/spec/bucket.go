package spec

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// bucketHashSeed is MurmurHashUtils.DEFAULT_SEED.
const bucketHashSeed = 42

// BucketHash is BinaryRow.hashCode: MurmurHash3 x86_32 with seed 42 over the
// row bytes, read as little-endian 4-byte words
// (MurmurHashUtils.hashBytesByWords). A BinaryRow is whole 8-byte words, so
// there is never a tail; bytes past the last whole word would be ignored,
// as Java's word-wise hash does. row is the bare BinaryRow, without the
// manifest arity prefix. Dynamic-bucket HASH index files store this value
// for each key.
func BucketHash(row []byte) int32 {
	h := uint32(bucketHashSeed)
	n := len(row) &^ 3
	for i := 0; i < n; i += 4 {
		h = mixH1(h, mixK1(binary.LittleEndian.Uint32(row[i:])))
	}
	return int32(fmix32(h ^ uint32(n)))
}

// HashBytes is MurmurHashUtils.hashBytes, the hashCode of a BinaryString
// (and so of a STRING value inside Java's HashSet and HashMap): whole
// little-endian words, then each tail byte sign-extended, then the length.
func HashBytes(b []byte) int32 {
	h := uint32(bucketHashSeed)
	n := len(b) &^ 3
	for i := 0; i < n; i += 4 {
		h = mixH1(h, mixK1(binary.LittleEndian.Uint32(b[i:])))
	}
	for _, c := range b[n:] {
		h = mixH1(h, mixK1(uint32(int32(int8(c)))))
	}
	return int32(fmix32(h ^ uint32(len(b))))
}

// mixK1, mixH1 and fmix32 are the steps of MurmurHash3 x86_32
// (MurmurHashUtils.mixK1, mixH1, fmix).
func mixK1(k uint32) uint32 {
	return bits.RotateLeft32(k*0xcc9e2d51, 15) * 0x1b873593
}

func mixH1(h, k uint32) uint32 {
	return bits.RotateLeft32(h^k, 13)*5 + 0xe6546b64
}

func fmix32(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	return h ^ h>>16
}

// Bucket is the default bucket function (DefaultBucketFunction):
// Math.abs(hash % numBuckets) with Java's truncated int remainder, where
// bucketKeyRow is the BinaryRow of the bucket-key fields (the bucket-key
// option, else the trimmed primary key) built with EncodeBinaryRow and
// RowKindInsert. numBuckets must be positive: dynamic (-1) and postpone (-2)
// tables do not assign buckets by hash, and asking for one fails with
// lakeerr.ErrUnsupported.
func Bucket(bucketKeyRow []byte, numBuckets int) (int, error) {
	if numBuckets <= 0 {
		return 0, fmt.Errorf("spec: bucket count %d does not assign buckets by hash: %w",
			numBuckets, lakeerr.ErrUnsupported)
	}
	bucket := int64(BucketHash(bucketKeyRow)) % int64(numBuckets)
	if bucket < 0 {
		bucket = -bucket
	}
	return int(bucket), nil
}
