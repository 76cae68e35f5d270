package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// ruleHashDistinct is the analyzer rule id of hashOrderedDistincts.
const ruleHashDistinct analyzer.RuleId = 10_016

// hashOrderedDistincts replaces each OrderedDistinct with a hash Distinct.
// GMS v0.20.0 plans an OrderedDistinct, which drops a row only when it
// equals the one before, over a scan of a table with a primary key whose
// output starts with key columns (memo/rel_props.go sortedInputs and
// sortedColsForRel), taking the table's rows to come in key order. A
// Paimon table's come in key order only within a bucket: a scan of
// several partitions or buckets returns them bucket after bucket, so
// SELECT DISTINCT day and the distinct side of an EXISTS that GMS turns
// into an inner join (`WHERE EXISTS (SELECT 1 FROM t3 JOIN t2 a4 … WHERE
// a4.day = a1.day)`) repeated values and the outer rows they matched. A
// hash Distinct keeps each value once in any order.
func hashOrderedDistincts(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		d, ok := n.(*plan.OrderedDistinct)
		if !ok {
			return n, transform.SameTree, nil
		}
		return plan.NewDistinct(d.Child), transform.NewTree, nil
	})
}
