package sqlbackend

import (
	"context"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// astFixingParser rewrites the statements GMS v0.20.0's plan builder
// mis-binds, after parsing and before GMS binds them: single-table UPDATE
// and DELETE with EXISTS subqueries (markDMLSubqueries) and HAVING
// aggregates over a column another table has too (hoistHavingAggregates).
type astFixingParser struct{ sql.Parser }

func (p astFixingParser) ParseSimple(query string) (ast.Statement, error) {
	stmt, err := p.Parser.ParseSimple(query)
	return fixAST(stmt), err
}

func (p astFixingParser) Parse(ctx *sql.Context, query string, multi bool) (ast.Statement, string, string, error) {
	stmt, q, rest, err := p.Parser.Parse(ctx, query, multi)
	return fixAST(stmt), q, rest, err
}

func (p astFixingParser) ParseWithOptions(ctx context.Context, query string, delimiter rune, multi bool, options ast.ParserOptions) (ast.Statement, string, string, error) {
	stmt, q, rest, err := p.Parser.ParseWithOptions(ctx, query, delimiter, multi, options)
	return fixAST(stmt), q, rest, err
}

func (p astFixingParser) ParseOneWithOptions(ctx context.Context, query string, options ast.ParserOptions) (ast.Statement, int, error) {
	stmt, next, err := p.Parser.ParseOneWithOptions(ctx, query, options)
	return fixAST(stmt), next, err
}

// fixAST applies the rewrites to stmt, also under EXPLAIN.
func fixAST(stmt ast.Statement) ast.Statement {
	if e, ok := stmt.(*ast.Explain); ok {
		fixAST(e.Statement)
		return stmt
	}
	markDMLSubqueries(stmt)
	hoistHavingAggregates(stmt)
	return stmt
}
