package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/lakesql/lakesql/storage/scan"
)

// ruleWritesReadAllLevels is the analyzer rule id of readAllLevelsToWrite.
const ruleWritesReadAllLevels analyzer.RuleId = 10_023

// readAllLevelsToWrite makes UPDATE and DELETE read the tables whose batch
// reads skip level 0 (deletion-vector and first-row tables) at every
// level, merged (table.PlanPinnedAllLevels). A writer that leaves level 0
// to a compaction job (a Flink job with write-only = true) commits rows
// such reads do not show yet; an UPDATE computed from the row below them,
// and written with a newer sequence number, would silently overwrite that
// committed change, and the commit's conflict check cannot see it, since
// it was committed before the statement began. SELECT keeps Paimon's
// batch view. It runs in GMS's AlwaysBeforeDefault batch, where the
// statement's tables are resolved.
func readAllLevelsToWrite(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch n.(type) {
		case *plan.Update, *plan.DeleteFrom:
			return transform.Node(n, readsAllLevels)
		}
		return n, transform.SameTree, nil
	})
}

// readsAllLevels flags a resolved lakesql table that hides level 0 to
// read every level.
func readsAllLevels(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	rt, ok := n.(*plan.ResolvedTable)
	if !ok {
		return n, transform.SameTree, nil
	}
	t, ok := rt.Table.(*Table)
	if !ok || t.allLevels || !t.hidesLevel0() {
		return n, transform.SameTree, nil
	}
	flagged := *t
	flagged.allLevels = true
	out, err := rt.WithTable(&flagged)
	return out, transform.NewTree, err
}

// hidesLevel0 reports whether batch reads of t skip level 0.
func (t *Table) hidesLevel0() bool {
	hides, err := scan.HidesLevel0(t.schema)
	return err == nil && hides
}
