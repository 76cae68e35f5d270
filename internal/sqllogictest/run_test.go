package sqllogictest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// reply is a canned answer of the fake server to one SQL text.
type reply struct {
	columns []string
	rows    [][]driver.Value
	err     error
	// hang makes the query wait until its context ends.
	hang bool
}

// fakeServer answers SQL by exact text, so Run can be tested without a
// database. Unknown SQL succeeds with no rows.
type fakeServer struct {
	replies map[string]reply
	dials   int
	// onHang, when set, is called as a query starts hanging.
	onHang func()
}

func (s *fakeServer) Connect(context.Context) (driver.Conn, error) {
	s.dials++
	return &fakeConn{server: s}, nil
}

func (s *fakeServer) Driver() driver.Driver { return nil }

// fakeConn breaks, as go-sql-driver's connection does, once it has
// returned mysql.ErrInvalidConn; the pool then discards it.
type fakeConn struct {
	server *fakeServer
	broken bool
}

func (c *fakeConn) IsValid() bool { return !c.broken }

func (c *fakeConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("not supported") }
func (c *fakeConn) Close() error                        { return nil }
func (c *fakeConn) Begin() (driver.Tx, error)           { return nil, errors.New("not supported") }

func (c *fakeConn) ExecContext(_ context.Context, query string, _ []driver.NamedValue) (driver.Result, error) {
	err := c.server.replies[query].err
	c.broken = errors.Is(err, mysql.ErrInvalidConn)
	if err != nil {
		return nil, err
	}
	return driver.RowsAffected(0), nil
}

func (c *fakeConn) QueryContext(ctx context.Context, query string, _ []driver.NamedValue) (driver.Rows, error) {
	r := c.server.replies[query]
	if r.hang {
		if c.server.onHang != nil {
			c.server.onHang()
		}
		<-ctx.Done()
		c.broken = true
		return nil, ctx.Err()
	}
	c.broken = errors.Is(r.err, mysql.ErrInvalidConn)
	if r.err != nil {
		return nil, r.err
	}
	return &fakeRows{reply: r}, nil
}

type fakeRows struct {
	reply reply
	next  int
}

func (r *fakeRows) Columns() []string { return r.reply.columns }
func (r *fakeRows) Close() error      { return nil }

func (r *fakeRows) Next(dest []driver.Value) error {
	if r.next == len(r.reply.rows) {
		return io.EOF
	}
	copy(dest, r.reply.rows[r.next])
	r.next++
	return nil
}

func twoColumns(rows ...[]driver.Value) reply {
	return reply{columns: []string{"a", "b"}, rows: rows}
}

