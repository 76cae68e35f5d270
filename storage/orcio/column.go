package orcio

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/lakesql/lakesql/storage/spec"
)

// Column decoding. A column of n slots has a PRESENT stream (one bit per
// slot; absent when no slot is null), then kind-specific streams holding
// only the present slots. The children of a struct have a slot for each
// present struct; the elements of lists and the entries of maps have one
// for each element of the present lists and maps. Readers decode a batch
// of slots at a time, keeping their place in each stream, so a stripe is
// never boxed whole.

// columnReader decodes the slots of one column, a batch at a time.
type columnReader interface {
	next(n int) ([]any, error)
	// skip passes over the next n slots (skip.go).
	skip(n int) error
}

// valueReader decodes the next count present values of a column.
type valueReader interface {
	values(count int) ([]any, error)
}

// nullable reads a column's PRESENT bits and spreads its values over the
// present slots.
type nullable struct {
	id      uint32
	present *bools // nil when every slot is present
	inner   valueReader
}

func (c *nullable) next(n int) ([]any, error) {
	if c.present == nil {
		return c.checked(n)
	}
	bits := c.present.next(n)
	if err := c.present.bytes.s.err; err != nil {
		return nil, fmt.Errorf("column %d present: %w", c.id, err)
	}
	count := 0
	for _, p := range bits {
		if p {
			count++
		}
	}
	values, err := c.checked(count)
	if err != nil {
		return nil, err
	}
	out := make([]any, n)
	next := 0
	for i, p := range bits {
		if p {
			out[i] = values[next]
			next++
		}
	}
	return out, nil
}

// checked reads count values and checks the reader produced them all.
func (c *nullable) checked(count int) ([]any, error) {
	values, err := c.inner.values(count)
	if err != nil {
		return nil, fmt.Errorf("column %d: %w", c.id, err)
	}
	if len(values) != count {
		return nil, corruptf("column %d holds %d values for %d present slots", c.id, len(values), count)
	}
	return values, nil
}

