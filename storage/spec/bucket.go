package spec

import (
	"fmt"

	"github.com/spaolacci/murmur3"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// bucketHashSeed is MurmurHashUtils.DEFAULT_SEED.
const bucketHashSeed = 42

// BucketHash is BinaryRow.hashCode: MurmurHash3 x86_32 with seed 42 over the
// row bytes (MurmurHashUtils.hashBytesByWords). Rows are whole 8-byte words,
// so the word-wise Java hash equals standard murmur3. row is the bare
// BinaryRow, without the manifest arity prefix. Dynamic-bucket HASH index
// files store this value for each key.
func BucketHash(row []byte) int32 {
	return int32(murmur3.Sum32WithSeed(row, bucketHashSeed))
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
