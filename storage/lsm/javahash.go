package lsm

import (
	"fmt"
	"math"
	"math/big"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// FieldCollectAgg (with distinct), FieldMergeMapAgg,
// FieldMergeMapWithKeyTimeAgg and the nested-table aggregators gather values
// in a java.util.HashSet or HashMap and write them out in its iteration
// order, so the order of the merged ARRAY or MAP depends on the Java
// hashCode of its elements. javaHashable lists the element types whose
// hashCode lakesql reproduces. BINARY and VARBINARY elements are Java
// byte arrays, hashed and compared by identity: see identityHashed.
func javaHashable(t spec.DataType) bool {
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt,
		spec.Float, spec.Double, spec.Char, spec.VarChar, spec.Date,
		spec.Decimal, spec.Time, spec.Timestamp, spec.TimestampLTZ:
		return true
	}
	return false
}

// identityHashed reports the element types Java holds as byte[], whose
// hashCode and equals are those of Object: no two elements read from a row
// are equal, and their order in a HashSet or HashMap follows identity hash
// codes, which differ from run to run of the JVM. lakesql keeps every such
// element, in the order it was added.
func identityHashed(t spec.DataType) bool {
	return t.Root == spec.Binary || t.Root == spec.VarBinary
}

// javaHashKey returns a value's Java hashCode (of the object Paimon's
// InternalArray.ElementGetter returns for it) and a Go map key equal for
// exactly the values Java's equals treats as equal. Floats compare by their
// canonical bits as Float.equals and Double.equals do (NaN equals NaN, -0.0
// differs from 0.0); a DECIMAL is org.apache.paimon.data.Decimal, whose
// hashCode is its BigDecimal's; TIMESTAMP and TIMESTAMP_LTZ are
// org.apache.paimon.data.Timestamp; TIME is an Integer of milliseconds.
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
	case spec.TimeValue:
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
	case spec.TimestampValue:
		return 31*(int32(x.Millis)^int32(x.Millis>>32)) + x.NanoOfMilli, x, nil
	case spec.DecimalValue:
		key := decimalKey{scale: x.Scale()}
		if u, ok := x.UnscaledInt64(); ok {
			key.small = u
		} else {
			key.big = x.Unscaled().String()
		}
		return javaDecimalHash(x), key, nil
	}
	return 0, nil, fmt.Errorf("%w: aggregate cannot hash %T values as Java does", lakeerr.ErrUnsupported, v)
}

// decimalKey identifies a decimal of one column: Decimal.equals compares
// numerically, and a column's values share one scale. spec.DecimalValue
// holds an unscaled value that fits in int64 as such (small), any other
// as a big.Int (big, in decimal digits).
type decimalKey struct {
	small int64
	big   string
	scale int
}

// javaDecimalHash is BigDecimal.hashCode: 31 times the hash of the unscaled
// value plus the scale, the unscaled value hashed as BigInteger.hashCode
// does (its magnitude's 32-bit words, most significant first, folded with
// 31, times its sign); BigDecimal's compact form for unscaled values that
// fit in a long gives the same number.
func javaDecimalHash(d spec.DecimalValue) int32 {
	var h int32
	sign := int32(1)
	if u, ok := d.UnscaledInt64(); ok {
		mag := uint64(u)
		if u < 0 {
			sign, mag = -1, -mag
		}
		h = 31*int32(uint32(mag>>32)) + int32(uint32(mag))
		if u == 0 {
			sign = 0
		}
	} else {
		u := d.Unscaled()
		sign = int32(u.Sign())
		words := new(big.Int).Abs(u).Bytes()
		for len(words)%4 != 0 {
			words = append([]byte{0}, words...)
		}
		for i := 0; i < len(words); i += 4 {
			w := uint32(words[i])<<24 | uint32(words[i+1])<<16 | uint32(words[i+2])<<8 | uint32(words[i+3])
			h = 31*h + int32(w)
		}
	}
	return 31*(h*sign) + int32(d.Scale())
}

// javaHashMap models the table of a java.util.HashMap of default capacity
// (16) and load factor (0.75): entries hang in buckets of the spread hash
// (h ^ h>>>16), each bucket a chain, and the map iterates bucket by bucket,
// each chain in order. put appends to the chain and doubles the table once
// the size passes the threshold; computeIfAbsent resizes before inserting
// and links the new entry at the head of its chain, as HashMap does; a
// resize splits each chain without reordering it; remove unlinks. A chain
// that HashMap would turn into a red-black tree (treeifyBin) doubles a table
// smaller than 64; in a larger table the tree's order is not modelled and
// the insertion fails.
type javaHashMap struct {
	table  [][]int // entry positions, chain by chain
	size   int
	index  map[any]int // equality key to the position of the live entry
	keys   []any
	hashes []int32
	values []any
}

func newJavaHashMap() *javaHashMap {
	return &javaHashMap{table: make([][]int, 16), index: map[any]int{}}
}

