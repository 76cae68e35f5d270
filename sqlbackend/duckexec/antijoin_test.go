//go:build duckdb_arrow && cgo

package duckexec

import (
	"sort"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/internal/testkit/gmsplan"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
)

// TestAntiJoinSemantics runs anti joins GMS executes itself (its nested
// loop, existsIter) and translated on DuckDB, over NULLs on either side
// and an empty right side. lakesql's plans never join on a NULL of the
// right side (a NOT IN subquery of a nullable column stays a condition)
// nor send a NULL of the left side up (a condition above guards it), so
// the joins are built by hand.
func TestAntiJoinSemantics(t *testing.T) {
	h, db := semanticsEngines(t, "e", "o")
	e, o := resolved(t, h, "e"), resolved(t, h, "o")
	col := func(n sql.Node, name string, offset int) sql.Expression {
		i := n.Schema().IndexOfColName(name)
		c := n.Schema()[i]
		return expression.NewGetFieldWithTable(offset+i, 0, c.Type, gmsplan.Database, c.Source, c.Name, c.Nullable)
	}
	width := len(e.Schema())
	noRows := plan.NewFilter(expression.NewEquals(col(o, "v", 0), expression.NewLiteral("none", types.Text)), o)
	for name, join := range map[string]*plan.JoinNode{
		"left NULL":               plan.NewAntiJoin(e, o, expression.NewEquals(col(e, "i", 0), col(o, "k", width))),
		"right first":             plan.NewAntiJoin(e, o, expression.NewEquals(col(o, "k", width), col(e, "i", 0))),
		"NULLs on both sides":     plan.NewAntiJoin(e, o, expression.NewEquals(col(e, "d", 0), col(o, "d", width))),
		"empty right":             plan.NewAntiJoin(e, noRows, expression.NewEquals(col(e, "i", 0), col(o, "k", width))),
		"empty right, NULLs both": plan.NewAntiJoin(e, noRows, expression.NewEquals(col(e, "d", 0), col(o, "d", width))),
	} {
		t.Run(name, func(t *testing.T) {
			q, leaves, err := duckplan.Translate(join, gmsplan.IsTableRead)
			if err != nil {
				t.Fatal(err)
			}
			got, err := runDuck(t, h, db, q, leaves, false)
			if err != nil {
				t.Fatalf("DuckDB: %v\n%s", err, q.SQL)
			}
			iter, err := h.Engine.Analyzer.ExecBuilder.Build(h.Ctx, join, nil)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := sql.RowIterToRows(h.Ctx, iter)
			if err != nil {
				t.Fatal(err)
			}
			want := wire(t, h, q.Schema, rows)
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("DuckDB:\n%s\nGMS:\n%s\nSQL: %s", strings.Join(got, "\n"), strings.Join(want, "\n"), q.SQL)
			}
		})
	}
}

func resolved(t *testing.T, h *gmsplan.Harness, name string) *plan.ResolvedTable {
	t.Helper()
	db, err := h.Engine.Analyzer.Catalog.Database(h.Ctx, gmsplan.Database)
	if err != nil {
		t.Fatal(err)
	}
	tbl, _, err := h.Engine.Analyzer.Catalog.Table(h.Ctx, gmsplan.Database, name)
	if err != nil {
		t.Fatal(err)
	}
	return plan.NewResolvedTable(tbl, db, nil)
}
