package spec

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// maxNanoOfMilli bounds Timestamp.nanoOfMillisecond.
const maxNanoOfMilli = 999_999

// sectionReader decodes values from one BinaryRow or BinaryArray section.
// Callers check that the fixed part fits in b before reading slots; every
// offset and length read from a slot is checked against len(b), so corrupt
// input yields lakeerr.ErrCorruption instead of a panic. Decoded strings and
// byte slices are copies, never aliases of b.
type sectionReader struct{ b []byte }

func (r sectionReader) isNull(base, index int) bool {
	return r.b[base+index>>3]&(1<<(index&7)) != 0
}

func (r sectionReader) slot(offset int) uint64 {
	return binary.LittleEndian.Uint64(r.b[offset:])
}

// varPart returns the bytes a slot of the form offset<<32|size points to.
func (r sectionReader) varPart(slot uint64) ([]byte, error) {
	offset, size := slot>>32, uint64(uint32(slot))
	if int32(size) < 0 || offset+size > uint64(len(r.b)) {
		return nil, corruptDataf("variable-length value at offset %d size %d outside %d-byte section",
			offset, int32(size), len(r.b))
	}
	return r.b[offset : offset+size], nil
}

func (r sectionReader) readValue(offset int, t DataType) (any, error) {
	if isFixedWidthRoot(t.Root) {
		return getFixedValue(r.b[offset:], t), nil
	}
	switch t.Root {
	case Char, VarChar:
		b, err := r.readBytes(offset)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	case Binary, VarBinary, Blob:
		b, err := r.readBytes(offset)
		if err != nil {
			return nil, err
		}
		return append([]byte{}, b...), nil
	case Decimal:
		return r.readDecimal(offset, t)
	case Timestamp, TimestampLTZ:
		return r.readTimestamp(offset, t)
	}
	return r.readNested(offset, t)
}

// readBytes reads a string or binary that is either inline (high bit of the
// slot set, length in bits 56..62) or in the variable part
// (MemorySegmentUtils.readBinary).
func (r sectionReader) readBytes(offset int) ([]byte, error) {
	slot := r.slot(offset)
	if slot&(1<<63) == 0 {
		return r.varPart(slot)
	}
	n := int(slot>>56) & 0x7f
	if n > maxInlineBytes {
		return nil, corruptDataf("inline value of length %d", n)
	}
	return r.b[offset : offset+n], nil
}

func (r sectionReader) readDecimal(offset int, t DataType) (any, error) {
	slot := r.slot(offset)
	if t.IsCompactDecimal() {
		return NewDecimal(int64(slot), t.Scale), nil
	}
	b, err := r.varPart(slot)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 || len(b) > decimalTailBytes {
		return nil, corruptDataf("non-compact decimal of %d bytes", len(b))
	}
	return NewDecimalBig(javaBigIntegerFromBytes(b), t.Scale), nil
}

func (r sectionReader) readTimestamp(offset int, t DataType) (any, error) {
	slot := r.slot(offset)
	if t.IsCompactTimestamp() {
		return TimestampValue{Millis: int64(slot)}, nil
	}
	// The slot holds offset<<32|nanoOfMillisecond; the millis are 8 bytes at offset.
	millis, err := r.varPart(slot&^math.MaxUint32 | timestampTailBytes)
	if err != nil {
		return nil, err
	}
	nano := int32(uint32(slot))
	if nano < 0 || nano > maxNanoOfMilli {
		return nil, corruptDataf("timestamp nano-of-millisecond %d", nano)
	}
	return TimestampValue{Millis: int64(binary.LittleEndian.Uint64(millis)), NanoOfMilli: nano}, nil
}

func (r sectionReader) readNested(offset int, t DataType) (any, error) {
	data, err := r.varPart(r.slot(offset))
	if err != nil {
		return nil, err
	}
	switch t.Root {
	case Array:
		if t.Element != nil {
			return decodeBinaryArray(*t.Element, data)
		}
	case Map, Multiset:
		if key, value, ok := mapEntryTypes(t); ok {
			return decodeBinaryMap(key, value, data)
		}
	case Row:
		values, _, err := DecodeBinaryRow(typesOfFields(t.Fields), data)
		return values, err
	}
	return nil, fmt.Errorf("spec: type root %d has no BinaryRow decoding: %w", t.Root, lakeerr.ErrUnsupported)
}

// getFixedValue reads a fixed-width value from the start of src, which the
// caller guarantees holds at least the value's width.
func getFixedValue(src []byte, t DataType) any {
	switch t.Root {
	case Boolean:
		return src[0] != 0
	case TinyInt:
		return int8(src[0])
	case SmallInt:
		return int16(binary.LittleEndian.Uint16(src))
	case Int:
		return int32(binary.LittleEndian.Uint32(src))
	case Date:
		return DateValue(binary.LittleEndian.Uint32(src))
	case Time:
		return TimeValue(binary.LittleEndian.Uint32(src))
	case Float:
		return math.Float32frombits(binary.LittleEndian.Uint32(src))
	case Double:
		return math.Float64frombits(binary.LittleEndian.Uint64(src))
	}
	return int64(binary.LittleEndian.Uint64(src))
}

// DecimalFromUnscaledBytes decodes the unscaled value of a DECIMAL stored
// as bytes (Parquet's and Avro's BYTES/FIXED decimals), big-endian two's
// complement as Java's new BigInteger(bytes), without a big.Int when it
// fits 64 bits.
func DecimalFromUnscaledBytes(b []byte, scale int) DecimalValue {
	if len(b) > 8 {
		return NewDecimalBig(javaBigIntegerFromBytes(b), scale)
	}
	var unscaled int64
	for _, c := range b {
		unscaled = unscaled<<8 | int64(c)
	}
	if len(b) > 0 && len(b) < 8 {
		// Sign-extend from the top bit of the first byte.
		shift := 64 - 8*len(b)
		unscaled = unscaled << shift >> shift
	}
	return NewDecimal(unscaled, scale)
}

// javaBigIntegerFromBytes is new BigInteger(bytes): big-endian two's complement.
func javaBigIntegerFromBytes(b []byte) *big.Int {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}
