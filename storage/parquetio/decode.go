package parquetio

import (
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// decodeFunc converts one non-null Parquet value into the spec Go type of
// its column. Byte slices are copied: page buffers are reused.
type decodeFunc func(v *parquet.Value) any

const (
	julianDayOfEpoch = 2440588
	millisPerDay     = 86400000
	nanosPerMilli    = 1000000
)

var typeNames = map[spec.TypeRoot]string{
	spec.Boolean: "BOOLEAN", spec.TinyInt: "TINYINT", spec.SmallInt: "SMALLINT", spec.Int: "INT",
	spec.BigInt: "BIGINT", spec.Float: "FLOAT", spec.Double: "DOUBLE", spec.Decimal: "DECIMAL",
	spec.Char: "CHAR", spec.VarChar: "VARCHAR", spec.Binary: "BINARY", spec.VarBinary: "VARBINARY",
	spec.Date: "DATE", spec.Time: "TIME", spec.Timestamp: "TIMESTAMP",
	spec.TimestampLTZ: "TIMESTAMP_LTZ", spec.Array: "ARRAY", spec.Map: "MAP",
	spec.Multiset: "MULTISET", spec.Row: "ROW", spec.Variant: "VARIANT", spec.Blob: "BLOB",
}

func typeName(t spec.DataType) string {
	if name, ok := typeNames[t.Root]; ok {
		return name
	}
	return "unknown type"
}

// decoderFor picks the conversion of leaf n's values to type t, or
// reports that the file's physical type cannot hold t.
func (b *readerBuilder) decoderFor(n *schemaNode, t spec.DataType, path string) (decodeFunc, error) {
	var decode decodeFunc
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Float, spec.Double:
		decode = numericDecoder(n, t)
	case spec.Decimal:
		return b.decimalDecoder(n, t, path)
	case spec.Char, spec.VarChar:
		decode = stringDecoder(n)
	case spec.Binary, spec.VarBinary, spec.Blob:
		decode = bytesDecoder(n)
	case spec.Date:
		decode = dateDecoder(n)
	case spec.Time:
		decode = timeDecoder(n)
	case spec.Timestamp, spec.TimestampLTZ:
		decode = timestampDecoder(n, t)
	}
	if decode == nil {
		return nil, unsupportedf(b.file, "column %s: cannot read parquet %s as %s", path, n.physical(), typeName(t))
	}
	return decode, nil
}

func numericDecoder(n *schemaNode, t spec.DataType) decodeFunc {
	if _, signed, ok := n.integer(); ok && !signed {
		return nil
	}
	switch {
	case t.Root == spec.Boolean && n.physical() == format.Boolean:
		return func(v *parquet.Value) any { return v.Boolean() }
	case t.Root == spec.TinyInt && n.physical() == format.Int32:
		return func(v *parquet.Value) any { return int8(v.Int32()) }
	case t.Root == spec.SmallInt && n.physical() == format.Int32:
		return func(v *parquet.Value) any { return int16(v.Int32()) }
	case t.Root == spec.Int && n.physical() == format.Int32:
		return func(v *parquet.Value) any { return v.Int32() }
	case t.Root == spec.BigInt && n.physical() == format.Int64:
		return func(v *parquet.Value) any { return v.Int64() }
	case t.Root == spec.Float && n.physical() == format.Float:
		return func(v *parquet.Value) any { return v.Float() }
	case t.Root == spec.Double && n.physical() == format.Double:
		return func(v *parquet.Value) any { return v.Double() }
	}
	return nil
}

func (b *readerBuilder) decimalDecoder(n *schemaNode, t spec.DataType, path string) (decodeFunc, error) {
	if _, fileScale, ok := n.decimal(); ok && fileScale != t.Scale {
		return nil, unsupportedf(b.file, "column %s: file decimal scale %d, requested scale %d", path, fileScale, t.Scale)
	}
	scale := t.Scale
	switch n.physical() {
	case format.Int32:
		return func(v *parquet.Value) any { return spec.NewDecimal(int64(v.Int32()), scale) }, nil
	case format.Int64:
		return func(v *parquet.Value) any { return spec.NewDecimal(v.Int64(), scale) }, nil
	case format.FixedLenByteArray, format.ByteArray:
		return func(v *parquet.Value) any { return spec.DecimalFromUnscaledBytes(v.ByteArray(), scale) }, nil
	}
	return nil, unsupportedf(b.file, "column %s: cannot read parquet %s as DECIMAL", path, n.physical())
}

