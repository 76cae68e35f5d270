package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/lakesql/lakesql/planner/ddl"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/catalog"
)

// alterProcedure applies the table-level clauses of the session's last
// ALTER TABLE. GMS v0.20.0 parses `ALTER TABLE t COMMENT '…'` and then does
// nothing at all (no table method is called), so the parser turns such a
// statement into a CALL of this procedure.
const alterProcedure = "lakesql_alter_table"

// pendingAlter is an ALTER TABLE's table-level change, parsed and waiting
// for its CALL.
type pendingAlter struct {
	db, table string
	changes   []catalog.SchemaChange
}

// rewriteAlter recognises ALTER TABLE statements with table-level clauses
// (COMMENT with Paimon options, ENGINE) and returns the CALL that applies
// them. Statements without such clauses are left to GMS.
func (s *Session) rewriteAlter(ctx *sql.Context, query string) (string, bool, error) {
	if !startsWithFold(query, "ALTER") {
		return query, false, nil
	}
	stmt, err := ast.Parse(query)
	if err != nil {
		return query, false, nil // GMS reports the syntax error itself
	}
	alter, ok := stmt.(*ast.AlterTable)
	if !ok {
		return query, false, nil
	}
	db := alter.Table.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	name := alter.Table.Name.String()
	t, err := s.backend.OpenTable(ctx, db, name)
	if err != nil {
		return query, false, nil // GMS reports the missing table itself
	}
	schema, err := t.LatestSchema(ctx)
	if err != nil {
		return "", false, mysqlerr.From(err)
	}
	changes, err := ddl.AlterChanges(query, schema)
	if err != nil {
		return "", false, mysqlerr.From(err)
	}
	if len(changes) == 0 {
		return query, false, nil
	}
	if hasColumnClauses(alter) {
		return "", false, unsupportedf("ALTER TABLE %s: table options (COMMENT, ENGINE) cannot be combined with column or index changes in one statement; run them as two statements", name)
	}
	s.setPendingAlter(&pendingAlter{db: db, table: name, changes: changes})
	return "CALL " + SysDatabase + "." + alterProcedure + "()", true, nil
}

func hasColumnClauses(alter *ast.AlterTable) bool {
	for _, d := range alter.Statements {
		if d.ColumnAction != "" || d.IndexSpec != nil || d.ConstraintAction != "" || d.Action == ast.RenameStr {
			return true
		}
	}
	return false
}

func startsWithFold(s, prefix string) bool {
	s = strings.TrimLeft(s, " \t\r\n(")
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func (s *Session) setPendingAlter(a *pendingAlter) {
	s.overwriteMu.Lock()
	s.alter = a
	s.overwriteMu.Unlock()
}

func (s *Session) takePendingAlter() *pendingAlter {
	s.overwriteMu.Lock()
	defer s.overwriteMu.Unlock()
	a := s.alter
	s.alter = nil
	return a
}

// builtinProcedures are the procedures the backend itself needs.
func builtinProcedures() *sql.ExternalStoredProcedureRegistry {
	r := sql.NewExternalStoredProcedureRegistry()
	// AdminOnly: the CALL stands in for an ALTER, so a user needs an explicit
	// EXECUTE grant on it, never just a grant on the database.
	r.Register(sql.ExternalStoredProcedureDetails{
		Name: alterProcedure,
		Schema: sql.Schema{
			{Name: "table", Type: types.LongText},
			{Name: "schema_id", Type: types.Int64},
		},
		Function:  applyPendingAlter,
		AdminOnly: true,
	})
	return &r
}

// applyPendingAlter writes schema-N+1 with the session's pending ALTER.
func applyPendingAlter(ctx *sql.Context) (sql.RowIter, error) {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return nil, unsupportedf("%s needs a lakesql session", alterProcedure)
	}
	a := s.takePendingAlter()
	if a == nil {
		return nil, unsupportedf("%s applies the table options of an ALTER TABLE statement; it is not called directly", alterProcedure)
	}
	schema, err := s.backend.catalog.AlterTable(ctx, a.db, a.table, a.changes...)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	return sql.RowsToRowIter(sql.Row{a.db + "." + a.table, schema.ID}), nil
}
