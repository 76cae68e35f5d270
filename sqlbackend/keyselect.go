package sqlbackend

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/sql"
	vsqltypes "github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A key select — a point select of one row by its whole primary key, or
// a short range of keys — spent most of its time in go-mysql-server's
// analysis: about 0.3 ms of CPU per statement, where MariaDB answers the
// whole point select in 0.08 ms. Applications send the same few statement
// shapes with different keys, so the server keeps the analyzed plan of
// each shape and, for the next statement of that shape, only swaps in the
// new keys: the table is resolved and pinned as analysis would, the same
// pushed filter is built from the new literals, and the same scan reads
// it. Everything else of the plan (projection, sort, LIMIT, the wire
// result) is reused as it was analyzed.
//
// A shape is a SELECT of columns from one table whose WHERE is only
// comparisons of columns with literals, keyed by everything but the
// literals' values. It is cached only when its analyzed plan is exactly a
// read of that table through a pushed filter that decides the whole WHERE
// (no residual), and the filter the cache would build for the literals
// analysed is equal to the one analysis built: a literal spelled in a way
// the cache does not convert the same way never gets there.

// maxKeyPlans bounds the cache; when full, it is emptied and refills
// with the shapes still in use.
const maxKeyPlans = 1024

// maxKeyQuery is the longest statement text the cache considers: a
// key select is short, and a long statement is not parsed twice.
const maxKeyQuery = 2048

// KeySelects is a server's cache of key-select plans, shared by its
// sessions.
type KeySelects struct {
	backend *Backend
	parser  sql.Parser
	auth    sql.AuthorizationHandler

	mu    sync.Mutex
	plans map[string]*keyPlan
}

// NewKeySelects returns an empty cache for the engine over backend.
func NewKeySelects(engine *sqle.Engine, backend *Backend) *KeySelects {
	return &KeySelects{
		backend: backend,
		parser:  engine.Parser,
		auth:    engine.Analyzer.Catalog.AuthorizationHandler(),
		plans:   map[string]*keyPlan{},
	}
}

// KeySelect is one statement the cache may answer or learn from.
type KeySelect struct {
	cache   *KeySelects
	session *Session
	ctx     *sql.Context
	shape   keyShape
	key     string
	// recorded is the plan learnt while the statement ran through
	// analysis (see recordKeyPlan).
	recorded atomic.Pointer[keyPlan]
	// stale is set when a cached plan no longer fits its table.
	stale atomic.Bool
}

// Match returns the statement as a key select of session, or nil when
// the cache can neither answer nor learn it: not a key select, or a
// session state the cached plans do not cover (an open transaction, no
// autocommit, a select limit).
func (p *KeySelects) Match(ctx context.Context, session *Session, query string) *KeySelect {
	return p.match(ctx, session, query, nil)
}

// MatchPrepared is Match for an execution of a prepared statement with
// the values bound to its parameters. They become literals as
// go-mysql-server's handler binds them (sqlparser.ExprFromValue), so a
// parameter is the literal written in its place would be. Shapes of
// prepared statements are kept apart from those of statement texts.
func (p *KeySelects) MatchPrepared(ctx context.Context, session *Session, query string, bindings map[string]*querypb.BindVariable) *KeySelect {
	return p.match(ctx, session, query, func(name string) (ast.Expr, bool) {
		bv, ok := bindings[strings.TrimPrefix(name, ":")]
		if !ok {
			return nil, false
		}
		v, err := vsqltypes.BindVariableToValue(bv)
		if err != nil {
			return nil, false
		}
		e, err := ast.ExprFromValue(v)
		return e, err == nil
	})
}

func (p *KeySelects) match(ctx context.Context, session *Session, query string, bind binder) *KeySelect {
	if p == nil || session == nil || len(query) > maxKeyQuery || !startsWithSelect(query) {
		return nil
	}
	sctx := sql.NewContext(ctx, sql.WithSession(session))
	if !plainReadSession(sctx) {
		return nil
	}
	mode := sql.LoadSqlMode(sctx)
	stmt, _, rest, err := p.parser.ParseWithOptions(sctx, query, ';', false, mode.ParserOptions())
	if err != nil || strings.TrimSpace(rest) != "" {
		return nil
	}
	shape, ok := keyShapeOf(stmt, session.GetCurrentDatabase(), bind)
	if !ok {
		return nil
	}
	return &KeySelect{cache: p, session: session, ctx: sctx, shape: shape, key: shape.key(mode.String())}
}

