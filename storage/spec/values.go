package spec

import (
	"fmt"
	"math/big"
	"strings"
	"time"
)

// In-memory values. A row is a []any whose elements, per column type, are:
//
//	BOOLEAN                         bool
//	TINYINT, SMALLINT, INT, BIGINT  int8, int16, int32, int64
//	FLOAT, DOUBLE                   float32, float64
//	DECIMAL                         spec.DecimalValue
//	CHAR, VARCHAR (STRING)          string
//	BINARY, VARBINARY (BYTES)       []byte
//	DATE                            spec.DateValue
//	TIME                            spec.TimeValue
//	TIMESTAMP, TIMESTAMP_LTZ        spec.TimestampValue
//	ARRAY                           []any
//	MAP, MULTISET                   spec.MapValue
//	ROW                             []any
//	NULL                            nil
//
// Every codec (BinaryRow, Parquet, Avro, JSON) produces and accepts exactly
// these Go types, so rows pass between layers without conversion.

// RowKind is the change kind of a record. Mirrors org.apache.paimon.types.RowKind.
type RowKind int8

const (
	RowKindInsert       RowKind = 0 // +I
	RowKindUpdateBefore RowKind = 1 // -U
	RowKindUpdateAfter  RowKind = 2 // +U
	RowKindDelete       RowKind = 3 // -D
)

// IsRetract reports whether the kind removes a row (-U or -D).
func (k RowKind) IsRetract() bool { return k == RowKindUpdateBefore || k == RowKindDelete }

// String returns Paimon's short form: +I, -U, +U, -D.
func (k RowKind) String() string {
	switch k {
	case RowKindInsert:
		return "+I"
	case RowKindUpdateBefore:
		return "-U"
	case RowKindUpdateAfter:
		return "+U"
	case RowKindDelete:
		return "-D"
	}
	return fmt.Sprintf("RowKind(%d)", int8(k))
}

// ParseRowKind reads Paimon's short form of a row kind
// (RowKind.fromShortString).
func ParseRowKind(s string) (RowKind, error) {
	for k := RowKindInsert; k <= RowKindDelete; k++ {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown row kind %q", s)
}

// DateValue is a DATE: days since 1970-01-01.
type DateValue int32

// String formats the date as YYYY-MM-DD.
func (d DateValue) String() string {
	return time.Unix(int64(d)*86400, 0).UTC().Format("2006-01-02")
}

// TimeValue is a TIME: milliseconds of the day.
type TimeValue int32

// TimestampValue is a TIMESTAMP or TIMESTAMP_LTZ. Mirrors
// org.apache.paimon.data.Timestamp: milliseconds since the epoch plus the
// nanoseconds within that millisecond. A TIMESTAMP without time zone holds
// its local date-time as if it were UTC; a TIMESTAMP_LTZ holds the instant.
type TimestampValue struct {
	Millis      int64
	NanoOfMilli int32
}

// TimestampFromTime converts t (its UTC wall clock) to a TimestampValue.
func TimestampFromTime(t time.Time) TimestampValue {
	nanos := t.UnixNano()
	ms := t.UnixMilli()
	return TimestampValue{Millis: ms, NanoOfMilli: int32(nanos - ms*1e6)}
}

// Time returns the value as a UTC time.Time.
func (ts TimestampValue) Time() time.Time {
	return time.UnixMilli(ts.Millis).UTC().Add(time.Duration(ts.NanoOfMilli))
}

// Format prints YYYY-MM-DD HH:MM:SS plus exactly precision fraction digits
// when precision > 0.
func (ts TimestampValue) Format(precision int) string {
	t := ts.Time()
	s := t.Format("2006-01-02 15:04:05")
	if precision <= 0 {
		return s
	}
	frac := fmt.Sprintf("%09d", t.Nanosecond())
	return s + "." + frac[:min(precision, 9)]
}

// DecimalValue is a DECIMAL: an unscaled integer and a scale. Values with
// an unscaled part that fits in int64 avoid big.Int allocation.
type DecimalValue struct {
	small int64
	big   *big.Int // nil when the unscaled value fits in small
	scale int32
}

// NewDecimal returns unscaled * 10^-scale.
func NewDecimal(unscaled int64, scale int) DecimalValue {
	return DecimalValue{small: unscaled, scale: int32(scale)}
}

// NewDecimalBig returns unscaled * 10^-scale; it keeps the compact form when
// unscaled fits in int64.
func NewDecimalBig(unscaled *big.Int, scale int) DecimalValue {
	if unscaled.IsInt64() {
		return DecimalValue{small: unscaled.Int64(), scale: int32(scale)}
	}
	return DecimalValue{big: new(big.Int).Set(unscaled), scale: int32(scale)}
}

// Scale returns the number of fraction digits.
func (d DecimalValue) Scale() int { return int(d.scale) }

// UnscaledInt64 returns the unscaled value and whether it fits in int64.
func (d DecimalValue) UnscaledInt64() (int64, bool) { return d.small, d.big == nil }

// Unscaled returns the unscaled value as a new big.Int.
func (d DecimalValue) Unscaled() *big.Int {
	if d.big != nil {
		return new(big.Int).Set(d.big)
	}
	return big.NewInt(d.small)
}

// Cmp compares two decimals of the same scale by their unscaled values, as
// Paimon does for values of one column.
func (d DecimalValue) Cmp(o DecimalValue) int {
	if d.big == nil && o.big == nil && d.scale == o.scale {
		switch {
		case d.small < o.small:
			return -1
		case d.small > o.small:
			return 1
		}
		return 0
	}
	return d.rat().Cmp(o.rat())
}

func (d DecimalValue) rat() *big.Rat {
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.scale)), nil)
	return new(big.Rat).SetFrac(d.Unscaled(), den)
}

// FitsPrecision reports whether the unscaled value has at most precision
// digits, as a DECIMAL(precision, scale) column requires.
func (d DecimalValue) FitsPrecision(precision int) bool {
	if d.big == nil && precision <= 18 {
		limit := int64(1)
		for range precision {
			limit *= 10
		}
		return d.small > -limit && d.small < limit
	}
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil)
	return new(big.Int).Abs(d.Unscaled()).Cmp(limit) < 0
}

// String prints the plain decimal with exactly Scale fraction digits
// ("12.30" for unscaled 1230, scale 2), like Java BigDecimal.toPlainString.
func (d DecimalValue) String() string {
	digits := d.Unscaled().String()
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	if d.scale > 0 {
		if len(digits) <= int(d.scale) {
			digits = strings.Repeat("0", int(d.scale)-len(digits)+1) + digits
		}
		cut := len(digits) - int(d.scale)
		digits = digits[:cut] + "." + digits[cut:]
	} else if d.scale < 0 {
		digits += strings.Repeat("0", int(-d.scale))
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// MapValue is a MAP or MULTISET: parallel key and value slices in file
// order. A MULTISET maps each element to its INT count.
type MapValue struct {
	Keys   []any
	Values []any
}
