package lsm

import (
	"fmt"
	"math"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// FieldCollectAgg (with distinct) and FieldMergeMapAgg gather values in a
// java.util.HashSet or HashMap and write them out in its iteration order, so
// the order of the merged ARRAY or MAP depends on the Java hashCode of its
// elements. javaHashable lists the element types whose hashCode lakesql
// reproduces; the others are refused rather than merged in another order.
func javaHashable(t spec.DataType) bool {
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt,
		spec.Float, spec.Double, spec.Char, spec.VarChar, spec.Date:
		return true
	}
	return false
}

// javaHashKey returns a value's Java hashCode and a Go map key equal for
// exactly the values Java's equals treats as equal. Floats compare by their
// canonical bits as Float.equals and Double.equals do (NaN equals NaN, -0.0
// differs from 0.0).
func javaHashKey(v any) (int32, any, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil, nil
	case bool:
		if x {
			return 1231, x, nil
		}
		return 1237, x, nil
	case int8:
		return int32(x), x, nil
	case int16:
		return int32(x), x, nil
	case int32:
		return x, x, nil
	case int64:
		return int32(x ^ int64(uint64(x)>>32)), x, nil
	case spec.DateValue:
		return int32(x), x, nil
	case float32:
		b := math.Float32bits(x)
		if x != x {
			b = 0x7fc00000
		}
		return int32(b), b, nil
	case float64:
		b := math.Float64bits(x)
		if x != x {
			b = 0x7ff8000000000000
		}
		return int32(b ^ b>>32), b, nil
	case string:
		return spec.HashBytes([]byte(x)), x, nil
	}
	return 0, nil, fmt.Errorf("%w: aggregate cannot hash %T values as Java does", lakeerr.ErrUnsupported, v)
}

// javaHashOrder returns the positions of distinct keys, inserted in slice
// order into a HashMap of default capacity (16) and load factor (0.75), in
// the map's iteration order: by bucket of the spread hash (h ^ h>>>16) in the
// final table, and within a bucket by first insertion (resizes split buckets
// without reordering). Tree bins (8+ collisions in one bucket) are not
// modelled.
func javaHashOrder(hashes []int32) []int {
	capacity := 16
	for len(hashes) > capacity*3/4 {
		capacity *= 2
	}
	bucket := func(i int) int {
		h := hashes[i]
		return int((h ^ int32(uint32(h)>>16)) & int32(capacity-1))
	}
	order := make([]int, len(hashes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return bucket(a) - bucket(b) })
	return order
}

// javaHashSet collects values as a java.util.HashSet does: duplicates
// (by Java equals) dropped, the rest in the set's iteration order.
type javaHashSet struct {
	seen   map[any]int
	values []any
	hashes []int32
}

func newJavaHashSet() *javaHashSet { return &javaHashSet{seen: map[any]int{}} }

// put adds v, or, when an equal value is already there, replaces the value
// kept for it by replace (HashMap.put keeps the first key's position) and
// reports that it was present.
func (s *javaHashSet) put(v any, replace func(at int)) error {
	h, key, err := javaHashKey(v)
	if err != nil {
		return err
	}
	s.putHashed(h, key, v, replace)
	return nil
}

// putHashed is put of a value whose hash code and equality key the caller
// computed (a BinaryRow's: its murmur hash and its bytes).
func (s *javaHashSet) putHashed(h int32, key, v any, replace func(at int)) {
	if at, ok := s.seen[key]; ok {
		if replace != nil {
			replace(at)
		}
		return
	}
	s.seen[key] = len(s.values)
	s.values = append(s.values, v)
	s.hashes = append(s.hashes, h)
}

// has reports whether v is in the set; a nil set holds nothing.
func (s *javaHashSet) has(v any) (bool, error) {
	if s == nil {
		return false, nil
	}
	_, key, err := javaHashKey(v)
	if err != nil {
		return false, err
	}
	_, ok := s.seen[key]
	return ok, nil
}

// order is the iteration order of the set as positions into s.values.
func (s *javaHashSet) order() []int { return javaHashOrder(s.hashes) }
