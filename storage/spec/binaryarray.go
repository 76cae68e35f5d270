package spec

import (
	"encoding/binary"
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// A BinaryArray holds ARRAY values and the two halves of a MAP inside a
// BinaryRow. Mirrors org.apache.paimon.data.BinaryArray as written by
// BinaryArrayWriter:
//
//	[int32 n][null bits in 4-byte words][n x element width, padded to 8][variable part]
//
// The null bit of element i is bit i counted from byte 4. Elements are as
// wide as their type needs (calculateFixLengthPartSize); variable-length
// elements use 8-byte slots exactly like BinaryRow fields. Unlike rows, null
// elements never reserve variable-part bytes (BinaryArrayWriter.setNullAt).
//
// A BinaryMap (org.apache.paimon.data.BinaryMap.valueOf) is
//
//	[int32 key-array bytes][key BinaryArray][value BinaryArray]
//
// and a MULTISET is a map from element to its INT NOT NULL count.

// multisetCountType is the value type of a MULTISET's map form.
var multisetCountType = DataType{Root: Int}

// arrayHeaderSize is BinaryArray.calculateHeaderInBytes.
func arrayHeaderSize(n int) int { return 4 + ((n+31)/32)*4 }

// arrayElementWidth is BinaryArray.calculateFixLengthPartSize.
func arrayElementWidth(t DataType) int {
	switch t.Root {
	case Boolean, TinyInt:
		return 1
	case SmallInt:
		return 2
	case Int, Float, Date, Time:
		return 4
	}
	return 8
}

func encodeBinaryArray(elem DataType, values []any) ([]byte, error) {
	width := arrayElementWidth(elem)
	header := arrayHeaderSize(len(values))
	w := &sectionWriter{buf: make([]byte, roundToWord(header+width*len(values)))}
	binary.LittleEndian.PutUint32(w.buf, uint32(len(values)))
	for i, v := range values {
		if v == nil {
			w.setNullBit(4, i)
			continue
		}
		if err := w.writeValue(header+width*i, elem, v); err != nil {
			return nil, fmt.Errorf("spec: array element %d: %w", i, err)
		}
	}
	return w.buf, nil
}

func decodeBinaryArray(elem DataType, b []byte) ([]any, error) {
	if len(b) < 4 {
		return nil, corruptDataf("BinaryArray of %d bytes has no size", len(b))
	}
	n := int(int32(binary.LittleEndian.Uint32(b)))
	width := arrayElementWidth(elem)
	// Checked before allocating so a corrupt count cannot demand memory.
	if n < 0 || int64(arrayHeaderSize(n))+int64(width)*int64(n) > int64(len(b)) {
		return nil, corruptDataf("BinaryArray of %d elements does not fit in %d bytes", n, len(b))
	}
	r := sectionReader{b: b}
	header := arrayHeaderSize(n)
	values := make([]any, n)
	for i := range values {
		if r.isNull(4, i) {
			continue
		}
		v, err := r.readValue(header+width*i, elem)
		if err != nil {
			return nil, fmt.Errorf("spec: array element %d: %w", i, err)
		}
		values[i] = v
	}
	return values, nil
}

func encodeBinaryMap(key, value DataType, m MapValue) ([]byte, error) {
	if len(m.Keys) != len(m.Values) {
		return nil, fmt.Errorf("spec: map with %d keys and %d values: %w",
			len(m.Keys), len(m.Values), lakeerr.ErrUnsupported)
	}
	keys, err := encodeBinaryArray(key, m.Keys)
	if err != nil {
		return nil, err
	}
	values, err := encodeBinaryArray(value, m.Values)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 4, 4+len(keys)+len(values))
	binary.LittleEndian.PutUint32(out, uint32(len(keys)))
	return append(append(out, keys...), values...), nil
}

func decodeBinaryMap(key, value DataType, b []byte) (MapValue, error) {
	if len(b) < 4 {
		return MapValue{}, corruptDataf("BinaryMap of %d bytes has no key size", len(b))
	}
	keyBytes := int64(int32(binary.LittleEndian.Uint32(b)))
	if keyBytes < 0 || 4+keyBytes > int64(len(b)) {
		return MapValue{}, corruptDataf("BinaryMap key array of %d bytes in %d", keyBytes, len(b))
	}
	keys, err := decodeBinaryArray(key, b[4:4+keyBytes])
	if err != nil {
		return MapValue{}, err
	}
	values, err := decodeBinaryArray(value, b[4+keyBytes:])
	if err != nil {
		return MapValue{}, err
	}
	if len(keys) != len(values) {
		return MapValue{}, corruptDataf("BinaryMap has %d keys but %d values", len(keys), len(values))
	}
	return MapValue{Keys: keys, Values: values}, nil
}

// encodeArrayValue and encodeMapValue check the Go value and the nested type
// before encoding, so a malformed DataType cannot cause a nil dereference.
func encodeArrayValue(t DataType, v any) ([]byte, error) {
	values, ok := v.([]any)
	if !ok || t.Element == nil {
		return nil, valueTypeError(t, v)
	}
	return encodeBinaryArray(*t.Element, values)
}

func encodeMapValue(t DataType, v any) ([]byte, error) {
	m, ok := v.(MapValue)
	key, value, known := mapEntryTypes(t)
	if !ok || !known {
		return nil, valueTypeError(t, v)
	}
	return encodeBinaryMap(key, value, m)
}

// mapEntryTypes returns the key and value types of a MAP or MULTISET.
func mapEntryTypes(t DataType) (key, value DataType, ok bool) {
	switch {
	case t.Root == Map && t.Key != nil && t.Value != nil:
		return *t.Key, *t.Value, true
	case t.Root == Multiset && t.Element != nil:
		return *t.Element, multisetCountType, true
	}
	return DataType{}, DataType{}, false
}
