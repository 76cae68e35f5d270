package systables

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
)

// ReadOnly, embedded in a system table's sql.Table, makes it refuse every
// write with an error naming it. Without it GMS refuses them itself, with
// "table doesn't support INSERT INTO", which names neither the table nor
// the reason. GMS asks for the editors only when it runs the statement,
// so the refusal comes with the first row written, or when a statement
// that wrote no row (INSERT … SELECT of nothing, DELETE matching nothing)
// completes.
type ReadOnly struct {
	// systemTable and baseTable are qualified names: db.t$kind and db.t.
	systemTable, baseTable string
}

// NewReadOnly is the refusal of writes to base$kind, a table of db.
func NewReadOnly(db, base, kind string) ReadOnly {
	return ReadOnly{systemTable: db + "." + base + "$" + kind, baseTable: db + "." + base}
}

var (
	_ sql.InsertableTable   = (*systemTableView)(nil)
	_ sql.ReplaceableTable  = (*systemTableView)(nil)
	_ sql.UpdatableTable    = (*systemTableView)(nil)
	_ sql.DeletableTable    = (*systemTableView)(nil)
	_ sql.TruncateableTable = (*systemTableView)(nil)
)

func (r ReadOnly) refusal(statement string) error {
	return mysql.NewSQLError(mysqlerr.OpenAsReadOnly, mysql.SSUnknownSQLState,
		"Table '%s' is read only: %s cannot change a system table; write to %s, or use the CALL sys.* procedures",
		r.systemTable, statement, r.baseTable)
}

// Inserter implements sql.InsertableTable.
func (r ReadOnly) Inserter(*sql.Context) sql.RowInserter { return refusingEditor{r.refusal("INSERT")} }

// Replacer implements sql.ReplaceableTable.
func (r ReadOnly) Replacer(*sql.Context) sql.RowReplacer { return refusingEditor{r.refusal("REPLACE")} }

// Updater implements sql.UpdatableTable.
func (r ReadOnly) Updater(*sql.Context) sql.RowUpdater { return refusingEditor{r.refusal("UPDATE")} }

// Deleter implements sql.DeletableTable.
func (r ReadOnly) Deleter(*sql.Context) sql.RowDeleter { return refusingEditor{r.refusal("DELETE")} }

// Truncate implements sql.TruncateableTable.
func (r ReadOnly) Truncate(*sql.Context) (int, error) { return 0, r.refusal("TRUNCATE") }

// refusingEditor fails every edit, and the statement, with err.
type refusingEditor struct{ err error }

func (e refusingEditor) StatementBegin(*sql.Context)                 {}
func (e refusingEditor) DiscardChanges(*sql.Context, error) error    { return nil }
func (e refusingEditor) StatementComplete(*sql.Context) error        { return e.err }
func (e refusingEditor) Insert(*sql.Context, sql.Row) error          { return e.err }
func (e refusingEditor) Update(*sql.Context, sql.Row, sql.Row) error { return e.err }
func (e refusingEditor) Delete(*sql.Context, sql.Row) error          { return e.err }
func (e refusingEditor) Close(*sql.Context) error                    { return nil }
