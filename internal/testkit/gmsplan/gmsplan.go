// Package gmsplan runs SQL through go-mysql-server over its in-memory
// tables with lakesql's corrections of GMS (package gmsfix) installed, so
// that tests of plan-level code (the DuckDB plan translator) see the plans
// lakesql's engine builds, over tables they fill with edge values.
package gmsplan

import (
	"context"
	"testing"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"

	"github.com/lakesql/lakesql/sqlbackend/gmsfix"
)

// Database is the name of the harness's database.
const Database = "db"

// Harness is an engine over one in-memory database and a session in it.
type Harness struct {
	Engine *sqle.Engine
	Ctx    *sql.Context
}

// New returns a harness whose analyzer carries gmsfix's corrections as
// lakesql's engine places them, with the planner rewrites on; the rules
// of lakesql's backend (pushdown into Paimon scans, storage aggregates)
// are not there, since memory tables take none of them.
func New(t testing.TB) *Harness {
	t.Helper()
	db := memory.NewDatabase(Database)
	// Primary keys are indexes, so that GMS plans lookup and merge joins.
	db.EnablePrimaryKeyIndexes()
	pro := memory.NewDBProvider(db)
	gmsfix.RegisterTypeRules()
	a := newAnalyzer(pro)
	e := sqle.New(a, &sqle.Config{})
	e.Parser = gmsfix.Parser(sql.GlobalParser)
	ctx := sql.NewContext(context.Background(), sql.WithSession(memory.NewSession(sql.NewBaseSession(), pro)))
	ctx.SetCurrentDatabase(Database)
	return &Harness{Engine: e, Ctx: ctx}
}

func newAnalyzer(pro sql.DatabaseProvider) *analyzer.Analyzer {
	on := func(*sql.Context) bool { return true }
	b := analyzer.NewBuilder(pro)
	b.AddPreAnalyzeRule(gmsfix.WindowOuterColumns.Id, gmsfix.WindowOuterColumns.Apply)
	for _, r := range []analyzer.Rule{
		gmsfix.TemporalLiterals(on),
		gmsfix.HashDistinct,
		gmsfix.ExactSums,
		gmsfix.WindowAvgs,
		gmsfix.DerivedTypes,
		gmsfix.DecimalHashKeys,
		gmsfix.ExplainRows,
	} {
		b.AddPostAnalyzeRule(r.Id, r.Apply)
	}
	a := b.Build()
	gmsfix.InsertRules(a, "optimizeJoins", false, gmsfix.ConnectCrossJoins(on), gmsfix.PushJoinConditions)
	gmsfix.InsertSubqueryRules(a)
	a.Coster = gmsfix.RebuildCoster(a.Coster, on)
	a.ExecBuilder = gmsfix.ExecBuilder()
	return a
}

// Exec runs statements, failing the test on an error.
func (h *Harness) Exec(t testing.TB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := h.Query(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// Query runs a statement and returns its rows.
func (h *Harness) Query(query string) ([]sql.Row, error) {
	_, iter, _, err := h.Engine.Query(h.Ctx, query)
	if err != nil {
		return nil, err
	}
	return sql.RowIterToRows(h.Ctx, iter)
}

// Plan is the plan GMS executes for query: analyzed in full, with
// execution indexes assigned and tables wrapped for process tracking.
func (h *Harness) Plan(query string) (sql.Node, error) {
	return h.Engine.AnalyzeQuery(h.Ctx, query)
}

// IsTableRead reports whether n reads a memory table: a ResolvedTable or
// an IndexedTableAccess over one, as it is or wrapped for process
// tracking, other than the dual table of a SELECT without FROM. It is the
// isLeaf of the translator's tests.
func IsTableRead(n sql.Node) bool {
	switch n := n.(type) {
	case *plan.ResolvedTable:
		return isMemoryTable(n.Table) && !plan.IsDualTable(n.Table)
	case *plan.IndexedTableAccess:
		return isMemoryTable(n.UnderlyingTable())
	}
	return false
}

func isMemoryTable(t sql.Table) bool {
	for {
		switch w := t.(type) {
		case *memory.Table:
			return true
		case *memory.IndexedTable:
			t = w.Table
		case *plan.ProcessTable:
			t = w.Underlying()
		case *plan.ProcessIndexableTable:
			t = w.Underlying()
		default:
			return false
		}
	}
}