func TestRun(t *testing.T) {
	const script = `statement ok
CREATE TABLE t1(a INTEGER, b INTEGER)

statement ok
CREATE UNIQUE INDEX t1i1 ON t1(a)

statement ok
CREATE TABLE t2(a INTEGER UNIQUE)

statement ok
INSERT INTO t2 VALUES(1)

query I nosort
SELECT a FROM t2
----
1

statement error
CREATE TABLE t1(a INTEGER)

statement error
CREATE TABLE t3(a INTEGER)

statement ok
INSERT INTO t9 VALUES(1)

query II rowsort
SELECT a, b FROM t1
----
10
3
2
9

query II rowsort
SELECT a, b FROM t1 WHERE a > 1
----
2
9

query I nosort
SELECT a, b FROM t1
----
10

skipif mysql
query I nosort
SELECT 'not run'
----
1

onlyif sqlite
statement ok
SELECT 'not run'

hash-threshold 2

query II rowsort
SELECT a, b FROM t1
----
4 values hashing to 3f2133fee712872e0ef019510b522c2f

query I nosort
SELECT lost

query I nosort
SELECT 1
----
1

statement error
DROP TABLE lost

halt

query I nosort
SELECT 'after halt'
`
	notSupported := &mysql.MySQLError{Number: 1235, Message: "index (a) on t2: unsupported: UNIQUE indexes: a Paimon file index only lets reads skip files and enforces nothing; a table's unique key is its PRIMARY KEY"}
	server := &fakeServer{replies: map[string]reply{
		"CREATE UNIQUE INDEX t1i1 ON t1(a)": {err: notSupported},
		"CREATE TABLE t2(a INTEGER UNIQUE)": {err: notSupported},
		"INSERT INTO t2 VALUES(1)":          {err: &mysql.MySQLError{Number: 1146, Message: "table not found: t2"}},
		"SELECT a FROM t2":                  {err: &mysql.MySQLError{Number: 1146, Message: "table not found: t2"}},
		"CREATE TABLE t1(a INTEGER)":        {err: &mysql.MySQLError{Number: 1050, Message: "table already exists"}},
		"INSERT INTO t9 VALUES(1)":          {err: &mysql.MySQLError{Number: 1146, Message: "table not found: t9"}},
		"SELECT a, b FROM t1":               twoColumns([]driver.Value{int64(2), int64(9)}, []driver.Value{int64(10), []byte("3.0")}),
		"SELECT a, b FROM t1 WHERE a > 1":   twoColumns([]driver.Value{int64(10), nil}),
		"SELECT lost":                       {err: mysql.ErrInvalidConn},
		"DROP TABLE lost":                   {err: mysql.ErrInvalidConn},
		"SELECT 1":                          {columns: []string{"1"}, rows: [][]driver.Value{{int64(1)}}},
		"SELECT 'after halt'":               {err: errors.New("must not run")},
	}}
	db := sql.OpenDB(server)
	defer db.Close()
	records, err := Parse(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	engine := Engine{Name: "mysql", Refusals: LakesqlRefusals, Dial: db.Conn}
	results, err := Run(context.Background(), engine, records)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line         int
		outcome      Outcome
		reason       string
		disconnected bool
	}{
		{1, Passed, "", false},
		{4, Skipped, "refused by design: UNIQUE indexes and indexes of several columns are refused", false},
		{7, Skipped, "refused by design: UNIQUE in CREATE TABLE is refused", false},
		{10, Skipped, "needs t2: its CREATE TABLE (line 7) was refused by design", false},
		{13, Skipped, "needs t2: its CREATE TABLE (line 7) was refused by design", false},
		{18, Passed, "", false},
		{21, Failed, "statement succeeded, expected an error", false},
		{24, Failed, "statement error: Error 1146", false},
		{27, Passed, "", false},
		{35, Failed, `wrong result: got ["10" "NULL"], expected ["2" "9"]`, false},
		{41, Failed, "wrong column count: got 2, expected 1", false},
		{46, Skipped, "skipif/onlyif", false},
		{52, Skipped, "skipif/onlyif", false},
		{58, Passed, "", false},
		{63, Failed, "connection lost: query error: invalid connection", true},
		{66, Passed, "", false},
		{71, Failed, "connection lost: invalid connection", true},
	}
	if len(results) != len(want) {
		t.Fatalf("got %d results, want %d: %+v", len(results), len(want), results)
	}
	for i, w := range want {
		r := results[i]
		if r.Line != w.line || r.Outcome != w.outcome || !strings.HasPrefix(r.Reason, w.reason) || r.Disconnected != w.disconnected {
			t.Errorf("result %d = line %d, outcome %d, %q, disconnected %v; want line %d, outcome %d, %q…, disconnected %v",
				i, r.Line, r.Outcome, r.Reason, r.Disconnected, w.line, w.outcome, w.reason, w.disconnected)
		}
	}
	if server.dials != 3 {
		t.Errorf("dialled %d times, want 3: once at the start, once after each lost connection", server.dials)
	}
	s := Summarize(results)
	if s.Executed != 11 || s.Passed != 5 || s.Failed != 6 || s.Skipped != 6 || s.Disconnects != 2 {
		t.Errorf("Summarize = %+v", s)
	}
}

func TestRunAbandonsRunawayRecord(t *testing.T) {
	const script = "query I nosort\nSELECT forever\n----\n1\n\nquery I nosort\nSELECT 1\n----\n1\n"
	server := &fakeServer{replies: map[string]reply{
		"SELECT forever": {hang: true},
		"SELECT 1":       {columns: []string{"1"}, rows: [][]driver.Value{{int64(1)}}},
	}}
	db := sql.OpenDB(server)
	defer db.Close()
	records, err := Parse(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	engine := Engine{Name: "mysql", Dial: db.Conn, RecordTimeout: time.Millisecond}
	results, err := Run(context.Background(), engine, records)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("got %d results, want 2: %+v", len(results), results)
	}
	if r := results[0]; r.Outcome != Failed || r.Reason != "abandoned after 1ms" || r.Disconnected {
		t.Errorf("runaway record: %+v, want failed as abandoned, not as a disconnect", r)
	}
	if r := results[1]; r.Outcome != Passed {
		t.Errorf("record after the runaway one: %+v, want passed on a new connection", r)
	}
	if server.dials != 2 {
		t.Errorf("dialled %d times, want 2", server.dials)
	}
}

