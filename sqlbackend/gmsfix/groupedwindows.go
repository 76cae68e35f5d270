package gmsfix

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// mentionsOver reports whether query has the word OVER anywhere (in any
// case), which every window function has: statements without it (a
// 10,000-row INSERT) are not walked.
func mentionsOver(query string) bool {
	for i := 0; i+4 <= len(query); i++ {
		if query[i]|0x20 == 'o' && strings.EqualFold(query[i:i+4], "over") {
			return true
		}
	}
	return false
}

// groupedName is the derived table groupWindowBlocks introduces; its columns
// are groupedName + "_<n>".
const groupedName = "lakesql_grouped"

// groupWindowBlocks rewrites a query block that has window functions and
// grouping into a block over a derived table that groups:
//
//	SELECT g, SUM(x) AS s, RANK() OVER (ORDER BY SUM(x)) FROM t GROUP BY g HAVING … ORDER BY … LIMIT …
//
// becomes
//
//	SELECT lakesql_grouped.lakesql_grouped_0 AS g, lakesql_grouped.s AS s,
//	  RANK() OVER (ORDER BY lakesql_grouped.s) AS `RANK() OVER (ORDER BY SUM(x))`
//	FROM (SELECT g AS lakesql_grouped_0, SUM(x) AS s FROM t GROUP BY g HAVING …) lakesql_grouped
//	ORDER BY … LIMIT …
//
// which is MySQL's order of evaluation: window functions run after GROUP
// BY and HAVING, over the grouped rows, and may use grouping columns and
// aggregates (https://dev.mysql.com/doc/refman/8.0/en/window-functions-usage.html),
// while GMS v0.20.0's planbuilder builds either a GroupBy or a Window for
// a block and refuses a window function beside an aggregate with error
// 1140 and a malformed message (Builder.buildAggregateFunc,
// Builder.buildWindowFunc).
//
// Select items without window functions move into the derived table as
// they are, with their aliases (HAVING may name them). Window functions
// and ORDER BY stay outside: their aggregates, grouping expressions and
// columns become columns of the derived table. DISTINCT, ORDER BY and
// LIMIT apply outside, after the window functions, as in MySQL.
func groupWindowBlocks(s *ast.Select) {
	if windowsNeedGrouping(s) {
		groupWindowBlock(s)
	}
}

// rewriteWindows rewrites, in every query block of stmt (parsed from
// query), the windows that name a WINDOW clause's windows
// (inlineNamedWindows) and then the blocks with window functions and
// grouping (groupWindowBlocks).
func rewriteWindows(query string, stmt ast.Statement) ast.Statement {
	if stmt == nil || !mentionsOver(query) {
		return stmt
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if s, ok := n.(*ast.Select); ok {
			inlineNamedWindows(s)
			groupWindowBlocks(s)
		}
		return true, nil
	}, stmt)
	return stmt
}

// windowsNeedGrouping reports whether s has window functions and
// grouping, and a select list groupWindowBlock can split (no *).
func windowsNeedGrouping(s *ast.Select) bool {
	if !selectHasWindow(s) {
		return false
	}
	for _, item := range s.SelectExprs {
		if _, ok := item.(*ast.AliasedExpr); !ok {
			return false
		}
	}
	if len(s.GroupBy) > 0 || s.Having != nil {
		return true
	}
	for _, item := range s.SelectExprs {
		if groupedHasAggregate(item.(*ast.AliasedExpr).Expr) {
			return true
		}
	}
	for _, o := range s.OrderBy {
		if groupedHasAggregate(o.Expr) {
			return true
		}
	}
	return false
}

func selectHasWindow(s *ast.Select) bool {
	found := false
	visit := func(n ast.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.FuncExpr:
			if n.Over != nil {
				found = true
			}
		}
		return !found, nil
	}
	_ = ast.Walk(visit, s.SelectExprs, s.OrderBy)
	return found
}

// groupedHasAggregate reports whether e has an aggregate function of its
// own block (not in a subquery), also as the argument of a window
// function.
func groupedHasAggregate(e ast.SQLNode) bool {
	found := false
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if _, ok := n.(*ast.Subquery); ok {
			return false, nil
		}
		if e, ok := n.(ast.Expr); ok && isAggregateCall(e) {
			found = true
		}
		return !found, nil
	}, e)
	return found
}

