package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/lakesql/lakesql/planner/rewrite"
)

// ruleExplainRows is the analyzer rule id of explainReturnsRows.
const ruleExplainRows analyzer.RuleId = 10_005

// explainReturnsRows lets EXPLAIN PLAN (and FORMAT=TREE) of a query that
// returns one row print its whole plan. GMS v0.20.0 analyzes only the
// explained query (Analyzer.Analyze unwraps plan.DescribeQuery), marks an
// ungrouped aggregate such as SELECT COUNT(*) as a query of at most one
// row (replaceCountStar), and its handler then fails the EXPLAIN with "max1Row
// iterator returned more than one row" on the plan's second line. The mark
// describes the explained query, not the rows EXPLAIN returns, so it is
// cleared when the statement is an EXPLAIN. Rules see only the explained
// query, so the statement text tells.
func explainReturnsRows(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, qFlags *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if qFlags != nil && qFlags.IsSet(sql.QFlagMax1Row) && rewrite.IsExplain(ctx.Query()) {
		qFlags.Unset(sql.QFlagMax1Row)
	}
	return n, transform.SameTree, nil
}
