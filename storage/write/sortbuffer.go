package write

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// sortEntry orders one buffered record without moving it: prefix is an
// order-preserving int64 image of the record's first key column (Java's
// normalized key), index its position in the buffer. Most comparisons are
// settled by the prefix alone.
type sortEntry struct {
	prefix int64
	index  int32
}

// keyPrefixer derives sort prefixes from the first key column. exact is
// true when equal prefixes mean equal first columns.
type keyPrefixer struct {
	prefix func(v any) int64
	exact  bool
}

func newKeyPrefixer(t spec.DataType) keyPrefixer {
	switch t.Root {
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Date, spec.Time:
		return keyPrefixer{prefix: integralPrefix, exact: true}
	case spec.Decimal:
		if t.IsCompactDecimal() {
			return keyPrefixer{prefix: decimalPrefix, exact: true}
		}
	case spec.Timestamp, spec.TimestampLTZ:
		return keyPrefixer{prefix: timestampPrefix, exact: t.IsCompactTimestamp()}
	case spec.Char, spec.VarChar:
		return keyPrefixer{prefix: stringPrefix}
	}
	return keyPrefixer{prefix: func(any) int64 { return 0 }}
}

func integralPrefix(v any) int64 {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case spec.DateValue:
		return int64(x)
	case spec.TimeValue:
		return int64(x)
	}
	return 0
}

// decimalPrefix is the unscaled value; all values of a column share its
// scale, so it orders them exactly.
func decimalPrefix(v any) int64 {
	unscaled, _ := v.(spec.DecimalValue).UnscaledInt64()
	return unscaled
}

func timestampPrefix(v any) int64 { return v.(spec.TimestampValue).Millis }

// stringPrefix is the first 8 bytes read big-endian, shifted into signed
// order, so it agrees with comparing strings as unsigned bytes.
func stringPrefix(v any) int64 {
	var b [8]byte
	copy(b[:], v.(string))
	return int64(binary.BigEndian.Uint64(b[:]) ^ 1<<63)
}

// recordBuffer holds buffered records in fixed-size chunks, so that growing
// it never copies records (a plain slice would copy them at every
// doubling, and the garbage collector would scan both copies).
type recordBuffer struct {
	chunks [][]lsm.KeyValue
	n      int
}

const recordChunk = 1024

func (b *recordBuffer) add(kv lsm.KeyValue) {
	if b.n%recordChunk == 0 {
		b.chunks = append(b.chunks, make([]lsm.KeyValue, 0, recordChunk))
	}
	last := len(b.chunks) - 1
	b.chunks[last] = append(b.chunks[last], kv)
	b.n++
}

func (b *recordBuffer) len() int { return b.n }

func (b *recordBuffer) at(i int32) *lsm.KeyValue { return &b.chunks[i/recordChunk][i%recordChunk] }

// sortedOrder returns the buffer's order as SortBufferWriteBuffer sorts
// it: key, then the sequence.field values, then sequence number, which is
// buffer order, since sequence numbers are taken in write order.
func (ts *tableSettings) sortedOrder(buffer *recordBuffer) []sortEntry {
	order := make([]sortEntry, buffer.len())
	for i := range order {
		order[i] = sortEntry{prefix: ts.keyPrefix.prefix(buffer.at(int32(i)).Key[0]), index: int32(i)}
	}
	exactKey := ts.keyPrefix.exact && len(ts.key.indexes) == 1
	userSeq := ts.engine.UserSequenceComparator()
	slices.SortFunc(order, func(a, b sortEntry) int {
		if a.prefix != b.prefix {
			return cmp.Compare(a.prefix, b.prefix)
		}
		x, y := buffer.at(a.index), buffer.at(b.index)
		if !exactKey {
			if c := ts.compareKeys(x.Key, y.Key); c != 0 {
				return c
			}
		}
		if userSeq != nil {
			if c := userSeq(x.Value, y.Value); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.index, b.index)
	})
	return order
}

// sortedRun iterates buffered records in sorted order.
type sortedRun struct {
	buffer *recordBuffer
	order  []sortEntry
	pos    int
}

func (r *sortedRun) Next() (lsm.KeyValue, bool, error) {
	if r.pos >= len(r.order) {
		return lsm.KeyValue{}, false, nil
	}
	r.pos++
	return *r.buffer.at(r.order[r.pos-1].index), true, nil
}
