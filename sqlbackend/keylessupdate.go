package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/lakesql/lakesql/sqlbackend/gmsfix"
)

// UPDATE of an append table whose WHERE has an EXISTS or IN subquery.
//
// GMS unnests such a subquery into a join, and then updates through an
// UpdateJoin, which updates each row of the target once by remembering
// the rows it updated (analyzer/assign_update_join.go). Rows of a table
// without a primary key are not unique, so GMS refuses the statement for
// them ("keyless tables unsupported for UPDATE JOIN"). A single-table
// UPDATE has no join of its own: the planner refuses UPDATE t JOIN u on
// a keyless t, so the join comes from the subquery, a semi- or anti-join
// that yields each row of the target at most once, with only its
// columns. sourceKeylessUpdate puts the update's source under a
// keylessRows node, which GMS's UpdateJoin rule passes by and through
// which the UPDATE finds the table it writes: each row the source yields
// is updated, equal rows included, as MySQL does.

// ruleKeylessUpdate is the analyzer rule id of sourceKeylessUpdate.
const ruleKeylessUpdate analyzer.RuleId = 10_022

// keylessUpdateRule runs right before GMS's modifyUpdateExprsForJoin.
func keylessUpdateRule(build sql.NodeExecBuilder) analyzer.Rule {
	return analyzer.Rule{Id: ruleKeylessUpdate, Apply: func(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		return sourceKeylessUpdate(n, build)
	}}
}

func sourceKeylessUpdate(n sql.Node, build sql.NodeExecBuilder) (sql.Node, transform.TreeIdentity, error) {
	u, ok := n.(*plan.Update)
	if !ok {
		return n, transform.SameTree, nil
	}
	us, ok := u.Child.(*plan.UpdateSource)
	if !ok || !hasJoin(us.Child) {
		return n, transform.SameTree, nil
	}
	if u.IsJoin {
		return n, transform.SameTree, nil
	}
	target, rows, ok := updatedAppendTable(us)
	if !ok {
		return n, transform.SameTree, nil
	}
	source, err := us.WithChildren(rows)
	if err != nil {
		return nil, transform.SameTree, err
	}
	updated, err := u.WithChildren(&keylessRows{source: source.(*plan.UpdateSource), table: target, build: build})
	if err != nil {
		return nil, transform.SameTree, err
	}
	return updated, transform.NewTree, nil
}

func hasJoin(n sql.Node) bool {
	found := false
	transform.Inspect(n, func(n sql.Node) bool {
		if _, ok := n.(*plan.JoinNode); ok {
			found = true
		}
		return !found
	})
	return found
}

// updatedAppendTable returns the table us sets columns of when it is one
// append table, with us's child reduced to the table's columns, which a
// join with the subquery's rows may add to.
func updatedAppendTable(us *plan.UpdateSource) (*Table, sql.Node, bool) {
	name := ""
	for _, e := range us.UpdateExprs {
		set, ok := e.(*expression.SetField)
		if !ok {
			return nil, nil, false
		}
		gf, ok := set.LeftChild.(*expression.GetField)
		if !ok || name != "" && !strings.EqualFold(gf.Table(), name) {
			return nil, nil, false
		}
		name = gf.Table()
	}
	reads, t := tableNamed(us.Child, name)
	if t == nil || len(t.schema.PrimaryKeys) > 0 {
		return nil, nil, false
	}
	rows, ok := tableColumns(us.Child, reads, name, t)
	return t, rows, ok
}

// tableColumns is n reduced to the columns of table t, which its node
// reads reads under name, in t's order.
func tableColumns(n, reads sql.Node, name string, t *Table) (sql.Node, bool) {
	columns := n.Schema()
	if len(columns) == len(t.schema.Fields) {
		return n, columnsOfTable(columns, name, t)
	}
	fields, ok := gmsfix.OutputFields(reads)
	if !ok {
		return nil, false
	}
	return plan.NewProject(fields, n), columnsOfTable(reads.Schema(), name, t)
}

func columnsOfTable(columns sql.Schema, name string, t *Table) bool {
	if len(columns) != len(t.schema.Fields) {
		return false
	}
	for i, c := range columns {
		if !strings.EqualFold(c.Source, name) || !strings.EqualFold(c.Name, t.schema.Fields[i].Name) {
			return false
		}
	}
	return true
}

// tableNamed finds the node that reads a lakesql table under name (its
// own or an alias) in n, and the table.
func tableNamed(n sql.Node, name string) (sql.Node, *Table) {
	var reads sql.Node
	var found *Table
	transform.Inspect(n, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.TableAlias:
			if strings.EqualFold(n.Name(), name) {
				reads, found = n, lakesqlTableOf(n.Child)
			}
			return false
		case *plan.ResolvedTable:
			if strings.EqualFold(n.Name(), name) {
				reads, found = n, lakesqlTableOf(n)
			}
		}
		return found == nil
	})
	return reads, found
}

func lakesqlTableOf(n sql.Node) *Table {
	var t *Table
	transform.Inspect(n, func(n sql.Node) bool {
		if rt, ok := n.(*plan.ResolvedTable); ok {
			t, _ = rt.UnderlyingTable().(*Table)
		}
		return t == nil
	})
	return t
}

// keylessRows is the source of an UPDATE of an append table, whose rows
// a join of a subquery selects; the UPDATE finds the table it writes
// through it (sql.TableWrapper).
type keylessRows struct {
	source *plan.UpdateSource
	table  *Table
	build  sql.NodeExecBuilder
}

var (
	_ sql.Node          = (*keylessRows)(nil)
	_ sql.ExecSourceRel = (*keylessRows)(nil)
	_ sql.TableWrapper  = (*keylessRows)(nil)
)

func (n *keylessRows) Resolved() bool        { return n.source.Resolved() }
func (n *keylessRows) Schema() sql.Schema    { return n.source.Schema() }
func (n *keylessRows) Children() []sql.Node  { return []sql.Node{n.source} }
func (n *keylessRows) IsReadOnly() bool      { return false }
func (n *keylessRows) String() string        { return n.source.String() }
func (n *keylessRows) Underlying() sql.Table { return n.table }

func (n *keylessRows) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 1)
	}
	source, ok := children[0].(*plan.UpdateSource)
	if !ok {
		return nil, fmt.Errorf("the source of an UPDATE of append table %s became a %T", n.table.name, children[0])
	}
	return &keylessRows{source: source, table: n.table, build: n.build}, nil
}

// RowIter implements sql.ExecSourceRel.
func (n *keylessRows) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	return n.build.Build(ctx, n.source, row)
}
