package spec

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Java's canonical NaN bit patterns (Float.NaN, Double.NaN). BinaryArrayWriter
// canonicalizes NaN; lakesql does the same for rows so that a Go NaN (whose
// payload differs from Java's) hashes like the NaN a Java writer produces.
const (
	javaFloatNaNBits  = 0x7fc00000
	javaDoubleNaNBits = 0x7ff8000000000000
)

// Sizes Java reserves in the variable part for non-compact values.
const (
	decimalTailBytes   = 16 // AbstractBinaryWriter.writeDecimal
	timestampTailBytes = 8  // AbstractBinaryWriter.writeTimestamp
)

// sectionWriter builds one BinaryRow or BinaryArray section: the fixed part
// is allocated up front and filled in place; variable-length data is
// appended in zero-padded 8-byte words. Slots store offsets relative to the
// start of the section, as MemorySegmentUtils reads them.
type sectionWriter struct{ buf []byte }

func (w *sectionWriter) setNullBit(base, index int) {
	w.buf[base+index>>3] |= 1 << (index & 7)
}

func (w *sectionWriter) putOffsetAndSize(slot, offset int, size uint32) {
	binary.LittleEndian.PutUint64(w.buf[slot:], uint64(offset)<<32|uint64(size))
}

// reserve appends n zero bytes rounded up to a word and returns their offset.
func (w *sectionWriter) reserve(n int) int {
	offset := len(w.buf)
	w.buf = slices.Grow(w.buf, roundToWord(n))[:offset+roundToWord(n)]
	clear(w.buf[offset:])
	return offset
}

// appendVar stores data in the variable part and points the slot at it.
func (w *sectionWriter) appendVar(slot int, data []byte) {
	offset := w.reserve(len(data))
	copy(w.buf[offset:], data)
	w.putOffsetAndSize(slot, offset, uint32(len(data)))
}

// reserveNullTail mirrors Java writing a null non-compact DECIMAL or
// TIMESTAMP into a row: the tail bytes are still reserved (zeroed) and the
// slot keeps their offset with size 0, so later updates could fill them in.
func (w *sectionWriter) reserveNullTail(slot int, t DataType) {
	switch {
	case t.Root == Decimal && !t.IsCompactDecimal():
		w.putOffsetAndSize(slot, w.reserve(decimalTailBytes), 0)
	case (t.Root == Timestamp || t.Root == TimestampLTZ) && !t.IsCompactTimestamp():
		w.putOffsetAndSize(slot, w.reserve(timestampTailBytes), 0)
	}
}

// writeValue writes a non-null value into the slot (or array element) at
// offset slot, which is zeroed beforehand.
func (w *sectionWriter) writeValue(slot int, t DataType, v any) error {
	if isFixedWidthRoot(t.Root) {
		return putFixedValue(w.buf[slot:], t, v)
	}
	switch t.Root {
	case Char, VarChar:
		s, ok := v.(string)
		if !ok {
			return valueTypeError(t, v)
		}
		w.writeBytes(slot, []byte(s))
	case Binary, VarBinary, Blob:
		b, ok := v.([]byte)
		if !ok {
			return valueTypeError(t, v)
		}
		w.writeBytes(slot, b)
	case Decimal:
		return w.writeDecimal(slot, t, v)
	case Timestamp, TimestampLTZ:
		return w.writeTimestamp(slot, t, v)
	default:
		return w.writeNested(slot, t, v)
	}
	return nil
}

// writeBytes stores up to 7 bytes inside the slot with a length marker in
// byte 7 (AbstractBinaryWriter.writeBytesToFixLenPart), longer ones in the
// variable part.
func (w *sectionWriter) writeBytes(slot int, b []byte) {
	if len(b) > maxInlineBytes {
		w.appendVar(slot, b)
		return
	}
	copy(w.buf[slot:], b)
	w.buf[slot+7] = inlineMark | byte(len(b))
}

func (w *sectionWriter) writeDecimal(slot int, t DataType, v any) error {
	d, ok := v.(DecimalValue)
	if !ok {
		return valueTypeError(t, v)
	}
	if d.Scale() != t.Scale {
		return fmt.Errorf("spec: decimal of scale %d for DECIMAL(%d,%d): %w",
			d.Scale(), t.Precision, t.Scale, lakeerr.ErrUnsupported)
	}
	if t.IsCompactDecimal() {
		unscaled, fits := d.UnscaledInt64()
		if !fits {
			return fmt.Errorf("spec: decimal %s overflows DECIMAL(%d,%d): %w", d, t.Precision, t.Scale, lakeerr.ErrUnsupported)
		}
		binary.LittleEndian.PutUint64(w.buf[slot:], uint64(unscaled))
		return nil
	}
	b := javaBigIntegerBytes(d.Unscaled())
	if len(b) > decimalTailBytes {
		return fmt.Errorf("spec: decimal %s needs %d bytes, BinaryRow allows 16: %w", d, len(b), lakeerr.ErrUnsupported)
	}
	offset := w.reserve(decimalTailBytes)
	copy(w.buf[offset:], b)
	w.putOffsetAndSize(slot, offset, uint32(len(b)))
	return nil
}

