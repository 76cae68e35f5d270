package parquetio

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// ColumnStats are the footer statistics of one column chunk, for pruning
// row groups. Paimon's own statistics live in the manifests; these only
// refine them within a file.
type ColumnStats struct {
	// NullCount is the number of nulls. The footer cannot say whether a
	// writer omitted it, so 0 may also mean unknown; parquet-mr always
	// writes it.
	NullCount int64
	// Min and Max are the bounds decoded as the requested type, nil when
	// the file has none usable.
	Min, Max any
}

// ColumnStats returns the statistics of a top-level primitive column in a
// row group; ok is false when the file lacks the column or it is nested.
func (r *Reader) ColumnStats(rowGroup int, column ColumnRequest) (stats ColumnStats, ok bool, err error) {
	defer recoverCorruption(r.name, &err)
	if rowGroup < 0 || rowGroup >= len(r.rowGroups) {
		return ColumnStats{}, false, fmt.Errorf("parquetio: %s: row group %d out of range [0,%d)", r.name, rowGroup, len(r.rowGroups))
	}
	node := r.findColumn(column)
	if node == nil || !node.isLeaf() || node.isRepeated() {
		return ColumnStats{}, false, nil
	}
	decode, err := (&readerBuilder{file: r.name}).decoderFor(node, column.Type, node.name())
	if err != nil {
		return ColumnStats{}, false, err
	}
	s := &r.meta.RowGroups[rowGroup].Columns[node.leaf].MetaData.Statistics
	stats.NullCount = s.NullCount
	minRaw, maxRaw := s.MinValue, s.MaxValue
	if minRaw == nil && maxRaw == nil && !isByteArray(node) {
		// The deprecated fields used signed order, which is only wrong for
		// byte arrays.
		minRaw, maxRaw = s.Min, s.Max
	}
	stats.Min = decodeStat(node, decode, minRaw)
	stats.Max = decodeStat(node, decode, maxRaw)
	return stats, true, nil
}

// decodeStat decodes a PLAIN-encoded statistics value without its length
// prefix; it returns nil for values of the wrong size and for INT96,
// whose order Parquet leaves undefined.
func decodeStat(n *schemaNode, decode decodeFunc, raw []byte) any {
	if raw == nil {
		return nil
	}
	var v parquet.Value
	switch n.physical() {
	case format.Boolean:
		if len(raw) != 1 {
			return nil
		}
		v = parquet.BooleanValue(raw[0] != 0)
	case format.Int32, format.Float:
		if len(raw) != 4 {
			return nil
		}
		bits := binary.LittleEndian.Uint32(raw)
		v = parquet.Int32Value(int32(bits))
		if n.physical() == format.Float {
			v = parquet.FloatValue(math.Float32frombits(bits))
		}
	case format.Int64, format.Double:
		if len(raw) != 8 {
			return nil
		}
		bits := binary.LittleEndian.Uint64(raw)
		v = parquet.Int64Value(int64(bits))
		if n.physical() == format.Double {
			v = parquet.DoubleValue(math.Float64frombits(bits))
		}
	case format.ByteArray, format.FixedLenByteArray:
		v = parquet.ByteArrayValue(raw)
	default:
		return nil
	}
	return decode(&v)
}