func isByteArray(n *schemaNode) bool {
	return n.physical() == format.ByteArray || n.physical() == format.FixedLenByteArray
}

func stringDecoder(n *schemaNode) decodeFunc {
	if !isByteArray(n) {
		return nil
	}
	return func(v *parquet.Value) any { return string(v.ByteArray()) }
}

func bytesDecoder(n *schemaNode) decodeFunc {
	if !isByteArray(n) {
		return nil
	}
	// append to a non-nil empty slice keeps an empty value distinct from NULL.
	return func(v *parquet.Value) any { return append([]byte{}, v.ByteArray()...) }
}

func dateDecoder(n *schemaNode) decodeFunc {
	if n.physical() != format.Int32 {
		return nil
	}
	return func(v *parquet.Value) any { return spec.DateValue(v.Int32()) }
}

func timeDecoder(n *schemaNode) decodeFunc {
	unit, annotated := n.timeOfDay()
	switch {
	case n.physical() == format.Int32 && (!annotated || unit == unitMillis):
		return func(v *parquet.Value) any { return spec.TimeValue(v.Int32()) }
	case n.physical() == format.Int64 && unit == unitMicros:
		return func(v *parquet.Value) any { return spec.TimeValue(v.Int64() / 1000) }
	case n.physical() == format.Int64 && unit == unitNanos:
		return func(v *parquet.Value) any { return spec.TimeValue(v.Int64() / nanosPerMilli) }
	}
	return nil
}

func timestampDecoder(n *schemaNode, t spec.DataType) decodeFunc {
	switch n.physical() {
	case format.Int96:
		return func(v *parquet.Value) any { return timestampFromInt96(v.Int96()) }
	case format.Int64:
	default:
		return nil
	}
	unit, _, annotated := n.timestamp()
	if !annotated {
		// Unannotated INT64 timestamps carry the unit Paimon writes for the
		// precision.
		unit = timeUnitForPrecision(t.Precision)
	}
	switch unit {
	case unitMillis:
		return func(v *parquet.Value) any { return spec.TimestampValue{Millis: v.Int64()} }
	case unitMicros:
		return func(v *parquet.Value) any { return timestampFromScaled(v.Int64(), 1000) }
	}
	return func(v *parquet.Value) any { return timestampFromScaled(v.Int64(), nanosPerMilli) }
}

func timeUnitForPrecision(precision int) timeUnit {
	switch {
	case precision <= 3:
		return unitMillis
	case precision <= 6:
		return unitMicros
	}
	return unitNanos
}

// timestampFromScaled converts a count of 1/perMilli-millisecond ticks,
// flooring so that instants before the epoch keep a non-negative
// nanosecond part.
func timestampFromScaled(ticks, perMilli int64) spec.TimestampValue {
	millis, rem := ticks/perMilli, ticks%perMilli
	if rem < 0 {
		millis--
		rem += perMilli
	}
	return spec.TimestampValue{Millis: millis, NanoOfMilli: int32(rem * (nanosPerMilli / perMilli))}
}

// timestampFromInt96 decodes the legacy Impala layout: little-endian
// nanoseconds of the day, then the Julian day. Java computes both halves
// with truncating division, so before the epoch the nanoseconds can be
// negative; reading them as signed undoes that.
func timestampFromInt96(v deprecated.Int96) spec.TimestampValue {
	nanosOfDay := int64(uint64(v[1])<<32 | uint64(v[0]))
	days := int64(int32(v[2])) - julianDayOfEpoch
	ts := timestampFromScaled(nanosOfDay, nanosPerMilli)
	ts.Millis += days * millisPerDay
	return ts
}
