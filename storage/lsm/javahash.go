package lsm

import (
	"fmt"
	"math"

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
// the map's iteration order: bucket by bucket of the spread hash
// (h ^ h>>>16), each bucket in insertion order (resizes split buckets without
// reordering). It replays the insertions because a ninth node in one bucket
// also doubles a table smaller than 64 (HashMap.treeifyBin); in a larger
// table that bucket becomes a red-black tree, whose order is not modelled,
// and the merge is refused.
func javaHashOrder(hashes []int32) ([]int, error) {
	table := make([][]int, 16)
	for i, h := range hashes {
		b := javaBucket(h, len(table))
		table[b] = append(table[b], i)
		if len(table[b]) > 8 {
			if len(table) >= 64 {
				return nil, fmt.Errorf("%w: aggregate cannot order %d values colliding in one Java HashMap bucket",
					lakeerr.ErrUnsupported, len(table[b]))
			}
			table = resizeJavaTable(table, hashes)
		}
		if i+1 > len(table)*3/4 {
			table = resizeJavaTable(table, hashes)
		}
	}
	order := make([]int, 0, len(hashes))
	for _, bucket := range table {
		order = append(order, bucket...)
	}
	return order, nil
}

func javaBucket(h int32, capacity int) int {
	return int((h ^ int32(uint32(h)>>16)) & int32(capacity-1))
}

// resizeJavaTable is HashMap.resize: the table doubles and each bucket
// splits into two, keeping its order.
func resizeJavaTable(table [][]int, hashes []int32) [][]int {
	grown := make([][]int, 2*len(table))
	for _, bucket := range table {
		for _, i := range bucket {
			b := javaBucket(hashes[i], len(grown))
			grown[b] = append(grown[b], i)
		}
	}
	return grown
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
func (s *javaHashSet) order() ([]int, error) { return javaHashOrder(s.hashes) }
