package lsm

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// sumAgg mirrors FieldSumAgg: nulls are skipped, integer overflow fails
// (Math.addExact), floats follow IEEE, DECIMAL keeps its scale and turns
// NULL when it no longer fits its precision.
type sumAgg struct {
	stateless
	t spec.DataType
}

func (s sumAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	return arithmetic(s.t, '+', acc, in)
}

// retract subtracts; retracting from a null sum yields the negated input,
// as Java does, so a retraction that arrives first is not lost.
func (s sumAgg) retract(acc, in any) (any, error) {
	switch {
	case acc == nil && in == nil:
		return nil, nil
	case acc == nil:
		return negate(s.t, in)
	case in == nil:
		return acc, nil
	}
	return arithmetic(s.t, '-', acc, in)
}

// productAgg mirrors FieldProductAgg; its retract divides, with Java's
// integer division (truncating, failing on zero) and exact DECIMAL division.
type productAgg struct {
	stateless
	t spec.DataType
}

func (p productAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	return arithmetic(p.t, '*', acc, in)
}

func (p productAgg) retract(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return acc, nil
	}
	return arithmetic(p.t, '/', acc, in)
}

// countAgg is the count function of Paimon 0.8 (FieldCountAgg, removed in
// 0.9 by apache/paimon#3932 because merging already-merged rows recounts
// them from 1). It is kept so tables created by 0.8 read as 0.8 read them:
// a non-null input counts one, a null leaves a non-null count alone, and the
// count wraps on overflow like Java's narrowing casts.
type countAgg struct {
	stateless
	t spec.DataType
}

func (c countAgg) agg(acc, in any) (any, error)     { return c.step(acc, in, 1) }
func (c countAgg) retract(acc, in any) (any, error) { return c.step(acc, in, -1) }

func (c countAgg) step(acc, in any, delta int64) (any, error) {
	if acc != nil && in == nil {
		return acc, nil
	}
	var n int64
	switch {
	case acc != nil:
		v, err := integerValue(acc)
		if err != nil {
			return nil, err
		}
		n = v + delta
	case in != nil:
		n = delta
	}
	return narrowInteger(c.t.Root, n), nil
}

func integerValue(v any) (int64, error) {
	switch x := v.(type) {
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int64:
		return x, nil
	}
	return 0, fmt.Errorf("%w: count expected an integer, got %T", lakeerr.ErrCorruption, v)
}

// narrowInteger converts with wrap-around, like Java's (byte)/(short) casts.
func narrowInteger(root spec.TypeRoot, n int64) any {
	switch root {
	case spec.TinyInt:
		return int8(n)
	case spec.SmallInt:
		return int16(n)
	case spec.Int:
		return int32(n)
	}
	return n
}

// arithmetic applies op ('+', '-', '*', '/') to two non-null values of
// numeric type t.
func arithmetic(t spec.DataType, op byte, a, b any) (any, error) {
	switch t.Root {
	case spec.TinyInt:
		return integerOp[int8](op, a, b, "byte")
	case spec.SmallInt:
		return integerOp[int16](op, a, b, "short")
	case spec.Int:
		return integerOp[int32](op, a, b, "int")
	case spec.BigInt:
		return integerOp[int64](op, a, b, "long")
	case spec.Float:
		return floatOp[float32](op, a, b)
	case spec.Double:
		return floatOp[float64](op, a, b)
	case spec.Decimal:
		return decimalOp(t, op, a, b)
	}
	return nil, fmt.Errorf("%w: arithmetic on non-numeric type root %d", ErrInvalidOptions, t.Root)
}

func negate(t spec.DataType, a any) (any, error) {
	switch x := a.(type) {
	case int8:
		return negateInteger(x, "byte")
	case int16:
		return negateInteger(x, "short")
	case int32:
		return negateInteger(x, "int")
	case int64:
		return negateInteger(x, "long")
	case float32:
		return -x, nil
	case float64:
		return -x, nil
	case spec.DecimalValue:
		return negateDecimal(t, x), nil
	}
	return nil, fmt.Errorf("%w: cannot negate %T", ErrArithmetic, a)
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64
}

func integerOp[T integer](op byte, a, b any, typeName string) (any, error) {
	x, y, err := operands[T](a, b)
	if err != nil {
		return nil, err
	}
	var r T
	ok := true
	switch op {
	case '+':
		r, ok = addExact(x, y)
	case '-':
		r, ok = subtractExact(x, y)
	case '*':
		r, ok = multiplyExact(x, y)
	case '/':
		if y == 0 {
			return nil, fmt.Errorf("%w: / by zero", ErrArithmetic)
		}
		r, ok = x/y, !(isMinValue(x) && y == -1)
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s overflow: %d %c %d", ErrArithmetic, typeName, x, op, y)
	}
	return r, nil
}

// addExact adds and reports whether the sum did not wrap (Math.addExact):
// adding a positive number must grow the value, anything else must not.
func addExact[T integer](x, y T) (T, bool) {
	r := x + y
	return r, (r > x) == (y > 0)
}

// subtractExact subtracts and reports whether the difference did not wrap.
func subtractExact[T integer](x, y T) (T, bool) {
	r := x - y
	return r, (r < x) == (y > 0)
}

func multiplyExact[T integer](x, y T) (T, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	r := x * y
	// Division detects every wrapped product except MIN * -1, which wraps to
	// MIN and divides back to MIN.
	ok := r/y == x && !(x == -1 && isMinValue(y)) && !(y == -1 && isMinValue(x))
	return r, ok
}

// isMinValue reports whether x is its type's most negative value, the one
// value whose negation wraps to itself.
func isMinValue[T integer](x T) bool { return x < 0 && -x < 0 }

func negateInteger[T integer](x T, typeName string) (any, error) {
	if isMinValue(x) {
		return nil, fmt.Errorf("%w: %s overflow: -%d", ErrArithmetic, typeName, x)
	}
	return -x, nil
}

func floatOp[T float32 | float64](op byte, a, b any) (any, error) {
	x, y, err := operands[T](a, b)
	if err != nil {
		return nil, err
	}
	switch op {
	case '+':
		return x + y, nil
	case '-':
		return x - y, nil
	case '*':
		return x * y, nil
	}
	return x / y, nil
}