// newReader builds the reader of column id as values of type want.
func (s *stripe) newReader(id uint32, want spec.DataType) (columnReader, error) {
	t := s.f.footer.types[id]
	if !readableAs(t.kind, want.Root) {
		return nil, fmt.Errorf("orc column %d of type %s read as %v: %w", id, t.kind, want.Root, errUnsupported)
	}
	c := &nullable{id: id}
	if _, ok := s.streams[streamKey{id, streamPresent}]; ok {
		st, err := s.stream(id, streamPresent)
		if err != nil {
			return nil, err
		}
		c.present = &bools{bytes: byteRuns(st)}
	}
	var err error
	if c.inner, err = s.valueReader(id, t, want); err != nil {
		return nil, fmt.Errorf("column %d (%s): %w", id, t.kind, err)
	}
	return c, nil
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
		// Paimon writes TIME as an int of milliseconds of the day.
		return r == spec.Int || r == spec.BigInt || r == spec.Time
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

// valueReader builds the reader of a column's present values.
func (s *stripe) valueReader(id uint32, t orcType, want spec.DataType) (valueReader, error) {
	switch t.kind {
	case kindBoolean:
		st, err := s.stream(id, streamData)
		return boolValues{&bools{bytes: byteRuns(st)}}, err
	case kindByte:
		st, err := s.stream(id, streamData)
		return byteValues{byteRuns(st), want.Root}, err
	case kindShort, kindInt, kindLong:
		r, err := s.ints(id, streamData, true)
		return intValues{r, want.Root}, err
	case kindDate:
		r, err := s.ints(id, streamData, true)
		return dateValues{r}, err
	case kindFloat, kindDouble:
		st, err := s.stream(id, streamData)
		return floatValues{st, t.kind == kindFloat}, err
	case kindString, kindVarchar, kindChar, kindBinary:
		return s.bytesReader(id, t.kind == kindBinary)
	case kindTimestamp, kindTimestampInstant:
		return s.timestampReader(id)
	case kindDecimal:
		return s.decimalReader(id, want.Scale)
	case kindList, kindMap:
		return s.repeatedReader(id, t, want)
	case kindStruct:
		return s.structReader(id, want.Fields)
	}
	return nil, fmt.Errorf("%s columns: %w", t.kind, errUnsupported)
}

// ints reads one of the column's integer streams with the column's
// run-length encoding version.
func (s *stripe) ints(id uint32, kind streamKind, signed bool) (*runs[int64], error) {
	st, err := s.stream(id, kind)
	if err != nil {
		return nil, err
	}
	return intRuns(st, s.encodings[id].rleV2(), signed), nil
}

// nextInts reads count integers and reports the stream's error.
func nextInts(r *runs[int64], count int) ([]int64, error) {
	v := r.next(count)
	return v, r.s.err
}

type boolValues struct{ r *bools }

func (v boolValues) values(count int) ([]any, error) {
	return boxed(v.r.next(count)), v.r.bytes.s.err
}

type byteValues struct {
	r    *runs[byte]
	root spec.TypeRoot
}

func (v byteValues) values(count int) ([]any, error) {
	b := v.r.next(count)
	out := make([]int64, len(b))
	for i, c := range b {
		out[i] = int64(int8(c))
	}
	return integers(out, v.root), v.r.s.err
}

type intValues struct {
	r    *runs[int64]
	root spec.TypeRoot
}

func (v intValues) values(count int) ([]any, error) {
	ints, err := nextInts(v.r, count)
	return integers(ints, v.root), err
}

type dateValues struct{ r *runs[int64] }

func (v dateValues) values(count int) ([]any, error) {
	days, err := nextInts(v.r, count)
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

// floatValues decodes little-endian IEEE 754 values.
type floatValues struct {
	s      *stream
	single bool
}

func (v floatValues) values(count int) ([]any, error) {
	width := 8
	if v.single {
		width = 4
	}
	raw := v.s.bytes(count * width)
	if v.s.err != nil {
		return nil, v.s.err
	}
	out := make([]any, count)
	for i := range out {
		b := raw[i*width:]
		if v.single {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b))
		} else {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
	}
	return out, nil
}

// bytesReader reads strings and binaries: DIRECT holds the values'
// lengths in LENGTH and their bytes in DATA; DICTIONARY holds the
// distinct values that way (LENGTH, DICTIONARY_DATA), read whole, and an
// index into them per value in DATA.
func (s *stripe) bytesReader(id uint32, binary bool) (valueReader, error) {
	lengths, err := s.ints(id, streamLength, false)
	if err != nil {
		return nil, err
	}
	enc := s.encodings[id]
	if !enc.dictionary() {
		data, err := s.stream(id, streamData)
		return directBytes{lengths, data, binary}, err
	}
	if enc.dictionarySize > maxStripeValues {
		return nil, corruptf("dictionary of %d entries", enc.dictionarySize)
	}
	dictData, err := s.stream(id, streamDictionaryData)
	if err != nil {
		return nil, err
	}
	entries, err := directBytes{lengths, dictData, binary}.values(int(enc.dictionarySize))
	if err != nil {
		return nil, fmt.Errorf("dictionary: %w", err)
	}
	index, err := s.ints(id, streamData, false)
	return dictionaryBytes{index, entries}, err
}

type directBytes struct {
	lengths *runs[int64]
	data    *stream
	binary  bool
}

func (v directBytes) values(count int) ([]any, error) {
	lengths, err := nextInts(v.lengths, count)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(lengths))
	for i, n := range lengths {
		if n < 0 || n > int64(len(v.data.b)) {
			return nil, corruptf("value of %d bytes", n)
		}
		b := v.data.bytes(int(n))
		if v.binary {
			out[i] = b
		} else {
			out[i] = string(b)
		}
	}
	return out, v.data.err
}

type dictionaryBytes struct {
	index   *runs[int64]
	entries []any
}

func (v dictionaryBytes) values(count int) ([]any, error) {
	index, err := nextInts(v.index, count)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(index))
	for i, x := range index {
		if x < 0 || x >= int64(len(v.entries)) {
			return nil, corruptf("dictionary index %d of %d entries", x, len(v.entries))
		}
		out[i] = v.entries[x]
	}
	return out, nil
}

// timestampReader: DATA holds signed seconds from 2015-01-01 00:00:00
// (UTC for TIMESTAMP_INSTANT, the writer's time zone for TIMESTAMP),
// SECONDARY the nanoseconds with their trailing zeros counted in the low
// three bits.
//
// Both kinds are read as the writer's wall clock. For TIMESTAMP that is
// the ORC reading; for TIMESTAMP_INSTANT it undoes Paimon's ORC writer,
// which stores a TIMESTAMP WITH LOCAL TIME ZONE value shifted by the
// writer JVM's zone (the instant whose wall clock there is the value's
// UTC wall clock), so that the value Paimon meant comes back, as Java
// reads it in the writer's zone (integration/interop/FINDINGS.md F32).
// Writers in UTC (pyarrow's say GMT) are unaffected either way.
func (s *stripe) timestampReader(id uint32) (valueReader, error) {
	secs, err := s.ints(id, streamData, true)
	if err != nil {
		return nil, err
	}
	nanos, err := s.ints(id, streamSecondary, false)
	if err != nil {
		return nil, err
	}
	clock := s.clock
	if s.f.footer.types[id].kind == kindTimestampInstant {
		clock = s.clock.instants()
	}
	return timestampValues{secs, nanos, clock}, nil
}

type timestampValues struct {
	secs, nanos *runs[int64]
	clock       wallClock
}

