package gmsfix

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

const ruleDecimalCasts analyzer.RuleId = 10_308

// erOutOfRange is MySQL's ER_WARN_DATA_OUT_OF_RANGE.
const erOutOfRange = 1264

// erTruncatedWrongValue is MySQL's ER_TRUNCATED_WRONG_VALUE.
const erTruncatedWrongValue = 1292

// defaultDecimalPrecision is the precision of MySQL's DECIMAL without
// one.
const defaultDecimalPrecision = 10

// castDecimalsAsMySQL puts decimalCast in place of every CAST to a
// DECIMAL (CAST(x AS DECIMAL), DECIMAL(M) and DECIMAL(M,D)).
//
// MySQL rounds the value half away from zero to the type's scale and
// clamps what does not fit to the type's extreme, with warning 1264:
// CAST(123456 AS DECIMAL(4,2)) is 99.99 and CAST('-99999' AS
// DECIMAL(3,0)) -999. GMS v0.20.0 (expression.convertValue) gives 0 for
// what overflows, and for DECIMAL(M) or DECIMAL(M,0)
// (createConvertedDecimalType) converts to its 65-digit internal type,
// so CAST('99999' AS DECIMAL(3,0)) was 99999.
//
// A CAST of a DECIMAL literal to a type it fits unchanged stays GMS's:
// keepDecimalLiterals writes those, and compareNumbersAsMySQL takes them
// away again (plainDecimalLiteral).
func castDecimalsAsMySQL(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return rewritePlan(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		c, ok := e.(*expression.Convert)
		if !ok {
			return e, transform.SameTree, nil
		}
		typ, ok := castDecimalType(c)
		if !ok || fitsUnchanged(c.Child, typ) {
			return e, transform.SameTree, nil
		}
		return &decimalCast{conv: c, typ: typ}, transform.NewTree, nil
	})
}

// castDecimalType is the DECIMAL(M,D) c converts to, when c is a CAST to
// DECIMAL with a valid precision M or none. Convert keeps M and D unexported
// (typeLength, typeScale) and its Type() does not have them for D = 0.
func castDecimalType(c *expression.Convert) (sql.DecimalType, bool) {
	if !types.IsDecimal(c.Type()) {
		return nil, false
	}
	v := reflect.ValueOf(c).Elem()
	lengthField, scaleField := v.FieldByName("typeLength"), v.FieldByName("typeScale")
	if !lengthField.IsValid() || !scaleField.IsValid() {
		return nil, false
	}
	length, scale := lengthField.Int(), scaleField.Int()
	if length == 0 && scale == 0 {
		// DECIMAL without a precision, or DECIMAL(0), is MySQL's
		// DECIMAL(10,0).
		length = defaultDecimalPrecision
	}
	if length <= 0 || scale < 0 || length > types.DecimalTypeMaxPrecision || scale > types.DecimalTypeMaxScale {
		return nil, false
	}
	typ, err := types.CreateColumnDecimalType(uint8(length), uint8(scale))
	if err != nil {
		return nil, false
	}
	return typ, true
}

// fitsUnchanged reports whether e is a DECIMAL literal of typ's scale and
// at most its precision, which a CAST to typ leaves as it is.
func fitsUnchanged(e sql.Expression, typ sql.DecimalType) bool {
	lit, ok := e.(*expression.Literal)
	if !ok {
		return false
	}
	from, ok := lit.Type().(sql.DecimalType)
	return ok && from.Scale() == typ.Scale() && from.Precision() <= typ.Precision()
}

// decimalCast is CAST(x AS DECIMAL(M,D)) as MySQL computes it: x's value
// as GMS converts it to a DECIMAL (warnings and all), rounded half away
// from zero to D digits and clamped to ±(10^(M-D) - 10^-D) with warning
// 1264 where it does not fit.
type decimalCast struct {
	conv *expression.Convert
	typ  sql.DecimalType
}

var _ sql.Expression = (*decimalCast)(nil)

func (x *decimalCast) Resolved() bool             { return x.conv.Resolved() }
func (x *decimalCast) IsNullable() bool           { return x.conv.IsNullable() }
func (x *decimalCast) Type() sql.Type             { return x.typ }
func (x *decimalCast) Children() []sql.Expression { return x.conv.Children() }
func (x *decimalCast) String() string             { return x.conv.String() }
func (x *decimalCast) DebugString() string        { return x.conv.DebugString() }

// CollationCoercibility implements sql.CollationCoercible as GMS's Convert.
func (x *decimalCast) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return x.conv.CollationCoercibility(ctx)
}

func (x *decimalCast) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := x.conv.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &decimalCast{conv: c.(*expression.Convert), typ: x.typ}, nil
}

func (x *decimalCast) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := x.conv.Child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	d, err := x.exact(ctx, v)
	if err != nil || d == nil {
		return nil, err
	}
	scale := int32(x.typ.Scale())
	r := d.Round(scale)
	bound := decimal.New(1, int32(x.typ.Precision())-scale)
	if r.Abs().LessThan(bound) {
		return r, nil
	}
	ctx.Warn(erOutOfRange, "Out of range value for column 'CAST(%s AS DECIMAL(%d,%d))' at row 1", x.conv.Child, x.typ.Precision(), scale)
	extreme := bound.Sub(decimal.New(1, -scale))
	if r.Sign() < 0 {
		return extreme.Neg(), nil
	}
	return extreme, nil
}

// exact is v as an unbounded decimal: numbers as they are, strings by
// their numeric prefix, anything else (binary) as GMS's CAST to its
// internal DECIMAL converts it.
func (x *decimalCast) exact(ctx *sql.Context, v any) (*decimal.Decimal, error) {
	var d decimal.Decimal
	switch n := v.(type) {
	case decimal.Decimal:
		d = n
	case float64:
		d = decimal.NewFromFloat(n)
	case float32:
		d = decimal.NewFromFloat32(n)
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint:
		d = decimal.RequireFromString(fmt.Sprint(n))
	case string:
		d = decimalPrefix(ctx, n)
	default:
		out, err := expression.NewConvert(expression.NewLiteral(v, x.conv.Child.Type()), expression.ConvertToDecimal).Eval(ctx, nil)
		if err != nil || out == nil {
			return nil, err
		}
		d = out.(decimal.Decimal)
	}
	return &d, nil
}

// decimalPrefix is s as MySQL converts a string to a DECIMAL: the number
// it starts with (0 for none), with warning 1292 when anything but
// spaces follows or there is no number. GMS gave 0 for ' 12abc', where
// MySQL gives 12.
func decimalPrefix(ctx *sql.Context, s string) decimal.Decimal {
	prefix := numericPrefixText(s)
	d, err := decimal.NewFromString(prefix)
	if err != nil || prefix != strings.TrimSpace(s) {
		ctx.Warn(erTruncatedWrongValue, "Truncated incorrect DECIMAL value: '%s'", s)
	}
	if err != nil {
		return decimal.Zero
	}
	return d
}
