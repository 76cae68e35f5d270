package predicate

import (
	"fmt"
	"math"
	"math/big"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// placement locates a non-null literal among the values of a column type.
// When the literal is not itself a column value, below and above are its
// neighbours (nil where there is none), and every comparison with the
// literal has an exact equivalent over them: x < 1.5 is x <= 1.
type placement struct {
	exact        any
	below, above any
}

// domain is the ordered set of values of one column type.
type domain interface {
	place(lit any) (placement, error)
}

// domainOf returns the domain of the values of t, or an error when t has no
// order that a comparison can use.
func domainOf(t spec.DataType) (domain, error) {
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Decimal:
		return numericDomain(t), nil
	case spec.Float, spec.Double:
		return floatDomain{single: t.Root == spec.Float}, nil
	case spec.Char, spec.VarChar:
		return exactDomain(stringOf), nil
	case spec.Binary, spec.VarBinary:
		return exactDomain(bytesOf), nil
	case spec.Date:
		return dateDomain(), nil
	case spec.Time:
		return timeDomain(t.Precision), nil
	case spec.Timestamp:
		return timestampDomain(t.Precision, wallNanos), nil
	case spec.TimestampLTZ:
		return timestampDomain(t.Precision, instantNanos), nil
	}
	return nil, fmt.Errorf("predicate: comparing a %s column: %w", t, lakeerr.ErrUnsupported)
}

// gridDomain holds the values of a type that map one-to-one onto the
// integers from lo to hi: integers, decimals of a scale, days, time steps.
type gridDomain struct {
	// index converts a literal to its exact position on the grid, which is
	// fractional when the literal falls between two values.
	index  func(lit any) (*big.Rat, bool)
	lo, hi *big.Int
	value  func(k *big.Int) any
}

func (g gridDomain) place(lit any) (placement, error) {
	r, ok := g.index(lit)
	if !ok {
		return placement{}, ErrLiteral
	}
	below := floor(r)
	if r.IsInt() && g.contains(below) {
		return placement{exact: g.value(below)}, nil
	}
	// An integer r out of range needs no special case: clamping below maps
	// it to the nearest column value, if there is one on that side.
	above := new(big.Int).Add(below, big.NewInt(1))
	var p placement
	if below.Cmp(g.hi) > 0 {
		below = g.hi
	}
	if above.Cmp(g.lo) < 0 {
		above = g.lo
	}
	if g.contains(below) {
		p.below = g.value(below)
	}
	if g.contains(above) {
		p.above = g.value(above)
	}
	return p, nil
}

func (g gridDomain) contains(k *big.Int) bool {
	return k.Cmp(g.lo) >= 0 && k.Cmp(g.hi) <= 0
}

// floor rounds down; big.Int.Div is Euclidean and Rat denominators are
// positive.
func floor(r *big.Rat) *big.Int { return new(big.Int).Div(r.Num(), r.Denom()) }

func numericDomain(t spec.DataType) gridDomain {
	switch t.Root {
	case spec.Boolean:
		return gridDomain{index: numericRat, lo: big.NewInt(0), hi: big.NewInt(1),
			value: func(k *big.Int) any { return k.Sign() != 0 }}
	case spec.TinyInt:
		return intDomain(math.MinInt8, math.MaxInt8, func(v int64) any { return int8(v) })
	case spec.SmallInt:
		return intDomain(math.MinInt16, math.MaxInt16, func(v int64) any { return int16(v) })
	case spec.Int:
		return intDomain(math.MinInt32, math.MaxInt32, func(v int64) any { return int32(v) })
	case spec.BigInt:
		return intDomain(math.MinInt64, math.MaxInt64, func(v int64) any { return v })
	}
	return decimalDomain(t.Precision, t.Scale)
}

func intDomain(lo, hi int64, value func(int64) any) gridDomain {
	return gridDomain{index: numericRat, lo: big.NewInt(lo), hi: big.NewInt(hi),
		value: func(k *big.Int) any { return value(k.Int64()) }}
}

// decimalDomain places literals on the unscaled values of DECIMAL(p,s), so a
// literal with more fraction digits than s falls between two values.
func decimalDomain(precision, scale int) gridDomain {
	limit := new(big.Int).Sub(pow10(precision), big.NewInt(1))
	unit := new(big.Rat).SetInt(pow10(scale))
	return gridDomain{
		index: func(lit any) (*big.Rat, bool) {
			r, ok := numericRat(lit)
			return scaled(r, unit), ok
		},
		lo:    new(big.Int).Neg(limit),
		hi:    limit,
		value: func(k *big.Int) any { return spec.NewDecimalBig(k, scale) },
	}
}

