// Package planner turns what go-mysql-server hands a table into what the
// storage layer understands. PushFilters translates the conjuncts of the
// Filter above a scan (sql.IndexSearchable.LookupForExpressions receives
// them, constants already folded) into a storage predicate.
//
// A conjunct is pushed only when the predicate selects exactly the rows
// go-mysql-server would: the engine is the judge of SQL semantics, so a
// comparison whose engine evaluation converts values in a way the predicate
// cannot mirror stays with the engine. The rules per column type are in
// filter_literal.go; the property test checks them against the engine's own
// Eval.
package planner

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// Pushdown is what a scan can do with the conjuncts of the filter above it.
type Pushdown struct {
	// Filter is the AND of the translated conjuncts; nil if none translated.
	Filter predicate.Predicate
	// Pushed holds the conjuncts translated exactly: Filter makes the same
	// rows TRUE, so the engine need not evaluate them again.
	Pushed []sql.Expression
	// Residual holds the conjuncts not translated, or translated only as a
	// weaker superset; the engine keeps evaluating them.
	Residual []sql.Expression
}

// PushFilters translates each conjunct over the table's columns. fields are
// the table's columns in read-schema order (predicate column index =
// position in fields); columns are matched by name, case-insensitively,
// whatever table name or alias qualifies the GetField. A conjunct that is
// itself an AND is split, so its translatable parts are pushed on their own.
// Nothing is ever dropped: every conjunct ends up in Pushed or Residual.
func PushFilters(fields []spec.DataField, conjuncts []sql.Expression) Pushdown {
	t := translator{columns: newColumnIndex(fields)}
	var pd Pushdown
	var parts []predicate.Predicate
	for _, c := range splitConjuncts(conjuncts) {
		tr := t.translate(c)
		if tr.fit == exact {
			pd.Pushed = append(pd.Pushed, c)
		} else {
			pd.Residual = append(pd.Residual, c)
		}
		if tr.fit != untranslated {
			parts = append(parts, tr.pred)
		}
	}
	if len(parts) > 0 {
		pd.Filter = predicate.And(parts...)
	}
	return pd
}

// Describe renders a pushed filter for EXPLAIN, e.g.
// dt = DATE '2026-04-16' AND status IN ('PAID', 'SUCCESS'); the rendering
// is the predicate's own String. A nil filter, nothing pushed, is "".
func Describe(p predicate.Predicate) string {
	if p == nil {
		return ""
	}
	return p.String()
}

// splitConjuncts flattens nested ANDs into their operands.
func splitConjuncts(conjuncts []sql.Expression) []sql.Expression {
	var out []sql.Expression
	for _, c := range conjuncts {
		out = append(out, expression.SplitConjunction(c)...)
	}
	return out
}

// fit says how a predicate relates to the expression it was translated
// from. The order matters: combining translations keeps the weakest fit.
type fit uint8

const (
	// untranslated: no predicate.
	untranslated fit = iota
	// superset: the predicate is TRUE for every row the expression is TRUE
	// for, and maybe more; good for pruning, not for dropping the filter.
	superset
	// exact: the predicate has the expression's value (TRUE, FALSE or
	// UNKNOWN) on every row.
	exact
)

type translation struct {
	pred predicate.Predicate
	fit  fit
}

var none = translation{}

func exactly(p predicate.Predicate) translation { return translation{pred: p, fit: exact} }
