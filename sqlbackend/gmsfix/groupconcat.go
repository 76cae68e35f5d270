package gmsfix

import (
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// concatGroupConcatArguments makes GROUP_CONCAT(a, b, …) concatenate all
// its expressions per row, as MySQL does, by rewriting it to
// GROUP_CONCAT(CONCAT(a, b, …)); one expression too, so that a DATE or
// TIME argument is printed by CONCAT's rule (textOfTemporals). GMS v0.20.0
// evaluates every expression but keeps the first (groupConcatBuffer.Update
// in sql/expression/function/aggregation/group_concat.go uses evalRow[0]),
// so GROUP_CONCAT(id, ':', v) answered "1,2" for "1:a,2:b". CONCAT is
// NULL when any argument is, so the rows MySQL skips (any expression
// NULL) are still skipped. DISTINCT stays on the concatenated string,
// which is what GMS compares anyway; MySQL compares the expressions one
// by one, so the pairs (1, "2") and (12, "") stay two values there, one
// here.
func concatGroupConcatArguments(stmt ast.Statement) {
	if stmt == nil {
		return
	}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if gc, ok := node.(*ast.GroupConcatExpr); ok && !isConcat(gc.Exprs) {
			gc.Exprs = ast.SelectExprs{&ast.AliasedExpr{Expr: &ast.FuncExpr{
				Name:  ast.NewColIdent("concat"),
				Exprs: gc.Exprs,
			}}}
		}
		return true, nil
	}, stmt)
}

// isConcat reports whether exprs is already one CONCAT(…).
func isConcat(exprs ast.SelectExprs) bool {
	if len(exprs) != 1 {
		return false
	}
	aliased, ok := exprs[0].(*ast.AliasedExpr)
	if !ok {
		return false
	}
	f, ok := aliased.Expr.(*ast.FuncExpr)
	return ok && f.Name.EqualString("concat")
}
