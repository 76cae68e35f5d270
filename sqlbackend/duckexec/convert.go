//go:build duckdb_arrow && cgo

package duckexec

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"

	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/duckdb/duckdb-go/v2"
	"github.com/shopspring/decimal"
)

// errInexact is a DuckDB value the column's GMS type cannot hold exactly.
var errInexact = errors.New("duckexec: value does not convert exactly")

// convertFunc turns a non-nil DuckDB value (as duckdb-go scans it) into
// the Go value GMS expects for one column type.
type convertFunc func(v any) (any, error)

// converters returns each column's conversion; a type with none wraps
// ErrUnsupported.
func converters(schema gms.Schema) ([]convertFunc, error) {
	out := make([]convertFunc, len(schema))
	for i, col := range schema {
		var err error
		if out[i], err = converterOf(col.Type); err != nil {
			return nil, fmt.Errorf("result column %q: %w", col.Name, err)
		}
	}
	return out, nil
}

// converterOf is the conversion to t's Go type (the values GMS's own
// execution produces and t.SQL encodes): integers of t's width and
// signedness (types.Boolean is INT8), float32 or float64, shopspring
// decimals of t's scale, UTC times, strings, and bytes for binary types.
func converterOf(t gms.Type) (convertFunc, error) {
	switch {
	case types.IsInteger(t):
		return integerConverter(t.Type())
	case t == types.Float32:
		return toFloat32, nil
	case t == types.Float64:
		return toFloat64, nil
	case types.IsDecimal(t):
		return decimalConverter(), nil
	case types.IsTime(t):
		return timeConverter(types.IsDateType(t), t.(gms.DatetimeType).Precision()), nil
	case types.IsBinaryType(t) && !types.IsJSON(t) && !types.IsGeometry(t):
		return toBytes, nil
	case types.IsText(t) && !types.IsEnum(t) && !types.IsSet(t):
		return toString, nil
	}
	return nil, fmt.Errorf("%w: result type %s", ErrUnsupported, t)
}

type intRange struct {
	lo, hi int64
	make   func(int64) any
}

var signedRanges = map[query.Type]intRange{
	sqltypes.Int8:  {math.MinInt8, math.MaxInt8, func(n int64) any { return int8(n) }},
	sqltypes.Int16: {math.MinInt16, math.MaxInt16, func(n int64) any { return int16(n) }},
	sqltypes.Int24: {-1 << 23, 1<<23 - 1, func(n int64) any { return int32(n) }},
	sqltypes.Int32: {math.MinInt32, math.MaxInt32, func(n int64) any { return int32(n) }},
	sqltypes.Int64: {math.MinInt64, math.MaxInt64, func(n int64) any { return n }},
}

type uintRange struct {
	hi   uint64
	make func(uint64) any
}

var unsignedRanges = map[query.Type]uintRange{
	sqltypes.Uint8:  {math.MaxUint8, func(n uint64) any { return uint8(n) }},
	sqltypes.Uint16: {math.MaxUint16, func(n uint64) any { return uint16(n) }},
	sqltypes.Uint24: {1<<24 - 1, func(n uint64) any { return uint32(n) }},
	sqltypes.Uint32: {math.MaxUint32, func(n uint64) any { return uint32(n) }},
	sqltypes.Uint64: {math.MaxUint64, func(n uint64) any { return n }},
}

func integerConverter(t query.Type) (convertFunc, error) {
	if r, ok := signedRanges[t]; ok {
		return func(v any) (any, error) {
			n, ok := int64Of(v)
			if !ok || n < r.lo || n > r.hi {
				return nil, inexact(v, t)
			}
			return r.make(n), nil
		}, nil
	}
	if r, ok := unsignedRanges[t]; ok {
		return func(v any) (any, error) {
			n, ok := bigOf(v)
			if !ok || !n.IsUint64() || n.Uint64() > r.hi {
				return nil, inexact(v, t)
			}
			return r.make(n.Uint64()), nil
		}, nil
	}
	return nil, fmt.Errorf("%w: integer type %v", ErrUnsupported, t)
}

// int64Of is bigOf for values that fit int64, without allocating for the
// fixed-width integers.
func int64Of(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	n, ok := bigOf(v)
	if !ok || !n.IsInt64() {
		return 0, false
	}
	return n.Int64(), true
}

