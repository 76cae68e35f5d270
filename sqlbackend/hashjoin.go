package sqlbackend

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// ruleDecimalHashKeys is the analyzer rule id of hashDecimalKeysByValue.
const ruleDecimalHashKeys analyzer.RuleId = 10_007

// hashDecimalKeysByValue makes a hash join on one DECIMAL key find its
// matches. GMS v0.20.0 keys the hash table of a single-column join by the
// key value itself (plan.HashLookup.GetHashKey), and a decimal.Decimal
// holds a *big.Int, so equal decimals are different map keys: a join of
// 1000 decimal keys found one match. Both keys are wrapped to hash by the
// decimal's text instead; fixed upstream after v0.20.0 (go-mysql-server
// PR 3191). Multi-column keys hash their text already (sql.HashOf).
func hashDecimalKeysByValue(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		hl, ok := n.(*plan.HashLookup)
		if !ok {
			return n, transform.SameTree, nil
		}
		// GetHashKey converts both keys to the probe key's type.
		typ, ok := hl.LeftProbeKey.Type().(sql.DecimalType)
		if !ok {
			return n, transform.SameTree, nil
		}
		wrapped, err := hl.WithExpressions(&decimalHashKey{child: hl.RightEntryKey, typ: typ}, &decimalHashKey{child: hl.LeftProbeKey, typ: typ})
		if err != nil {
			return nil, transform.SameTree, err
		}
		return wrapped, transform.NewTree, nil
	})
}

// decimalHashKey is a hash join key of DECIMAL type as text: the key
// converted to the probe key's DECIMAL type, printed without trailing
// zeros, so that equal values give equal text whatever their scale.
type decimalHashKey struct {
	child sql.Expression
	typ   sql.DecimalType
}

var _ sql.Expression = (*decimalHashKey)(nil)

func (k *decimalHashKey) Resolved() bool             { return k.child.Resolved() }
func (k *decimalHashKey) IsNullable() bool           { return k.child.IsNullable() }
func (k *decimalHashKey) Type() sql.Type             { return types.LongText }
func (k *decimalHashKey) Children() []sql.Expression { return []sql.Expression{k.child} }
func (k *decimalHashKey) String() string             { return fmt.Sprintf("decimal_key(%s)", k.child) }

func (k *decimalHashKey) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(k, len(children), 1)
	}
	return &decimalHashKey{child: children[0], typ: k.typ}, nil
}

func (k *decimalHashKey) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := k.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	v, _, err = k.typ.Convert(ctx, v)
	if err != nil {
		return nil, err
	}
	d, ok := v.(decimal.Decimal)
	if !ok {
		return nil, fmt.Errorf("hash join key %s: %T is not a decimal", k.child, v)
	}
	return d.String(), nil
}
