package sqlbackend

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
)

// Session is one client connection. Its transaction pins snapshots and
// stages writes until commit.
type Session struct {
	*sql.BaseSession
	backend *Backend
	// commitUser is the default commit user of this session: unique per
	// session, so two sessions never share one (storage/commit refuses
	// live writers sharing a user).
	commitUser string
	// nextIdentifier numbers this session's commits under commitUser, or
	// the last identifier lakesql picked for a named user.
	nextIdentifier atomic.Int64
	// claims are the commit users the session claimed (see identity.go).
	claims sessionClaims
	// outcome is what the last statement's commit leaves for the server.
	outcome statementOutcome
	// statementEngine is the engine the running statement's reads run
	// on, for the server's metrics (see TakeStatementEngine).
	statementEngine atomic.Value

	overwriteMu sync.Mutex
	// overwrite is the INSERT OVERWRITE being run, set when its text is
	// parsed and taken by its first write.
	overwrite *pendingOverwrite
	// alter is the table-level part of an ALTER TABLE being run, set when
	// its text is parsed and taken by the CALL it became.
	alter *pendingAlter
	// values are the tuples of a bulk INSERT being run, set when its text
	// is parsed and taken by the literal path (see bulkvalues.go).
	values *pendingValues
	// keyRecording is the key select whose plan the running
	// statement's analysis learns (see KeySelect.Record).
	keyRecording atomic.Pointer[KeySelect]
}

var _ sql.TransactionSession = (*Session)(nil)

// noteEngine records the engine the running statement's reads run on.
func (s *Session) noteEngine(engine string) { s.statementEngine.Store(engine) }

// TakeStatementEngine returns the engine the last statement's reads ran
// on (duckdb, gms, or gms-fallback when the executor refused at run time)
// and forgets it; "" when the vectorized executor never considered the
// statement (no executor, a write, no table read).
func (s *Session) TakeStatementEngine() string {
	engine, _ := s.statementEngine.Swap("").(string)
	return engine
}

// overwritePending reports whether the statement being run is an INSERT
// OVERWRITE of the table, before its first write takes it.
func (s *Session) overwritePending(db, table string) bool {
	s.overwriteMu.Lock()
	defer s.overwriteMu.Unlock()
	o := s.overwrite
	return o != nil && strings.EqualFold(o.db, db) && strings.EqualFold(o.table, table)
}

// NewSession wraps a GMS base session.
func (b *Backend) NewSession(base *sql.BaseSession) *Session {
	s := &Session{BaseSession: base, backend: b, commitUser: "lakesql-" + b.newUUID()}
	s.claims.written = map[claimKey]time.Time{}
	return s
}

// Transaction is what a GMS transaction means here: the snapshots pinned
// for reading and the writes staged for commit.
type Transaction struct {
	id       uint64
	readOnly bool
	now      func() time.Time

	mu sync.Mutex
	// readView is when this transaction's consistent reads began: tables
	// first read later in an explicit transaction are pinned at the newest
	// snapshot committed by then.
	readView time.Time
	pins     map[string]pin
	writes   *stagedWrites
}

var transactionIDs atomic.Uint64

// String implements sql.Transaction.
func (t *Transaction) String() string { return fmt.Sprintf("lakesql-tx-%d", t.id) }

// IsReadOnly implements sql.Transaction.
func (t *Transaction) IsReadOnly() bool { return t.readOnly }

// StartTransaction implements sql.TransactionSession. GMS calls it before
// every statement in autocommit mode, so it must be cheap: pins are taken
// lazily when a table is first used.
func (s *Session) StartTransaction(ctx *sql.Context, characteristic sql.TransactionCharacteristic) (sql.Transaction, error) {
	tx := &Transaction{
		id:       transactionIDs.Add(1),
		readOnly: characteristic == sql.ReadOnly,
		now:      s.backend.opts.Now,
		pins:     map[string]pin{},
		writes:   newStagedWrites(),
	}
	if consistentSnapshotRequested(ctx) {
		tx.readView = tx.now()
	}
	return tx, nil
}

