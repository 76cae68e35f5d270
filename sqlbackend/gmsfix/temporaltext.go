package gmsfix

import (
	"fmt"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleTemporalText is the analyzer rule id of textOfTemporals.
const ruleTemporalText analyzer.RuleId = 10_305

// textOfTemporals gives string functions the text MySQL gives a DATE,
// DATETIME, TIMESTAMP or TIME value: 'YYYY-MM-DD', 'YYYY-MM-DD hh:mm:ss'
// with as many fraction digits as the type's precision, 'hh:mm:ss'.
// GMS v0.20.0 converts a time.Time to text in one layout whatever its
// type (types.ConvertToString: TimestampDatetimeLayout), so
// CONCAT(dt, '|') answered '2024-01-05 00:00:00|' for a DATE,
// LEFT(dt, 7) was right by luck, dt LIKE '2024-01-05' was false and
// LENGTH(dt) 19; a DATETIME(3) lost its trailing zeros, and a TIME failed
// the conversion ("incompatible conversion to SQL type"). The rule wraps
// each temporal operand of a string function, of LIKE and of a CAST to a
// string type in temporalText. GROUP_CONCAT's arguments reach it through
// the CONCAT concatGroupConcatArguments puts around them. It changes
// answers, so it applies with lakesql_planner_rewrites off as well.
func textOfTemporals(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return rewritePlan(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if !readsText(e) {
			return e, transform.SameTree, nil
		}
		children := e.Children()
		wrapped := make([]sql.Expression, len(children))
		changed := false
		for i, c := range children {
			wrapped[i] = c
			if _, done := c.(*temporalText); !done && isTemporal(c.Type()) {
				wrapped[i] = &temporalText{child: c}
				changed = true
			}
		}
		if !changed {
			return e, transform.SameTree, nil
		}
		out, err := e.WithChildren(wrapped...)
		return out, transform.NewTree, err
	})
}

// readsText reports whether e reads its operands as strings.
func readsText(e sql.Expression) bool {
	switch x := e.(type) {
	case *expression.Like:
		return true
	case *expression.Convert:
		return types.IsText(x.Type())
	case sql.FunctionExpression:
		return stringFunctions[strings.ToLower(x.FunctionName())]
	}
	return false
}

// stringFunctions are the functions that take their operands as strings
// (MySQL's string functions section, plus hashes of text), by GMS's
// FunctionName.
var stringFunctions = map[string]bool{
	"concat": true, "concat_ws": true, "length": true, "char_length": true, "character_length": true,
	"octet_length": true, "bit_length": true, "upper": true, "lower": true, "ucase": true, "lcase": true,
	"replace": true, "substring": true, "substr": true, "mid": true, "substring_index": true,
	"left": true, "right": true, "lpad": true, "rpad": true, "trim": true, "ltrim": true, "rtrim": true,
	"instr": true, "locate": true, "position": true, "reverse": true, "repeat": true, "strcmp": true,
	"regexp_like": true, "regexp_replace": true, "regexp_substr": true, "regexp_instr": true,
	"md5": true, "sha1": true, "sha": true, "sha2": true, "crc32": true, "to_base64": true, "hex": true,
	"find_in_set": true, "soundex": true,
}

func isTemporal(t sql.Type) bool { return types.IsTime(t) || types.IsTimespan(t) }

// temporalText is a temporal value as MySQL prints it (see
// textOfTemporals); NULL stays NULL.
type temporalText struct{ child sql.Expression }

func (t *temporalText) Resolved() bool             { return t.child.Resolved() }
func (t *temporalText) IsNullable() bool           { return t.child.IsNullable() }
func (t *temporalText) Type() sql.Type             { return types.LongText }
func (t *temporalText) Children() []sql.Expression { return []sql.Expression{t.child} }
func (t *temporalText) String() string             { return t.child.String() }
func (t *temporalText) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_Default, 4 // a value converted to text (MySQL's coercibility 4)
}

func (t *temporalText) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(t, len(children), 1)
	}
	return &temporalText{child: children[0]}, nil
}

func (t *temporalText) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := t.child.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	return temporalString(ctx, t.child.Type(), v)
}

// temporalString prints v, a value of the temporal type typ, as MySQL.
func temporalString(ctx *sql.Context, typ sql.Type, v any) (any, error) {
	if types.IsTimespan(typ) {
		span, err := types.Time.ConvertToTimespan(v)
		if err != nil {
			return nil, err
		}
		return span.String(), nil
	}
	ts, ok := v.(time.Time)
	if !ok {
		return v, nil
	}
	if types.IsDateType(typ) {
		return ts.Format("2006-01-02"), nil
	}
	return ts.Format("2006-01-02 15:04:05") + fraction(ts, datetimePrecision(typ)), nil
}

func datetimePrecision(typ sql.Type) int {
	if d, ok := typ.(sql.DatetimeType); ok {
		return d.Precision()
	}
	return 0
}

// fraction is the ".fff" of ts with digits digits, "" for none.
func fraction(ts time.Time, digits int) string {
	if digits <= 0 {
		return ""
	}
	return fmt.Sprintf(".%09d", ts.Nanosecond())[:digits+1]
}