func (v timestampValues) values(count int) ([]any, error) {
	secs, err := nextInts(v.secs, count)
	if err != nil {
		return nil, err
	}
	nanos, err := nextInts(v.nanos, count)
	if err != nil {
		return nil, err
	}
	out := make([]any, count)
	for i := range out {
		ns, err := decodeNanos(nanos[i])
		if err != nil {
			return nil, err
		}
		out[i] = v.clock.timestamp(secs[i], ns)
	}
	return out, nil
}

// decimalReader: DATA holds each unscaled value as an unbounded zigzag
// varint, SECONDARY its scale, which is brought to the column's scale as
// Java's reader does (rounding half up).
func (s *stripe) decimalReader(id uint32, scale int) (valueReader, error) {
	scales, err := s.ints(id, streamSecondary, true)
	if err != nil {
		return nil, err
	}
	data, err := s.stream(id, streamData)
	return decimalValues{data, scales, scale}, err
}

type decimalValues struct {
	data   *stream
	scales *runs[int64]
	scale  int
}

func (v decimalValues) values(count int) ([]any, error) {
	scales, err := nextInts(v.scales, count)
	if err != nil {
		return nil, err
	}
	out := make([]any, count)
	for i := range out {
		small, large := v.data.bigVarint()
		if v.data.err != nil {
			return nil, v.data.err
		}
		if scales[i] < -1000 || scales[i] > 1000 {
			return nil, corruptf("decimal scale %d", scales[i])
		}
		out[i] = rescale(small, large, int(scales[i]), v.scale)
	}
	return out, nil
}

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

// repeatedReader reads lists and maps: LENGTH holds each one's element
// count; the elements (a map's keys and values) are the slots of the
// child columns, in order.
func (s *stripe) repeatedReader(id uint32, t orcType, want spec.DataType) (valueReader, error) {
	lengths, err := s.ints(id, streamLength, false)
	if err != nil {
		return nil, err
	}
	r := repeatedValues{lengths: lengths}
	if t.kind == kindList {
		r.elements, err = s.newReader(t.subtypes[0], *want.Element)
		return r, err
	}
	keyType, valueType := want.Key, want.Value
	if want.Root == spec.Multiset {
		keyType, valueType = want.Element, &spec.DataType{Root: spec.Int}
	}
	if r.keys, err = s.newReader(t.subtypes[0], *keyType); err != nil {
		return nil, err
	}
	r.elements, err = s.newReader(t.subtypes[1], *valueType)
	return r, err
}

type repeatedValues struct {
	lengths  *runs[int64]
	keys     columnReader // nil for a list
	elements columnReader // a map's values
}

func (v repeatedValues) values(count int) ([]any, error) {
	lengths, err := nextInts(v.lengths, count)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, n := range lengths {
		if n < 0 {
			return nil, corruptf("list length %d", n)
		}
		if n > maxStripeValues || total+int(n) > maxStripeValues {
			return nil, fmt.Errorf("lists of more than %d elements in a batch: %w", maxStripeValues, errUnsupported)
		}
		total += int(n)
	}
	elements, err := v.elements.next(total)
	if err != nil {
		return nil, err
	}
	var keys []any
	if v.keys != nil {
		if keys, err = v.keys.next(total); err != nil {
			return nil, err
		}
	}
	out := make([]any, count)
	at := 0
	for i, n := range lengths {
		end := at + int(n)
		if keys != nil {
			out[i] = spec.MapValue{Keys: keys[at:end:end], Values: elements[at:end:end]}
		} else {
			out[i] = elements[at:end:end]
		}
		at = end
	}
	return out, nil
}

// structReader reads structs as rows of fields, each matched by name with
// a field of the ORC struct; a field the struct lacks reads as NULL.
func (s *stripe) structReader(id uint32, fields []spec.DataField) (valueReader, error) {
	t := s.f.footer.types[id]
	children := make([]columnReader, len(fields))
	for i, field := range fields {
		for j, name := range t.fieldNames {
			if name != field.Name {
				continue
			}
			var err error
			if children[i], err = s.newReader(t.subtypes[j], field.Type); err != nil {
				return nil, fmt.Errorf("field %s: %w", field.Name, err)
			}
			break
		}
	}
	return structValues{fields, children}, nil
}

type structValues struct {
	fields   []spec.DataField
	children []columnReader
}

func (v structValues) values(count int) ([]any, error) {
	columns := make([][]any, len(v.children))
	for i, c := range v.children {
		if c == nil {
			continue
		}
		var err error
		if columns[i], err = c.next(count); err != nil {
			return nil, fmt.Errorf("field %s: %w", v.fields[i].Name, err)
		}
	}
	out := make([]any, count)
	for r := range out {
		row := make([]any, len(columns))
		for i, c := range columns {
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
		case spec.Time:
			out[i] = spec.TimeValue(v)
		default:
			out[i] = v
		}
	}
	return out
}
