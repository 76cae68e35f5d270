package sqlbackend

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
)

// interleavingFS runs a function once, the first time a commit of the
// armed commit user reads its receipt: the first thing a commit does, after
// the statement read its snapshot and wrote its files. That is where a
// concurrent writer's commit lands between a statement's read and its
// commit, deterministically.
type interleavingFS struct {
	fileio.FileIO
	mu     sync.Mutex
	user   string
	action func()
}

func (f *interleavingFS) arm(user string, action func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.user, f.action = user, action
}

func (f *interleavingFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	f.mu.Lock()
	action := f.action
	if action != nil && strings.HasSuffix(p, "/commit-user/"+f.user) {
		f.action = nil
	} else {
		action = nil
	}
	f.mu.Unlock()
	if action != nil {
		action()
	}
	return f.FileIO.ReadFile(ctx, p)
}

// conflictHarness is acct(id BIGINT PRIMARY KEY, bal BIGINT) holding ids
// 1..3 with balance 100, and two connections to it.
type conflictHarness struct {
	h    *harness
	fs   *interleavingFS
	a, b *conn
}

func newConflictHarness(t *testing.T) *conflictHarness {
	fs := &interleavingFS{FileIO: localio.New()}
	h := newHarnessOver(t, t.TempDir(), fs)
	ch := &conflictHarness{h: h, fs: fs, a: h.connect(), b: h.connect()}
	ch.a.mustExec("CREATE DATABASE bank", "USE bank",
		"CREATE TABLE acct (id BIGINT PRIMARY KEY, bal BIGINT) COMMENT 'paimon:{\"bucket\":\"2\"}'",
		"INSERT INTO acct VALUES (1, 100), (2, 100), (3, 100)")
	ch.b.mustExec("USE bank")
	return ch
}

// runInterleaved runs statement mine on a, with theirs run to completion
// on b between mine's read and its commit.
func (ch *conflictHarness) runInterleaved(t *testing.T, mine string, theirs ...string) error {
	t.Helper()
	ch.fs.arm(ch.a.session.commitUser, func() {
		for _, q := range theirs {
			ch.b.mustExec(q)
		}
	})
	_, err := ch.a.query(mine)
	if ch.fs.action != nil {
		t.Fatalf("%s committed without the interleaving running", mine)
	}
	return err
}

func isDeadlock(err error) bool {
	var se *mysql.SQLError
	return errors.As(err, &se) && se.Num == mysql.ERLockDeadlock && se.State == mysql.SSLockDeadlock
}

// TestAutocommitWriteConflicts: an autocommit statement whose rows derive
// from rows it read fails to commit when a commit since its read wrote one
// of its keys, and is marked for the server to run again; a blind upsert
// stays last-writer-wins unless lakesql_conflict_check = 'all'.
func TestAutocommitWriteConflicts(t *testing.T) {
	cases := []struct {
		name   string
		setup  []string
		mine   string
		theirs []string
		// conflict: mine fails with 1213, rerunnable; else it commits.
		conflict bool
		rows     []string
	}{
		{name: "UPDATE against UPDATE of the key",
			mine: "UPDATE acct SET bal = bal + 1 WHERE id = 1", theirs: []string{"UPDATE acct SET bal = bal + 1 WHERE id = 1"},
			conflict: true, rows: []string{"[1 101]", "[2 100]", "[3 100]"}},
		{name: "UPDATE against UPDATE of another key",
			mine: "UPDATE acct SET bal = bal + 1 WHERE id = 1", theirs: []string{"UPDATE acct SET bal = bal + 1 WHERE id = 2"},
			rows: []string{"[1 101]", "[2 101]", "[3 100]"}},
		{name: "UPDATE against DELETE of the key",
			mine: "UPDATE acct SET bal = bal + 5 WHERE id = 2", theirs: []string{"DELETE FROM acct WHERE id = 2"},
			conflict: true, rows: []string{"[1 100]", "[3 100]"}},
		{name: "DELETE WHERE against UPDATE of the key",
			mine: "DELETE FROM acct WHERE bal >= 100 AND id = 3", theirs: []string{"UPDATE acct SET bal = 0 WHERE id = 3"},
			conflict: true, rows: []string{"[1 100]", "[2 100]", "[3 0]"}},
		{name: "upserts reading the old row",
			mine:     "INSERT INTO acct VALUES (1, 0) ON DUPLICATE KEY UPDATE bal = bal + 7",
			theirs:   []string{"INSERT INTO acct VALUES (1, 0) ON DUPLICATE KEY UPDATE bal = bal + 7"},
			conflict: true, rows: []string{"[1 107]", "[2 100]", "[3 100]"}},
		{name: "upsert of a new key against an insert of it",
			mine:     "INSERT INTO acct VALUES (9, 1) ON DUPLICATE KEY UPDATE bal = bal + 1",
			theirs:   []string{"INSERT INTO acct VALUES (9, 50)"},
			conflict: true, rows: []string{"[1 100]", "[2 100]", "[3 100]", "[9 50]"}},
		{name: "INSERT … SELECT from the same table",
			mine:     "INSERT INTO acct SELECT id + 100, bal FROM acct WHERE id = 1",
			theirs:   []string{"INSERT INTO acct VALUES (101, 5)"},
			conflict: true, rows: []string{"[1 100]", "[2 100]", "[3 100]", "[101 5]"}},
		{name: "blind INSERT is last-writer-wins",
			mine: "INSERT INTO acct VALUES (1, 1)", theirs: []string{"UPDATE acct SET bal = 2 WHERE id = 1"},
			rows: []string{"[1 1]", "[2 100]", "[3 100]"}},
		{name: "blind REPLACE is last-writer-wins",
			mine: "REPLACE INTO acct VALUES (1, 1)", theirs: []string{"UPDATE acct SET bal = 2 WHERE id = 1"},
			rows: []string{"[1 1]", "[2 100]", "[3 100]"}},
		{name: "blind INSERT under lakesql_conflict_check = 'all'",
			setup: []string{"SET lakesql_conflict_check = 'all'"},
			mine:  "INSERT INTO acct VALUES (1, 1)", theirs: []string{"UPDATE acct SET bal = 2 WHERE id = 1"},
			conflict: true, rows: []string{"[1 2]", "[2 100]", "[3 100]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := newConflictHarness(t)
			ch.a.mustExec(c.setup...)
			err := ch.runInterleaved(t, c.mine, c.theirs...)
			rerun := ch.a.session.TakeRerunnable()
			switch {
			case c.conflict && (!isDeadlock(err) || !rerun):
				t.Fatalf("%s: %v (rerunnable %v), want 1213 / 40001 and rerunnable", c.mine, err, rerun)
			case !c.conflict && err != nil:
				t.Fatalf("%s: %v", c.mine, err)
			}
			wantRows(t, ch.b, "SELECT id, bal FROM acct ORDER BY id", c.rows...)
		})
	}
}

