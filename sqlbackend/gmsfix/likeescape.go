package gmsfix

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// ruleLikeEscapes is the analyzer rule id of spellOutLikeEscapes.
const ruleLikeEscapes analyzer.RuleId = 10_104

// LikeEscapes is spellOutLikeEscapes, a pre-analysis rule.
var LikeEscapes = analyzer.Rule{Id: ruleLikeEscapes, Apply: spellOutLikeEscapes}

// spellOutLikeEscapes gives a LIKE whose constant pattern holds a
// backslash, and that names no ESCAPE, the ESCAPE '\' it has by default.
// GMS's simplifyFilters turns a LIKE without ESCAPE whose wildcards are
// all escaped into an equality with the pattern as written, backslashes
// included: v LIKE '50\%' became v = '50\%' and missed the value 50%.
// It leaves a LIKE with an ESCAPE alone, and GMS matches that one right.
func spellOutLikeEscapes(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return withSubqueries(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		like, ok := e.(*expression.Like)
		if !ok || like.Escape != nil || !constantHoldsBackslash(like.RightChild) {
			return e, transform.SameTree, nil
		}
		return expression.NewLike(like.LeftChild, like.RightChild, expression.NewLiteral(`\`, types.LongText)), transform.NewTree, nil
	})
}

func constantHoldsBackslash(e sql.Expression) bool {
	lit, ok := e.(*expression.Literal)
	if !ok {
		return false
	}
	s, ok := lit.Value().(string)
	return ok && strings.Contains(s, `\`)
}
