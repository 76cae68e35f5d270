package gmsfix

import (
	"fmt"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// uncorrelatedExists is [NOT] EXISTS of an uncorrelated subquery as a
// condition evaluated once per statement, as MySQL evaluates it, instead
// of the join GMS v0.20.0 unnests it into (analyzer/unnest_exists_subqueries.go:
// a cross join with LIMIT 1 of the subquery, or an anti join on TRUE). Those
// joins broke its join planner when other subqueries were unnested beside
// them: an anti join over the cross join of a subquery reading no column
// failed with "unknown type for rel output cols: *memo.TableAlias"
// (memo/rel_props.go outputColsForRel, from convertAntiToLeftJoin in
// analyzer/indexed_joins.go), and a semi join over one of a projected table
// alias panicked with an index out of range (convertSemiToInnerJoin reads
// the alias's projected schema by the table's column ordinals).
func uncorrelatedExists(sq *plan.Subquery, negated bool) sql.Expression {
	e := sql.Expression(&existsOnce{sq: sq})
	if negated {
		e = expression.NewNot(e)
	}
	return e
}

// existsOnce is EXISTS of an uncorrelated subquery, which it runs at its
// first evaluation in a statement; Dispose forgets the answer when the
// statement ends.
type existsOnce struct {
	sq *plan.Subquery

	mu     sync.Mutex
	known  bool
	exists bool
}

var (
	_ sql.Expression = (*existsOnce)(nil)
	_ sql.Disposable = (*existsOnce)(nil)
)

func (e *existsOnce) Resolved() bool             { return e.sq.Resolved() }
func (e *existsOnce) IsNullable() bool           { return false }
func (e *existsOnce) Type() sql.Type             { return types.Boolean }
func (e *existsOnce) Children() []sql.Expression { return []sql.Expression{e.sq} }
func (e *existsOnce) String() string             { return fmt.Sprintf("EXISTS %s", e.sq) }

func (e *existsOnce) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(e, len(children), 1)
	}
	sq, ok := children[0].(*plan.Subquery)
	if !ok {
		return nil, fmt.Errorf("EXISTS of %T, not a subquery", children[0])
	}
	return &existsOnce{sq: sq}, nil
}

func (e *existsOnce) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.known {
		exists, err := e.sq.HasResultRow(ctx, row)
		if err != nil {
			return nil, err
		}
		e.exists, e.known = exists, true
	}
	return e.exists, nil
}

func (e *existsOnce) Dispose() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.known = false
}
