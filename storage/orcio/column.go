package orcio

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/lakesql/lakesql/storage/spec"
)

// Column decoding. A column of n slots first has its PRESENT stream (one
// bit per slot; absent when no slot is null), then kind-specific streams
// holding only the present slots. The children of a struct have a slot
// for each present struct; the elements of lists and the entries of maps
// have one for each element of the present lists and maps.

// column decodes the n slots of column id as values of type want.
func (s *stripe) column(id uint32, want spec.DataType, n int) ([]any, error) {
	t := s.f.footer.types[id]
	if !readableAs(t.kind, want.Root) {
		return nil, fmt.Errorf("orc column %d of type %s read as %v: %w", id, t.kind, want.Root, errUnsupported)
	}
	present, count, err := s.present(id, n)
	if err != nil {
		return nil, err
	}
	values, err := s.values(id, t, want, count)
	if err != nil {
		return nil, fmt.Errorf("column %d (%s): %w", id, t.kind, err)
	}
	if len(values) != count {
		return nil, corruptf("column %d holds %d values for %d present slots", id, len(values), count)
	}
	if present == nil {
		return values, nil
	}
	out := make([]any, n)
	next := 0
	for i, p := range present {
		if p {
			out[i] = values[next]
			next++
		}
	}
	return out, nil
}

// present returns the column's PRESENT bits, nil when every slot is
// present, and the number of present slots.
func (s *stripe) present(id uint32, n int) ([]bool, int, error) {
	if _, ok := s.streams[streamKey{id, streamPresent}]; !ok {
		return nil, n, nil
	}
	st, err := s.stream(id, streamPresent)
	if err != nil {
		return nil, 0, err
	}
	bits := boolRLE(st, n)
	if st.err != nil {
		return nil, 0, fmt.Errorf("column %d present: %w", id, st.err)
	}
	count := 0
	for _, p := range bits {
		if p {
			count++
		}
	}
	return bits, count, nil
}

// readableAs reports whether a column of kind k holds values of root r;
// integers widen, never narrow.
func readableAs(k typeKind, r spec.TypeRoot) bool {
	switch k {
	case kindBoolean:
		return r == spec.Boolean
	case kindByte:
		return r == spec.TinyInt || r == spec.SmallInt || r == spec.Int || r == spec.BigInt
	case kindShort:
		return r == spec.SmallInt || r == spec.Int || r == spec.BigInt
	case kindInt:
		return r == spec.Int || r == spec.BigInt
	case kindLong:
		return r == spec.BigInt
	case kindFloat:
		return r == spec.Float
	case kindDouble:
		return r == spec.Double
	case kindString, kindVarchar, kindChar:
		return r == spec.VarChar || r == spec.Char
	case kindBinary:
		return r == spec.VarBinary || r == spec.Binary || r == spec.Blob
	case kindTimestamp:
		return r == spec.Timestamp
	case kindTimestampInstant:
		return r == spec.TimestampLTZ
	case kindDate:
		return r == spec.Date
	case kindDecimal:
		return r == spec.Decimal
	case kindList:
		return r == spec.Array
	case kindMap:
		return r == spec.Map || r == spec.Multiset
	case kindStruct:
		return r == spec.Row
	}
	return false
}

// values decodes count present values of column id.
func (s *stripe) values(id uint32, t orcType, want spec.DataType, count int) ([]any, error) {
	switch t.kind {
	case kindBoolean:
		return decodeStream(s, id, streamData, func(st *stream) []any { return boxed(boolRLE(st, count)) })
	case kindByte:
		return decodeStream(s, id, streamData, func(st *stream) []any { return integers(int8Slice(byteRLE(st, count)), want.Root) })
	case kindShort, kindInt, kindLong:
		return s.integerColumn(id, want.Root, count)
	case kindFloat:
		return decodeStream(s, id, streamData, func(st *stream) []any { return floats(st, count, 4) })
	case kindDouble:
		return decodeStream(s, id, streamData, func(st *stream) []any { return floats(st, count, 8) })
	case kindString, kindVarchar, kindChar, kindBinary:
		return s.bytesColumn(id, t.kind == kindBinary, count)
	case kindDate:
		return s.dateColumn(id, count)
	case kindTimestamp, kindTimestampInstant:
		return s.timestampColumn(id, t.kind == kindTimestampInstant, count)
	case kindDecimal:
		return s.decimalColumn(id, want.Scale, count)
	case kindList:
		return s.listColumn(id, t, want, count)
	case kindMap:
		return s.mapColumn(id, t, want, count)
	case kindStruct:
		return s.structValues(id, want.Fields, count)
	}
	return nil, fmt.Errorf("%s columns: %w", t.kind, errUnsupported)
}

// decodeStream runs decode over one stream and reports its error.
func decodeStream(s *stripe, id uint32, kind streamKind, decode func(*stream) []any) ([]any, error) {
	st, err := s.stream(id, kind)
	if err != nil {
		return nil, err
	}
	out := decode(st)
	return out, st.err
}

