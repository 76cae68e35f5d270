package sysprocs

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/variables"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// fixture is a warehouse in memory holding the table db.orders
// (dt, id, v), partitioned by dt, keyed by (dt, id), written through the
// real write and commit paths, and the procedures over it.
type fixture struct {
	*tabletest.Table
	fs    *memio.FS
	cat   *catalog.Catalog
	clock *clocktest.Clock
	procs *Procedures
}

var ordersTable = catalog.TableDefinition{
	Fields: []spec.DataField{
		{Name: "dt", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}},
		{Name: "id", Type: spec.DataType{Root: spec.BigInt}},
		{Name: "v", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
	},
	PartitionKeys: []string{"dt"},
	PrimaryKeys:   []string{"dt", "id"},
	Options:       map[string]string{"bucket": "1"},
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	// The clock is the time of commits, tags and procedures; only the test
	// moves it. memio stamps files with the wall clock, so the clock starts
	// at the wall clock, and a test ages files by advancing it.
	clock := clocktest.New(time.Now().UTC())
	fs := memio.New()
	f := &fixture{Table: tabletest.Create(t, tabletest.Config{FS: fs, Name: "orders", Now: clock.Now}, ordersTable),
		fs: fs, cat: catalog.New(fs, "wh", clock.Now), clock: clock}
	f.procs = New(Options{Catalog: f.cat, FileIO: f.fs, Now: f.clock.Now, NewUUID: f.NewUUID, Logger: quietLogger(),
		Sleep: f.clock.Sleep})
	return f
}

// insert commits rows (dt, id, v) one minute after the previous commit,
// with a watermark if one is given, and returns the new snapshot id.
func (f *fixture) insert(watermark *int64, rows ...[]any) int64 {
	f.T.Helper()
	f.clock.Advance(time.Minute)
	msgs := writetest.Prepare(f.Table, writetest.Options(f.Table), tabletest.Inserts(rows...)...)
	res := f.Commit("writer", commit.Request{Messages: msgs, Watermark: watermark})
	return res.Snapshots[len(res.Snapshots)-1]
}

// read returns the rows at tt, rendered and sorted.
func (f *fixture) read(tt snapshot.TimeTravel) ([]string, error) {
	return tabletest.ReadRows(f.fs, f.Dir, table.ReadOptions{At: tt})
}

func (f *fixture) mustRead(tt snapshot.TimeTravel) []string {
	f.T.Helper()
	rows, err := f.read(tt)
	if err != nil {
		f.T.Fatalf("read %+v: %v", tt, err)
	}
	return rows
}

func (f *fixture) snapshots() *snapshot.Manager { return snapshot.NewManager(f.fs, f.Dir, "") }

// liveFileCount is the number of data files the latest snapshot reads.
func (f *fixture) liveFileCount() int {
	f.T.Helper()
	return len(f.LiveFiles())
}

// initVariables registers MySQL's system variables, which sessions copy
// (time_zone among them); a server does this when it starts.
var initVariables sync.Once

// newContext is a session of user@host in database db whose privileges,
// if privileges is not nil, are the active privilege set go-mysql-server
// would have computed for the statement.
func newContext(db string, privileges sql.PrivilegeSet) *sql.Context {
	initVariables.Do(variables.InitSystemVariables)
	session := sql.NewBaseSessionWithClientServer("test", sql.Client{User: "user", Address: "host"}, 1)
	if privileges != nil {
		session.SetPrivilegeSet(privileges, 1)
	}
	ctx := sql.NewContext(context.Background(), sql.WithSession(session))
	ctx.SetCurrentDatabase(db)
	return ctx
}

// call runs a procedure as CALL sys.<name>(args…) would: it looks the
// variant up by argument count and converts each argument to its
// parameter type. Every row must match the declared schema.
func (f *fixture) call(ctx *sql.Context, name string, args ...any) ([]sql.Row, error) {
	f.T.Helper()
	d, err := f.procs.ExternalStoredProcedure(ctx, name, len(args))
	if err != nil || d == nil {
		f.T.Fatalf("no procedure %s/%d: %v", name, len(args), err)
	}
	fn := reflect.ValueOf(d.Function)
	if fn.Type().NumIn()-1 != len(args) {
		f.T.Fatalf("%s has no variant taking %d arguments", name, len(args))
	}
	in := []reflect.Value{reflect.ValueOf(ctx)}
	for i, a := range args {
		in = append(in, reflect.ValueOf(a).Convert(fn.Type().In(i+1)))
	}
	out := fn.Call(in)
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, out[0].Interface().(sql.RowIter))
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if len(r) != len(d.Schema) {
			f.T.Fatalf("%s returned row %v for schema of %d columns", name, r, len(d.Schema))
		}
	}
	return rows, nil
}

func (f *fixture) mustCall(ctx *sql.Context, name string, args ...any) []sql.Row {
	f.T.Helper()
	rows, err := f.call(ctx, name, args...)
	if err != nil {
		f.T.Fatalf("%s%v: %v", name, args, err)
	}
	return rows
}

// wantError checks that err is the MySQL error code whose message
// contains every fragment.
func wantError(t *testing.T, err error, code int, fragments ...string) {
	t.Helper()
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != code {
		t.Fatalf("error %v, want MySQL error %d", err, code)
	}
	for _, frag := range fragments {
		if !strings.Contains(se.Message, frag) {
			t.Errorf("error %q does not mention %q", se.Message, frag)
		}
	}
}

// quietLogger discards the procedures' log lines.
func quietLogger() logrus.FieldLogger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

func row(dt string, id int64, v string) []any { return []any{dt, id, v} }

func ptr[T any](v T) *T { return &v }
