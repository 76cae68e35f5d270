package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/planner/ddl"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
)

// ruleShowCreateTable is the analyzer rule id of replaceShowCreateTable.
const ruleShowCreateTable analyzer.RuleId = 10_002

// replaceShowCreateTable answers SHOW CREATE TABLE for lakesql tables with
// DDL that recreates the same Paimon table (planner/ddl.ShowCreateTable):
// GMS's own rendering knows nothing of partition keys, buckets or options
// and always prints ENGINE=InnoDB.
func replaceShowCreateTable(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		show, ok := n.(*plan.ShowCreateTable)
		if !ok || show.IsView {
			return n, transform.SameTree, nil
		}
		rt, ok := show.Child.(*plan.ResolvedTable)
		if !ok {
			return n, transform.SameTree, nil
		}
		t, ok := rt.Table.(*Table)
		if !ok {
			return n, transform.SameTree, nil
		}
		return &showCreateTable{table: t}, transform.NewTree, nil
	})
}

// showCreateTable is the SHOW CREATE TABLE of one lakesql table.
type showCreateTable struct{ table *Table }

var _ sql.ExecSourceRel = (*showCreateTable)(nil)

func (s *showCreateTable) Resolved() bool   { return true }
func (s *showCreateTable) IsReadOnly() bool { return true }
func (s *showCreateTable) String() string   { return "ShowCreateTable(" + s.table.name + ")" }

func (s *showCreateTable) Schema() sql.Schema {
	return sql.Schema{
		{Name: "Table", Type: types.LongText},
		{Name: "Create Table", Type: types.LongText},
	}
}

func (s *showCreateTable) Children() []sql.Node { return nil }

func (s *showCreateTable) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 0)
	}
	return s, nil
}

func (s *showCreateTable) RowIter(*sql.Context, sql.Row) (sql.RowIter, error) {
	text, err := ddl.ShowCreateTable(s.table.name, s.table.schema)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	return sql.RowsToRowIter(sql.Row{s.table.name, text}), nil
}
