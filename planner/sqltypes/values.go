package sqltypes

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/storage/spec"
)

// ErrValue marks a SQL value that does not fit its Paimon column: out of
// range, wrong Go type, or a type lakesql cannot write.
var ErrValue = errors.New("value does not fit the column")

const millisPerDay = 24 * 60 * 60 * 1000

// ToSQL converts a value read from storage (the Go types of storage/spec)
// into the value GMS expects for the column's SQL type (see Type).
func ToSQL(t spec.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Root {
	case spec.Boolean:
		if b, ok := v.(bool); ok {
			return boolToInt8(b), nil
		}
	case spec.Char:
		if s, ok := v.(string); ok {
			return TrimCharPadding(s), nil
		}
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Float, spec.Double,
		spec.VarChar, spec.Binary, spec.VarBinary, spec.Blob:
		return v, nil
	case spec.Decimal:
		if d, ok := v.(spec.DecimalValue); ok {
			if small, ok := d.UnscaledInt64(); ok {
				return decimal.New(small, -int32(d.Scale())), nil
			}
			return decimal.NewFromBigInt(d.Unscaled(), -int32(d.Scale())), nil
		}
	case spec.Date:
		if d, ok := v.(spec.DateValue); ok {
			return time.UnixMilli(int64(d) * millisPerDay).UTC(), nil
		}
	case spec.Time:
		if ms, ok := v.(spec.TimeValue); ok {
			return types.Timespan(int64(ms) * 1000), nil
		}
	case spec.Timestamp, spec.TimestampLTZ:
		if ts, ok := v.(spec.TimestampValue); ok {
			return ts.Time().Truncate(time.Microsecond), nil
		}
	case spec.Array, spec.Map, spec.Multiset, spec.Row:
		doc, err := jsonValue(t, v)
		if err != nil {
			return nil, err
		}
		return types.JSONDocument{Val: doc}, nil
	}
	return nil, fmt.Errorf("%w: %T for %s", ErrValue, v, typeName(t))
}

// FromSQL converts a value GMS produced for a column (already converted to
// the column's SQL type) into the storage value of Paimon type t.
func FromSQL(t spec.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Root {
	case spec.Boolean:
		n, err := integer(v)
		return n != 0, err
	case spec.TinyInt:
		return narrowInt(v, math.MinInt8, math.MaxInt8, func(n int64) any { return int8(n) })
	case spec.SmallInt:
		return narrowInt(v, math.MinInt16, math.MaxInt16, func(n int64) any { return int16(n) })
	case spec.Int:
		return narrowInt(v, math.MinInt32, math.MaxInt32, func(n int64) any { return int32(n) })
	case spec.BigInt:
		return integer(v)
	case spec.Float:
		f, err := float(v)
		return float32(f), err
	case spec.Double:
		return float(v)
	case spec.Decimal:
		return decimalFromSQL(t, v)
	case spec.Char:
		s, err := stringFromSQL(v)
		if err != nil {
			return nil, err
		}
		return TrimCharPadding(s.(string)), nil
	case spec.VarChar:
		return stringFromSQL(v)
	case spec.Binary, spec.VarBinary:
		return bytesFromSQL(v)
	case spec.Date, spec.Timestamp, spec.TimestampLTZ:
		return timeFromSQL(t, v)
	case spec.Time:
		if ts, ok := v.(types.Timespan); ok {
			return spec.TimeValue(ts.AsMicroseconds() / 1000), nil
		}
	case spec.Array, spec.Map, spec.Multiset, spec.Row:
		// Written as the JSON a SELECT shows (nested.go); an UPDATE that
		// leaves such a column alone keeps its stored value, whose FLOAT
		// or TIMESTAMP(9) parts JSON may not carry exactly
		// (sqlbackend/keepstored.go).
		return nestedFromSQL(t, v)
	}
	return nil, fmt.Errorf("%w: cannot write %T into a %s column", ErrValue, v, typeName(t))
}

