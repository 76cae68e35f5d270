package sqlbackend

import (
	"context"
	"errors"
	"strings"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/sqlbackend/gmsfix"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
)

// Version strings, the same in the handshake, @@version and VERSION().
const (
	// Version is the MySQL version lakesql reports: clients pick their
	// dialect from it, so it stays a MySQL 8.0 version.
	Version = "8.0.31-lakesql"
	// VersionComment is @@version_comment.
	VersionComment = "lakesql"
)

// NewEngine returns the SQL engine over a backend: the provider (with
// procedures, may be nil), lakesql's session variables and version
// strings, and the parser that rewrites the SQL spellings vitess rejects.
func NewEngine(b *Backend, procedures sql.ExternalStoredProcedureProvider) *sqle.Engine {
	registerGlobals()
	sql.SystemVariables.AssignValues(map[string]any{
		"version":         Version,
		"version_comment": VersionComment,
	})
	pro := NewProvider(b, procedures)
	gmsfix.RegisterTypeRules()
	a := newAnalyzer(pro)
	listFileIndexesInStatistics(a.Catalog.InfoSchema)
	a.Catalog.InfoSchema = informationSchema{a.Catalog.InfoSchema}
	a.Catalog.StatsProvider = statsProvider{a.Catalog.StatsProvider}
	a.Coster = gmsfix.RebuildCoster(a.Coster, rewritesOn)
	a.ExecBuilder = gmsfix.ExecBuilder(literalInserts{})
	// Before explainInputRows, which wraps the scans EXPLAIN prints.
	gmsfix.InsertRules(a, ruleExplainInputs.String(), false, b.vectorizeRule(a.ExecBuilder))
	gmsfix.InsertRules(a, "modifyUpdateExprsForJoin", false, keylessUpdateRule(a.ExecBuilder))
	appendAfterAll(a, wireResultRule(a.ExecBuilder))
	appendAfterAll(a, analyzer.Rule{Id: ruleLoadData, Apply: loadDataRule})
	appendAfterAll(a, analyzer.Rule{Id: ruleKeyPlan, Apply: recordKeyPlan})
	engine := sqle.New(a, &sqle.Config{})
	engine.Parser = rewritingParser{Parser: gmsfix.Parser(sql.GlobalParser)}
	return engine
}

// newAnalyzer is GMS's analyzer with lakesql's rules, the backend's
// (pushdown, lookups, aggregates, estimates) and gmsfix's corrections, in
// the order listed: a rule may rely on the ones before it.
func newAnalyzer(pro sql.DatabaseProvider) *analyzer.Analyzer {
	b := analyzer.NewBuilder(pro)
	for _, r := range []analyzer.Rule{
		{Id: ruleIndexDDL, Apply: planIndexDDL},
		{Id: ruleShowIndexes, Apply: showFileIndexes},
		{Id: ruleDeferPushdown, Apply: deferFilterPushdown},
		gmsfix.WindowOuterColumns,
		gmsfix.LikeEscapes,
	} {
		b.AddPreAnalyzeRule(r.Id, r.Apply)
	}
	for _, r := range []analyzer.Rule{
		{Id: rulePushFilters, Apply: pushFiltersIntoScans},
		gmsfix.TemporalLiterals(rewritesOn),
		gmsfix.HashDistinct,
		gmsfix.ExactSums,
		gmsfix.WindowAvgs,
		gmsfix.DerivedTypes,
		{Id: ruleAggregate, Apply: pushAggregates},
		gmsfix.DecimalHashKeys,
		gmsfix.FloatTexts,
		{Id: ruleRecheckLookupKeys, Apply: recheckConvertedLookupKeys},
		gmsfix.ExplainRows,
	} {
		b.AddPostAnalyzeRule(r.Id, r.Apply)
	}
	a := b.Build()
	// Right before GMS plans joins, where filters already sit on the
	// tables they read.
	gmsfix.InsertRules(a, "optimizeJoins", false,
		gmsfix.ConnectCrossJoins(rewritesOn),
		gmsfix.PushJoinConditions,
		analyzer.Rule{Id: ruleEstimateFilteredRows, Apply: estimateFilteredRows})
	appendAfterAll(a, analyzer.Rule{Id: ruleExplainInputs, Apply: explainInputRows})
	gmsfix.InsertSubqueryRules(a)
	gmsfix.RoutinesOnlyWhereRead(a)
	return a
}

