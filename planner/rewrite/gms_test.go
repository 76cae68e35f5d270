package rewrite

import (
	"context"
	"reflect"
	"testing"
	"time"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/snapshot"
)

// versionedDB records the AS OF values go-mysql-server passes and serves the
// current table for each.
type versionedDB struct {
	*memory.Database
	asOf []any
}

func (d *versionedDB) GetTableInsensitiveAsOf(ctx *sql.Context, name string, asOf any) (sql.Table, bool, error) {
	d.asOf = append(d.asOf, asOf)
	return d.GetTableInsensitive(ctx, name)
}

func (d *versionedDB) GetTableNamesAsOf(ctx *sql.Context, asOf any) ([]string, error) {
	d.asOf = append(d.asOf, asOf)
	return d.GetTableNames(ctx)
}

type gmsHarness struct {
	engine *sqle.Engine
	ctx    *sql.Context
	db     *versionedDB
}

// newGMSHarness starts an in-process go-mysql-server v0.20.0 with one table
// lake.t whose database supports AS OF, with the session in time zone
// +08:00.
func newGMSHarness(t *testing.T) *gmsHarness {
	t.Helper()
	mem := memory.NewDatabase("lake")
	plain := memory.NewDBProvider(mem)
	// The memory session commits through the plain provider, which knows
	// only its own database types; the engine resolves tables through the
	// recording wrapper.
	ctx := newContext(plain)
	run(t, sqle.NewDefault(plain), ctx, "CREATE TABLE t (a INT PRIMARY KEY)")
	db := &versionedDB{Database: mem}
	h := &gmsHarness{engine: sqle.NewDefault(memory.NewDBProvider(db)), ctx: ctx, db: db}
	run(t, h.engine, h.ctx, "SET time_zone = '+08:00'")
	return h
}

func newContext(provider *memory.DbProvider) *sql.Context {
	ctx := sql.NewContext(context.Background(), sql.WithSession(memory.NewSession(sql.NewBaseSession(), provider)))
	ctx.SetCurrentDatabase("lake")
	return ctx
}