// startsWithSelect reports a statement text beginning with SELECT; a
// comment first makes it no candidate (hints live in comments).
func startsWithSelect(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	return len(q) > 7 && strings.EqualFold(q[:6], "select") && (q[6] == ' ' || q[6] == '\t' || q[6] == '\n' || q[6] == '\r')
}

// plainReadSession reports a session whose next statement is its own
// autocommitted transaction with default result limits, whose client
// writes UTF-8: the state every cached plan was analyzed in, and the one
// in which a string literal's bytes are its value. With
// lakesql_planner_rewrites OFF the statement goes to go-mysql-server
// alone, as every other one does.
func plainReadSession(ctx *sql.Context) bool {
	if ctx.GetTransaction() != nil || ctx.GetIgnoreAutoCommit() || !rewritesOn(ctx) {
		return false
	}
	autocommit, err := ctx.GetSessionVariable(ctx, "autocommit")
	if err != nil || !isOn(autocommit) {
		return false
	}
	charset, err := ctx.GetSessionVariable(ctx, "character_set_client")
	if name, ok := charset.(string); err != nil || !ok || !strings.HasPrefix(strings.ToLower(name), "utf8") {
		return false
	}
	isDefault, _ := sql.HasDefaultValue(ctx, ctx.Session, "sql_select_limit")
	return isDefault
}

// Plan returns the plan of the statement when its shape is cached and
// its literals convert as the cached plan's did.
func (s *KeySelect) Plan() (sql.Node, bool) {
	s.cache.mu.Lock()
	pp := s.cache.plans[s.key]
	s.cache.mu.Unlock()
	if pp == nil {
		return nil, false
	}
	exprs, ok := pp.conjuncts(s.ctx, s.shape.conditions)
	if !ok {
		return nil, false
	}
	return pp.withLookup(&cachedKeyRead{plan: pp, statement: s, conjuncts: exprs})
}

// Stale reports that the cached plan did not fit its table any more (the
// table was dropped or altered) and was dropped: the statement is to be
// run through analysis instead, before anything was sent to the client.
func (s *KeySelect) Stale() bool { return s.stale.Load() }

// Record makes the session's next analysis learn the statement's plan;
// Finish ends it and keeps the plan learnt if the statement succeeded.
func (s *KeySelect) Record() { s.session.keyRecording.Store(s) }

// Finish ends Record, and reports whether the statement's plan was
// learnt.
func (s *KeySelect) Finish(err error) bool {
	s.session.keyRecording.CompareAndSwap(s, nil)
	pp := s.recorded.Load()
	if err != nil || pp == nil {
		return false
	}
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if len(s.cache.plans) >= maxKeyPlans {
		clear(s.cache.plans)
	}
	s.cache.plans[s.key] = pp
	return true
}

// forget drops the statement's cached plan.
func (s *KeySelect) forget() {
	s.stale.Store(true)
	s.cache.mu.Lock()
	delete(s.cache.plans, s.key)
	s.cache.mu.Unlock()
}

// binder gives the value bound to a prepared statement's parameter, as a
// literal; nil binds none.
type binder func(name string) (ast.Expr, bool)

// keyShape is a key select as parsed: the table read, and each
// condition of the WHERE clause as a column, an operator and literals.
type keyShape struct {
	prepared   bool
	selectText string
	db         string
	table      *ast.AliasedTableExpr
	conditions []keyCondition
	orderBy    string
	limit      string
}

// keyCondition is one conjunct of the WHERE clause: column op literal,
// with the column on the left, or column BETWEEN two literals.
type keyCondition struct {
	column   string
	op       string
	literals []keyLiteral
}

// keyLiteral is the literal of one condition, as written.
type keyLiteral struct {
	integer bool
	text    string
}