// TestTransactionWriteConflicts: a COMMIT fails with 1213, is rolled back
// and is not rerunnable when a commit since the transaction read the
// table wrote a key it writes, blind writes included; keys it only read
// are not checked (write skew, as in snapshot isolation).
func TestTransactionWriteConflicts(t *testing.T) {
	cases := []struct {
		name     string
		mine     []string
		theirs   []string
		conflict bool
		rows     []string
	}{
		{name: "UPDATE in a transaction against an autocommit UPDATE",
			mine: []string{"UPDATE acct SET bal = bal + 1 WHERE id = 1"}, theirs: []string{"UPDATE acct SET bal = bal + 1 WHERE id = 1"},
			conflict: true, rows: []string{"[1 101]", "[2 100]", "[3 100]"}},
		{name: "UPDATE in a transaction against a DELETE: the row does not come back",
			mine: []string{"UPDATE acct SET bal = bal + 5 WHERE id = 2"}, theirs: []string{"DELETE FROM acct WHERE id = 2"},
			conflict: true, rows: []string{"[1 100]", "[3 100]"}},
		{name: "a blind INSERT in a transaction is checked",
			mine: []string{"INSERT INTO acct VALUES (7, 1)"}, theirs: []string{"INSERT INTO acct VALUES (7, 2)"},
			conflict: true, rows: []string{"[1 100]", "[2 100]", "[3 100]", "[7 2]"}},
		{name: "a transfer against a transfer sharing an account",
			mine:     []string{"UPDATE acct SET bal = bal - 10 WHERE id = 1", "UPDATE acct SET bal = bal + 10 WHERE id = 2"},
			theirs:   []string{"UPDATE acct SET bal = bal - 5 WHERE id = 2"},
			conflict: true, rows: []string{"[1 100]", "[2 95]", "[3 100]"}},
		{name: "write skew: a key only read is not checked",
			mine:   []string{"SELECT bal FROM acct WHERE id = 1", "UPDATE acct SET bal = bal - 10 WHERE id = 3"},
			theirs: []string{"UPDATE acct SET bal = 0 WHERE id = 1"},
			rows:   []string{"[1 0]", "[2 100]", "[3 90]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := newConflictHarness(t)
			ch.a.mustExec("BEGIN")
			ch.a.mustExec(c.mine...)
			err := ch.runInterleaved(t, "COMMIT", c.theirs...)
			rerun := ch.a.session.TakeRerunnable()
			switch {
			case c.conflict && (!isDeadlock(err) || rerun):
				t.Fatalf("COMMIT: %v (rerunnable %v), want 1213 / 40001, not rerunnable", err, rerun)
			case c.conflict && !strings.Contains(err.Error(), "bank.acct") && !strings.Contains(err.Error(), "acct"):
				t.Errorf("COMMIT error %q does not name the table", err)
			case !c.conflict && err != nil:
				t.Fatalf("COMMIT: %v", err)
			}
			wantRows(t, ch.a, "SELECT id, bal FROM acct ORDER BY id", c.rows...)
		})
	}
}

