package parquetio

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go/format"
)

// columnStatsBuilder accumulates the chunk statistics of one column. Bounds
// use the order the Parquet spec defines for the column's logical type,
// so Java's row-group filters read them correctly.
type columnStatsBuilder struct {
	less     func(a, b []byte) bool // nil when the type has no usable order
	physical format.Type
	min, max []byte
	nulls    int64
	sawNaN   bool // a NaN was left out of the bounds
}

func newStatsBuilder(t spec.DataType, physical format.Type) columnStatsBuilder {
	s := columnStatsBuilder{physical: physical}
	switch physical {
	case format.Boolean:
		s.less = func(a, b []byte) bool { return a[0] < b[0] }
	case format.Int32:
		s.less = func(a, b []byte) bool {
			return int32(binary.LittleEndian.Uint32(a)) < int32(binary.LittleEndian.Uint32(b))
		}
	case format.Int64:
		s.less = func(a, b []byte) bool {
			return int64(binary.LittleEndian.Uint64(a)) < int64(binary.LittleEndian.Uint64(b))
		}
	case format.Float:
		s.less = func(a, b []byte) bool { return float32At(a) < float32At(b) }
	case format.Double:
		s.less = func(a, b []byte) bool { return float64At(a) < float64At(b) }
	case format.ByteArray:
		s.less = func(a, b []byte) bool { return bytes.Compare(a, b) < 0 }
	case format.FixedLenByteArray:
		if t.Root == spec.Decimal {
			s.less = lessSignedBigEndian
		}
	}
	return s
}

func float32At(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }
func float64At(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }

// lessSignedBigEndian orders equal-width two's-complement integers.
func lessSignedBigEndian(a, b []byte) bool {
	if a[0]^0x80 != b[0]^0x80 {
		return a[0]^0x80 < b[0]^0x80
	}
	return bytes.Compare(a[1:], b[1:]) < 0
}

// observe widens the bounds by a PLAIN value (without length prefix).
func (s *columnStatsBuilder) observe(v []byte) {
	if s.less == nil {
		return
	}
	if s.isNaN(v) {
		s.sawNaN = true
		return
	}
	if s.min == nil || s.less(v, s.min) {
		s.min = bound(v)
	}
	if s.max == nil || s.less(s.max, v) {
		s.max = bound(v)
	}
}

// bound copies v into a bound that is never nil, nil being "no bound yet":
// an empty string first in a chunk must stay its minimum, or the chunk's
// minimum becomes the next value and pruning drops the empty strings.
func bound(v []byte) []byte {
	return append(make([]byte, 0, len(v)), v...)
}

// isNaN keeps NaN out of the bounds, as the Parquet spec requires.
func (s *columnStatsBuilder) isNaN(v []byte) bool {
	switch s.physical {
	case format.Float:
		return math.IsNaN(float64(float32At(v)))
	case format.Double:
		return math.IsNaN(float64At(v))
	}
	return false
}

func (s *columnStatsBuilder) statistics() format.Statistics {
	stats := format.Statistics{NullCount: s.nulls, MinValue: s.min, MaxValue: s.max}
	// The spec writes a zero minimum as -0.0 and a zero maximum as +0.0 so
	// that readers need not know which zeros the chunk holds.
	switch {
	case s.min == nil:
	case s.physical == format.Float && float32At(s.min) == 0:
		stats.MinValue = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(math.Copysign(0, -1))))
	case s.physical == format.Double && float64At(s.min) == 0:
		stats.MinValue = binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.Copysign(0, -1)))
	}
	switch {
	case s.max == nil:
	case s.physical == format.Float && float32At(s.max) == 0:
		stats.MaxValue = binary.LittleEndian.AppendUint32(nil, 0)
	case s.physical == format.Double && float64At(s.max) == 0:
		stats.MaxValue = binary.LittleEndian.AppendUint64(nil, 0)
	}
	return stats
}

// join widens the bounds by another's of the same column, which keeps
// its bounds: it is reset, not written again.
func (s *columnStatsBuilder) join(other *columnStatsBuilder) {
	if other.min != nil && (s.min == nil || s.less(other.min, s.min)) {
		s.min = other.min
	}
	if other.max != nil && (s.max == nil || s.less(s.max, other.max)) {
		s.max = other.max
	}
	s.nulls += other.nulls
	s.sawNaN = s.sawNaN || other.sawNaN
}

func (s *columnStatsBuilder) reset() {
	s.min, s.max, s.nulls, s.sawNaN = nil, nil, 0, false
}