func (s keyShape) key(sqlMode string) string {
	var b strings.Builder
	if s.prepared {
		b.WriteString("prepared\x00")
	}
	for _, part := range []string{sqlMode, s.db, ast.String(s.table), s.selectText, s.orderBy, s.limit} {
		b.WriteString(part)
		b.WriteByte(0)
	}
	for _, c := range s.conditions {
		b.WriteString(c.column + " " + c.op)
		for _, l := range c.literals {
			if l.integer {
				b.WriteString(" i")
			} else {
				b.WriteString(" s")
			}
		}
		b.WriteByte(0)
	}
	return b.String()
}

// keyShapeOf returns stmt's shape, or false when it is no key select:
// anything but plain columns of one table under a WHERE of comparisons of
// columns with literals, an optional ORDER BY of columns and LIMIT, and
// nothing else.
func keyShapeOf(stmt ast.Statement, currentDB string, bind binder) (keyShape, bool) {
	sel, ok := stmt.(*ast.Select)
	if !ok || sel.With != nil || sel.QueryOpts != (ast.QueryOpts{}) || len(sel.Comments) > 0 || sel.Where == nil ||
		len(sel.GroupBy) > 0 || sel.Having != nil || len(sel.Window) > 0 || sel.Lock != "" || sel.Into != nil ||
		len(sel.From) != 1 {
		return keyShape{}, false
	}
	shape := keyShape{db: currentDB, prepared: bind != nil}
	if !shape.setTable(sel.From[0]) || !shape.setSelectExprs(sel.SelectExprs) || !shape.setOrderBy(sel.OrderBy) || !shape.setLimit(sel.Limit) {
		return keyShape{}, false
	}
	if !shape.addConjuncts(sel.Where.Expr, bind) {
		return keyShape{}, false
	}
	return shape, true
}

func (s *keyShape) setTable(from ast.TableExpr) bool {
	t, ok := from.(*ast.AliasedTableExpr)
	if !ok || t.AsOf != nil || t.Hints != nil || len(t.Partitions) > 0 || t.Lateral {
		return false
	}
	name, ok := t.Expr.(ast.TableName)
	if !ok || !name.SchemaQualifier.IsEmpty() || strings.Contains(name.Name.String(), "$") {
		return false
	}
	if db := name.DbQualifier.String(); db != "" {
		s.db = db
	}
	s.table = t
	return s.db != ""
}

// setSelectExprs takes a select list of stars and column names, with or
// without aliases; the text of each is part of the shape, as the result's
// column names come from it.
func (s *keyShape) setSelectExprs(exprs ast.SelectExprs) bool {
	var b strings.Builder
	for _, e := range exprs {
		switch e := e.(type) {
		case *ast.StarExpr:
			b.WriteString(ast.String(e))
		case *ast.AliasedExpr:
			if _, ok := e.Expr.(*ast.ColName); !ok {
				return false
			}
			// The expression decides the column, the text as written its name.
			b.WriteString(ast.String(e.Expr) + " " + strconv.Quote(e.InputExpression) + " AS " + e.As.String())
		default:
			return false
		}
		b.WriteByte(',')
	}
	s.selectText = b.String()
	return true
}

// setOrderBy takes an ORDER BY of the table's columns.
func (s *keyShape) setOrderBy(order ast.OrderBy) bool {
	for _, o := range order {
		col, ok := o.Expr.(*ast.ColName)
		if !ok || col.StoredProcVal != nil || !s.qualifies(col) {
			return false
		}
	}
	s.orderBy = ast.String(order)
	return true
}

func (s *keyShape) setLimit(l *ast.Limit) bool {
	if l == nil {
		return true
	}
	if !isIntegerLiteral(l.Rowcount) || l.Offset != nil {
		return false
	}
	s.limit = ast.String(l)
	return true
}

func isIntegerLiteral(e ast.Expr) bool {
	v, ok := e.(*ast.SQLVal)
	return ok && v.Type == ast.IntVal
}

// flippedOps is the operator of a comparison whose sides are swapped, for
// the comparisons a condition takes.
var flippedOps = map[string]string{
	ast.EqualStr: ast.EqualStr, ast.LessThanStr: ast.GreaterThanStr, ast.GreaterThanStr: ast.LessThanStr,
	ast.LessEqualStr: ast.GreaterEqualStr, ast.GreaterEqualStr: ast.LessEqualStr,
}