// ints decodes count integers of one of the column's streams with the
// column's run-length encoding version.
func (s *stripe) ints(id uint32, kind streamKind, count int, signed bool) ([]int64, error) {
	st, err := s.stream(id, kind)
	if err != nil {
		return nil, err
	}
	out := intRLE(st, count, s.encodings[id].rleV2(), signed)
	if st.err == nil && len(out) != count {
		st.fail("%d of %d integers", len(out), count)
	}
	return out, st.err
}

func (s *stripe) integerColumn(id uint32, root spec.TypeRoot, count int) ([]any, error) {
	v, err := s.ints(id, streamData, count, true)
	if err != nil {
		return nil, err
	}
	return integers(v, root), nil
}

func (s *stripe) dateColumn(id uint32, count int) ([]any, error) {
	days, err := s.ints(id, streamData, count, true)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(days))
	for i, d := range days {
		if d < math.MinInt32 || d > math.MaxInt32 {
			return nil, corruptf("date of %d days", d)
		}
		out[i] = spec.DateValue(d)
	}
	return out, nil
}

// bytesColumn decodes strings and binaries: DIRECT holds the values'
// lengths in LENGTH and their bytes in DATA; DICTIONARY holds the sorted
// distinct values that way (LENGTH, DICTIONARY_DATA) and an index into
// them per value in DATA.
func (s *stripe) bytesColumn(id uint32, binary bool, count int) ([]any, error) {
	enc := s.encodings[id]
	if !enc.dictionary() {
		values, err := s.lengthPrefixed(id, streamData, count)
		if err != nil {
			return nil, err
		}
		return stringsOrBytes(values, binary), nil
	}
	if enc.dictionarySize > maxStripeValues {
		return nil, corruptf("dictionary of %d entries", enc.dictionarySize)
	}
	dict, err := s.lengthPrefixed(id, streamDictionaryData, int(enc.dictionarySize))
	if err != nil {
		return nil, err
	}
	entries := stringsOrBytes(dict, binary)
	index, err := s.ints(id, streamData, count, false)
	if err != nil {
		return nil, err
	}
	out := make([]any, count)
	for i, x := range index {
		if x < 0 || x >= int64(len(entries)) {
			return nil, corruptf("dictionary index %d of %d entries", x, len(entries))
		}
		out[i] = entries[x]
	}
	return out, nil
}

// lengthPrefixed splits the bytes of stream kind by the column's LENGTH
// stream into count values.
func (s *stripe) lengthPrefixed(id uint32, kind streamKind, count int) ([][]byte, error) {
	lengths, err := s.ints(id, streamLength, count, false)
	if err != nil {
		return nil, err
	}
	st, err := s.stream(id, kind)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, count)
	for i, n := range lengths {
		if n < 0 || n > int64(len(st.b)) {
			return nil, corruptf("value of %d bytes", n)
		}
		out[i] = st.bytes(int(n))
	}
	return out, st.err
}

func stringsOrBytes(values [][]byte, binary bool) []any {
	out := make([]any, len(values))
	for i, v := range values {
		if binary {
			out[i] = v
		} else {
			out[i] = string(v)
		}
	}
	return out
}

// timestampColumn: DATA holds signed seconds from 2015-01-01 00:00:00
// (UTC for TIMESTAMP_INSTANT, the writer's time zone for TIMESTAMP),
// SECONDARY the nanoseconds with their trailing zeros counted in the low
// three bits.
func (s *stripe) timestampColumn(id uint32, instant bool, count int) ([]any, error) {
	secs, err := s.ints(id, streamData, count, true)
	if err != nil {
		return nil, err
	}
	nanos, err := s.ints(id, streamSecondary, count, false)
	if err != nil {
		return nil, err
	}
	clock := s.clock
	if instant {
		clock = utcClock
	}
	out := make([]any, count)
	for i := range secs {
		ns, err := decodeNanos(nanos[i])
		if err != nil {
			return nil, err
		}
		out[i] = clock.timestamp(secs[i], ns)
	}
	return out, nil
}

// decodeNanos undoes the trailing-zero encoding of SECONDARY values.
// Java's writers store 0..999,999,999; C++ writers store the fraction of
// a time before 1970 negative (with the seconds rounded toward zero), so
// the value is read as signed.
func decodeNanos(v int64) (int64, error) {
	zeros := v & 7
	v >>= 3
	if zeros != 0 {
		for range zeros + 1 {
			v *= 10
		}
	}
	if v <= -1_000_000_000 || v >= 1_000_000_000 {
		return 0, corruptf("timestamp nanoseconds %d", v)
	}
	return v, nil
}

// decimalColumn: DATA holds each unscaled value as an unbounded zigzag
// varint, SECONDARY its scale, which is brought to the column's scale as
// Java's reader does (rounding half up).
func (s *stripe) decimalColumn(id uint32, scale int, count int) ([]any, error) {
	scales, err := s.ints(id, streamSecondary, count, true)
	if err != nil {
		return nil, err
	}
	st, err := s.stream(id, streamData)
	if err != nil {
		return nil, err
	}
	out := make([]any, count)
	for i := range out {
		small, large := st.bigVarint()
		if st.err != nil {
			return nil, st.err
		}
		if scales[i] < -1000 || scales[i] > 1000 {
			return nil, corruptf("decimal scale %d", scales[i])
		}
		out[i] = rescale(small, large, int(scales[i]), scale)
	}
	return out, nil
}

