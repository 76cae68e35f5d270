package sysprocs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/variables"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// fixture is a warehouse in memory holding the table db.orders
// (dt, id, v), partitioned by dt, keyed by (dt, id), written through the
// real write and commit paths.
type fixture struct {
	t     *testing.T
	fs    *memio.FS
	cat   *catalog.Catalog
	clock *clocktest.Clock
	procs *Procedures
	dir   string

	mu         sync.Mutex
	uuids      int
	identifier int64
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
	f := &fixture{t: t, fs: memio.New(), clock: clocktest.New(time.Now().UTC())}
	f.cat = catalog.New(f.fs, "wh", f.clock.Now)
	ctx := context.Background()
	if err := f.cat.CreateDatabase(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	if err := f.cat.CreateTable(ctx, "db", "orders", ordersTable, false); err != nil {
		t.Fatal(err)
	}
	dir, err := f.cat.TablePath("db", "orders")
	if err != nil {
		t.Fatal(err)
	}
	f.dir = dir
	f.procs = New(Options{Catalog: f.cat, FileIO: f.fs, Now: f.clock.Now, NewUUID: f.newUUID, Logger: quietLogger(),
		Sleep: f.clock.Sleep})
	return f
}

func (f *fixture) newUUID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.uuids++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", f.uuids)
}

// insert commits rows (dt, id, v) one minute after the previous commit,
// with a watermark if one is given, and returns the new snapshot id.
func (f *fixture) insert(watermark *int64, rows ...[]any) int64 {
	f.t.Helper()
	ctx := context.Background()
	f.clock.Advance(time.Minute)
	w, err := write.Open(ctx, write.Options{FileIO: f.fs, TableDir: f.dir, Now: f.clock.Now, NewUUID: f.newUUID, SpillDir: f.t.TempDir()})
	if err != nil {
		f.t.Fatal(err)
	}
	defer w.Close()
	for _, r := range rows {
		if err := w.Write(ctx, r, spec.RowKindInsert); err != nil {
			f.t.Fatal(err)
		}
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	c, err := commit.New(commit.Options{FileIO: f.fs, TableDir: f.dir, Core: w.Schema().CoreOptions(), Now: f.clock.Now,
		NewUUID: f.newUUID, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		f.t.Fatal(err)
	}
	f.identifier++
	res, err := c.Commit(ctx, commit.Request{CommitUser: "writer", Identifier: f.identifier, Messages: msgs, Watermark: watermark})
	if err != nil {
		f.t.Fatal(err)
	}
	return res.Snapshots[len(res.Snapshots)-1]
}

// read returns the rows at tt, rendered and sorted.
func (f *fixture) read(tt snapshot.TimeTravel) ([]string, error) {
	ctx := context.Background()
	tbl, err := table.Open(ctx, f.fs, f.dir)
	if err != nil {
		return nil, err
	}
	rows, err := tbl.Read(ctx, table.ReadOptions{At: tt})
	if err != nil {
		return nil, err
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(all))
	for i, r := range all {
		out[i] = strings.TrimSpace(fmt.Sprintln(r...))
	}
	slices.Sort(out)
	return out, nil
}

func (f *fixture) mustRead(tt snapshot.TimeTravel) []string {
	f.t.Helper()
	rows, err := f.read(tt)
	if err != nil {
		f.t.Fatalf("read %+v: %v", tt, err)
	}
	return rows
}

func (f *fixture) snapshots() *snapshot.Manager { return snapshot.NewManager(f.fs, f.dir, "") }

// liveFileCount is the number of data files the latest snapshot reads.
func (f *fixture) liveFileCount() int {
	f.t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, f.fs, f.dir)
	if err != nil {
		f.t.Fatal(err)
	}
	latest, err := f.snapshots().Latest(ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	live, err := tbl.LiveFiles(ctx, latest)
	if err != nil {
		f.t.Fatal(err)
	}
	return len(live)
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
	f.t.Helper()
	d, err := f.procs.ExternalStoredProcedure(ctx, name, len(args))
	if err != nil || d == nil {
		f.t.Fatalf("no procedure %s/%d: %v", name, len(args), err)
	}
	fn := reflect.ValueOf(d.Function)
	if fn.Type().NumIn()-1 != len(args) {
		f.t.Fatalf("%s has no variant taking %d arguments", name, len(args))
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
			f.t.Fatalf("%s returned row %v for schema of %d columns", name, r, len(d.Schema))
		}
	}
	return rows, nil
}

func (f *fixture) mustCall(ctx *sql.Context, name string, args ...any) []sql.Row {
	f.t.Helper()
	rows, err := f.call(ctx, name, args...)
	if err != nil {
		f.t.Fatalf("%s%v: %v", name, args, err)
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
