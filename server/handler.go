package server

import (
	"context"
	"runtime/debug"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/sqlbackend"
	"github.com/lakesql/lakesql/sqlbackend/metrics"
)

// handler wraps go-mysql-server's connection handler: it tracks
// connections for the limit and for shutdown, and turns a panic in any
// command into an error for that command. Vitess would recover such a panic
// too, but by dropping the connection (go-mysql-server.md §0.6). It does
// not pass on GMS's BinlogReplicaHandler: lakesql is no replication source,
// and vitess answers replication commands without it.
type handler struct {
	mysql.Handler
	// bound runs a plan made without go-mysql-server's analysis: the
	// cached plans of key selects (keySelects).
	bound      mysql.ExtendedHandler
	keySelects *sqlbackend.KeySelects
	tracker    *connTracker
	// connectTimeout is the deadline of the handshake, which authMethod
	// lifts once the client has authenticated.
	connectTimeout time.Duration
	// metrics counts statements by kind and outcome.
	metrics *metrics.Metrics
	// sessions finds the lakesql session of a connection.
	sessions *sessionRegistry
	// rerun says how autocommit statements that lose write-write
	// conflicts are run again (see runStatement).
	rerun rerunPolicy
}

func (h *handler) NewConnection(c *mysql.Conn) {
	_ = c.Conn.SetDeadline(time.Now().Add(h.connectTimeout))
	h.tracker.add(c)
	h.Handler.NewConnection(c)
}

func (h *handler) ConnectionClosed(c *mysql.Conn) {
	defer h.tracker.remove(c)
	defer h.sessions.remove(c.ConnectionID)
	defer recoverAsError(c, "connection close", nil)
	h.Handler.ConnectionClosed(c)
}

func (h *handler) ComInitDB(c *mysql.Conn, schemaName string) (err error) {
	defer recoverAsError(c, "COM_INIT_DB", &err)
	return clientError("USE "+schemaName, h.Handler.ComInitDB(c, schemaName))
}

func (h *handler) ComQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (err error) {
	defer recoverAsError(c, query, &err)
	defer func() { h.metrics.RecordStatement(query, err) }()
	defer h.recordEngine(c, time.Now())
	ctx, stop := h.watchClient(ctx, c)
	defer stop()
	return clientError(query, h.runStatement(ctx, c, query, callback, func(cb mysql.ResultSpoolFn) error {
		return h.runQuery(sqlbackend.WithWireSpool(ctx, sqlbackend.WireSpool(cb), false), c, query, cb)
	}))
}

// runQuery runs one statement, a key select from its shape's cached plan
// when there is one, else through go-mysql-server's analysis.
func (h *handler) runQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) error {
	sess := h.sessions.get(c.ConnectionID)
	if res, ok := systemSchema(sess, query); ok {
		return callback(res, false)
	}
	sel := h.keySelects.Match(ctx, sess, query)
	return h.runKeySelect(ctx, c, query, sel, callback, func() error {
		return h.Handler.ComQuery(ctx, c, query, callback)
	})
}

// systemSchema answers a statement on the mysql database's tables that
// go-mysql-server cannot (systemSchemaResult), in the connection's
// session, sess; it is nil until the client has sent a statement.
func systemSchema(sess *sqlbackend.Session, query string) (*sqltypes.Result, bool) {
	if sess == nil {
		return nil, false
	}
	return systemSchemaResult(sess.GetCurrentDatabase(), query)
}

// runKeySelect runs a statement that may be a key select (sel, nil when
// it is none) from its shape's cached plan, else through analyze, which
// teaches the cache the plan of a key select.
func (h *handler) runKeySelect(ctx context.Context, c *mysql.Conn, query string, sel *sqlbackend.KeySelect, callback mysql.ResultSpoolFn, analyze func() error) error {
	if sel == nil {
		return analyze()
	}
	if plan, ok := sel.Plan(); ok {
		err := h.bound.ComExecuteBound(ctx, c, query, plan, callback)
		if !sel.Stale() {
			h.metrics.RecordKeySelectPlan("cached")
			return err
		}
		h.metrics.RecordKeySelectPlan("stale")
	}
	sel.Record()
	err := analyze()
	if sel.Finish(err) {
		h.metrics.RecordKeySelectPlan("learned")
	}
	return err
}

func (h *handler) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (remainder string, err error) {
	defer recoverAsError(c, query, &err)
	defer func() { h.metrics.RecordStatement(query, err) }()
	defer h.recordEngine(c, time.Now())
	ctx, stop := h.watchClient(ctx, c)
	defer stop()
	err = h.runStatement(ctx, c, query, callback, func(cb mysql.ResultSpoolFn) error {
		if res, ok := systemSchema(h.sessions.get(c.ConnectionID), query); ok {
			return cb(res, false)
		}
		var runErr error
		remainder, runErr = h.Handler.ComMultiQuery(sqlbackend.WithWireSpool(ctx, sqlbackend.WireSpool(cb), false), c, query, cb)
		return runErr
	})
	return remainder, clientError(query, err)
}

func (h *handler) ComPrepare(ctx context.Context, c *mysql.Conn, query string, prepare *mysql.PrepareData) (fields []*querypb.Field, err error) {
	defer recoverAsError(c, query, &err)
	fields, err = h.Handler.ComPrepare(ctx, c, query, prepare)
	return fields, clientError(query, err)
}

func (h *handler) ComStmtExecute(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) (err error) {
	defer recoverAsError(c, prepare.PrepareStmt, &err)
	defer func() { h.metrics.RecordStatement(prepare.PrepareStmt, err) }()
	defer h.recordEngine(c, time.Now())
	ctx, stop := h.watchClient(ctx, c)
	defer stop()
	spool := func(r *sqltypes.Result, _ bool) error { return callback(r) }
	return clientError(prepare.PrepareStmt, h.runStatement(ctx, c, prepare.PrepareStmt, spool, func(cb mysql.ResultSpoolFn) error {
		// A server-side cursor keeps the rows it is given until the client
		// fetches them.
		ctx := sqlbackend.WithWireSpool(ctx, sqlbackend.WireSpool(cb), true)
		sel := h.keySelects.MatchPrepared(ctx, h.sessions.get(c.ConnectionID), prepare.PrepareStmt, prepare.BindVars)
		return h.runKeySelect(ctx, c, prepare.PrepareStmt, sel, cb, func() error {
			return h.Handler.ComStmtExecute(ctx, c, prepare, func(r *sqltypes.Result) error { return cb(r, false) })
		})
	}))
}

func (h *handler) ComResetConnection(c *mysql.Conn) (err error) {
	defer recoverAsError(c, "COM_RESET_CONNECTION", &err)
	return h.Handler.ComResetConnection(c)
}

// recordEngine counts a statement by the engine its reads ran on, and its
// time from start, when the vectorized executor considered it.
func (h *handler) recordEngine(c *mysql.Conn, start time.Time) {
	sess := h.sessions.get(c.ConnectionID)
	if sess == nil {
		return
	}
	if engine := sess.TakeStatementEngine(); engine != "" {
		h.metrics.RecordEngineChoice(engine)
		h.metrics.RecordEngineTime(engine, time.Since(start))
	}
}

// recoverAsError logs a panic of the command being run with its stack and
// makes it the command's error (when the command returns one), so the
// client gets ER_UNKNOWN_ERROR and keeps its connection.
func recoverAsError(c *mysql.Conn, command string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	logrus.WithField("connectionID", c.ConnectionID).WithField("command", command).
		Errorf("recovered panic: %v\n%s", r, debug.Stack())
	if err != nil {
		*err = mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "internal error: %v", r)
	}
}
