package sqlbackend

import "github.com/dolthub/go-mysql-server/sql/analyzer"

// insertSubqueryRules places lakesql's subquery corrections around GMS's
// unnestExistsSubqueries, which every statement analyzed in full, and
// every subquery of it, goes through: before it, dropDMLSubqueryMarker
// and markNotExistsConditions; after it, notExistsAsLeftJoins and
// compareInSubqueriesExactly, before GMS plans joins and finalizes the
// subqueries left as expressions.
func insertSubqueryRules(a *analyzer.Analyzer) {
	for _, b := range a.Batches {
		for i, r := range b.Rules {
			if r.Id.String() != "unnestExistsSubqueries" {
				continue
			}
			rules := append([]analyzer.Rule{}, b.Rules[:i]...)
			rules = append(rules,
				analyzer.Rule{Id: ruleDropDMLMarker, Apply: dropDMLSubqueryMarker},
				analyzer.Rule{Id: ruleMarkNotExists, Apply: markNotExistsConditions},
				r,
				analyzer.Rule{Id: ruleNotExistsJoins, Apply: notExistsAsLeftJoins},
				analyzer.Rule{Id: ruleInSubqueryTypes, Apply: compareInSubqueriesExactly})
			b.Rules = append(rules, b.Rules[i+1:]...)
			return
		}
	}
	panic("go-mysql-server has no unnestExistsSubqueries rule to place lakesql's subquery rules around")
}