const (
	nanosPerMilli = 1_000_000
	nanosPerDay   = 86_400 * 1_000_000_000
)

func dateDomain() gridDomain {
	perDay := big.NewRat(nanosPerDay, 1)
	return gridDomain{
		index: func(lit any) (*big.Rat, bool) {
			n, ok := wallNanos(lit)
			return divided(n, perDay), ok
		},
		lo:    big.NewInt(math.MinInt32),
		hi:    big.NewInt(math.MaxInt32),
		value: func(k *big.Int) any { return spec.DateValue(k.Int64()) },
	}
}

// timeDomain steps by the column precision, at most milliseconds, the unit
// of spec.TimeValue.
func timeDomain(precision int) gridDomain {
	stepMillis := pow10(3 - min(max(precision, 0), 3)).Int64()
	step := big.NewRat(stepMillis*nanosPerMilli, 1)
	return gridDomain{
		index: func(lit any) (*big.Rat, bool) {
			n, ok := timeOfDayNanos(lit)
			return divided(n, step), ok
		},
		lo:    big.NewInt(0),
		hi:    big.NewInt((nanosPerDay/nanosPerMilli - 1) / stepMillis),
		value: func(k *big.Int) any { return spec.TimeValue(k.Int64() * stepMillis) },
	}
}

// timestampDomain steps by the column precision; nanos reads a literal as
// nanoseconds since the epoch (of the wall clock, or of the instant).
func timestampDomain(precision int, nanos func(any) (*big.Int, bool)) gridDomain {
	stepNanos := pow10(9 - min(max(precision, 0), 9))
	step := new(big.Rat).SetInt(stepNanos)
	minNanos := new(big.Int).Mul(big.NewInt(math.MinInt64), big.NewInt(nanosPerMilli))
	maxNanos := new(big.Int).Mul(big.NewInt(math.MaxInt64), big.NewInt(nanosPerMilli))
	maxNanos.Add(maxNanos, big.NewInt(nanosPerMilli-1))
	return gridDomain{
		index: func(lit any) (*big.Rat, bool) {
			n, ok := nanos(lit)
			return divided(n, step), ok
		},
		lo: new(big.Int).Neg(floor(divided(new(big.Int).Neg(minNanos), step))),
		hi: floor(divided(maxNanos, step)),
		value: func(k *big.Int) any {
			n := new(big.Int).Mul(k, stepNanos)
			millis, nano := new(big.Int).DivMod(n, big.NewInt(nanosPerMilli), new(big.Int))
			return spec.TimestampValue{Millis: millis.Int64(), NanoOfMilli: int32(nano.Int64())}
		},
	}
}

// floatDomain compares as MySQL does, in doubles: the literal is rounded to
// a double, and a FLOAT column's values are float32 values widened to
// double, so a double between two of them equals neither.
type floatDomain struct{ single bool }

func (d floatDomain) place(lit any) (placement, error) {
	f, ok := doubleOf(lit)
	if !ok {
		return placement{}, ErrLiteral
	}
	if !d.single {
		return placement{exact: f}, nil
	}
	switch {
	case f > math.MaxFloat32:
		return placement{below: float32(math.MaxFloat32), above: float32(math.Inf(1))}, nil
	case f < -math.MaxFloat32:
		return placement{below: float32(math.Inf(-1)), above: float32(-math.MaxFloat32)}, nil
	}
	g := float32(f)
	switch {
	case float64(g) == f:
		return placement{exact: g}, nil
	case float64(g) < f:
		return placement{below: g, above: math.Nextafter32(g, float32(math.Inf(1)))}, nil
	}
	return placement{below: math.Nextafter32(g, float32(math.Inf(-1))), above: g}, nil
}

// exactDomain is a type whose literals convert exactly or not at all.
type exactDomain func(lit any) (any, bool)

func (d exactDomain) place(lit any) (placement, error) {
	v, ok := d(lit)
	if !ok {
		return placement{}, ErrLiteral
	}
	return placement{exact: v}, nil
}

func stringOf(lit any) (any, bool) {
	switch v := lit.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return nil, false
}

func bytesOf(lit any) (any, bool) {
	switch v := lit.(type) {
	case []byte:
		return append([]byte{}, v...), true
	case string:
		return []byte(v), true
	}
	return nil, false
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// scaled and divided pass a nil (failed) conversion through.
func scaled(r, unit *big.Rat) *big.Rat {
	if r == nil {
		return nil
	}
	return r.Mul(r, unit)
}

func divided(n *big.Int, step *big.Rat) *big.Rat {
	if n == nil {
		return nil
	}
	r := new(big.Rat).SetInt(n)
	return r.Quo(r, step)
}
