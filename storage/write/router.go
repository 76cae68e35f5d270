package write

import (
	"encoding/binary"
	"slices"

	"github.com/lakesql/lakesql/storage/spec"
)

// recentPartitions is how many serialized partitions the router keeps:
// rows of a batch usually touch a few partitions, and serializing one
// allocates.
const recentPartitions = 16

// router computes where a row goes, as Java's FixedBucketRowKeyExtractor
// and UnawareBucketRowKeyExtractor do. It reuses scratch space, so it
// serves one goroutine.
type router struct {
	settings *tableSettings
	scratch  []any
	keyBuf   []byte
	// recent caches serialized partitions with their values, oldest
	// first.
	recent []cachedPartition
}

type cachedPartition struct {
	values     []any
	serialized []byte
}

func newRouter(ts *tableSettings) *router {
	return &router{settings: ts}
}

// partition returns the serialized BinaryRow of the row's partition
// values, the partition identity Java compares byte-wise. The result must
// not be modified.
func (r *router) partition(row []any) ([]byte, error) {
	cols := r.settings.partition
	for i := len(r.recent) - 1; i >= 0; i-- {
		if r.samePartition(r.recent[i].values, row) {
			return r.recent[i].serialized, nil
		}
	}
	values := cols.project(row, nil)
	serialized, err := spec.SerializeBinaryRow(cols.types, values)
	if err != nil {
		return nil, err
	}
	if len(r.recent) == recentPartitions {
		r.recent = append(r.recent[:0], r.recent[1:]...)
	}
	r.recent = append(r.recent, cachedPartition{values: values, serialized: serialized})
	return serialized, nil
}

func (r *router) samePartition(values, row []any) bool {
	cols := r.settings.partition
	for i, col := range cols.indexes {
		if spec.CompareValues(cols.types[i], values[i], row[col]) != 0 {
			return false
		}
	}
	return true
}

// bucket is the default bucket function over the bucket-key columns
// (DefaultBucketFunction); every row of a bucket-unaware table goes to
// bucket 0.
func (r *router) bucket(row []any) (int, error) {
	n := r.settings.numBuckets
	if n <= 0 {
		return 0, nil
	}
	cols := r.settings.bucketKey
	r.scratch = cols.project(row, r.scratch)
	key, ok := r.encodeFixedWidth(cols.types, r.scratch)
	if !ok {
		var err error
		if key, err = spec.EncodeBinaryRow(cols.types, r.scratch, spec.RowKindInsert); err != nil {
			return 0, err
		}
	}
	return spec.Bucket(key, n)
}

// encodeFixedWidth builds the BinaryRow of values into a reused buffer
// when every value lives in its 8-byte slot (integers, DATE, TIME, BOOLEAN,
// compact DECIMAL and TIMESTAMP), the common bucket keys; ok is false
// otherwise and spec.EncodeBinaryRow must be used. The layout is the one
// spec documents: a null-bit header (byte 0 is the row kind, INSERT), then
// one little-endian slot per field.
func (r *router) encodeFixedWidth(types []spec.DataType, values []any) ([]byte, bool) {
	header := ((len(values) + 63 + 8) / 64) * 8
	size := header + 8*len(values)
	r.keyBuf = slices.Grow(r.keyBuf[:0], size)[:size]
	clear(r.keyBuf)
	for i, v := range values {
		slot := r.keyBuf[header+8*i : header+8*i+8]
		if v == nil {
			r.keyBuf[(i+8)>>3] |= 1 << ((i + 8) & 7)
			continue
		}
		bits, ok := fixedWidthBits(types[i], v)
		if !ok {
			return nil, false
		}
		binary.LittleEndian.PutUint64(slot, bits)
	}
	return r.keyBuf, true
}

// fixedWidthBits is the slot content of a fixed-width value: the value
// little-endian in its natural width, upper bytes zero.
func fixedWidthBits(t spec.DataType, v any) (uint64, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case int8:
		return uint64(uint8(x)), true
	case int16:
		return uint64(uint16(x)), true
	case int32:
		return uint64(uint32(x)), true
	case int64:
		return uint64(x), true
	case spec.DateValue:
		return uint64(uint32(x)), true
	case spec.TimeValue:
		return uint64(uint32(x)), true
	case spec.DecimalValue:
		unscaled, small := x.UnscaledInt64()
		return uint64(unscaled), small && t.IsCompactDecimal()
	case spec.TimestampValue:
		return uint64(x.Millis), t.IsCompactTimestamp()
	}
	return 0, false
}
