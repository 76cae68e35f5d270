package sqlbackend

import (
	"errors"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/catalog"
)

// Views are stored in the warehouse by the catalog (storage/catalog,
// view.go), so that every server sees them; GMS parses and binds a view's
// query whenever a statement names it, so a view reads its tables at the
// statement's pinned snapshots, like a query that spells it out. GMS's
// privileged-database wrapper also needs these methods for every table
// lookup once users are enabled (go-mysql-server.md §0.4).

// CreateView implements sql.ViewDatabase. CREATE OR REPLACE VIEW replaces
// the view in one change; GMS drops it first, which DropView skips for that
// statement, so that no reader ever finds the view missing.
func (d *Database) CreateView(ctx *sql.Context, name, selectStatement, createViewStmt string) error {
	v := catalog.View{Name: name, Query: selectStatement, CreateStatement: createViewStmt, SQLMode: sqlMode(ctx)}
	err := d.backend.catalog.CreateView(ctx, d.name, v, isCreateOrReplaceView(createViewStmt))
	if errors.Is(err, catalog.ErrViewExists) {
		return sql.ErrExistingView.New(d.name, name)
	}
	return mysqlerr.From(err)
}

// DropView implements sql.ViewDatabase.
func (d *Database) DropView(ctx *sql.Context, name string) error {
	if isCreateOrReplaceView(ctx.Query()) {
		return nil
	}
	err := d.backend.catalog.DropView(ctx, d.name, name, false)
	if errors.Is(err, catalog.ErrViewNotFound) {
		return sql.ErrViewDoesNotExist.New(d.name, name)
	}
	return mysqlerr.From(err)
}

// GetViewDefinition implements sql.ViewDatabase.
func (d *Database) GetViewDefinition(ctx *sql.Context, name string) (sql.ViewDefinition, bool, error) {
	v, ok, err := d.backend.catalog.GetView(ctx, d.name, name)
	if err != nil || !ok {
		return sql.ViewDefinition{}, false, mysqlerr.From(err)
	}
	return viewDefinition(v), true, nil
}

// AllViews implements sql.ViewDatabase.
func (d *Database) AllViews(ctx *sql.Context) ([]sql.ViewDefinition, error) {
	views, err := d.backend.catalog.ListViews(ctx, d.name)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	out := make([]sql.ViewDefinition, len(views))
	for i, v := range views {
		out[i] = viewDefinition(v)
	}
	return out, nil
}

func viewDefinition(v catalog.View) sql.ViewDefinition {
	return sql.ViewDefinition{Name: v.Name, TextDefinition: v.Query, CreateViewStatement: v.CreateStatement, SqlMode: v.SQLMode}
}

func sqlMode(ctx *sql.Context) string {
	mode, _ := stringVar(ctx, "sql_mode")
	return mode
}

// isCreateOrReplaceView reports whether a statement is CREATE OR REPLACE
// VIEW: OR REPLACE follows CREATE directly in MySQL's grammar.
func isCreateOrReplaceView(stmt string) bool {
	words := strings.Fields(strings.ToUpper(rewrite.StatementStart(stmt)))
	return len(words) >= 3 && words[0] == "CREATE" && words[1] == "OR" && words[2] == "REPLACE"
}