func (w *sectionWriter) writeTimestamp(slot int, t DataType, v any) error {
	ts, ok := v.(TimestampValue)
	if !ok {
		return valueTypeError(t, v)
	}
	if t.IsCompactTimestamp() {
		binary.LittleEndian.PutUint64(w.buf[slot:], uint64(ts.Millis))
		return nil
	}
	if ts.NanoOfMilli < 0 || ts.NanoOfMilli > maxNanoOfMilli {
		return fmt.Errorf("spec: timestamp nano-of-millisecond %d out of range: %w", ts.NanoOfMilli, lakeerr.ErrUnsupported)
	}
	offset := w.reserve(timestampTailBytes)
	binary.LittleEndian.PutUint64(w.buf[offset:], uint64(ts.Millis))
	w.putOffsetAndSize(slot, offset, uint32(ts.NanoOfMilli))
	return nil
}

// writeNested stores an ARRAY, MAP, MULTISET or ROW value as a nested
// BinaryArray, BinaryMap or BinaryRow in the variable part.
func (w *sectionWriter) writeNested(slot int, t DataType, v any) error {
	var data []byte
	var err error
	switch t.Root {
	case Array:
		data, err = encodeArrayValue(t, v)
	case Map, Multiset:
		data, err = encodeMapValue(t, v)
	case Row:
		fields, ok := v.([]any)
		if !ok {
			return valueTypeError(t, v)
		}
		data, err = EncodeBinaryRow(typesOfFields(t.Fields), fields, RowKindInsert)
	default:
		return fmt.Errorf("spec: type root %d has no BinaryRow encoding: %w", t.Root, lakeerr.ErrUnsupported)
	}
	if err != nil {
		return err
	}
	w.appendVar(slot, data)
	return nil
}

// isFixedWidthRoot reports whether values of the root always live in the
// fixed part (BinaryRow.isInFixedLengthPart minus compact DECIMAL/TIMESTAMP,
// which depend on precision and are handled separately).
func isFixedWidthRoot(root TypeRoot) bool {
	switch root {
	case Boolean, TinyInt, SmallInt, Int, BigInt, Float, Double, Date, Time:
		return true
	}
	return false
}

// putFixedValue writes a fixed-width value little-endian at the start of dst.
func putFixedValue(dst []byte, t DataType, v any) error {
	ok := false
	switch x := v.(type) {
	case bool:
		ok = t.Root == Boolean
		if x {
			dst[0] = 1
		}
	case int8:
		ok, dst[0] = t.Root == TinyInt, byte(x)
	case int16:
		ok = t.Root == SmallInt
		binary.LittleEndian.PutUint16(dst, uint16(x))
	case int32:
		ok = t.Root == Int
		binary.LittleEndian.PutUint32(dst, uint32(x))
	case DateValue:
		ok = t.Root == Date
		binary.LittleEndian.PutUint32(dst, uint32(x))
	case TimeValue:
		ok = t.Root == Time
		binary.LittleEndian.PutUint32(dst, uint32(x))
	case int64:
		ok = t.Root == BigInt
		binary.LittleEndian.PutUint64(dst, uint64(x))
	case float32:
		ok = t.Root == Float
		binary.LittleEndian.PutUint32(dst, javaFloatBits(x))
	case float64:
		ok = t.Root == Double
		binary.LittleEndian.PutUint64(dst, javaDoubleBits(x))
	}
	if !ok {
		return valueTypeError(t, v)
	}
	return nil
}

func javaFloatBits(f float32) uint32 {
	if f != f {
		return javaFloatNaNBits
	}
	return math.Float32bits(f)
}

func javaDoubleBits(f float64) uint64 {
	if f != f {
		return javaDoubleNaNBits
	}
	return math.Float64bits(f)
}

// javaBigIntegerBytes is BigInteger.toByteArray: the minimal big-endian
// two's-complement encoding, at least one byte.
func javaBigIntegerBytes(x *big.Int) []byte {
	if x.Sign() >= 0 {
		b := x.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return b
	}
	// For negative x, ^x = -x-1 is non-negative and its inverted bytes are
	// the two's complement of x.
	b := new(big.Int).Not(x).Bytes()
	for i := range b {
		b[i] = ^b[i]
	}
	if len(b) == 0 || b[0]&0x80 == 0 {
		b = append([]byte{0xff}, b...)
	}
	return b
}

func roundToWord(n int) int { return (n + 7) &^ 7 }

// typesOfFields returns the types of fields, e.g. those of a ROW type.
func typesOfFields(fields []DataField) []DataType {
	types := make([]DataType, len(fields))
	for i, f := range fields {
		types[i] = f.Type
	}
	return types
}
