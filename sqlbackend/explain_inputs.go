package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// ruleExplainInputs is the analyzer rule id of explainInputRows.
const ruleExplainInputs analyzer.RuleId = 10_013

// explainInputRows makes EXPLAIN show, under each lakesql table a plan
// reads, the rows the join planner took it for: the rows its filter is
// estimated to keep (estimateFilteredRows), else the rows of its pinned
// snapshot. With the join algorithm and order the plan tree already shows,
// that is what explains a join plan. It runs last, on the plan EXPLAIN
// prints and nothing executes; EXPLAIN ANALYZE, which runs the plan, and
// DESCRIBE of a table, which is no plan, are left alone.
func explainInputRows(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !rewrite.IsExplain(ctx.Query()) || rewrite.IsExplainAnalyze(ctx.Query()) {
		return n, transform.SameTree, nil
	}
	if _, describesTable := n.(*plan.ShowColumns); describesTable {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if changes, ok := incrementalRead(n); ok {
			return &explainedScan{Node: n, detail: changesText(changes)}, transform.NewTree, nil
		}
		t, ok := scannedTable(n)
		if !ok {
			return n, transform.SameTree, nil
		}
		rows, err := t.plannedRows(ctx)
		if err != nil {
			return n, transform.SameTree, nil
		}
		return &explainedScan{Node: n, detail: fmt.Sprintf("estimated rows: %d", rows)}, transform.NewTree, nil
	})
}

// incrementalRead is the snapshot range of an incremental read
// (`t$audit_log FOR VERSION BETWEEN …`) a plan node scans: GMS prints the
// table's name only.
func incrementalRead(n sql.Node) (*snapshot.Between, bool) {
	t, ok := n.(*plan.ResolvedTable)
	if !ok {
		return nil, false
	}
	v, ok := t.UnderlyingTable().(*dataSystemView)
	if !ok || v.changes == nil {
		return nil, false
	}
	return v.changes, true
}

// scannedTable is the lakesql table a plan node scans: a table, or an
// index access with a pushed filter (not a lookup join's per-key access).
func scannedTable(n sql.Node) (*Table, bool) {
	switch x := n.(type) {
	case *plan.ResolvedTable:
		// GMS wraps tables to track process progress (trackProcess).
		t, ok := x.UnderlyingTable().(*Table)
		return t, ok
	case *plan.IndexedTableAccess:
		t, ok := x.UnderlyingTable().(*Table)
		return t, ok && x.IsStatic()
	}
	return nil, false
}

// plannedRows are the rows the join planner was told the table has.
func (t *Table) plannedRows(ctx *sql.Context) (uint64, error) {
	if t.rowEstimate != nil {
		return uint64(float64(*t.rowEstimate) * gmsFilterSelectivity), nil
	}
	n, _, err := t.RowCount(ctx)
	return n, err
}

// explainedScan is a scan node as EXPLAIN prints it, with a first detail
// line: its estimated rows, or the snapshots an incremental read reads.
type explainedScan struct {
	sql.Node
	detail string
}

func (e *explainedScan) String() string {
	head, details, ok := strings.Cut(e.Node.String(), "\n")
	line := " ├─ " + e.detail
	if !ok {
		return head + "\n" + strings.Replace(line, "├─", "└─", 1)
	}
	return head + "\n" + line + "\n" + details
}