func rescale(small int64, large *big.Int, from, to int) spec.DecimalValue {
	if large == nil && from == to {
		return spec.NewDecimal(small, to)
	}
	v := large
	if v == nil {
		v = big.NewInt(small)
	}
	if from < to {
		v = new(big.Int).Mul(v, pow10(to-from))
	} else if from > to {
		v = roundHalfUp(v, pow10(from-to))
	}
	return spec.NewDecimalBig(v, to)
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// roundHalfUp divides v by d, rounding halves away from zero.
func roundHalfUp(v, d *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(v, d, new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(d) >= 0 {
		q.Add(q, big.NewInt(int64(v.Sign())))
	}
	return q
}

// listColumn: LENGTH holds each list's element count; the elements are
// the child column's slots, in order.
func (s *stripe) listColumn(id uint32, t orcType, want spec.DataType, count int) ([]any, error) {
	lengths, total, err := s.lengths(id, count)
	if err != nil {
		return nil, err
	}
	elements, err := s.column(t.subtypes[0], *want.Element, total)
	if err != nil {
		return nil, err
	}
	out := make([]any, count)
	at := 0
	for i, n := range lengths {
		out[i] = elements[at : at+n : at+n]
		at += n
	}
	return out, nil
}

// mapColumn: as a list, with keys and values in two child columns.
func (s *stripe) mapColumn(id uint32, t orcType, want spec.DataType, count int) ([]any, error) {
	lengths, total, err := s.lengths(id, count)
	if err != nil {
		return nil, err
	}
	keyType, valueType := want.Key, want.Value
	if want.Root == spec.Multiset {
		keyType, valueType = want.Element, &spec.DataType{Root: spec.Int}
	}
	keys, err := s.column(t.subtypes[0], *keyType, total)
	if err != nil {
		return nil, err
	}
	values, err := s.column(t.subtypes[1], *valueType, total)
	if err != nil {
		return nil, err
	}
	out := make([]any, count)
	at := 0
	for i, n := range lengths {
		out[i] = spec.MapValue{Keys: keys[at : at+n : at+n], Values: values[at : at+n : at+n]}
		at += n
	}
	return out, nil
}

// lengths reads the LENGTH stream of a list or map and its total,
// bounded so that a damaged count cannot allocate without end.
func (s *stripe) lengths(id uint32, count int) ([]int, int, error) {
	raw, err := s.ints(id, streamLength, count, false)
	if err != nil {
		return nil, 0, err
	}
	out := make([]int, count)
	total := 0
	for i, n := range raw {
		if n < 0 {
			return nil, 0, corruptf("list length %d", n)
		}
		if n > maxStripeValues || total+int(n) > maxStripeValues {
			return nil, 0, fmt.Errorf("lists of more than %d elements in a stripe: %w", maxStripeValues, errUnsupported)
		}
		out[i] = int(n)
		total += int(n)
	}
	return out, total, nil
}

// structValues decodes count present structs as rows of fields, each
// matched by name with a field of the ORC struct.
func (s *stripe) structValues(id uint32, fields []spec.DataField, count int) ([]any, error) {
	t := s.f.footer.types[id]
	children := make([][]any, len(fields))
	for i, field := range fields {
		for j, name := range t.fieldNames {
			if name != field.Name {
				continue
			}
			var err error
			if children[i], err = s.column(t.subtypes[j], field.Type, count); err != nil {
				return nil, fmt.Errorf("field %s: %w", field.Name, err)
			}
			break
		}
	}
	out := make([]any, count)
	for r := range out {
		row := make([]any, len(fields))
		for i, c := range children {
			if c != nil {
				row[i] = c[r]
			}
		}
		out[r] = row
	}
	return out, nil
}

func boxed[T any](values []T) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

func int8Slice(b []byte) []int64 {
	out := make([]int64, len(b))
	for i, c := range b {
		out[i] = int64(int8(c))
	}
	return out
}

// integers boxes integers as the Go type of root.
func integers(values []int64, root spec.TypeRoot) []any {
	out := make([]any, len(values))
	for i, v := range values {
		switch root {
		case spec.TinyInt:
			out[i] = int8(v)
		case spec.SmallInt:
			out[i] = int16(v)
		case spec.Int:
			out[i] = int32(v)
		default:
			out[i] = v
		}
	}
	return out
}

// floats decodes count little-endian IEEE 754 values of width bytes.
func floats(st *stream, count, width int) []any {
	raw := st.bytes(count * width)
	if st.err != nil {
		return nil
	}
	out := make([]any, count)
	for i := range out {
		b := raw[i*width:]
		if width == 4 {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b))
		} else {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
	}
	return out
}