func boolToInt8(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

func integer(v any) (int64, error) {
	switch n := v.(type) {
	case int8:
		return int64(n), nil
	case int16:
		return int64(n), nil
	case int32:
		return int64(n), nil
	case int64:
		return n, nil
	case int:
		return int64(n), nil
	case uint8:
		return int64(n), nil
	case uint16:
		return int64(n), nil
	case uint32:
		return int64(n), nil
	case uint64:
		if n > math.MaxInt64 {
			return 0, fmt.Errorf("%w: %d is out of range", ErrValue, n)
		}
		return int64(n), nil
	case bool:
		return int64(boolToInt8(n)), nil
	}
	return 0, fmt.Errorf("%w: %T is not an integer", ErrValue, v)
}

func narrowInt(v any, lo, hi int64, make func(int64) any) (any, error) {
	n, err := integer(v)
	if err != nil {
		return nil, err
	}
	if n < lo || n > hi {
		return nil, fmt.Errorf("%w: %d is out of range [%d, %d]", ErrValue, n, lo, hi)
	}
	return make(n), nil
}

func float(v any) (float64, error) {
	switch f := v.(type) {
	case float32:
		return float64(f), nil
	case float64:
		return f, nil
	case decimal.Decimal:
		x, _ := f.Float64()
		return x, nil
	}
	n, err := integer(v)
	return float64(n), err
}

func decimalFromSQL(t spec.DataType, v any) (any, error) {
	var d decimal.Decimal
	switch x := v.(type) {
	case decimal.Decimal:
		d = x
	case decimal.NullDecimal:
		if !x.Valid {
			return nil, nil
		}
		d = x.Decimal
	default:
		n, err := integer(v)
		if err != nil {
			return nil, err
		}
		d = decimal.NewFromInt(n)
	}
	scale := int32(t.Scale)
	unscaled := d.Round(scale).Shift(scale).BigInt()
	out := spec.NewDecimalBig(unscaled, t.Scale)
	if !out.FitsPrecision(t.Precision) {
		return nil, fmt.Errorf("%w: %s does not fit DECIMAL(%d,%d)", ErrValue, d, t.Precision, t.Scale)
	}
	if u, ok := compactUnscaled(unscaled); ok {
		return spec.NewDecimal(u, t.Scale), nil
	}
	return out, nil
}

func compactUnscaled(u *big.Int) (int64, bool) {
	if u.IsInt64() {
		return u.Int64(), true
	}
	return 0, false
}

// TrimCharPadding is a CHAR column's value as MySQL stores and returns
// it: without trailing spaces, which a CHAR pads with and MySQL strips on
// retrieval (unless PAD_CHAR_TO_FULL_LENGTH, which lakesql does not
// offer). Paimon keeps CHAR values as written, and Flink pads them to the
// length.
func TrimCharPadding(s string) string { return strings.TrimRight(s, " ") }

func stringFromSQL(v any) (any, error) {
	switch s := v.(type) {
	case string:
		return s, nil
	case []byte:
		return string(s), nil
	}
	return nil, fmt.Errorf("%w: %T is not a string", ErrValue, v)
}

func bytesFromSQL(v any) (any, error) {
	switch b := v.(type) {
	case []byte:
		return append([]byte(nil), b...), nil
	case string:
		return []byte(b), nil
	}
	return nil, fmt.Errorf("%w: %T is not binary", ErrValue, v)
}

// timeFromSQL keeps the wall-clock fields GMS produced: GMS carries DATE and
// DATETIME values as UTC time.Time, and Paimon's TIMESTAMP is a wall clock
// too. TIMESTAMP_LTZ is an instant, which the UTC time.Time is as well.
func timeFromSQL(t spec.DataType, v any) (any, error) {
	tm, ok := v.(time.Time)
	if !ok {
		return nil, fmt.Errorf("%w: %T is not a date or time", ErrValue, v)
	}
	utc := time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
	if t.Root == spec.TimestampLTZ {
		utc = tm.UTC()
	}
	if t.Root == spec.Date {
		return daysSinceEpoch(utc), nil
	}
	return truncateTimestamp(spec.TimestampFromTime(utc), t.Precision), nil
}

// truncateTimestamp drops the digits a TIMESTAMP(p) column does not keep, as
// Paimon's own writers do when they cast into the column type. Truncating
// since Go's zero time is exact: every unit divides a second.
func truncateTimestamp(ts spec.TimestampValue, precision int) spec.TimestampValue {
	if precision >= 9 {
		return ts
	}
	unit := time.Duration(math.Pow10(9 - precision))
	return spec.TimestampFromTime(ts.Time().Truncate(unit))
}

func daysSinceEpoch(t time.Time) spec.DateValue {
	const secondsPerDay = millisPerDay / 1000
	s := t.Unix()
	days := s / secondsPerDay
	if s%secondsPerDay < 0 {
		days--
	}
	return spec.DateValue(days)
}
