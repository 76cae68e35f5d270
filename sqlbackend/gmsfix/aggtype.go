package gmsfix

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// aggregateType is MySQL's type of a result whose values come from
// expressions of types ts: a UNION column, COALESCE, CASE
// (https://dev.mysql.com/doc/refman/8.0/en/union.html: "the column types
// … take into account the values retrieved by all the SELECT statements";
// https://dev.mysql.com/doc/refman/8.0/en/flow-control-functions.html,
// "Return type of a CASE expression"). NULLs do not count. Numbers give
// DOUBLE if any is floating point, else DECIMAL with the largest integer
// part and scale if any is a DECIMAL, else the widest integer; dates and
// datetimes give DATETIME; any other mix of numbers, strings and temporal
// values gives a string. ok is false for the types this does not cover
// (JSON, BIT, YEAR, TIME, ENUM, SET, binary strings, spatial types), whose
// callers keep go-mysql-server's type.
func aggregateType(ts []sql.Type) (sql.Type, bool) {
	ts = withoutNulls(ts)
	switch {
	case len(ts) == 0:
		return types.Null, true
	case allEqual(ts):
		return ts[0], true
	case !allCovered(ts):
		return nil, false
	case all(ts, isNumeric):
		return numericAggregate(ts), true
	case all(ts, types.IsTime):
		return temporalAggregate(ts), true
	}
	return stringAggregate(ts), true
}

func withoutNulls(ts []sql.Type) []sql.Type {
	var out []sql.Type
	for _, t := range ts {
		if t != nil && t != types.Null {
			out = append(out, t)
		}
	}
	return out
}

func allEqual(ts []sql.Type) bool {
	for _, t := range ts[1:] {
		if !types.TypesEqual(t, ts[0]) {
			return false
		}
	}
	return true
}

func all(ts []sql.Type, f func(sql.Type) bool) bool {
	for _, t := range ts {
		if !f(t) {
			return false
		}
	}
	return true
}

func isNumeric(t sql.Type) bool {
	return types.IsInteger(t) || types.IsDecimal(t) || types.IsFloat(t)
}

func isCharacterString(t sql.Type) bool {
	return types.IsTextOnly(t)
}

func allCovered(ts []sql.Type) bool {
	return all(ts, func(t sql.Type) bool {
		return isNumeric(t) || types.IsTime(t) || isCharacterString(t)
	})
}

// numericAggregate: DOUBLE (FLOAT when all are), DECIMAL, or an integer.
func numericAggregate(ts []sql.Type) sql.Type {
	switch {
	case all(ts, func(t sql.Type) bool { return t == types.Float32 }):
		return types.Float32
	case !all(ts, func(t sql.Type) bool { return !types.IsFloat(t) }):
		return types.Float64
	case all(ts, types.IsInteger):
		return integerAggregate(ts)
	}
	intDigits, scale := 0, 0
	for _, t := range ts {
		p, s, _ := exactPrecision(t)
		intDigits, scale = max(intDigits, p-int(s)), max(scale, int(s))
	}
	return types.MustCreateColumnDecimalType(uint8(min(intDigits+scale, maxDecimalPrecision)), uint8(scale))
}

// integerWidths orders the integer types by the values they hold.
var integerWidths = map[querypb.Type]int{
	sqltypes.Int8: 1, sqltypes.Uint8: 1, sqltypes.Int16: 2, sqltypes.Uint16: 2,
	sqltypes.Int24: 3, sqltypes.Uint24: 3, sqltypes.Int32: 4, sqltypes.Uint32: 4,
	sqltypes.Int64: 8, sqltypes.Uint64: 8,
}

var signedOfWidth = map[int]sql.Type{1: types.Int8, 2: types.Int16, 3: types.Int24, 4: types.Int32, 8: types.Int64}
var unsignedOfWidth = map[int]sql.Type{1: types.Uint8, 2: types.Uint16, 3: types.Uint24, 4: types.Uint32, 8: types.Uint64}

// integerAggregate is the narrowest integer type holding every value of
// ts; a BIGINT UNSIGNED with a signed type needs DECIMAL(20,0).
func integerAggregate(ts []sql.Type) sql.Type {
	signed, unsigned := 0, 0
	for _, t := range ts {
		w := integerWidths[t.Type()]
		if types.IsUnsigned(t) {
			unsigned = max(unsigned, w)
		} else {
			signed = max(signed, w)
		}
	}
	switch {
	case signed == 0:
		return unsignedOfWidth[unsigned]
	case unsigned == 0:
		return signedOfWidth[signed]
	case unsigned == 8:
		return types.MustCreateColumnDecimalType(20, 0)
	}
	for _, w := range []int{1, 2, 3, 4, 8} {
		if w >= signed && w > unsigned {
			return signedOfWidth[w]
		}
	}
	return types.Int64
}