// addConjuncts takes a WHERE clause of conditions joined by AND: column =,
// <, <=, > or >= a literal (either side), or column BETWEEN two literals.
func (s *keyShape) addConjuncts(e ast.Expr, bind binder) bool {
	switch e := e.(type) {
	case *ast.AndExpr:
		return s.addConjuncts(e.Left, bind) && s.addConjuncts(e.Right, bind)
	case *ast.ComparisonExpr:
		return s.addComparison(e, bind)
	case *ast.RangeCond:
		return s.addBetween(e, bind)
	}
	return false
}

func (s *keyShape) addComparison(cmp *ast.ComparisonExpr, bind binder) bool {
	flipped, known := flippedOps[cmp.Operator]
	if !known || cmp.Escape != nil {
		return false
	}
	op := cmp.Operator
	col, lit, ok := columnAndLiteral(cmp.Left, cmp.Right, bind)
	if !ok {
		col, lit, ok = columnAndLiteral(cmp.Right, cmp.Left, bind)
		op = flipped
	}
	return ok && s.addCondition(col, op, lit)
}

func (s *keyShape) addBetween(r *ast.RangeCond, bind binder) bool {
	if r.Operator != ast.BetweenStr {
		return false
	}
	col, from, ok := columnAndLiteral(r.Left, r.From, bind)
	if !ok {
		return false
	}
	_, to, ok := columnAndLiteral(r.Left, r.To, bind)
	return ok && s.addCondition(col, ast.BetweenStr, from, to)
}

func (s *keyShape) addCondition(col *ast.ColName, op string, literals ...keyLiteral) bool {
	if !s.qualifies(col) {
		return false
	}
	s.conditions = append(s.conditions, keyCondition{column: strings.ToLower(col.Name.String()), op: op, literals: literals})
	return true
}

func columnAndLiteral(left, right ast.Expr, bind binder) (*ast.ColName, keyLiteral, bool) {
	col, ok := left.(*ast.ColName)
	if !ok || col.StoredProcVal != nil {
		return nil, keyLiteral{}, false
	}
	if v, ok := right.(*ast.SQLVal); ok && v.Type == ast.ValArg {
		if bind == nil {
			return nil, keyLiteral{}, false
		}
		if right, ok = bind(string(v.Val)); !ok {
			return nil, keyLiteral{}, false
		}
	}
	lit, ok := literalOf(right)
	return col, lit, ok
}

// literalOf takes an integer (with an optional minus) or a plain string
// literal; a string with a character set introducer is an ast.UnaryExpr
// and is refused.
func literalOf(e ast.Expr) (keyLiteral, bool) {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Operator == ast.UMinusStr {
		if v, ok := u.Expr.(*ast.SQLVal); ok && v.Type == ast.IntVal {
			return keyLiteral{integer: true, text: "-" + string(v.Val)}, true
		}
		return keyLiteral{}, false
	}
	v, ok := e.(*ast.SQLVal)
	if !ok {
		return keyLiteral{}, false
	}
	switch v.Type {
	case ast.IntVal:
		return keyLiteral{integer: true, text: string(v.Val)}, true
	case ast.StrVal:
		return keyLiteral{text: string(v.Val)}, true
	}
	return keyLiteral{}, false
}

// qualifies reports a column qualified by nothing, or by the table's
// name or alias (with its database, if written).
func (s *keyShape) qualifies(col *ast.ColName) bool {
	q := col.Qualifier
	if q.IsEmpty() {
		return true
	}
	if db := q.DbQualifier.String(); db != "" && !strings.EqualFold(db, s.db) {
		return false
	}
	if alias := s.table.As.String(); alias != "" {
		return strings.EqualFold(q.Name.String(), alias) && q.DbQualifier.IsEmpty()
	}
	return strings.EqualFold(q.Name.String(), s.tableName())
}

// tableName is the table's name as written, without its database.
func (s *keyShape) tableName() string {
	return s.table.Expr.(ast.TableName).Name.String()
}
