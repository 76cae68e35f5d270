package parquetio

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/lakesql/lakesql/storage/spec"
)

// valueEncoder appends one non-null value, given in its spec Go type, to
// the open page of a column in PLAIN encoding.
type valueEncoder func(c *columnWriter, v any) error

func wrongType[T any](v any) error {
	var want T
	return fmt.Errorf("value of type %T, want %T", v, want)
}

func (c *columnWriter) appendInt32(x int32) {
	c.values = binary.LittleEndian.AppendUint32(c.values, uint32(x))
	c.observe(c.values[len(c.values)-4:])
}

func (c *columnWriter) appendInt64(x int64) {
	c.values = binary.LittleEndian.AppendUint64(c.values, uint64(x))
	c.observe(c.values[len(c.values)-8:])
}

// appendBytes appends a BYTE_ARRAY value behind its 4-byte length.
func appendBytes[T string | []byte](c *columnWriter, b T) {
	c.values = binary.LittleEndian.AppendUint32(c.values, uint32(len(b)))
	c.values = append(c.values, b...)
	c.observe(c.values[len(c.values)-len(b):])
}

func int32Encoder[T int8 | int16 | int32 | spec.DateValue | spec.TimeValue]() valueEncoder {
	return func(c *columnWriter, v any) error {
		x, ok := v.(T)
		if !ok {
			return wrongType[T](v)
		}
		c.appendInt32(int32(x))
		return nil
	}
}

func encodeInt64(c *columnWriter, v any) error {
	x, ok := v.(int64)
	if !ok {
		return wrongType[int64](v)
	}
	c.appendInt64(x)
	return nil
}

func encodeFloat(c *columnWriter, v any) error {
	x, ok := v.(float32)
	if !ok {
		return wrongType[float32](v)
	}
	c.values = binary.LittleEndian.AppendUint32(c.values, math.Float32bits(x))
	c.observe(c.values[len(c.values)-4:])
	return nil
}

func encodeDouble(c *columnWriter, v any) error {
	x, ok := v.(float64)
	if !ok {
		return wrongType[float64](v)
	}
	c.values = binary.LittleEndian.AppendUint64(c.values, math.Float64bits(x))
	c.observe(c.values[len(c.values)-8:])
	return nil
}

func encodeBool(c *columnWriter, v any) error {
	x, ok := v.(bool)
	if !ok {
		return wrongType[bool](v)
	}
	c.bools = append(c.bools, x)
	if x {
		c.observe([]byte{1})
	} else {
		c.observe([]byte{0})
	}
	return nil
}

func encodeString(c *columnWriter, v any) error {
	x, ok := v.(string)
	if !ok {
		return wrongType[string](v)
	}
	appendBytes(c, x)
	return nil
}

func encodeBinary(c *columnWriter, v any) error {
	x, ok := v.([]byte)
	if !ok {
		return wrongType[[]byte](v)
	}
	appendBytes(c, x)
	return nil
}

func encoderFor(t spec.DataType) valueEncoder {
	switch t.Root {
	case spec.Boolean:
		return encodeBool
	case spec.TinyInt:
		return int32Encoder[int8]()
	case spec.SmallInt:
		return int32Encoder[int16]()
	case spec.Int:
		return int32Encoder[int32]()
	case spec.Date:
		return int32Encoder[spec.DateValue]()
	case spec.Time:
		return int32Encoder[spec.TimeValue]()
	case spec.BigInt:
		return encodeInt64
	case spec.Float:
		return encodeFloat
	case spec.Double:
		return encodeDouble
	case spec.Char, spec.VarChar:
		return encodeString
	case spec.Decimal:
		return decimalEncoder(t)
	case spec.Timestamp, spec.TimestampLTZ:
		return timestampEncoder(t.Precision)
	}
	return encodeBinary
}

func decimalEncoder(t spec.DataType) valueEncoder {
	width := decimalBytes(t.Precision)
	return func(c *columnWriter, v any) error {
		d, ok := v.(spec.DecimalValue)
		if !ok {
			return wrongType[spec.DecimalValue](v)
		}
		if d.Scale() != t.Scale {
			return fmt.Errorf("decimal of scale %d in a column of scale %d", d.Scale(), t.Scale)
		}
		if !d.FitsPrecision(t.Precision) {
			return fmt.Errorf("decimal %s overflows DECIMAL(%d, %d)", d, t.Precision, t.Scale)
		}
		unscaled, small := d.UnscaledInt64()
		switch {
		case t.Precision <= 9:
			if small && unscaled == int64(int32(unscaled)) {
				c.appendInt32(int32(unscaled))
				return nil
			}
		case t.Precision <= 18:
			if small {
				c.appendInt64(unscaled)
				return nil
			}
		default:
			if b, ok := twosComplement(d.Unscaled(), width); ok {
				c.values = append(c.values, b...)
				c.observe(b)
				return nil
			}
		}
		return fmt.Errorf("decimal %s overflows DECIMAL(%d, %d)", d, t.Precision, t.Scale)
	}
}

// twosComplement encodes x big-endian in exactly width bytes.
func twosComplement(x *big.Int, width int) ([]byte, bool) {
	limit := new(big.Int).Lsh(big.NewInt(1), uint(8*width-1))
	if x.Cmp(limit) >= 0 || x.Cmp(new(big.Int).Neg(limit)) < 0 {
		return nil, false
	}
	v := new(big.Int).Set(x)
	if v.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(limit, 1))
	}
	return v.FillBytes(make([]byte, width)), true
}

func timestampEncoder(precision int) valueEncoder {
	return func(c *columnWriter, v any) error {
		ts, ok := v.(spec.TimestampValue)
		if !ok {
			return wrongType[spec.TimestampValue](v)
		}
		switch {
		case precision <= 3:
			c.appendInt64(ts.Millis)
		case precision <= 6:
			c.appendInt64(ts.Millis*1000 + int64(ts.NanoOfMilli)/1000)
		default:
			c.values = appendInt96(c.values, ts)
		}
		return nil
	}
}

// appendInt96 writes the legacy Impala layout exactly as Java does, with
// truncating division, so the bytes match Java-written files.
func appendInt96(dst []byte, ts spec.TimestampValue) []byte {
	julianDay := int32(ts.Millis/millisPerDay + julianDayOfEpoch)
	nanosOfDay := (ts.Millis%millisPerDay)*nanosPerMilli + int64(ts.NanoOfMilli)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(nanosOfDay))
	return binary.LittleEndian.AppendUint32(dst, uint32(julianDay))
}
