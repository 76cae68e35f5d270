package gmsfix

import (
	"sync"

	"github.com/dolthub/go-mysql-server/sql/analyzer"
)

var typeRulesOnce sync.Once

// RegisterTypeRules adds the rules that give expressions MySQL's types and
// comparisons to go-mysql-server's AlwaysBeforeDefault rules, once per
// process. That list, which GMS keeps for integrators, is the only one
// that also runs for single-table UPDATE and DELETE and for INSERT …
// VALUES, which skip every other batch of custom rules
// (analyzer/node_batches.go): UPDATE t SET amt = COALESCE(amt, 98.75) and
// UPDATE … WHERE score < qty need them too. NewBuilder copies the list
// into the once-before batch of every analyzer built afterwards. The
// rules only retype and convert, so they apply with
// lakesql_planner_rewrites off as well.
func RegisterTypeRules() {
	typeRulesOnce.Do(func() {
		analyzer.AlwaysBeforeDefault = append(analyzer.AlwaysBeforeDefault,
			analyzer.Rule{Id: ruleExactDivision, Apply: divideExactly},
			analyzer.Rule{Id: ruleFlowTypes, Apply: typeFlowFunctions},
			analyzer.Rule{Id: ruleExactAvgs, Apply: typeExactAvgs},
			analyzer.Rule{Id: ruleSetOpTypes, Apply: typeSetOps},
			analyzer.Rule{Id: ruleNumericComparisons, Apply: compareNumbersAsMySQL},
			analyzer.Rule{Id: ruleTemporalText, Apply: textOfTemporals},
			analyzer.Rule{Id: ruleDecimalCasts, Apply: castDecimalsAsMySQL},
			analyzer.Rule{Id: ruleDecimalExtremes, Apply: compareDecimalExtremes},
		)
	})
}
