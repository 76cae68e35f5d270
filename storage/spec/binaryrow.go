package spec

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// A BinaryRow is Paimon's row format for partitions, primary keys, bucket
// keys and stats. Mirrors org.apache.paimon.data.BinaryRow as written by
// BinaryRowWriter / AbstractBinaryWriter:
//
//	[null bits: W bytes][arity x 8-byte slots][variable part]
//
// W = ((arity+63+8)/64)*8. Byte 0 holds the RowKind and the null bit of field
// i is bit i+8. Multi-byte values are little-endian: Java writes native byte
// order and every platform Paimon runs on is little-endian. Java compares and
// hashes rows byte-wise (partition identity, bucket hash), so the encoder
// reproduces Java's bytes exactly, zero padding included.

const (
	rowHeaderBits = 8
	// maxInlineBytes is the longest string or binary stored inside its slot
	// (BinarySection.MAX_FIX_PART_DATA_SIZE); byte 7 of the slot then holds
	// inlineMark|len.
	maxInlineBytes = 7
	inlineMark     = 0x80
)

// rowNullBitsWidth is BinaryRow.calculateBitSetWidthInBytes.
func rowNullBitsWidth(arity int) int { return ((arity + 63 + rowHeaderBits) / 64) * 8 }

// rowFixedPartSize is BinaryRow.calculateFixPartSizeInBytes.
func rowFixedPartSize(arity int) int { return rowNullBitsWidth(arity) + 8*arity }

// RowArityError reports a serialized BinaryRow whose arity differs from the
// number of types the caller supplied, for example stats written under an
// older schema. It matches lakeerr.ErrCorruption with errors.Is; a caller
// that can cope (stats evolution treats such stats as unknown) detects it
// with errors.As.
type RowArityError struct {
	Arity int // arity stored in the row
	Want  int // number of types supplied
}

func (e *RowArityError) Error() string {
	return fmt.Sprintf("spec: BinaryRow has arity %d, expected %d", e.Arity, e.Want)
}

func (e *RowArityError) Unwrap() error { return lakeerr.ErrCorruption }

// EncodeBinaryRow returns the BinaryRow bytes (without the arity prefix) of
// values, which must have the Go types documented in values.go for types.
// A nil value is a null field. Byte-exact with Java, including the tail bytes
// Java reserves for null non-compact DECIMAL and TIMESTAMP fields (RowHelper
// writes them through writeDecimal/writeTimestamp). A value whose Go type does
// not match its column fails with lakeerr.ErrUnsupported.
func EncodeBinaryRow(types []DataType, values []any, kind RowKind) ([]byte, error) {
	return AppendBinaryRow(nil, types, values, kind)
}

// AppendBinaryRow is EncodeBinaryRow into the capacity of dst, whose
// content it replaces, so that a caller encoding many rows one at a time
// reuses one buffer.
func AppendBinaryRow(dst []byte, types []DataType, values []any, kind RowKind) ([]byte, error) {
	if len(values) != len(types) {
		return nil, fmt.Errorf("spec: BinaryRow of %d fields given %d values: %w",
			len(types), len(values), lakeerr.ErrUnsupported)
	}
	fixed := rowFixedPartSize(len(types))
	w := &sectionWriter{buf: slices.Grow(dst[:0], fixed)[:fixed]}
	clear(w.buf)
	w.buf[0] = byte(kind)
	base := rowNullBitsWidth(len(types))
	for i, t := range types {
		slot := base + 8*i
		if values[i] == nil {
			w.setNullBit(0, i+rowHeaderBits)
			w.reserveNullTail(slot, t)
			continue
		}
		if err := w.writeValue(slot, t, values[i]); err != nil {
			return nil, fmt.Errorf("spec: BinaryRow field %d: %w", i, err)
		}
	}
	if len(w.buf) > math.MaxInt32 {
		return nil, fmt.Errorf("spec: BinaryRow of %d bytes exceeds 2 GiB: %w", len(w.buf), lakeerr.ErrUnsupported)
	}
	return w.buf, nil
}

// DecodeBinaryRow decodes a BinaryRow (without the arity prefix) whose arity
// is len(types). Malformed bytes (short fixed part, offsets or lengths
// outside the row, unknown RowKind) fail with lakeerr.ErrCorruption.
func DecodeBinaryRow(types []DataType, b []byte) ([]any, RowKind, error) {
	if len(b) < rowFixedPartSize(len(types)) {
		return nil, 0, corruptDataf("BinaryRow of arity %d needs %d bytes, has %d",
			len(types), rowFixedPartSize(len(types)), len(b))
	}
	kind := RowKind(b[0])
	if kind < RowKindInsert || kind > RowKindDelete {
		return nil, 0, corruptDataf("BinaryRow has unknown RowKind byte %d", b[0])
	}
	r := sectionReader{b: b}
	base := rowNullBitsWidth(len(types))
	values := make([]any, len(types))
	for i, t := range types {
		if r.isNull(0, i+rowHeaderBits) {
			continue
		}
		v, err := r.readValue(base+8*i, t)
		if err != nil {
			return nil, 0, fmt.Errorf("spec: BinaryRow field %d: %w", i, err)
		}
		values[i] = v
	}
	return values, kind, nil
}

// SerializeBinaryRow encodes values as an INSERT BinaryRow framed the way
// manifests store it: a 4-byte big-endian arity, then the row
// (SerializationUtils.serializeBinaryRow).
func SerializeBinaryRow(types []DataType, values []any) ([]byte, error) {
	row, err := EncodeBinaryRow(types, values, RowKindInsert)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 4, 4+len(row))
	binary.BigEndian.PutUint32(out, uint32(len(types)))
	return append(out, row...), nil
}

// ParseSerializedBinaryRow splits a manifest-framed BinaryRow into its arity
// and the row bytes (which alias framed), checking that the row is at least
// as long as its fixed part. Callers use it to learn the arity before
// choosing types, or to hash a row (Bucket) without decoding it.
func ParseSerializedBinaryRow(framed []byte) (arity int, row []byte, err error) {
	if len(framed) < 4 {
		return 0, nil, corruptDataf("serialized BinaryRow of %d bytes has no arity", len(framed))
	}
	arity = int(int32(binary.BigEndian.Uint32(framed)))
	row = framed[4:]
	if arity < 0 || len(row) < rowFixedPartSize(arity) {
		return 0, nil, corruptDataf("serialized BinaryRow of arity %d has only %d bytes", arity, len(row))
	}
	return arity, row, nil
}

// DeserializeBinaryRow decodes a manifest-framed BinaryRow. If its arity is
// not len(types) it returns a *RowArityError.
func DeserializeBinaryRow(types []DataType, framed []byte) ([]any, error) {
	arity, row, err := ParseSerializedBinaryRow(framed)
	if err != nil {
		return nil, err
	}
	if arity != len(types) {
		return nil, &RowArityError{Arity: arity, Want: len(types)}
	}
	values, _, err := DecodeBinaryRow(types, row)
	return values, err
}

func corruptDataf(format string, args ...any) error {
	return fmt.Errorf("spec: "+format+": %w", append(args, lakeerr.ErrCorruption)...)
}

func valueTypeError(t DataType, v any) error {
	return fmt.Errorf("spec: cannot encode %T as type root %d: %w", v, t.Root, lakeerr.ErrUnsupported)
}
