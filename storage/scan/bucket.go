package scan

import (
	"strings"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// maxBucketRows caps the Cartesian product of bucket-key literals, as
// BucketSelectConverter.MAX_VALUES does: beyond it hashing costs more than
// the buckets it could skip.
const maxBucketRows = 1000

// optionBucketFunctionType selects the bucket function; only the default
// hash is reproduced here.
const optionBucketFunctionType = "bucket-function.type"

// bucketSelector holds the bucket-key hashes of every row a filter can
// match. Mirrors BucketSelectConverter and its Selector: the bucket of a
// hash depends on each entry's total bucket count, so sets are computed
// per count.
type bucketSelector struct {
	hashes  []int32
	byTotal map[int32]map[int32]bool
}

// newBucketSelector returns nil when the filter does not pin every
// bucket-key field to a short list of values, or the table does not assign
// buckets by the default hash of fixed bucket counts.
func newBucketSelector(s *spec.TableSchema, full predicate.Predicate) *bucketSelector {
	opts := s.CoreOptions()
	if n, err := opts.Bucket(); err != nil || n <= 0 {
		return nil
	}
	if fn, ok := opts.Get(optionBucketFunctionType); ok && !strings.EqualFold(fn, "default") {
		return nil
	}
	keys := opts.BucketKey()
	if len(keys) == 0 {
		keys = s.TrimmedPrimaryKeys()
	}
	cols, err := positions(s, keys)
	if err != nil || len(cols) == 0 {
		return nil
	}
	rows, ok := bucketRows(predicate.EqualityLiterals(full), cols)
	if !ok {
		return nil
	}
	types := make([]spec.DataType, len(cols))
	for i, c := range cols {
		types[i] = s.Fields[c].Type
	}
	sel := &bucketSelector{byTotal: map[int32]map[int32]bool{}}
	for _, values := range rows {
		row, err := spec.EncodeBinaryRow(types, values, spec.RowKindInsert)
		if err != nil {
			return nil
		}
		sel.hashes = append(sel.hashes, spec.BucketHash(row))
	}
	return sel
}

// bucketRows is the Cartesian product of the literals of cols, or false
// when a column is not pinned or the product is too large.
func bucketRows(literals map[int][]any, cols []int) ([][]any, bool) {
	count := 1
	for _, c := range cols {
		values, ok := literals[c]
		if !ok {
			return nil, false
		}
		if count *= len(values); count > maxBucketRows {
			return nil, false
		}
	}
	rows := [][]any{{}}
	for _, c := range cols {
		var next [][]any
		for _, prefix := range rows {
			for _, v := range literals[c] {
				next = append(next, append(append([]any{}, prefix...), v))
			}
		}
		rows = next
	}
	return rows, true
}

// selects reports whether bucket may hold a match in a partition with
// totalBuckets buckets. Entries without a known positive count are kept.
func (b *bucketSelector) selects(bucket, totalBuckets int32) bool {
	if b == nil || totalBuckets <= 0 {
		return true
	}
	set, ok := b.byTotal[totalBuckets]
	if !ok {
		set = map[int32]bool{}
		for _, h := range b.hashes {
			set[bucketOf(h, totalBuckets)] = true
		}
		b.byTotal[totalBuckets] = set
	}
	return set[bucket]
}

// bucketOf is spec.Bucket on a precomputed hash: Java's
// Math.abs(hash % numBuckets).
func bucketOf(hash, totalBuckets int32) int32 {
	b := int64(hash) % int64(totalBuckets)
	if b < 0 {
		b = -b
	}
	return int32(b)
}