// temporalAggregate: DATE when all are DATEs, else DATETIME with the
// largest fractional precision.
func temporalAggregate(ts []sql.Type) sql.Type {
	if all(ts, types.IsDateType) {
		return types.Date
	}
	fsp := 0
	for _, t := range ts {
		if dt, ok := t.(sql.DatetimeType); ok {
			fsp = max(fsp, dt.Precision())
		}
	}
	return types.MustCreateDatetimeType(sqltypes.Datetime, fsp)
}

// maxVarcharLength is the longest VARCHAR of utf8mb4 characters; longer
// strings aggregate to LONGTEXT.
const maxVarcharLength = 16383

// stringAggregate is a VARCHAR long enough for every value's text, in the
// collation of the first string among ts (MySQL picks by coercibility; the
// columns here share one collation).
func stringAggregate(ts []sql.Type) sql.Type {
	collation := sql.Collation_Default
	length, found := int64(0), false
	for _, t := range ts {
		if st, ok := t.(sql.StringType); ok && !found {
			collation, found = st.Collation(), true
		}
		length = max(length, textLength(t))
	}
	if length > maxVarcharLength {
		return types.CreateLongText(collation)
	}
	return types.MustCreateString(sqltypes.VarChar, length, collation)
}

// textLength is the number of characters of the longest text of a value
// of type t (MySQL's max_length).
func textLength(t sql.Type) int64 {
	switch {
	case isCharacterString(t):
		return t.(sql.StringType).Length()
	case types.IsFloat(t):
		return 23
	case types.IsTime(t):
		if types.IsDateType(t) {
			return 10
		}
		if p := t.(sql.DatetimeType).Precision(); p > 0 {
			return 20 + int64(p)
		}
		return 19
	}
	p, s, _ := exactPrecision(t)
	if s > 0 {
		return int64(p) + 2
	}
	return int64(p) + 1
}

// toAggregate converts the values of child, of type child.Type(), to the
// aggregate type typ of the result they are part of, as MySQL does: a
// value becomes text as the client would see it in its own type (a DATE
// is 2024-01-01, a DECIMAL keeps its scale), and a number becomes the
// aggregate number exactly (DECIMAL scale padded) or as a double.
type toAggregate struct {
	child sql.Expression
	typ   sql.Type
}

var _ sql.Expression = (*toAggregate)(nil)

// newToAggregate is child converted to typ; a literal is converted now.
func newToAggregate(ctx *sql.Context, child sql.Expression, typ sql.Type) sql.Expression {
	if types.TypesEqual(child.Type(), typ) || child.Type() == types.Null {
		return child
	}
	if lit, ok := child.(*expression.Literal); ok {
		if v, err := convertToAggregate(ctx, lit.Value(), lit.Type(), typ); err == nil {
			return expression.NewLiteral(v, typ)
		}
	}
	return &toAggregate{child: child, typ: typ}
}

func (c *toAggregate) Resolved() bool             { return c.child.Resolved() }
func (c *toAggregate) IsNullable() bool           { return c.child.IsNullable() }
func (c *toAggregate) Type() sql.Type             { return c.typ }
func (c *toAggregate) Children() []sql.Expression { return []sql.Expression{c.child} }
func (c *toAggregate) String() string {
	return fmt.Sprintf("convert(%s, %s)", c.child, c.typ)
}

func (c *toAggregate) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	return &toAggregate{child: children[0], typ: c.typ}, nil
}

// CollationCoercibility is the aggregate type's, implicit as a column's.
func (c *toAggregate) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return c.typ.CollationCoercibility(ctx)
}

func (c *toAggregate) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := c.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	return convertToAggregate(ctx, v, c.child.Type(), c.typ)
}

// convertToAggregate converts v of type from to the aggregate type to.
func convertToAggregate(ctx *sql.Context, v any, from, to sql.Type) (any, error) {
	if types.IsTextOnly(to) && isTemporal(from) {
		// GMS's text of a DATETIME(p) drops the fraction's trailing zeros.
		text, err := temporalString(ctx, from, v)
		if err != nil {
			return nil, err
		}
		v = text
	} else if types.IsTextOnly(to) && !types.IsText(from) {
		text, err := from.SQL(ctx, nil, v)
		if err != nil {
			return nil, err
		}
		v = text.ToString()
	}
	out, _, err := to.Convert(ctx, v)
	return out, err
}

// AggregateConversion is the value and the aggregate type of a conversion
// this package put where MySQL converts a value to the type of a result
// it is part of (CASE, COALESCE, UNION), for the backend to translate
// the conversions that change no value: ok is false for other
// expressions.
func AggregateConversion(e sql.Expression) (child sql.Expression, typ sql.Type, ok bool) {
	if c, ok := e.(*toAggregate); ok {
		return c.child, c.typ, true
	}
	return nil, nil, false
}