// isAggregateCall reports whether e is an aggregate function call (not
// over a window), by the names GMS's planbuilder takes as aggregates
// (isAggregateFunc).
func isAggregateCall(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.GroupConcatExpr:
		return true
	case *ast.FuncExpr:
		if e.Over != nil || !e.Qualifier.IsEmpty() {
			return false
		}
		switch e.Name.Lowered() {
		case "avg", "bit_and", "bit_or", "bit_xor", "count", "group_concat",
			"json_arrayagg", "json_objectagg", "max", "min", "std", "stddev_pop",
			"stddev_samp", "stddev", "sum", "var_pop", "var_samp", "variance",
			"first", "last", "any_value":
			return true
		}
	}
	return false
}

// groupedBlock is the rewrite of one block: the derived table's select
// list, and the grouping expressions outside references become.
type groupedBlock struct {
	inner    ast.SelectExprs
	groupBy  map[string]bool
	columns  map[string]string // expression text -> derived column
	names    map[string]bool   // the outer select list's names
	innerIdx int
}

// groupWindowBlock rewrites s in place (see groupWindowBlocks).
func groupWindowBlock(s *ast.Select) {
	g := &groupedBlock{groupBy: map[string]bool{}, columns: map[string]string{}, names: map[string]bool{}}
	groupBy := make(ast.GroupBy, len(s.GroupBy))
	for i, e := range s.GroupBy {
		groupBy[i] = groupedByPosition(e, s.SelectExprs)
		g.groupBy[ast.String(groupBy[i])] = true
	}
	aliases := map[string]int{}
	for _, item := range s.SelectExprs {
		if a := item.(*ast.AliasedExpr).As; !a.IsEmpty() {
			aliases[a.Lowered()]++
		}
	}
	outer := make(ast.SelectExprs, len(s.SelectExprs))
	for i, item := range s.SelectExprs {
		outer[i] = g.outerItem(item.(*ast.AliasedExpr), aliases)
	}
	for _, o := range s.OrderBy {
		if c, ok := o.Expr.(*ast.ColName); ok && c.Qualifier.IsEmpty() && g.names[c.Name.Lowered()] {
			continue // a select list alias
		}
		o.Expr = g.outside(o.Expr)
	}
	for _, w := range s.Window {
		g.outsideWindow((*ast.Over)(w))
	}
	inner := &ast.Select{
		Comments:    s.Comments,
		QueryOpts:   ast.QueryOpts{StraightJoinHint: s.QueryOpts.StraightJoinHint, SQLCache: s.QueryOpts.SQLCache, SQLNoCache: s.QueryOpts.SQLNoCache},
		SelectExprs: g.inner,
		From:        s.From,
		Where:       s.Where,
		GroupBy:     groupBy,
		Having:      s.Having,
		Lock:        s.Lock,
	}
	s.Comments, s.Where, s.GroupBy, s.Having, s.Lock = nil, nil, nil, nil, ""
	s.QueryOpts = ast.QueryOpts{Distinct: s.QueryOpts.Distinct, All: s.QueryOpts.All, SQLCalcFoundRows: s.QueryOpts.SQLCalcFoundRows}
	s.SelectExprs = outer
	s.From = ast.TableExprs{&ast.AliasedTableExpr{
		Expr: &ast.Subquery{Select: inner},
		As:   ast.NewTableIdent(groupedName),
		Auth: ast.AuthInformation{AuthType: ast.AuthType_IGNORE},
	}}
}

// groupedByPosition is the select item a GROUP BY position (GROUP BY 2)
// names, as the derived table's select list has other positions; e
// itself otherwise.
func groupedByPosition(e ast.Expr, items ast.SelectExprs) ast.Expr {
	v, ok := e.(*ast.SQLVal)
	if !ok || v.Type != ast.IntVal {
		return e
	}
	i, err := strconv.Atoi(string(v.Val))
	if err != nil || i < 1 || i > len(items) {
		return e
	}
	item := items[i-1].(*ast.AliasedExpr)
	if exprHasWindow(item.Expr) {
		return e // MySQL's error 3594, GMS's too
	}
	return item.Expr
}

