package ddl

import (
	"context"
	"io"
	"strings"
	"testing"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/spec"
)

// This file runs DDL through a real GMS v0.20.0 engine over a database that
// records what the engine hands to the storage layer, so that the tests
// see exactly the schemas, comments and callbacks a lakesql backend gets.

// createCall is one sql.TableCreator.CreateTable call.
type createCall struct {
	name    string
	schema  sql.PrimaryKeySchema
	comment string
	query   string
}

// modifyCall is one sql.AlterableTable.ModifyColumn or AddColumn call.
type modifyCall struct {
	kind   string // "add", "drop" or "modify"
	name   string
	column *sql.Column
	order  *sql.ColumnOrder
}

type recordingDB struct {
	tables  map[string]*recordingTable
	created []createCall
}

func (d *recordingDB) Name() string { return "lake" }

func (d *recordingDB) GetTableInsensitive(_ *sql.Context, name string) (sql.Table, bool, error) {
	t, ok := d.tables[strings.ToLower(name)]
	return t, ok, nil
}

func (d *recordingDB) GetTableNames(*sql.Context) ([]string, error) {
	var names []string
	for _, t := range d.tables {
		names = append(names, t.name)
	}
	return names, nil
}

func (d *recordingDB) CreateTable(ctx *sql.Context, name string, schema sql.PrimaryKeySchema, _ sql.CollationID, comment string) error {
	d.created = append(d.created, createCall{name: name, schema: schema, comment: comment, query: ctx.Query()})
	d.tables[strings.ToLower(name)] = &recordingTable{name: name, schema: schema, comment: comment}
	return nil
}

// recordingTable is a table with no rows that records ALTER callbacks.
type recordingTable struct {
	name    string
	schema  sql.PrimaryKeySchema
	comment string
	calls   []modifyCall
}

func (t *recordingTable) Name() string                           { return t.name }
func (t *recordingTable) String() string                         { return t.name }
func (t *recordingTable) Schema() sql.Schema                     { return t.schema.Schema }
func (t *recordingTable) PrimaryKeySchema() sql.PrimaryKeySchema { return t.schema }
func (t *recordingTable) Collation() sql.CollationID             { return sqltypes.Collation }
func (t *recordingTable) Comment() string                        { return t.comment }

func (t *recordingTable) Partitions(*sql.Context) (sql.PartitionIter, error) {
	return sql.PartitionsToPartitionIter(), nil
}

func (t *recordingTable) PartitionRows(*sql.Context, sql.Partition) (sql.RowIter, error) {
	return sql.RowsToRowIter(), nil
}

func (t *recordingTable) Updater(*sql.Context) sql.RowUpdater { return noRowsUpdater{} }

func (t *recordingTable) AddColumn(_ *sql.Context, c *sql.Column, o *sql.ColumnOrder) error {
	t.calls = append(t.calls, modifyCall{kind: "add", name: c.Name, column: c, order: o})
	return nil
}

func (t *recordingTable) DropColumn(_ *sql.Context, name string) error {
	t.calls = append(t.calls, modifyCall{kind: "drop", name: name})
	return nil
}

func (t *recordingTable) ModifyColumn(_ *sql.Context, name string, c *sql.Column, o *sql.ColumnOrder) error {
	t.calls = append(t.calls, modifyCall{kind: "modify", name: name, column: c, order: o})
	return nil
}

// noRowsUpdater serves the row rewrite GMS runs after ADD COLUMN … NOT
// NULL; the recording tables have no rows to rewrite.
type noRowsUpdater struct{}

func (noRowsUpdater) StatementBegin(*sql.Context)                 {}
func (noRowsUpdater) DiscardChanges(*sql.Context, error) error    { return nil }
func (noRowsUpdater) StatementComplete(*sql.Context) error        { return nil }
func (noRowsUpdater) Update(*sql.Context, sql.Row, sql.Row) error { return nil }
func (noRowsUpdater) Close(*sql.Context) error                    { return nil }

// gms is an engine over one recording database.
type gms struct {
	db     *recordingDB
	engine *sqle.Engine
	pro    *memory.DbProvider
}

func newGMS() *gms {
	db := &recordingDB{tables: map[string]*recordingTable{}}
	pro := memory.NewDBProvider(db)
	a := analyzer.NewBuilder(pro).AddPreAnalyzeRule(analyzer.RuleId(10_000), keepIndexesInDefinition).Build()
	return &gms{db: db, engine: sqle.New(a, &sqle.Config{}), pro: pro}
}

// keepIndexesInDefinition leaves a CREATE TABLE's secondary indexes to the
// table definition (Spec.Indexes), as lakesql's analyzer does: GMS would
// otherwise create them on the table afterwards.
func keepIndexesInDefinition(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	create, ok := n.(*plan.CreateTable)
	if !ok {
		return n, transform.SameTree, nil
	}
	var primary sql.IndexDefs
	for _, def := range create.Indexes() {
		if def.IsPrimary() {
			primary = append(primary, def)
		}
	}
	stripped, err := create.WithIndexDefs(primary)
	return stripped, transform.NewTree, err
}

// exec runs one statement the way the server does, with ctx.Query() set.
func (g *gms) exec(query string) error {
	ctx := sql.NewContext(context.Background(), sql.WithSession(memory.NewSession(sql.NewBaseSession(), g.pro)))
	ctx.SetCurrentDatabase("lake")
	ctx = ctx.WithQuery(query)
	_, iter, _, err := g.engine.Query(ctx, query)
	if err != nil {
		return err
	}
	defer iter.Close(ctx)
	for {
		if _, err := iter.Next(ctx); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// create runs a CREATE TABLE statement and returns the CreateTable call.
func (g *gms) create(t *testing.T, query string) createCall {
	t.Helper()
	before := len(g.db.created)
	if err := g.exec(query); err != nil {
		t.Fatalf("GMS refused %q: %v", query, err)
	}
	if len(g.db.created) != before+1 {
		t.Fatalf("GMS made %d CreateTable calls for %q", len(g.db.created)-before, query)
	}
	return g.db.created[before]
}

// addPaimonTable registers a table whose GMS schema is the one lakesql
// shows for a Paimon schema.
func (g *gms) addPaimonTable(t *testing.T, name string, s *spec.TableSchema) *recordingTable {
	t.Helper()
	schema, err := sqltypes.Schema(name, s.Fields, s.PrimaryKeys)
	if err != nil {
		t.Fatal(err)
	}
	var ordinals []int
	for _, k := range s.PrimaryKeys {
		ordinals = append(ordinals, s.FieldIndex(k))
	}
	table := &recordingTable{name: name, schema: sql.NewPrimaryKeySchema(schema, ordinals...)}
	g.db.tables[strings.ToLower(name)] = table
	return table
}
