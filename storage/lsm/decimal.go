package lsm

import (
	"fmt"
	"math/big"

	"github.com/lakesql/lakesql/storage/spec"
)

// decimalOp mirrors the DECIMAL branches of FieldSumAgg and FieldProductAgg:
// DecimalUtils.add/subtract, BigDecimal.multiply and the exact
// BigDecimal.divide, each result brought to the column's scale (HALF_UP) by
// Decimal.fromBigDecimal, which yields NULL past the column's precision.
func decimalOp(t spec.DataType, op byte, a, b any) (any, error) {
	x, y, err := operands[spec.DecimalValue](a, b)
	if err != nil {
		return nil, err
	}
	switch op {
	case '+', '-':
		return addDecimal(t, x, y, op == '-'), nil
	case '*':
		return multiplyDecimal(t, x, y), nil
	}
	return divideDecimal(t, x, y)
}

// addDecimal follows DecimalUtils.add: when the column is compact
// (precision <= 18) the int64 sum is kept as long as it does not overflow
// int64, even past the column's precision, because Java only checks for long
// overflow on that path. Every other sum is checked and may become NULL.
func addDecimal(t spec.DataType, x, y spec.DecimalValue, subtract bool) any {
	if sum, ok := addCompactDecimal(t, x, y, subtract); ok {
		return sum
	}
	u, v := unscaledAt(x, t.Scale), unscaledAt(y, t.Scale)
	if subtract {
		u.Sub(u, v)
	} else {
		u.Add(u, v)
	}
	return fitDecimal(u, t)
}

func addCompactDecimal(t spec.DataType, x, y spec.DecimalValue, subtract bool) (spec.DecimalValue, bool) {
	if !t.IsCompactDecimal() || x.Scale() != t.Scale || y.Scale() != t.Scale {
		return spec.DecimalValue{}, false
	}
	xs, okX := x.UnscaledInt64()
	ys, okY := y.UnscaledInt64()
	if !okX || !okY {
		return spec.DecimalValue{}, false
	}
	r, ok := addExact(xs, ys)
	if subtract {
		r, ok = subtractExact(xs, ys)
	}
	return spec.NewDecimal(r, t.Scale), ok
}

func multiplyDecimal(t spec.DataType, x, y spec.DecimalValue) any {
	product := new(big.Int).Mul(x.Unscaled(), y.Unscaled())
	return fitDecimal(rescale(product, x.Scale()+y.Scale(), t.Scale), t)
}

// divideDecimal mirrors BigDecimal.divide(BigDecimal): the exact quotient,
// which fails when it has no finite decimal expansion, then rounded to the
// column's scale.
func divideDecimal(t spec.DataType, x, y spec.DecimalValue) (any, error) {
	n, d := x.Unscaled(), y.Unscaled()
	if d.Sign() == 0 {
		if n.Sign() == 0 {
			return nil, fmt.Errorf("%w: decimal division undefined (0 / 0)", ErrArithmetic)
		}
		return nil, fmt.Errorf("%w: decimal division by zero", ErrArithmetic)
	}
	q := new(big.Rat).SetFrac(n, d)
	if !terminates(q.Denom()) {
		return nil, fmt.Errorf("%w: non-terminating decimal expansion of %s / %s; no exact representable decimal result",
			ErrArithmetic, x, y)
	}
	// x / y = (n / d) * 10^(scale(y) - scale(x)); the unscaled result at the
	// column's scale multiplies by a further 10^scale.
	exp := y.Scale() - x.Scale() + t.Scale
	num, den := new(big.Int).Set(q.Num()), new(big.Int).Set(q.Denom())
	if exp >= 0 {
		num.Mul(num, pow10(exp))
	} else {
		den.Mul(den, pow10(-exp))
	}
	return fitDecimal(divideHalfUp(num, den), t), nil
}

func negateDecimal(t spec.DataType, x spec.DecimalValue) any {
	u := unscaledAt(x, t.Scale)
	return fitDecimal(u.Neg(u), t)
}

// terminates reports whether 1/den has a finite decimal expansion, that is
// whether den has no prime factor other than 2 and 5.
func terminates(den *big.Int) bool {
	d := new(big.Int).Abs(den)
	d.Rsh(d, d.TrailingZeroBits())
	five, rem := big.NewInt(5), new(big.Int)
	for d.Cmp(big.NewInt(1)) > 0 {
		q, r := new(big.Int).QuoRem(d, five, rem)
		if r.Sign() != 0 {
			return false
		}
		d = q
	}
	return true
}

// unscaledAt returns d's unscaled value at scale, rounding HALF_UP when the
// scale shrinks (BigDecimal.setScale). Values of one column share its scale,
// so this is normally a copy.
func unscaledAt(d spec.DecimalValue, scale int) *big.Int {
	return rescale(d.Unscaled(), d.Scale(), scale)
}

func rescale(u *big.Int, from, to int) *big.Int {
	if to >= from {
		return u.Mul(u, pow10(to-from))
	}
	return divideHalfUp(u, pow10(from-to))
}

// divideHalfUp divides rounding half away from zero (RoundingMode.HALF_UP).
func divideHalfUp(num, den *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() == 0 {
		return q
	}
	twice := r.Abs(r)
	twice.Lsh(twice, 1)
	if twice.CmpAbs(den) >= 0 {
		if (num.Sign() < 0) != (den.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// fitDecimal returns the DECIMAL with unscaled value u at the column's
// scale, or nil when u has more digits than the column's precision
// (Decimal.fromBigDecimal).
func fitDecimal(u *big.Int, t spec.DataType) any {
	if new(big.Int).Abs(u).Cmp(pow10(t.Precision)) >= 0 {
		return nil
	}
	return spec.NewDecimalBig(u, t.Scale)
}

func pow10(e int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil)
}
