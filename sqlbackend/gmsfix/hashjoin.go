package gmsfix

import (
	"fmt"
	"strconv"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// ruleDecimalHashKeys is the analyzer rule id of hashKeysByValue.
const ruleDecimalHashKeys analyzer.RuleId = 10_007

// hashKeysByValue makes the hash table of a hash join key equal values
// alike whatever the types of the two sides. GMS v0.20.0 converts both
// keys to the probe key's type (plan.HashLookup.GetHashKey):
//
//   - a decimal.Decimal holds a *big.Int, so equal decimals are different
//     map keys: a join of 1000 decimal keys found one match (fixed
//     upstream after v0.20.0, go-mysql-server PR 3191);
//   - the conversion rounds to the probe's DECIMAL scale or fails: a key
//     of -20.00 against a DECIMAL(3,2) literal, or of an INT against a
//     BIGINT beyond its range, was "Out of range";
//   - a string longer than the probe's VARCHAR length failed: JOIN … ON
//     a2.day = a1.tag with day VARCHAR(10) and tag VARCHAR(8) gave
//     "string '…' is too large for column 'varchar(8)'", where MySQL
//     compares the strings as they are;
//   - a DATE key against a string one became the string
//     '2024-02-29 00:00:00', which never equals '2024-02-29': LEFT JOIN t
//     a3 ON a3.dt = '2024-02-29' matched one left row only.
//
// Keys of signed integers of different widths hash as BIGINTs, other
// pairs of integers and DECIMALs by the exact value's text, strings of one
// collation by that collation's hash of the text, and dates, datetimes
// and strings compared with them as the DATETIME they are (as GMS's
// comparison converts them), each element of a multi-column key alike.
// The join condition is still evaluated on every match, so the key only
// has to be equal for values that compare equal.
func hashKeysByValue(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		hl, ok := n.(*plan.HashLookup)
		if !ok {
			return n, transform.SameTree, nil
		}
		entry, probe, ok := valueKeys(hl.RightEntryKey, hl.LeftProbeKey)
		if !ok {
			return n, transform.SameTree, nil
		}
		wrapped, err := hl.WithExpressions(entry, probe)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return wrapped, transform.NewTree, nil
	})
}

// valueKeys wraps the keys a and b of a hash join to hash by value, the
// elements of multi-column keys one by one; ok is false when no element
// needs it.
func valueKeys(a, b sql.Expression) (sql.Expression, sql.Expression, bool) {
	ta, tupleA := a.(expression.Tuple)
	tb, tupleB := b.(expression.Tuple)
	if !tupleA || !tupleB || len(ta) != len(tb) {
		return valueKey(a, b)
	}
	outA, outB := make(expression.Tuple, len(ta)), make(expression.Tuple, len(tb))
	wrapped := false
	for i := range ta {
		var ok bool
		outA[i], outB[i], ok = valueKey(ta[i], tb[i])
		wrapped = wrapped || ok
	}
	return outA, outB, wrapped
}

// valueKey wraps one pair of key elements by the class of their types.
func valueKey(a, b sql.Expression) (sql.Expression, sql.Expression, bool) {
	at, bt := a.Type(), b.Type()
	switch {
	case types.IsSigned(at) && types.IsSigned(bt) && !types.TypesEqual(at, bt):
		// Any signed integer converts to BIGINT exactly.
		return &valueHashKey{child: a, kind: signedKey}, &valueHashKey{child: b, kind: signedKey}, true
	case isExact(at) && isExact(bt) && (types.IsDecimal(at) || types.IsDecimal(bt) || !types.TypesEqual(at, bt)):
		return &valueHashKey{child: a}, &valueHashKey{child: b}, true
	case isTemporalOrText(at) && isTemporalOrText(bt) && (types.IsTime(at) || types.IsTime(bt)) && !types.TypesEqual(at, bt):
		return &valueHashKey{child: a, kind: datetimeKey}, &valueHashKey{child: b, kind: datetimeKey}, true
	case types.IsTextOnly(at) && types.IsTextOnly(bt) && !types.TypesEqual(at, bt):
		ca, cb := at.(sql.StringType).Collation(), bt.(sql.StringType).Collation()
		if ca != cb {
			return a, b, false
		}
		return &valueHashKey{child: a, kind: textKey, collation: ca}, &valueHashKey{child: b, kind: textKey, collation: cb}, true
	}
	return a, b, false
}

func isExact(t sql.Type) bool { return types.IsInteger(t) || types.IsDecimal(t) }

func isTemporalOrText(t sql.Type) bool { return types.IsTime(t) || types.IsTextOnly(t) }

// valueHashKey is a hash join key element as a value whose equality is
// the SQL equality of the element: an exact number as its decimal text
// without trailing zeros (a signed integer as a BIGINT), a string as its
// collation's hash.
type valueHashKey struct {
	child     sql.Expression
	kind      keyKind
	collation sql.CollationID
}

type keyKind int

const (
	exactKey keyKind = iota
	signedKey
	textKey
	datetimeKey
)

var _ sql.Expression = (*valueHashKey)(nil)

func (k *valueHashKey) Resolved() bool             { return k.child.Resolved() }
func (k *valueHashKey) IsNullable() bool           { return k.child.IsNullable() }
func (k *valueHashKey) Children() []sql.Expression { return []sql.Expression{k.child} }
func (k *valueHashKey) String() string {
	switch k.kind {
	case signedKey:
		return fmt.Sprintf("bigint_key(%s)", k.child)
	case textKey:
		return fmt.Sprintf("text_key(%s)", k.child)
	case datetimeKey:
		return fmt.Sprintf("datetime_key(%s)", k.child)
	}
	return fmt.Sprintf("decimal_key(%s)", k.child)
}

// Type is what GetHashKey converts the key to: nothing changes the value.
func (k *valueHashKey) Type() sql.Type {
	switch k.kind {
	case signedKey, datetimeKey:
		return types.Int64
	case textKey:
		return types.Uint64
	}
	return types.LongText
}

func (k *valueHashKey) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(k, len(children), 1)
	}
	out := *k
	out.child = children[0]
	return &out, nil
}

func (k *valueHashKey) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := k.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	switch k.kind {
	case signedKey:
		out, _, err := types.Int64.Convert(ctx, v)
		return out, err
	case datetimeKey:
		t, _, err := types.DatetimeMaxPrecision.Convert(ctx, v)
		if err != nil || t == nil {
			// Text that is no datetime equals no DATE or DATETIME.
			return nil, nil
		}
		return t.(time.Time).UnixMicro(), nil
	case textKey:
		s, _, err := types.LongText.Convert(ctx, v)
		if err != nil {
			return nil, err
		}
		str, _, err := sql.Unwrap[string](ctx, s)
		if err != nil {
			return nil, err
		}
		return k.collation.HashToUint(str)
	}
	return exactText(ctx, v)
}

// exactText is an integer or decimal value as decimal text without
// trailing zeros, equal for equal values of any type.
func exactText(ctx *sql.Context, v any) (string, error) {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10), nil
	case uint64:
		return strconv.FormatUint(v, 10), nil
	case decimal.Decimal:
		return v.String(), nil
	}
	d, err := exactValue(ctx, v)
	if err != nil {
		return "", err
	}
	return d.String(), nil
}
