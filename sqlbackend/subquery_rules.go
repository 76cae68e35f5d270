package sqlbackend

import "github.com/dolthub/go-mysql-server/sql/analyzer"

// insertSubqueryRules places lakesql's subquery corrections among GMS's
// rules: keepNotInSubqueries before GMS unnests IN subqueries
// (unnestInSubqueries); dropDMLSubqueryMarker and markNotExistsConditions
// before it unnests EXISTS subqueries (unnestExistsSubqueries), which
// every statement analyzed in full, and every subquery of it, goes
// through, and notExistsAsLeftJoins and compareInSubqueriesExactly after
// it, before GMS plans joins and finalizes the subqueries left as
// expressions; stripOuterRowsOnce after it assigns execution indexes; and
// dropHiddenHavingColumns first of the once-before rules.
func insertSubqueryRules(a *analyzer.Analyzer) {
	insertRules(a, "applyDefaultSelectLimit", false, analyzer.Rule{Id: ruleDropHiddenHaving, Apply: dropHiddenHavingColumns})
	insertRules(a, "hoistOutOfScopeFilters", true, analyzer.Rule{Id: ruleOwnCorrelations, Apply: dropOwnCorrelations})
	insertRules(a, "unnestInSubqueries", false, analyzer.Rule{Id: ruleKeepNotIn, Apply: keepNotInSubqueries})
	insertRules(a, "unnestExistsSubqueries", false,
		analyzer.Rule{Id: ruleDropDMLMarker, Apply: dropDMLSubqueryMarker},
		analyzer.Rule{Id: ruleMarkNotExists, Apply: markNotExistsConditions})
	insertRules(a, "unnestExistsSubqueries", true,
		analyzer.Rule{Id: ruleNotExistsJoins, Apply: notExistsAsLeftJoins},
		analyzer.Rule{Id: ruleInSubqueryTypes, Apply: compareInSubqueriesExactly})
	insertRules(a, "assignExecIndexes", true, analyzer.Rule{Id: ruleStripRowsOnce, Apply: stripOuterRowsOnce})
}

// insertRules puts rules right before (or after) GMS's rule named anchor.
func insertRules(a *analyzer.Analyzer, anchor string, after bool, rules ...analyzer.Rule) {
	for _, b := range a.Batches {
		for i, r := range b.Rules {
			if r.Id.String() != anchor {
				continue
			}
			if after {
				i++
			}
			b.Rules = append(b.Rules[:i:i], append(rules, b.Rules[i:]...)...)
			return
		}
	}
	panic("go-mysql-server has no rule " + anchor + " to place lakesql's subquery rules at")
}
