package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// RoutinesOnlyWhereRead makes GMS's assignRoutines run only on plans that
// read a table taking the stored procedures (analyzer.RoutineTable:
// information_schema's ROUTINES and PARAMETERS). The rule lists every
// database for every table a statement reads, a listing of the warehouse
// per point select, and gives the listing to routine tables alone: on any
// other plan it changes nothing.
func RoutinesOnlyWhereRead(a *analyzer.Analyzer) {
	for _, b := range a.Batches {
		for i, r := range b.Rules {
			if r.Id.String() != "assignRoutines" {
				continue
			}
			assign := r.Apply
			b.Rules[i].Apply = func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
				if !readsRoutineTable(n) {
					return n, transform.SameTree, nil
				}
				return assign(ctx, a, n, scope, sel, qf)
			}
			return
		}
	}
	panic("go-mysql-server has no rule assignRoutines")
}

// readsRoutineTable reports whether a node of n, as assignRoutines walks
// it (child nodes, not expressions), is a resolved routine table.
func readsRoutineTable(n sql.Node) bool {
	found := false
	transform.Inspect(n, func(n sql.Node) bool {
		if rt, ok := n.(*plan.ResolvedTable); ok {
			_, found = rt.Table.(analyzer.RoutineTable)
		}
		return !found
	})
	return found
}