// appendAfterAll adds rule at the end of the analyzer's last batch, after
// GMS has assigned execution indexes: it sees the plan as it is run (or,
// for EXPLAIN, printed).
func appendAfterAll(a *analyzer.Analyzer, rule analyzer.Rule) {
	last := a.Batches[len(a.Batches)-1]
	last.Rules = append(last.Rules, rule)
}

// rewritingParser runs planner/rewrite over every statement text before
// vitess parses it, for COM_QUERY, prepared statements and in-process
// queries alike: time-travel spellings vitess rejects become ones it
// accepts, INSERT OVERWRITE becomes an INSERT the session commits as an
// overwrite, and constructs GMS would silently mis-execute (AS OF ?,
// PARTITION (p) selection) fail with a clear error.
type rewritingParser struct{ sql.Parser }

func (p rewritingParser) ParseSimple(query string) (ast.Statement, error) {
	r, err := rewrite.Rewrite(query)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	stmt, err := p.Parser.ParseSimple(r.Query)
	return stmt, parseError(err)
}

// Parse is what the server calls for a client that declared
// CLIENT_MULTI_STATEMENTS, as the mysql command-line client does.
func (p rewritingParser) Parse(ctx *sql.Context, query string, multi bool) (ast.Statement, string, string, error) {
	if stmt, ok := p.parseBulkValues(ctx, query, sql.LoadSqlMode(ctx).ParserOptions()); ok {
		return stmt, sql.RemoveSpaceAndDelimiter(query, ';'), "", nil
	}
	q, err := p.rewrite(ctx, query)
	if err != nil {
		return nil, "", "", err
	}
	stmt, query, rest, err := p.Parser.Parse(ctx, q, multi)
	return stmt, query, rest, parseError(err)
}

func (p rewritingParser) ParseWithOptions(ctx context.Context, query string, delimiter rune, multi bool, options ast.ParserOptions) (ast.Statement, string, string, error) {
	if stmt, ok := p.parseBulkValues(ctx, query, options); ok {
		return stmt, sql.RemoveSpaceAndDelimiter(query, delimiter), "", nil
	}
	q, err := p.rewrite(ctx, query)
	if err != nil {
		return nil, "", "", err
	}
	stmt, query, rest, err := p.Parser.ParseWithOptions(ctx, q, delimiter, multi, options)
	return stmt, query, rest, parseError(err)
}

func (p rewritingParser) ParseOneWithOptions(ctx context.Context, query string, options ast.ParserOptions) (ast.Statement, int, error) {
	q, err := p.rewrite(ctx, query)
	if err != nil {
		return nil, 0, err
	}
	stmt, next, err := p.Parser.ParseOneWithOptions(ctx, q, options)
	return stmt, next, parseError(err)
}

// sessionAccount is the account of s, quoted as ALTER USER takes it; ""
// without a session or an authenticated user.
func sessionAccount(s *Session) string {
	if s == nil || s.Client().User == "" {
		return ""
	}
	quote := func(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }
	return quote(s.Client().User) + "@" + quote(s.Client().Address)
}

// parseError makes a vitess syntax error MySQL's 1064 with SQLSTATE 42000,
// which drivers turn into their syntax-error exceptions; GMS would send it
// as 1105 (unknown error). ErrEmpty (a statement of only comments) stays
// as it is: GMS answers it with an empty OK.
func parseError(err error) error {
	if err == nil || errors.Is(err, ast.ErrEmpty) {
		return err
	}
	var already *mysql.SQLError
	if errors.As(err, &already) {
		return err
	}
	return mysql.NewSQLError(mysql.ERParseError, mysql.SSClientError, "%s", err.Error())
}

// rewrite rewrites one statement text and hands an INSERT OVERWRITE's
// target to the session, whose next write commits it as an overwrite.
func (p rewritingParser) rewrite(ctx context.Context, query string) (string, error) {
	sc, ok := ctx.(*sql.Context)
	var s *Session
	if ok {
		s, _ = sc.Session.(*Session)
	}
	r, err := rewrite.RewriteAs(query, sessionAccount(s))
	if err != nil {
		return "", mysqlerr.From(err)
	}
	if s == nil {
		if r.Overwrite != nil {
			return "", unsupportedf("INSERT OVERWRITE needs a lakesql session")
		}
		return r.Query, nil
	}
	if r.Overwrite == nil {
		s.setPendingOverwrite(nil)
		q, _, err := s.rewriteAlter(sc, r.Query)
		return q, err
	}
	q, pending, err := s.prepareOverwrite(sc, r.Overwrite, r.Query)
	if err != nil {
		return "", err
	}
	s.setPendingOverwrite(pending)
	return q, nil
}
