package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/shopspring/decimal"
)

// exactSum is SUM over an exact-value argument, an integer or a DECIMAL:
// a DECIMAL computed exactly, as MySQL's. GMS v0.20.0 adds integers as
// float64 in a GROUP BY (aggregation.sumBuffer) and every argument,
// decimals too, as float64 in a window (aggregation.SumAgg).
type exactSum struct {
	*aggregation.Sum
	typ sql.DecimalType
}

var (
	_ sql.Aggregation               = (*exactSum)(nil)
	_ sql.WindowAdaptableExpression = (*exactSum)(nil)
)

// WrappedSum is the GMS SUM an exact SUM replaced (ExactSums), for the
// backend to answer it as any SUM: ok is false for other expressions.
func WrappedSum(e sql.Expression) (sum *aggregation.Sum, ok bool) {
	if s, ok := e.(*exactSum); ok {
		return s.Sum, true
	}
	return nil, false
}

// newExactSum is the exact SUM replacing sum, when its argument is exact.
func newExactSum(sum *aggregation.Sum) (*exactSum, bool) {
	typ, ok := exactSumType(sum.Child.Type())
	if !ok {
		return nil, false
	}
	return &exactSum{Sum: sum, typ: typ}, true
}

func (s *exactSum) Type() sql.Type { return s.typ }

func (s *exactSum) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := s.Sum.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &exactSum{Sum: e.(*aggregation.Sum), typ: s.typ}, nil
}

func (s *exactSum) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return &exactSum{Sum: s.Sum.WithWindow(w).(*aggregation.Sum), typ: s.typ}
}

func (s *exactSum) WithId(id sql.ColumnId) sql.IdExpression {
	return &exactSum{Sum: s.Sum.WithId(id).(*aggregation.Sum), typ: s.typ}
}

// NewBuffer implements sql.Aggregation: the buffer of a GROUP BY.
func (s *exactSum) NewBuffer() (sql.AggregationBuffer, error) {
	child, err := transform.Clone(s.Child)
	if err != nil {
		return nil, err
	}
	return &exactSumBuffer{expr: child, scale: int32(s.typ.Scale())}, nil
}

// NewWindowFunction implements sql.WindowAdaptableExpression.
func (s *exactSum) NewWindowFunction() (sql.WindowFunction, error) {
	child, err := transform.Clone(s.Child)
	if err != nil {
		return nil, err
	}
	w := &sumAvgWindow{expr: child, sum: true, scale: int32(s.typ.Scale())}
	return w.WithWindow(s.Window())
}

// exactSumBuffer adds the values of a group as decimals; no value or only
// NULLs sum to NULL.
type exactSumBuffer struct {
	expr  sql.Expression
	scale int32
	sum   decimal.Decimal
	any   bool
}

func (b *exactSumBuffer) Update(ctx *sql.Context, row sql.Row) error {
	v, err := b.expr.Eval(ctx, row)
	if err != nil || v == nil {
		return err
	}
	d, err := exactValue(ctx, v)
	if err != nil {
		return err
	}
	b.sum, b.any = b.sum.Add(d), true
	return nil
}

func (b *exactSumBuffer) Eval(*sql.Context) (any, error) {
	if !b.any {
		return nil, nil
	}
	return b.sum.Round(b.scale), nil
}

func (b *exactSumBuffer) Dispose() {}

// exactValue is an integer or decimal argument as a decimal. GMS hands a
// DECIMAL literal over as its text at times (see aggregation.sumBuffer).
func exactValue(ctx *sql.Context, v any) (decimal.Decimal, error) {
	d, _, err := types.InternalDecimalType.Convert(ctx, v)
	if err != nil {
		return decimal.Decimal{}, err
	}
	return d.(decimal.Decimal), nil
}

// exactSumType is MySQL's type of SUM over an exact value of type t:
// DECIMAL(min(65, p+22), s), where an integer type has the precision of
// its largest value.
func exactSumType(t sql.Type) (sql.DecimalType, bool) {
	precision, scale, ok := exactPrecision(t)
	if !ok {
		return nil, false
	}
	typ, err := types.CreateDecimalType(uint8(min(precision+22, maxDecimalPrecision)), scale)
	return typ, err == nil
}

func exactPrecision(t sql.Type) (int, uint8, bool) {
	if d, ok := t.(sql.DecimalType); ok {
		return int(d.Precision()), d.Scale(), true
	}
	if !types.IsInteger(t) {
		return 0, 0, false
	}
	digits, ok := integerDigits[t.Type()]
	return digits, 0, ok
}

// integerDigits are the decimal digits of the largest value of each
// integer type (MEDIUMINT counted as MySQL does, by its unsigned range).
var integerDigits = map[querypb.Type]int{
	sqltypes.Int8: 3, sqltypes.Uint8: 3, sqltypes.Int16: 5, sqltypes.Uint16: 5,
	sqltypes.Int24: 8, sqltypes.Uint24: 8, sqltypes.Int32: 10, sqltypes.Uint32: 10,
	sqltypes.Int64: 19, sqltypes.Uint64: 20,
}