func inexact(v any, t any) error {
	return fmt.Errorf("%w: %T %v as %v", errInexact, v, v, t)
}

// bigOf is the exact integer value of a DuckDB integer, boolean (1 or
// 0) or integral DECIMAL; false for anything else.
func bigOf(v any) (*big.Int, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return big.NewInt(1), true
		}
		return big.NewInt(0), true
	case int8:
		return big.NewInt(int64(x)), true
	case int16:
		return big.NewInt(int64(x)), true
	case int32:
		return big.NewInt(int64(x)), true
	case int64:
		return big.NewInt(x), true
	case uint8:
		return new(big.Int).SetUint64(uint64(x)), true
	case uint16:
		return new(big.Int).SetUint64(uint64(x)), true
	case uint32:
		return new(big.Int).SetUint64(uint64(x)), true
	case uint64:
		return new(big.Int).SetUint64(x), true
	case *big.Int:
		return x, x != nil
	case duckdb.Decimal:
		return rescale(x.Value, int32(x.Scale), 0)
	}
	return nil, false
}

// rescale returns unscaled·10^-from as an unscaled value of scale to,
// false when that loses digits.
func rescale(unscaled *big.Int, from, to int32) (*big.Int, bool) {
	if unscaled == nil {
		return nil, false
	}
	if to >= from {
		return new(big.Int).Mul(unscaled, pow10(to-from)), true
	}
	q, r := new(big.Int).QuoRem(unscaled, pow10(from-to), new(big.Int))
	return q, r.Sign() == 0
}

func pow10(n int32) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

func toFloat32(v any) (any, error) {
	switch x := v.(type) {
	case float32:
		return x, nil
	case float64:
		if f := float32(x); float64(f) == x || math.IsNaN(x) {
			return f, nil
		}
	}
	return nil, inexact(v, types.Float32)
}

func toFloat64(v any) (any, error) {
	switch x := v.(type) {
	case float32:
		return float64(x), nil
	case float64:
		return x, nil
	}
	return nil, inexact(v, types.Float64)
}

// decimalConverter converts exact numbers to decimals of the scale DuckDB
// computed them in, without checking them against the GMS type: GMS
// types decimal arithmetic narrowly (DECIMAL(10,2)*3 is DECIMAL(10,2))
// yet sends its exact value, with the value's own scale, unless the type
// is a column's (types.DecimalType_.DecimalValueStringFixed), which
// prints the column's scale. DuckDB computes sums, products and
// differences in the scale shopspring's arithmetic gives GMS's values.
func decimalConverter() convertFunc {
	return func(v any) (any, error) {
		unscaled, scale, ok := unscaledOf(v)
		if !ok {
			return nil, inexact(v, "DECIMAL")
		}
		return decimal.NewFromBigInt(unscaled, -scale), nil
	}
}

// unscaledOf is a DuckDB DECIMAL or integer as an unscaled value and a
// scale.
func unscaledOf(v any) (*big.Int, int32, bool) {
	if d, ok := v.(duckdb.Decimal); ok {
		return d.Value, int32(d.Scale), d.Value != nil
	}
	n, ok := bigOf(v)
	return n, 0, ok
}

// timeConverter converts DuckDB's DATE and TIMESTAMP values (UTC
// time.Time) to the column's: a DATE takes only midnights, a DATETIME(p)
// only values without digits beyond p.
func timeConverter(date bool, precision int) convertFunc {
	unit := time.Duration(math.Pow10(9 - precision))
	if date {
		unit = 24 * time.Hour
	}
	return func(v any) (any, error) {
		t, ok := v.(time.Time)
		if !ok {
			return nil, inexact(v, "a time")
		}
		t = t.UTC()
		if !t.Truncate(unit).Equal(t) {
			return nil, inexact(v, fmt.Sprintf("a time in units of %v", unit))
		}
		return t, nil
	}
}

func toBytes(v any) (any, error) {
	switch x := v.(type) {
	case []byte:
		return x, nil
	case string:
		return []byte(x), nil
	}
	return nil, inexact(v, "bytes")
}

func toString(v any) (any, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return nil, inexact(v, "a string")
}
