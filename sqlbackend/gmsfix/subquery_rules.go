package gmsfix

import "github.com/dolthub/go-mysql-server/sql/analyzer"

// InsertSubqueryRules places lakesql's subquery corrections among GMS's
// rules: keepNotInSubqueries before GMS unnests IN subqueries
// (unnestInSubqueries); dropDMLSubqueryMarker and markNotExistsConditions
// before it unnests EXISTS subqueries (unnestExistsSubqueries), which
// every statement analyzed in full, and every subquery of it, goes
// through, and notExistsAsLeftJoins and compareInSubqueriesExactly after
// it, before GMS plans joins and finalizes the subqueries left as
// expressions; stripOuterRowsOnce after it assigns execution indexes; and
// dropHiddenHavingColumns first of the once-before rules.
func InsertSubqueryRules(a *analyzer.Analyzer) {
	InsertRules(a, "applyDefaultSelectLimit", false, analyzer.Rule{Id: ruleDropHiddenHaving, Apply: dropHiddenHavingColumns})
	InsertRules(a, "hoistOutOfScopeFilters", true, analyzer.Rule{Id: ruleOwnCorrelations, Apply: dropOwnCorrelations})
	InsertRules(a, "unnestInSubqueries", false, analyzer.Rule{Id: ruleKeepNotIn, Apply: keepNotInSubqueries})
	InsertRules(a, "unnestExistsSubqueries", false,
		analyzer.Rule{Id: ruleDropDMLMarker, Apply: dropDMLSubqueryMarker},
		analyzer.Rule{Id: ruleMarkNotExists, Apply: markNotExistsConditions})
	InsertRules(a, "unnestExistsSubqueries", true,
		analyzer.Rule{Id: ruleNotExistsJoins, Apply: notExistsAsLeftJoins},
		analyzer.Rule{Id: ruleInSubqueryTypes, Apply: compareInSubqueriesExactly})
	InsertRules(a, "assignExecIndexes", true, analyzer.Rule{Id: ruleStripRowsOnce, Apply: stripOuterRowsOnce})
}