// outerItem is the outer select item of item: a column of the derived
// table for an item without window functions (which the derived table
// computes, under its alias if that is unique), otherwise the item with
// its grouped parts replaced by derived columns; both named as MySQL
// names item.
func (g *groupedBlock) outerItem(item *ast.AliasedExpr, aliases map[string]int) *ast.AliasedExpr {
	name := selectItemName(item)
	g.names[strings.ToLower(name)] = true
	out := &ast.AliasedExpr{As: ast.NewColIdent(name), InputExpression: name}
	if !exprHasWindow(item.Expr) {
		col := item.As.String()
		if item.As.IsEmpty() || aliases[item.As.Lowered()] > 1 {
			col = g.nextColumn()
		}
		g.inner = append(g.inner, &ast.AliasedExpr{Expr: item.Expr, As: ast.NewColIdent(col)})
		if _, ok := g.columns[ast.String(item.Expr)]; !ok {
			g.columns[ast.String(item.Expr)] = col
		}
		out.Expr = groupedColumn(col)
		return out
	}
	out.Expr = g.outside(item.Expr)
	return out
}

// selectItemName is the name MySQL gives the column of item: its alias,
// the column's name, or the expression as written.
func selectItemName(item *ast.AliasedExpr) string {
	switch {
	case !item.As.IsEmpty():
		return item.As.String()
	case item.InputExpression != "":
		return item.InputExpression
	}
	if c, ok := item.Expr.(*ast.ColName); ok {
		return c.Name.String()
	}
	return ast.String(item.Expr)
}

func exprHasWindow(e ast.Expr) bool {
	return selectHasWindow(&ast.Select{SelectExprs: ast.SelectExprs{&ast.AliasedExpr{Expr: e}}})
}

func (g *groupedBlock) nextColumn() string {
	col := fmt.Sprintf("%s_%d", groupedName, g.innerIdx)
	g.innerIdx++
	return col
}

// grouped is the derived column computing e, added if it is new.
func (g *groupedBlock) grouped(e ast.Expr) ast.Expr {
	key := ast.String(e)
	col, ok := g.columns[key]
	if !ok {
		col = g.nextColumn()
		g.columns[key] = col
		g.inner = append(g.inner, &ast.AliasedExpr{Expr: e, As: ast.NewColIdent(col)})
	}
	return groupedColumn(col)
}

func groupedColumn(col string) *ast.ColName {
	return &ast.ColName{Name: ast.NewColIdent(col), Qualifier: ast.TableName{Name: ast.NewTableIdent(groupedName)}}
}

// target reports whether e is computed by the derived table: a grouping
// expression, an aggregate or a column (not one of the derived table's:
// expressions shared by several windows are rewritten once).
func (g *groupedBlock) target(e ast.Expr) bool {
	if c, ok := e.(*ast.ColName); ok {
		return c.Qualifier.Name.String() != groupedName
	}
	if isAggregateCall(e) {
		return true
	}
	// ast.ReplaceExpr compares expressions with ==, which panics on
	// tuples (slices): only pointers are replaced.
	return reflect.TypeOf(e).Kind() == reflect.Pointer && g.groupBy[ast.String(e)]
}

// outside is e, evaluated outside the derived table: its grouping
// expressions, aggregates and columns replaced by derived columns, in
// window functions too. Subqueries stay as they are.
func (g *groupedBlock) outside(e ast.Expr) ast.Expr {
	if g.target(e) {
		return g.grouped(e)
	}
	if f, ok := e.(*ast.FuncExpr); ok && f.Over != nil {
		g.outsideWindowFunc(f)
		return f
	}
	var targets []ast.Expr
	var windows []*ast.FuncExpr
	root := true
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		x, ok := n.(ast.Expr)
		if !ok || root {
			root = false
			return true, nil
		}
		switch x := x.(type) {
		case *ast.Subquery:
			return false, nil
		case *ast.FuncExpr:
			if x.Over != nil {
				windows = append(windows, x)
				return false, nil
			}
		}
		if g.target(x) {
			targets = append(targets, x)
			return false, nil
		}
		return true, nil
	}, e)
	for _, t := range targets {
		e = ast.ReplaceExpr(e, t, g.grouped(t))
	}
	for _, w := range windows {
		g.outsideWindowFunc(w)
	}
	return e
}

// outsideWindowFunc rewrites the arguments and window of a window
// function for outside the derived table.
func (g *groupedBlock) outsideWindowFunc(f *ast.FuncExpr) {
	for _, arg := range f.Exprs {
		if a, ok := arg.(*ast.AliasedExpr); ok {
			a.Expr = g.outside(a.Expr)
		}
	}
	g.outsideWindow(f.Over)
}

func (g *groupedBlock) outsideWindow(w *ast.Over) {
	if w == nil {
		return
	}
	for i, e := range w.PartitionBy {
		w.PartitionBy[i] = g.outside(e)
	}
	for _, o := range w.OrderBy {
		o.Expr = g.outside(o.Expr)
	}
}