func run(t *testing.T, e *sqle.Engine, ctx *sql.Context, query string) {
	t.Helper()
	_, iter, _, err := e.Query(ctx, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if _, err := sql.RowIterToRows(ctx, iter); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// asOfValues rewrites query, runs it and returns the values GMS passed to
// the database.
func (h *gmsHarness) asOfValues(t *testing.T, query string) []any {
	t.Helper()
	r, err := Rewrite(query)
	if err != nil {
		t.Fatalf("Rewrite(%q): %v", query, err)
	}
	h.db.asOf = nil
	run(t, h.engine, h.ctx, r.Query)
	return h.db.asOf
}

// TestGMSPassesAsOfValuesParseAsOfReads runs every spelling through
// go-mysql-server and reads the values it passes to the database with
// ParseAsOf in the session's time zone.
func TestGMSPassesAsOfValuesParseAsOfReads(t *testing.T) {
	h := newGMSHarness(t)
	tenAM := atMillis(time.Date(2026, 4, 16, 10, 0, 0, 0, shanghai))
	for _, tc := range []struct {
		query string
		want  []snapshot.TimeTravel
	}{
		{"SELECT * FROM t FOR VERSION AS OF 5", []snapshot.TimeTravel{{SnapshotID: 5}}},
		{"SELECT * FROM t FOR VERSION AS OF 'daily_tag'", []snapshot.TimeTravel{{Tag: "daily_tag"}}},
		{"SELECT * FROM t AS OF 5", []snapshot.TimeTravel{{SnapshotID: 5}}},
		{"SELECT * FROM t AS OF main", []snapshot.TimeTravel{{Tag: "main"}}},
		{"SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00'", []snapshot.TimeTravel{tenAM}},
		{"SELECT * FROM t FOR TIMESTAMP AS OF '2026-04-16 10:00:00' AS x", []snapshot.TimeTravel{tenAM}},
		{"SELECT * FROM t FOR TIME AS OF '2026-04-16 10:00:00' x", []snapshot.TimeTravel{tenAM}},
		{"SELECT * FROM t TIMESTAMP AS OF '2026-04-16T10:00:00'", []snapshot.TimeTravel{tenAM}},
		{"SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP('2026-04-16 10:00:00')", []snapshot.TimeTravel{tenAM}},
		{"SELECT * FROM t AS OF DATE_SUB(TIMESTAMP('2026-04-16 11:00:00'), INTERVAL 1 HOUR)", []snapshot.TimeTravel{tenAM}},
		{"SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2026-04-16 04:00:00 +02:00'", []snapshot.TimeTravel{tenAM}},
		{"SELECT * FROM t VERSION AS OF 2 JOIN t FOR TIME AS OF '2026-04-16 10:00' AS b ON t.a = b.a",
			[]snapshot.TimeTravel{{SnapshotID: 2}, tenAM}},
		{"SELECT * FROM t WHERE a IN (SELECT a FROM t FOR VERSION AS OF 'v1.0')", []snapshot.TimeTravel{{Tag: "v1.0"}}},
		{"INSERT INTO t SELECT * FROM t FOR TIMESTAMP AS OF '2026-04-16 10:00:00'", []snapshot.TimeTravel{tenAM}},
		{"SHOW TABLES FOR TIME AS OF '2026-04-16 10:00:00'", []snapshot.TimeTravel{tenAM}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			values := h.asOfValues(t, tc.query)
			if len(values) != len(tc.want) {
				t.Fatalf("GMS passed %v, want %d values", values, len(tc.want))
			}
			for i, v := range values {
				got, err := ParseAsOf(v, shanghai)
				if err != nil {
					t.Fatalf("ParseAsOf(%#v): %v", v, err)
				}
				if want := tc.want[i]; !reflect.DeepEqual(got, want) {
					t.Errorf("value %#v: ParseAsOf = %s, want %s", v, show(got), show(want))
				}
			}
		})
	}
}

// TestGMSNowIsSessionWallClock pins the reading of a time.Time: with the
// query time fixed, AS OF NOW() must select that instant when ParseAsOf
// reads GMS's value in the session time zone.
func TestGMSNowIsSessionWallClock(t *testing.T) {
	queryTime := time.Date(2026, 4, 16, 2, 0, 0, 0, time.UTC).In(time.Local)
	if _, offsetThen := queryTime.Zone(); offsetThen != localOffsetNow() {
		// GMS converts NOW() with the machine's current UTC offset, not
		// the offset in force at the query time.
		t.Skip("the local zone's offset at the fixed query time differs from today's")
	}
	h := newGMSHarness(t)
	h.ctx.SetQueryTime(queryTime)
	values := h.asOfValues(t, "SELECT * FROM t FOR TIMESTAMP AS OF NOW()")
	if len(values) != 1 {
		t.Fatalf("GMS passed %v, want one value", values)
	}
	if _, ok := values[0].(time.Time); !ok {
		t.Fatalf("GMS passed %#v, want a time.Time", values[0])
	}
	got, err := ParseAsOf(values[0], shanghai)
	if err != nil {
		t.Fatal(err)
	}
	if want := atMillis(queryTime); !reflect.DeepEqual(got, want) {
		t.Errorf("ParseAsOf(%v) = %s, want %s", values[0], show(got), show(want))
	}
}

func localOffsetNow() int {
	_, offset := time.Now().Zone()
	return offset
}

// TestGMSPanicsOnAsOfBindParameter pins why Rewrite refuses AS OF ?: the
// unrewritten text crashes go-mysql-server v0.20.0. If an upgrade stops the
// panic, this fails, and AS OF ? can be supported instead.
func TestGMSPanicsOnAsOfBindParameter(t *testing.T) {
	h := newGMSHarness(t)
	for _, query := range []string{"SELECT * FROM t AS OF ?", "PREPARE ps FROM 'SELECT * FROM t FOR VERSION AS OF ?'"} {
		if _, err := Rewrite(query); err == nil {
			t.Errorf("Rewrite(%q) accepted a bind parameter", query)
		}
		if !panics(func() { _, _, _, _ = h.engine.Query(h.ctx, query) }) {
			t.Errorf("go-mysql-server no longer panics on %q", query)
		}
	}
}

func panics(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}