// CommitTransaction implements sql.TransactionSession: each table written
// gets one commit. GMS calls it after failed statements too, with nothing
// staged, and for every read-only statement; both are no-ops.
//
// A commit that fails, by error or panic, ends the transaction: its writes
// are released by commitStaged, and the session leaves the transaction
// (see endFailedTransaction).
func (s *Session) CommitTransaction(ctx *sql.Context, tx sql.Transaction) error {
	t, ok := tx.(*Transaction)
	if !ok {
		return nil
	}
	if err := t.writes.settle(ctx); err != nil {
		t.writes.abort(ctx)
		endFailedTransaction(ctx)
		return mysqlerr.From(err)
	}
	if t.writes.empty() {
		// A writer whose statements all failed holds only files no
		// commit will name: delete them and release its buffers.
		t.writes.abort(ctx)
		return nil
	}
	committed := false
	defer func() {
		if !committed {
			endFailedTransaction(ctx)
		}
	}()
	if err := s.commitStaged(ctx, t); err != nil {
		return err
	}
	committed = true
	return nil
}

// endFailedTransaction ends a transaction whose commit failed, as MySQL
// ends one rolled back on a deadlock. GMS clears the session's transaction
// only after a COMMIT (or an autocommit statement's commit) succeeds; after
// a failure it would keep the transaction, so the connection would go on
// reading its pinned snapshots, and after BEGIN … COMMIT it would stay in
// explicit mode with nothing left to commit. Dropping the transaction,
// and its pins with it, and the explicit mode makes the next statement
// start a new transaction of its own.
func endFailedTransaction(ctx *sql.Context) {
	ctx.SetIgnoreAutoCommit(false)
	ctx.SetTransaction(nil)
}

// EndFailedStatement ends the transaction of an autocommit statement that
// failed. GMS commits an autocommit statement's transaction when its
// result iterator closes, which the server never does for a statement
// that failed while running (a failed INSERT, a refused write), and only
// starts a transaction when the session has none. Left alone, the
// connection's next statement would run in the failed statement's
// transaction: read the snapshots it pinned, however old, and commit
// whatever it staged. Inside an explicit transaction a failed statement
// leaves the transaction as MySQL does.
func (s *Session) EndFailedStatement() {
	if s.GetIgnoreAutoCommit() {
		return
	}
	ctx := sql.NewContext(context.Background(), sql.WithSession(s))
	if explicitTransaction(ctx) {
		return
	}
	if t, ok := s.GetTransaction().(*Transaction); ok {
		t.writes.abort(ctx)
		s.SetTransaction(nil)
	}
}

// Rollback implements sql.TransactionSession: staged files are deleted and
// nothing reaches a snapshot.
func (s *Session) Rollback(ctx *sql.Context, tx sql.Transaction) error {
	if t, ok := tx.(*Transaction); ok {
		t.writes.abort(ctx)
	}
	return nil
}

// CreateSavepoint implements sql.TransactionSession.
func (s *Session) CreateSavepoint(*sql.Context, sql.Transaction, string) error {
	return sql.ErrUnsupportedFeature.New("SAVEPOINT")
}

// RollbackToSavepoint implements sql.TransactionSession.
func (s *Session) RollbackToSavepoint(*sql.Context, sql.Transaction, string) error {
	return sql.ErrUnsupportedFeature.New("ROLLBACK TO SAVEPOINT")
}

// ReleaseSavepoint implements sql.TransactionSession.
func (s *Session) ReleaseSavepoint(*sql.Context, sql.Transaction, string) error {
	return sql.ErrUnsupportedFeature.New("RELEASE SAVEPOINT")
}

// explicitTransaction reports whether the statement runs inside BEGIN …
// COMMIT (or with autocommit off) rather than as its own transaction.
func explicitTransaction(ctx *sql.Context) bool {
	if ctx.GetIgnoreAutoCommit() {
		return true
	}
	v, err := ctx.GetSessionVariable(ctx, "autocommit")
	if err != nil {
		return false
	}
	on, _, _ := sqlBool(v)
	return !on
}

func consistentSnapshotRequested(ctx *sql.Context) bool {
	// StartTransaction runs before every statement: only a START
	// statement is scanned, so a large INSERT is not upper-cased each time.
	q := ctx.Query()
	return startsWithFold(q, "START") && strings.Contains(strings.ToUpper(q), "WITH CONSISTENT SNAPSHOT")
}

func sqlBool(v any) (value, ok bool, err error) {
	switch x := v.(type) {
	case bool:
		return x, true, nil
	case int8:
		return x != 0, true, nil
	case int64:
		return x != 0, true, nil
	case int:
		return x != 0, true, nil
	}
	return false, false, nil
}

func (b *Backend) newUUID() string {
	if b.opts.NewUUID != nil {
		return b.opts.NewUUID()
	}
	var u [16]byte
	_, _ = rand.Read(u[:]) // crypto/rand.Read never fails on Linux
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}
