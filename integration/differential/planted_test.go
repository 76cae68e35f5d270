package differential

import (
	"testing"

	"github.com/lakesql/lakesql/internal/randsql"
)

// plantedSeed is the generated case the difference is planted into.
const plantedSeed = 3

// TestPlantedDifferenceIsFoundAndMinimized plants a query whose answer
// differs between lakesql's two modes by construction (it selects the
// session's lakesql_planner_rewrites) into a generated case: the runner
// must report it, the minimizer must shrink the case to the one table
// and the one row the query needs, and the script must replay to the
// same finding. The case keeps only its initial loads (plain INSERTs of
// new rows), so that no finding of lakesql's own stands in the way.
func TestPlantedDifferenceIsFoundAndMinimized(t *testing.T) {
	engines := startEngines(t)
	c := randsql.Generate(plantedSeed)
	c.Writes = c.Writes[:len(c.Tables)]
	c.Queries = []*randsql.Query{{Branches: []*randsql.Select{{
		Items: []randsql.Expr{&randsql.Lit{Text: "@@lakesql_planner_rewrites", T: randsql.Type{Kind: randsql.KindBigInt}}},
		From:  []*randsql.From{{Table: c.Tables[0], Alias: "a1"}},
	}}}}
	f := plantedFinding(t, engines, c.Program(), "planted")
	m := &randsql.Minimizer{Engines: engines, DB: databaseName("planted_min"), MaxDataTrials: *flagTrials}
	small, smallFinding, err := m.Minimize(t.Context(), c, f)
	if err != nil {
		t.Fatal(err)
	}
	if smallFinding.Signature() != f.Signature() {
		t.Errorf("minimized finding %q, want %q", smallFinding.Signature(), f.Signature())
	}
	if len(small.Tables) != 1 || len(small.Writes) != 1 || small.Writes[0].Insert == nil || len(small.Writes[0].Insert.Rows) != 1 {
		t.Errorf("want one table and one INSERT of one row, got:\n%s", randsql.Script(small, smallFinding))
	}
	p, err := randsql.ParseScript(randsql.Script(small, smallFinding))
	if err != nil {
		t.Fatal(err)
	}
	if replayed := plantedFinding(t, engines, p, "planted_replay"); replayed.Signature() != f.Signature() {
		t.Errorf("replayed finding %q, want %q", replayed.Signature(), f.Signature())
	}
}

// plantedFinding runs the program and returns its finding at the planted
// query, which must set lakesql's two modes apart.
func plantedFinding(t *testing.T, e *randsql.Engines, p *randsql.Program, db string) *randsql.Finding {
	t.Helper()
	out, err := e.Run(t.Context(), p, databaseName(db))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range out.Findings {
		for _, d := range f.Diffs {
			if d.A == randsql.SessionLakeSQL && d.B == randsql.SessionRewritesOff && !f.Setup {
				return f
			}
		}
	}
	t.Fatalf("the planted difference was not found; findings: %v", out.Findings)
	return nil
}
