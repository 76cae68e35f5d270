package fileindex

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cespare/xxhash/v2"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Bloom filter defaults and option keys (BloomFilterFileIndex).
const (
	bloomDefaultItems = 1_000_000
	bloomDefaultFPP   = 0.1
	bloomItemsOption  = "items"
	bloomFPPOption    = "fpp"
)

// bloomFilter is Java's BloomFilter64: k bit positions derived from one
// 64-bit hash by double hashing in 32-bit arithmetic, bits numbered from
// the low bit of each byte.
type bloomFilter struct {
	hashes int32
	bits   []byte
}

// newBloomFilter sizes a filter as BloomFilter64(items, fpp) does.
func newBloomFilter(items int64, fpp float64) bloomFilter {
	nb := int32(-float64(items) * math.Log(fpp) / (math.Ln2 * math.Ln2))
	numBits := nb + (8 - nb%8)
	k := int32(math.Floor(float64(numBits)/float64(items)*math.Ln2 + 0.5))
	return bloomFilter{hashes: max(1, k), bits: make([]byte, numBits/8)}
}

// decodeBloom reads BloomFilterFileIndex's bytes: the number of hash
// functions (int32 big-endian), then the bit set.
func decodeBloom(body []byte) (bloomFilter, error) {
	if len(body) < 5 {
		return bloomFilter{}, fmt.Errorf("%w: bloom filter of %d bytes", errCorrupt, len(body))
	}
	k := int32(binary.BigEndian.Uint32(body))
	if k < 1 || len(body)-4 > math.MaxInt32/8 {
		return bloomFilter{}, fmt.Errorf("%w: bloom filter with %d hash functions over %d bytes", errCorrupt, k, len(body)-4)
	}
	return bloomFilter{hashes: k, bits: body[4:]}, nil
}

func (f bloomFilter) encode() []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(f.hashes)), f.bits...)
}

func (f bloomFilter) add(hash uint64) {
	f.positions(hash, func(pos int32) bool {
		f.bits[pos>>3] |= 1 << (pos & 7)
		return true
	})
}

func (f bloomFilter) mightContain(hash uint64) bool {
	return f.positions(hash, func(pos int32) bool { return f.bits[pos>>3]&(1<<(pos&7)) != 0 })
}

// positions calls visit with each bit position of hash until it returns
// false, and reports whether every call returned true.
func (f bloomFilter) positions(hash uint64, visit func(int32) bool) bool {
	numBits := int32(len(f.bits) * 8)
	h1, h2 := int32(uint32(hash)), int32(uint32(hash>>32))
	for i := int32(1); i <= f.hashes; i++ {
		combined := h1 + i*h2
		if combined < 0 {
			combined = ^combined
		}
		if !visit(combined % numBits) {
			return false
		}
	}
	return true
}

// hasher hashes the non-null values of one column type as FastHash does.
type hasher func(v any) (uint64, bool)

// hasherFor returns FastHash's function for t, or an error wrapping
// ErrUnsupported for the types Java's bloom filter refuses.
func hasherFor(t spec.DataType) (hasher, error) {
	switch t.Root {
	case spec.Char, spec.VarChar:
		return hashString, nil
	case spec.Binary, spec.VarBinary:
		return hashBytes, nil
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Date, spec.Time:
		return hashInteger, nil
	case spec.Float:
		return hashFloat, nil
	case spec.Double:
		return hashDouble, nil
	case spec.Timestamp, spec.TimestampLTZ:
		millis := t.Precision <= 3
		return func(v any) (uint64, bool) { return hashTimestamp(v, millis) }, nil
	}
	return nil, fmt.Errorf("fileindex: a bloom filter on a %s column: %w", t, lakeerr.ErrUnsupported)
}

func hashString(v any) (uint64, bool) {
	s, ok := v.(string)
	return xxhash.Sum64String(s), ok
}

func hashBytes(v any) (uint64, bool) {
	b, ok := v.([]byte)
	return xxhash.Sum64(b), ok
}

func hashInteger(v any) (uint64, bool) {
	switch x := v.(type) {
	case int8:
		return thomasWang(int64(x)), true
	case int16:
		return thomasWang(int64(x)), true
	case int32:
		return thomasWang(int64(x)), true
	case int64:
		return thomasWang(x), true
	case spec.DateValue:
		return thomasWang(int64(x)), true
	case spec.TimeValue:
		return thomasWang(int64(x)), true
	}
	return 0, false
}

// hashFloat hashes Float.floatToIntBits, widened with its sign as Java
// widens an int; NaN has one canonical pattern there.
func hashFloat(v any) (uint64, bool) {
	x, ok := v.(float32)
	bits := math.Float32bits(x)
	if x != x {
		bits = 0x7fc00000
	}
	return thomasWang(int64(int32(bits))), ok
}

func hashDouble(v any) (uint64, bool) {
	x, ok := v.(float64)
	bits := math.Float64bits(x)
	if x != x {
		bits = 0x7ff8000000000000
	}
	return thomasWang(int64(bits)), ok
}

// hashTimestamp hashes epoch milliseconds up to precision 3 and epoch
// microseconds above, as Timestamp.getMillisecond and toMicros give them.
func hashTimestamp(v any, millis bool) (uint64, bool) {
	ts, ok := v.(spec.TimestampValue)
	if millis {
		return thomasWang(ts.Millis), ok
	}
	return thomasWang(ts.Millis*1000 + int64(ts.NanoOfMilli/1000)), ok
}

// thomasWang is Thomas Wang's 64-bit integer hash with Java's arithmetic
// shifts, as FastHash.getLongHash.
func thomasWang(key int64) uint64 {
	key = ^key + key<<21
	key ^= key >> 24
	key = key + key<<3 + key<<8
	key ^= key >> 14
	key = key + key<<2 + key<<4
	key ^= key >> 28
	key += key << 31
	return uint64(key)
}
