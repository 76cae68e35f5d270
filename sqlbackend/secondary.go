package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/planner/ddl"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/spec"
)

// ruleIndexDDL is the analyzer rule id of planIndexDDL.
const ruleIndexDDL analyzer.RuleId = 10_009

// planIndexDDL takes secondary-index DDL out of GMS's hands, before
// anything of the statement runs: lakesql's indexes are Paimon file
// indexes, table options (planner/ddl fileindex.go), which GMS's index
// machinery knows nothing of.
//
//   - CREATE TABLE: the indexes are checked here and declared in the new
//     table's own schema (Database.CreateTable reads them from the
//     statement, with the USING GMS drops); GMS is left none to create,
//     since it creates indexes after the table (rowexec buildCreateTable)
//     and an error there would leave the table created. CHECK
//     constraints, which Paimon lacks, are refused.
//   - CREATE INDEX, DROP INDEX and ALTER TABLE index clauses on a lakesql
//     table become one alterFileIndexes node: GMS would validate DROP and
//     RENAME against GetIndexes, which lists PRIMARY only (index.go), and
//     route USING BITMAP to its index-driver machinery.
func planIndexDDL(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	switch x := n.(type) {
	case *plan.CreateTable:
		return createTableIndexes(ctx, x)
	case *plan.AlterIndex, *plan.CreateIndex:
		return alterIndexes(n, []sql.Node{n})
	case *plan.Block:
		return alterIndexes(n, x.Children())
	}
	return n, transform.SameTree, nil
}

func createTableIndexes(ctx *sql.Context, n *plan.CreateTable) (sql.Node, transform.TreeIdentity, error) {
	if len(n.Checks()) > 0 {
		return nil, transform.SameTree, unsupportedf("CHECK constraints are not supported yet: Paimon tables have none (table %s)", n.Name())
	}
	var primary sql.IndexDefs
	for _, def := range n.Indexes() {
		if def.IsPrimary() {
			primary = append(primary, def)
			continue
		}
		// Also the column-level UNIQUE, which the statement's own
		// index clauses (ddl.Spec.Indexes) do not list.
		shape := ddl.IndexDef{Name: def.Name, Columns: def.Columns, Constraint: def.Constraint}
		if err := ddl.CheckIndexShape(shape); err != nil {
			return nil, transform.SameTree, mysqlerr.From(fmt.Errorf("index %s on %s: %w", indexLabel(def.Name, def.ColumnNames()), n.Name(), err))
		}
	}
	if len(primary) == len(n.Indexes()) {
		return n, transform.SameTree, nil
	}
	if err := checkTableDefinition(ctx, n); err != nil {
		return nil, transform.SameTree, err
	}
	stripped, err := n.WithIndexDefs(primary)
	return stripped, transform.NewTree, err
}

// checkTableDefinition builds the definition Database.CreateTable will
// build, for its index errors to fail the statement before it runs.
func checkTableDefinition(ctx *sql.Context, n *plan.CreateTable) error {
	stmt, err := ddl.ParseCreateTable(ctx.Query())
	if err != nil || stmt.Like != nil {
		return mysqlerr.From(err)
	}
	comment, _ := n.TableOpts["comment"].(string)
	_, err = ddl.Definition(n.PkSchema(), stmt, comment)
	return mysqlerr.From(err)
}

// alterIndexes replaces the index clauses of one statement (its nodes,
// one per clause) on a lakesql table with one alterFileIndexes, which
// applies them in one schema change. Clauses on other tables, and DISABLE
// / ENABLE KEYS, stay GMS's. Index clauses are not combined with other
// clauses, which GMS would apply one schema change at a time: an index
// error after them would leave them applied.
func alterIndexes(n sql.Node, clauses []sql.Node) (sql.Node, transform.TreeIdentity, error) {
	var alter *alterFileIndexes
	others := 0
	for _, c := range clauses {
		t, change, ok := indexClause(c)
		switch {
		case !ok:
			others++
		case alter == nil:
			alter = &alterFileIndexes{table: t, changes: []ddl.IndexChange{change}}
		case alter.table.db.name != t.db.name || alter.table.name != t.name:
			return nil, transform.SameTree, unsupportedf("index clauses on two tables in one statement")
		default:
			alter.changes = append(alter.changes, change)
		}
	}
	switch {
	case alter == nil:
		return n, transform.SameTree, nil
	case others > 0:
		return nil, transform.SameTree, unsupportedf("ALTER TABLE %s: index changes cannot be combined with other changes "+
			"in one statement; run them as separate statements", alter.table.name)
	}
	return alter, transform.NewTree, nil
}

