package spec

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// The Avro binary encoding (https://avro.apache.org/docs/1.11.1/specification/#binary-encoding):
// int and long are zig-zag varints, which is exactly encoding/binary's
// Varint; bytes and string are a long length then the bytes; arrays and maps
// are blocks of (count, items) ended by a zero count.

var (
	errAvroTruncated = fmt.Errorf("avro: unexpected end of data: %w", lakeerr.ErrCorruption)
	errAvroVarint    = fmt.Errorf("avro: malformed varint: %w", lakeerr.ErrCorruption)
)

// avroReader reads Avro binary values from an in-memory block. Byte slices it
// returns alias the block, which the caller owns.
type avroReader struct {
	buf []byte
	pos int
}

func (r *avroReader) remaining() int { return len(r.buf) - r.pos }

func (r *avroReader) long() (int64, error) {
	// Most values in manifests (union indexes, small counts, lengths) fit in
	// one byte; decode those without the general loop.
	if r.pos < len(r.buf) {
		if b := r.buf[r.pos]; b < 0x80 {
			r.pos++
			return int64(b>>1) ^ -int64(b&1), nil
		}
	}
	v, n := binary.Varint(r.buf[r.pos:])
	if n <= 0 {
		if n == 0 {
			return 0, errAvroTruncated
		}
		return 0, errAvroVarint
	}
	r.pos += n
	return v, nil
}

func (r *avroReader) int() (int32, error) {
	v, err := r.long()
	if err != nil {
		return 0, err
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, fmt.Errorf("avro: int out of range: %d: %w", v, lakeerr.ErrCorruption)
	}
	return int32(v), nil
}

// take returns the next n bytes.
func (r *avroReader) take(n int64) ([]byte, error) {
	if n < 0 || n > int64(r.remaining()) {
		return nil, errAvroTruncated
	}
	b := r.buf[r.pos : r.pos+int(n) : r.pos+int(n)]
	r.pos += int(n)
	return b, nil
}

func (r *avroReader) bytes() ([]byte, error) {
	n, err := r.long()
	if err != nil {
		return nil, err
	}
	return r.take(n)
}

func (r *avroReader) string() (string, error) {
	b, err := r.bytes()
	return string(b), err
}

// blockCount reads the item count that starts an array or map block. A
// negative count is followed by the block's size in bytes, which is not
// needed here. Counts are bounded by the bytes left so that a forged count
// cannot make a reader allocate or loop far beyond the input.
func (r *avroReader) blockCount() (int, error) {
	n, err := r.long()
	if err != nil {
		return 0, err
	}
	if n < 0 {
		if n == math.MinInt64 {
			return 0, errAvroTruncated
		}
		n = -n
		if _, err := r.long(); err != nil {
			return 0, err
		}
	}
	if n > int64(r.remaining()) {
		return 0, errAvroTruncated
	}
	return int(n), nil
}

// items calls item once per element of an array or map.
func (r *avroReader) items(item func() error) error {
	for {
		n, err := r.blockCount()
		if err != nil || n == 0 {
			return err
		}
		for range n {
			if err := item(); err != nil {
				return err
			}
		}
	}
}

// skipBlockCounts reads past an array whose items encode to nothing, so
// that only its block headers are there to read.
func (r *avroReader) skipBlockCounts() error {
	for {
		n, err := r.long()
		if err != nil || n == 0 {
			return err
		}
		if n < 0 {
			if _, err := r.long(); err != nil {
				return err
			}
		}
	}
}

// avroWriter appends Avro binary values to a buffer.
type avroWriter struct {
	buf []byte
}

func (w *avroWriter) long(v int64) { w.buf = binary.AppendVarint(w.buf, v) }

func (w *avroWriter) int(v int32) { w.long(int64(v)) }

func (w *avroWriter) bytes(b []byte) {
	w.long(int64(len(b)))
	w.buf = append(w.buf, b...)
}

func (w *avroWriter) string(s string) {
	w.long(int64(len(s)))
	w.buf = append(w.buf, s...)
}

// arrayStart writes the count of a single-block array; the items follow and
// arrayEnd closes it.
func (w *avroWriter) arrayStart(n int) {
	if n > 0 {
		w.long(int64(n))
	}
}

func (w *avroWriter) arrayEnd() { w.long(0) }

func (w *avroWriter) strings(list []string) {
	w.arrayStart(len(list))
	for _, s := range list {
		w.string(s)
	}
	w.arrayEnd()
}

func (w *avroWriter) longs(list []int64) {
	w.arrayStart(len(list))
	for _, v := range list {
		w.long(v)
	}
	w.arrayEnd()
}

// avroWriteNullable writes a ["null", T] union, null first as Java's
// readers require: branch 0 for nil, else branch 1 and the value.
func avroWriteNullable[V any](w *avroWriter, v *V, write func(*avroWriter, V)) {
	if v == nil {
		w.long(0)
		return
	}
	w.long(1)
	write(w, *v)
}

// avroWriteNullableSlice is avroWriteNullable for slice values, where nil is
// null and an empty slice is present.
func avroWriteNullableSlice[S ~[]E, E any](w *avroWriter, v S, write func(*avroWriter, S)) {
	if v == nil {
		w.long(0)
		return
	}
	w.long(1)
	write(w, v)
}