// treeifyThreshold is HashMap.TREEIFY_THRESHOLD; minTreeifyCapacity is
// MIN_TREEIFY_CAPACITY.
const (
	treeifyThreshold   = 8
	minTreeifyCapacity = 64
)

// put is HashMap.put: an equal key keeps its place and takes the value.
func (m *javaHashMap) put(h int32, eq, key, value any) error {
	if at, ok := m.index[eq]; ok {
		m.values[at] = value
		return nil
	}
	b := javaBucket(h, len(m.table))
	m.table[b] = append(m.table[b], m.add(h, eq, key, value))
	if len(m.table[b]) > treeifyThreshold {
		if err := m.treeify(); err != nil {
			return err
		}
	}
	if m.size++; m.size > m.threshold() {
		m.resize()
	}
	return nil
}

// computeIfAbsent is HashMap.computeIfAbsent with a function that never
// returns null: the position of the key's entry, inserted with a nil value
// when absent.
func (m *javaHashMap) computeIfAbsent(h int32, eq, key any) (int, error) {
	if m.size > m.threshold() {
		m.resize()
	}
	if at, ok := m.index[eq]; ok {
		return at, nil
	}
	b := javaBucket(h, len(m.table))
	at := m.add(h, eq, key, nil)
	m.table[b] = append([]int{at}, m.table[b]...)
	if len(m.table[b]) >= treeifyThreshold {
		if err := m.treeify(); err != nil {
			return 0, err
		}
	}
	m.size++
	return at, nil
}

// remove is HashMap.remove.
func (m *javaHashMap) remove(h int32, eq any) {
	at, ok := m.index[eq]
	if !ok {
		return
	}
	delete(m.index, eq)
	b := javaBucket(h, len(m.table))
	for i, e := range m.table[b] {
		if e == at {
			m.table[b] = append(m.table[b][:i], m.table[b][i+1:]...)
			break
		}
	}
	m.size--
}

// get returns the position of the key's entry.
func (m *javaHashMap) get(eq any) (int, bool) {
	at, ok := m.index[eq]
	return at, ok
}

func (m *javaHashMap) add(h int32, eq, key, value any) int {
	at := len(m.keys)
	m.index[eq] = at
	m.keys = append(m.keys, key)
	m.hashes = append(m.hashes, h)
	m.values = append(m.values, value)
	return at
}

func (m *javaHashMap) threshold() int { return len(m.table) * 3 / 4 }

func (m *javaHashMap) treeify() error {
	if len(m.table) >= minTreeifyCapacity {
		return fmt.Errorf("%w: aggregate cannot order more than %d values colliding in one Java HashMap bucket",
			lakeerr.ErrUnsupported, treeifyThreshold)
	}
	m.resize()
	return nil
}

func (m *javaHashMap) resize() {
	grown := make([][]int, 2*len(m.table))
	for _, chain := range m.table {
		for _, at := range chain {
			b := javaBucket(m.hashes[at], len(grown))
			grown[b] = append(grown[b], at)
		}
	}
	m.table = grown
}

// order is the iteration order of the live entries, as positions.
func (m *javaHashMap) order() []int {
	out := make([]int, 0, m.size)
	for _, chain := range m.table {
		out = append(out, chain...)
	}
	return out
}

func javaBucket(h int32, capacity int) int {
	return int((h ^ int32(uint32(h)>>16)) & int32(capacity-1))
}

// putValue puts a key whose Java hash javaHashKey computes.
func (m *javaHashMap) putValue(key, value any) error {
	h, eq, err := javaHashKey(key)
	if err != nil {
		return err
	}
	return m.put(h, eq, key, value)
}

// removeValue removes a key whose Java hash javaHashKey computes.
func (m *javaHashMap) removeValue(key any) error {
	h, eq, err := javaHashKey(key)
	if err != nil {
		return err
	}
	m.remove(h, eq)
	return nil
}

// has reports whether the map holds the key; a nil map holds nothing.
func (m *javaHashMap) has(key any) (bool, error) {
	if m == nil {
		return false, nil
	}
	_, eq, err := javaHashKey(key)
	if err != nil {
		return false, err
	}
	_, ok := m.index[eq]
	return ok, nil
}

// mapValue lists the entries in iteration order.
func (m *javaHashMap) mapValue() spec.MapValue {
	order := m.order()
	out := spec.MapValue{Keys: make([]any, 0, len(order)), Values: make([]any, 0, len(order))}
	for _, at := range order {
		out.Keys = append(out.Keys, m.keys[at])
		out.Values = append(out.Values, m.values[at])
	}
	return out
}

// keyList lists the keys in iteration order (a HashSet's elements).
func (m *javaHashMap) keyList() []any {
	order := m.order()
	out := make([]any, 0, len(order))
	for _, at := range order {
		out = append(out, m.keys[at])
	}
	return out
}
