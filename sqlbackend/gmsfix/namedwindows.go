package gmsfix

import (
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// inlineNamedWindows replaces every window of s that names a window of
// its WINDOW clause (OVER w, OVER (w ORDER BY …)) by the window it
// defines: the named window's PARTITION BY, ORDER BY and frame, with
// what the reference adds (https://dev.mysql.com/doc/refman/8.0/en/window-functions-named-windows.html).
// GMS v0.20.0's planbuilder gives OVER w, which has no ORDER BY of its
// own, the frame of a window without ORDER BY (ROWS BETWEEN UNBOUNDED
// PRECEDING AND UNBOUNDED FOLLOWING) before it merges in w's ORDER BY
// (Builder.buildWindowDef, Builder.mergeWindowDefs), so SUM(k) OVER w
// with WINDOW w AS (ORDER BY k) was the total of the partition instead of
// a running sum. A reference to an undefined window is left to GMS's
// error.
func inlineNamedWindows(s *ast.Select) {
	if len(s.Window) == 0 {
		return
	}
	defs := map[string]*ast.WindowDef{}
	for _, w := range s.Window {
		defs[w.Name.Lowered()] = w
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.FuncExpr:
			if n.Over != nil && !n.Over.NameRef.IsEmpty() {
				if w, ok := resolveWindow((*ast.WindowDef)(n.Over), defs, len(defs)); ok {
					n.Over = (*ast.Over)(w)
				}
			}
		}
		return true, nil
	}, s.SelectExprs, s.OrderBy)
}

// resolveWindow is w with the windows it names merged in, depth names at
// most; false when GMS is to answer the error (a cycle, an undefined
// window, a clause both define).
func resolveWindow(w *ast.WindowDef, defs map[string]*ast.WindowDef, depth int) (*ast.WindowDef, bool) {
	if w.NameRef.IsEmpty() {
		return w, true
	}
	named, ok := defs[w.NameRef.Lowered()]
	if !ok || depth == 0 {
		return nil, false
	}
	ref, ok := resolveWindow(named, defs, depth-1)
	if !ok {
		return nil, false
	}
	if len(ref.PartitionBy) > 0 && len(w.PartitionBy) > 0 || len(ref.OrderBy) > 0 && len(w.OrderBy) > 0 || ref.Frame != nil && w.Frame != nil {
		return nil, false // MySQL's error 3581, GMS's too
	}
	out := &ast.WindowDef{PartitionBy: ref.PartitionBy, OrderBy: ref.OrderBy, Frame: ref.Frame}
	if len(w.PartitionBy) > 0 {
		out.PartitionBy = w.PartitionBy
	}
	if len(w.OrderBy) > 0 {
		out.OrderBy = w.OrderBy
	}
	if w.Frame != nil {
		out.Frame = w.Frame
	}
	// Copies: groupWindowBlock rewrites each function's window in place.
	out.PartitionBy = append(ast.Exprs{}, out.PartitionBy...)
	orderBy := make(ast.OrderBy, len(out.OrderBy))
	for i, o := range out.OrderBy {
		c := *o
		orderBy[i] = &c
	}
	out.OrderBy = orderBy
	return out, true
}
