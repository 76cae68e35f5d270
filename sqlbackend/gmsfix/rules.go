package gmsfix

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// The rules the engine places among GMS's and the backend's, in the order
// it lists them; each variable's comment says where it runs. Their ids, and those of the
// rules this package places itself (InsertSubqueryRules,
// RegisterTypeRules), are 10_004, 10_005, 10_007, 10_014 to 10_016 and
// 10_1xx to 10_3xx; the backend's rules have the other 10_0xx (its
// TestRuleIDsAreUnique checks).
var (
	// WindowOuterColumns is passOuterColumnsThroughWindows, a
	// pre-analysis rule.
	WindowOuterColumns = analyzer.Rule{Id: ruleWindowOuterColumns, Apply: passOuterColumnsThroughWindows}
	// PushJoinConditions is pushInnerJoinConditions, for right before
	// GMS plans joins (optimizeJoins).
	PushJoinConditions = analyzer.Rule{Id: rulePushJoinConditions, Apply: pushInnerJoinConditions}
	// HashDistinct is hashOrderedDistincts, a post-analysis rule.
	HashDistinct = analyzer.Rule{Id: ruleHashDistinct, Apply: hashOrderedDistincts}
	// ExactSums is typeExactSums, a post-analysis rule.
	ExactSums = analyzer.Rule{Id: ruleExactSums, Apply: typeExactSums}
	// WindowAvgs is typeWindowAvgs, a post-analysis rule.
	WindowAvgs = analyzer.Rule{Id: ruleWindowAvgs, Apply: typeWindowAvgs}
	// DerivedTypes is typeDerivedColumns, a post-analysis rule after
	// ExactSums and WindowAvgs, whose types it carries out of derived
	// tables.
	DerivedTypes = analyzer.Rule{Id: ruleDerivedTypes, Apply: typeDerivedColumns}
	// DecimalHashKeys is hashKeysByValue, a post-analysis rule.
	DecimalHashKeys = analyzer.Rule{Id: ruleDecimalHashKeys, Apply: hashKeysByValue}
	// ExplainRows is explainReturnsRows, a post-analysis rule.
	ExplainRows = analyzer.Rule{Id: ruleExplainRows, Apply: explainReturnsRows}
)

// ConnectCrossJoins is connectCrossJoins, for right before GMS plans joins
// (optimizeJoins). It reorders the joins of the statements enabled holds
// for: it is a rewrite for speed, which the differential tests turn off
// with the rest of lakesql's planner rewrites.
func ConnectCrossJoins(enabled func(*sql.Context) bool) analyzer.Rule {
	apply := func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		if !enabled(ctx) {
			return n, transform.SameTree, nil
		}
		return connectCrossJoins(ctx, a, n, scope, sel, qf)
	}
	return analyzer.Rule{Id: ruleConnectCrossJoins, Apply: apply}
}

// InsertRules puts rules right before (or after) GMS's rule named anchor.
func InsertRules(a *analyzer.Analyzer, anchor string, after bool, rules ...analyzer.Rule) {
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
	panic("go-mysql-server has no rule " + anchor + " to place lakesql's rules at")
}