func TestRunStopsWhenContextEnds(t *testing.T) {
	const script = "statement ok\nCREATE TABLE t1(a INTEGER)\n\nquery I nosort\nSELECT forever\n----\n1\n\nquery I nosort\nSELECT 1\n----\n1\n"
	server := &fakeServer{replies: map[string]reply{"SELECT forever": {hang: true}}}
	db := sql.OpenDB(server)
	defer db.Close()
	records, err := Parse(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	server.onHang = cancel
	results, err := Run(ctx, Engine{Name: "mysql", Dial: db.Conn}, records)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want the context's error", err)
	}
	if len(results) != 1 || results[0].Outcome != Passed {
		t.Errorf("results = %+v, want only the statement before the interrupted query", results)
	}
}

// TestRunSkipsWhatRefusalsTakeAway checks that the records after a
// refused statement that need what it would have made are skipped, not
// judged: a table whose CREATE TABLE was refused, and tables lacking a
// refused write or a write that needed such a table.
func TestRunSkipsWhatRefusalsTakeAway(t *testing.T) {
	const script = `statement ok
CREATE TABLE u(a INTEGER UNIQUE)

statement ok
INSERT INTO v SELECT * FROM u

query I nosort
SELECT count(*) FROM v
----
3

query I nosort
SELECT count(*) FROM w
----
0

statement ok
UPDATE x SET a = 2 WHERE a > 0

query I nosort
SELECT a FROM x
----
2

query I nosort
SELECT 1
----
2
`
	notSupported := &mysql.MySQLError{Number: 1235, Message: "index (a) on t2: unsupported: UNIQUE indexes: a Paimon file index only lets reads skip files and enforces nothing; a table's unique key is its PRIMARY KEY"}
	server := &fakeServer{replies: map[string]reply{
		"CREATE TABLE u(a INTEGER UNIQUE)": {err: notSupported},
		"INSERT INTO v SELECT * FROM u":    {err: &mysql.MySQLError{Number: 1146, Message: "table not found: u"}},
		"SELECT count(*) FROM v":           {columns: []string{"c"}, rows: [][]driver.Value{{int64(0)}}},
		"SELECT count(*) FROM w":           {err: &mysql.MySQLError{Number: 1146, Message: "table not found: w"}},
		"UPDATE x SET a = 2 WHERE a > 0":   {err: &mysql.MySQLError{Number: 1235, Message: "UPDATE refused for the test"}},
		"SELECT a FROM x":                  {columns: []string{"a"}, rows: [][]driver.Value{{int64(2)}}},
		"SELECT 1":                         {columns: []string{"1"}, rows: [][]driver.Value{{int64(1)}}},
	}}
	db := sql.OpenDB(server)
	defer db.Close()
	records, err := Parse(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	// No write of lakesql's is refused by design any more; one of the
	// test's own stands for it.
	refusals := append(slices.Clone(LakesqlRefusals), Refusal{
		Statement: regexp.MustCompile(`(?is)^\s*UPDATE\b`), Codes: []uint16{1235},
		Message: regexp.MustCompile(`UPDATE refused for the test`), Why: "the test refuses UPDATE",
	})
	results, err := Run(context.Background(), Engine{Name: "mysql", Refusals: refusals, Dial: db.Conn}, records)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		outcome Outcome
		reason  string
	}{
		{Skipped, "refused by design: UNIQUE in CREATE TABLE"},
		{Skipped, "needs u: its CREATE TABLE (line 1) was refused by design"},
		{Skipped, "needs v: it lacks the write of line 4, which was skipped as it needs u"},
		{Failed, "query error: Error 1146"},
		{Skipped, "refused by design: the test refuses UPDATE"},
		// Skipped although the answer matches: it is one over the wrong rows.
		{Skipped, "needs x: it lacks the write of line 17, which was refused by design"},
		{Failed, "wrong result"},
	}
	if len(results) != len(want) {
		t.Fatalf("got %d results, want %d: %+v", len(results), len(want), results)
	}
	for i, w := range want {
		if r := results[i]; r.Outcome != w.outcome || !strings.HasPrefix(r.Reason, w.reason) {
			t.Errorf("line %d: outcome %d, %q; want %d, %q…", r.Line, r.Outcome, r.Reason, w.outcome, w.reason)
		}
	}
}