// TestConflictErrorNamesEverything: the 1213 of a lost transaction names
// the table, the key, both snapshots and both commit users.
func TestConflictErrorNamesEverything(t *testing.T) {
	ch := newConflictHarness(t)
	ch.b.mustExec("SET lakesql_commit_user = 'cdc-writer'")
	ch.a.mustExec("BEGIN", "UPDATE acct SET bal = 1 WHERE id = 2")
	err := ch.runInterleaved(t, "COMMIT", "UPDATE acct SET bal = 2 WHERE id = 2")
	if !isDeadlock(err) {
		t.Fatalf("COMMIT: %v, want 1213", err)
	}
	for _, want := range []string{"bank.acct", "(id) = '2'", "read snapshot 1", "snapshot 2 (user=cdc-writer", ch.a.session.commitUser} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

// commitErrorNumber is the MySQL error number a client gets for err.
func commitErrorNumber(err error) int {
	if err == nil {
		return 0
	}
	return sql.CastSQLError(err).Num
}

// TestSharedCommitUserIsRefused: a second live session setting the same
// commit user without identifiers is refused at its first write, before
// writing anything; once the first session ends, the user is free.
func TestSharedCommitUserIsRefused(t *testing.T) {
	ch := newConflictHarness(t)
	for _, c := range []*conn{ch.a, ch.b} {
		c.mustExec("SET lakesql_commit_user = 'flink-cdc-pay'")
	}
	ch.a.mustExec("INSERT INTO acct VALUES (10, 1)")
	before := ch.h.latestSnapshotOf(t, "bank", "acct")
	_, err := ch.b.query("INSERT INTO acct VALUES (11, 1)")
	if commitErrorNumber(err) != mysqlerr.ErrorDuringCommit || !strings.Contains(err.Error(), "in use by another live writer") {
		t.Fatalf("second session's write: %v, want 1180 naming the other writer", err)
	}
	if got := ch.h.latestSnapshotOf(t, "bank", "acct"); got != before {
		t.Fatalf("the refused write published snapshot %d", got)
	}
	ch.a.mustExec("INSERT INTO acct VALUES (12, 1)")
	ch.a.session.SessionEnd()
	ch.b.mustExec("INSERT INTO acct VALUES (11, 1)")
	wantRows(t, ch.b, "SELECT id FROM acct WHERE id >= 10 ORDER BY id", "[10]", "[11]", "[12]")
}

// TestSessionIdentifiersPassTheNewest: identifiers lakesql picks for a
// named user start above the newest one the user committed, whatever the
// clock says, so that they are never taken for older commits.
func TestSessionIdentifiersPassTheNewest(t *testing.T) {
	ch := newConflictHarness(t)
	const future = int64(9_000_000_000_000_000)
	ch.a.mustExec("SET lakesql_commit_user = 'job'", "SET lakesql_commit_identifier = 9000000000000000",
		"INSERT INTO acct VALUES (20, 1)")
	ch.b.mustExec("SET lakesql_commit_user = 'job'", "INSERT INTO acct VALUES (21, 1)")
	s := ch.h.latestSnapshotHeader(t, "bank", "acct")
	if s.CommitUser != "job" || s.CommitIdentifier <= future {
		t.Fatalf("latest snapshot by %s identifier %d, want job above %d", s.CommitUser, s.CommitIdentifier, future)
	}
}

// TestIdentifierReuseIsCheckedByContent: re-running a statement under the
// same user and identifier writes nothing and reports no rows, with a
// warning; another statement under them is refused.
func TestIdentifierReuseIsCheckedByContent(t *testing.T) {
	ch := newConflictHarness(t)
	ch.a.mustExec("SET lakesql_commit_user = 'fix-job'", "SET lakesql_commit_identifier = 42",
		"INSERT INTO acct VALUES (1, 55)")
	if ch.a.session.TakeSkipped() {
		t.Fatal("the first run was taken for a skipped one")
	}
	ch.a.mustExec("INSERT INTO acct VALUES (1, 55)")
	if !ch.a.session.TakeSkipped() {
		t.Fatal("the re-run of the same statement was not reported skipped")
	}
	if w := ch.a.session.Warnings(); len(w) == 0 || !strings.Contains(w[0].Message, "already committed in snapshot 2") {
		t.Fatalf("re-run warnings %v, want one naming snapshot 2", w)
	}
	_, err := ch.a.query("UPDATE acct SET bal = 66 WHERE id = 2")
	if commitErrorNumber(err) != mysqlerr.ErrorDuringCommit || !strings.Contains(err.Error(), "with other rows") {
		t.Fatalf("another statement under the same identifier: %v, want 1180 naming other rows", err)
	}
	wantRows(t, ch.b, "SELECT id, bal FROM acct ORDER BY id", "[1 55]", "[2 100]", "[3 100]")
}