// indexClause reads one clause node as an index change of a lakesql table.
func indexClause(n sql.Node) (*Table, ddl.IndexChange, bool) {
	switch x := n.(type) {
	case *plan.AlterIndex:
		t, ok := lakeTable(x.Table)
		switch {
		case !ok:
		case x.Action == plan.IndexAction_Create:
			// USING BTREE and HASH: CreateIndex below has any other type.
			def := &ddl.IndexDef{Name: x.IndexName, Columns: x.Columns, Constraint: x.Constraint}
			return t, ddl.IndexChange{Add: def}, true
		case x.Action == plan.IndexAction_Drop:
			return t, ddl.IndexChange{Drop: x.IndexName}, true
		case x.Action == plan.IndexAction_Rename:
			return t, ddl.IndexChange{From: x.PreviousIndexName, To: x.IndexName}, true
		}
	case *plan.CreateIndex:
		if t, ok := lakeTable(x.Table); ok {
			return t, ddl.IndexChange{Add: &ddl.IndexDef{Name: x.Name, Columns: indexColumns(x.Exprs), Using: x.Driver}}, true
		}
	}
	return nil, ddl.IndexChange{}, false
}

func lakeTable(n sql.Node) (*Table, bool) {
	rt, ok := n.(*plan.ResolvedTable)
	if !ok {
		return nil, false
	}
	t, ok := rt.Table.(*Table)
	return t, ok
}

// indexColumns names the columns of a CreateIndex (USING with a type GMS
// does not know), which GMS resolved to fields.
func indexColumns(exprs []sql.Expression) []sql.IndexColumn {
	out := make([]sql.IndexColumn, len(exprs))
	for i, e := range exprs {
		out[i].Name = e.String()
		if f, ok := e.(*expression.GetField); ok {
			out[i].Name = f.Name()
		}
	}
	return out
}

// alterFileIndexes applies a statement's index clauses to a lakesql
// table: one schema change of its file-index options, derived from the
// latest schema (it may have changed since the statement was planned).
type alterFileIndexes struct {
	table   *Table
	changes []ddl.IndexChange
}

var _ sql.ExecSourceRel = (*alterFileIndexes)(nil)

func (a *alterFileIndexes) Resolved() bool       { return true }
func (a *alterFileIndexes) IsReadOnly() bool     { return false }
func (a *alterFileIndexes) Schema() sql.Schema   { return types.OkResultSchema }
func (a *alterFileIndexes) Children() []sql.Node { return nil }

func (a *alterFileIndexes) String() string {
	return fmt.Sprintf("AlterFileIndexes(%s.%s)", a.table.db.name, a.table.name)
}

func (a *alterFileIndexes) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(a, len(children), 0)
	}
	return a, nil
}

func (a *alterFileIndexes) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	derive := catalog.Derived(func(s *spec.TableSchema) ([]catalog.SchemaChange, error) {
		return ddl.IndexChanges(s, a.changes)
	})
	if err := a.table.alter(ctx, derive); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// errSecondaryIndex is MySQL's 1235 (ER_NOT_SUPPORTED_YET) for index DDL
// that reached a table method planIndexDDL should have taken over.
func errSecondaryIndex(table, name string, columns []string) error {
	return unsupportedf("index %s on %s: secondary indexes are declared by CREATE TABLE, CREATE INDEX and ALTER TABLE "+
		"statements of their own", indexLabel(name, columns), table)
}

func indexLabel(name string, columns []string) string {
	index := fmt.Sprintf("(%s)", strings.Join(columns, ", "))
	if name != "" {
		index = name + " " + index
	}
	return index
}
