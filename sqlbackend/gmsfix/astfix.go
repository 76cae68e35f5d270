package gmsfix

import (
	"context"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// astFixingParser rewrites the statements GMS v0.20.0's plan builder
// mis-binds, after parsing and before GMS binds them: single-table UPDATE
// and DELETE with EXISTS subqueries (markDMLSubqueries), HAVING
// aggregates over a column another table has too (hoistHavingAggregates),
// window functions that name a WINDOW clause or sit beside grouping
// (rewriteWindows), GROUP_CONCAT of several expressions
// (concatGroupConcatArguments), and decimal literals compared with a
// column (keepDecimalLiterals).
type astFixingParser struct{ sql.Parser }

// Parser is p with the statements GMS mis-binds rewritten after parsing.
func Parser(p sql.Parser) sql.Parser { return astFixingParser{p} }

func (p astFixingParser) ParseSimple(query string) (ast.Statement, error) {
	stmt, err := p.Parser.ParseSimple(query)
	return fixAST(query, stmt), err
}

func (p astFixingParser) Parse(ctx *sql.Context, query string, multi bool) (ast.Statement, string, string, error) {
	stmt, q, rest, err := p.Parser.Parse(ctx, query, multi)
	return fixAST(query, stmt), q, rest, err
}

func (p astFixingParser) ParseWithOptions(ctx context.Context, query string, delimiter rune, multi bool, options ast.ParserOptions) (ast.Statement, string, string, error) {
	stmt, q, rest, err := p.Parser.ParseWithOptions(ctx, query, delimiter, multi, options)
	return fixAST(query, stmt), q, rest, err
}

func (p astFixingParser) ParseOneWithOptions(ctx context.Context, query string, options ast.ParserOptions) (ast.Statement, int, error) {
	stmt, next, err := p.Parser.ParseOneWithOptions(ctx, query, options)
	return fixAST(query, stmt), next, err
}

// fixAST applies the rewrites to stmt, parsed from query, also under
// EXPLAIN. HAVING aggregates are hoisted before the window rewrite moves
// a grouped block, HAVING included, into a derived table.
func fixAST(query string, stmt ast.Statement) ast.Statement {
	if e, ok := stmt.(*ast.Explain); ok {
		fixAST(query, e.Statement)
		return stmt
	}
	indexTypeFirst(stmt)
	markDMLSubqueries(stmt)
	concatGroupConcatArguments(stmt)
	hoistHavingAggregates(stmt)
	rewriteWindows(query, stmt)
	// Last, so that it sees the comparisons the other rewrites made.
	return keepDecimalLiterals(stmt)
}
