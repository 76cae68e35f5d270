package avroio

import (
	"github.com/hamba/avro/v2"
	"github.com/lakesql/lakesql/storage/spec"
)

// scalar returns the reader of a value of writer type w as the scalar
// Paimon type t (FieldReaderFactory's readers), or nil when w cannot hold
// t. Like Java it goes by the Avro type: TIME reads any int (Java keeps
// milliseconds of the day in an int), a timestamp's unit is the one its
// logical type names, whatever the column's precision.
func scalar(w avro.Schema, t spec.DataType) readFunc {
	if f, ok := w.(*avro.FixedSchema); ok {
		return fixedBinary(f, t)
	}
	p, ok := w.(*avro.PrimitiveSchema)
	if !ok {
		return nil
	}
	switch p.Type() {
	case avro.Boolean:
		return ifRoot(t, func(s *state) any { return s.r.ReadBool() }, spec.Boolean)
	case avro.Int:
		return intScalar(t)
	case avro.Long:
		return longScalar(logical(p), t)
	case avro.Float:
		return ifRoot(t, func(s *state) any { return s.r.ReadFloat() }, spec.Float)
	case avro.Double:
		return ifRoot(t, func(s *state) any { return s.r.ReadDouble() }, spec.Double)
	case avro.String:
		return ifRoot(t, func(s *state) any { return s.r.ReadString() }, spec.Char, spec.VarChar)
	case avro.Bytes:
		return ifRoot(t, readBytes, spec.Binary, spec.VarBinary)
	}
	return nil
}

// ifRoot returns read when t is of one of the roots, else nil.
func ifRoot(t spec.DataType, read readFunc, roots ...spec.TypeRoot) readFunc {
	for _, r := range roots {
		if t.Root == r {
			return read
		}
	}
	return nil
}

func intScalar(t spec.DataType) readFunc {
	switch t.Root {
	case spec.TinyInt:
		return func(s *state) any { return int8(s.r.ReadInt()) }
	case spec.SmallInt:
		return func(s *state) any { return int16(s.r.ReadInt()) }
	case spec.Int:
		return func(s *state) any { return s.r.ReadInt() }
	case spec.Date:
		return func(s *state) any { return spec.DateValue(s.r.ReadInt()) }
	case spec.Time:
		return func(s *state) any { return spec.TimeValue(s.r.ReadInt()) }
	}
	return nil
}

func longScalar(l avro.LogicalType, t spec.DataType) readFunc {
	switch {
	case t.Root == spec.BigInt && l == "":
		return func(s *state) any { return s.r.ReadLong() }
	case t.Root == spec.Time && l == avro.TimeMicros:
		// Java writes TIME as time-millis only; other writers' micros
		// are truncated to Paimon's milliseconds.
		return func(s *state) any { return spec.TimeValue(floorDiv(s.r.ReadLong(), 1000)) }
	case t.Root != spec.Timestamp && t.Root != spec.TimestampLTZ:
		return nil
	}
	switch l {
	case avro.TimestampMillis, avro.LocalTimestampMillis:
		return func(s *state) any { return spec.TimestampValue{Millis: s.r.ReadLong()} }
	case avro.TimestampMicros, avro.LocalTimestampMicros:
		return func(s *state) any { return timestampFromMicros(s.r.ReadLong()) }
	}
	return nil
}

// timestampFromMicros is Java's Timestamp.fromMicros.
func timestampFromMicros(micros int64) spec.TimestampValue {
	return spec.TimestampValue{Millis: floorDiv(micros, 1000), NanoOfMilli: int32(floorMod(micros, 1000) * 1000)}
}

func floorDiv(x, y int64) int64 {
	q := x / y
	if x%y != 0 && (x < 0) != (y < 0) {
		q--
	}
	return q
}

func floorMod(x, y int64) int64 { return x - floorDiv(x, y)*y }

// readBytes reads a bytes value. hamba hands out slices of a shared slab,
// so the slice is clipped: appending to it must not reach the next value.
// An empty value stays non-nil, distinct from NULL.
func readBytes(s *state) any {
	b := s.r.ReadBytes()
	return b[:len(b):len(b)]
}

// fixedBinary reads a fixed as BINARY or VARBINARY (Java never writes
// fixed; other writers use it for binary(n)).
func fixedBinary(f *avro.FixedSchema, t spec.DataType) readFunc {
	if f.Logical() != nil || !t.IsBinary() || t.Root == spec.Blob {
		return nil
	}
	size := f.Size()
	return func(s *state) any {
		b := make([]byte, size)
		s.r.Read(b)
		return b
	}
}

// decimal reads a DECIMAL from bytes (as Java writes it) or fixed with
// the decimal logical type: the big-endian two's complement unscaled
// value. The scales must agree; Java would read the file's scale.
func (c *compiler) decimal(w avro.Schema, t spec.DataType, path string) (readFunc, error) {
	var l avro.LogicalSchema
	size := -1 // bytes
	switch w := w.(type) {
	case *avro.PrimitiveSchema:
		if w.Type() != avro.Bytes {
			return nil, nil
		}
		l = w.Logical()
	case *avro.FixedSchema:
		l, size = w.Logical(), w.Size()
	default:
		return nil, nil
	}
	d, ok := l.(*avro.DecimalLogicalSchema)
	if !ok {
		return nil, nil
	}
	if d.Scale() != t.Scale {
		return nil, unsupportedf(c.file, "column %s: file decimal scale %d, requested scale %d", path, d.Scale(), t.Scale)
	}
	scale := t.Scale
	if size < 0 {
		return func(s *state) any { return spec.DecimalFromUnscaledBytes(s.r.ReadBytes(), scale) }, nil
	}
	return func(s *state) any {
		b := make([]byte, size)
		s.r.Read(b)
		return spec.DecimalFromUnscaledBytes(b, scale)
	}, nil
}

func logical(p *avro.PrimitiveSchema) avro.LogicalType {
	if l := p.Logical(); l != nil {
		return l.Type()
	}
	return ""
}
