//go:build interop

package interop

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

// TestJavaReads runs every case of cases_test.go and compares lakesql's
// rows at each snapshot and tag with every reader's (issue 14, part 1).
func TestJavaReads(t *testing.T) {
	rs := allReaders(t)
	wh := warehouseDir(t)
	srv := servertest.Start(t, servertest.Config(wh), server.Options{})
	db := connect(t, srv)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn := setUp(t, db, c, func(t *testing.T, conn *sql.Conn, step int) {
				t.Run(fmt.Sprintf("before-step-%d", step), func(t *testing.T) {
					checkPoints(t, conn, wh, c, rs)
				})
			})
			checkPoints(t, conn, wh, c, rs)
			t.Run("system-tables", func(t *testing.T) { compareSystemTables(t, conn, wh, c, rs) })
		})
	}
}

// warehouseDir is a fresh warehouse in the test's temporary directory.
func warehouseDir(t *testing.T) string {
	if d := os.Getenv("LAKESQL_INTEROP_WAREHOUSE"); d != "" {
		dir, err := os.MkdirTemp(d, "interop-")
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("warehouse %s (kept)", dir)
		return dir
	}
	return t.TempDir()
}

// connect opens connections whose session time zone is UTC, the zone the
// readers print TIMESTAMP WITH LOCAL TIME ZONE in.
func connect(t *testing.T, srv *servertest.Server) *sql.DB {
	t.Helper()
	c := mysql.NewConfig()
	c.Net, c.Addr, c.User = "tcp", srv.Addr, "root"
	c.Params = map[string]string{"time_zone": "'+00:00'"}
	connector, err := mysql.NewConnector(c)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(connector)
	t.Cleanup(func() { db.Close() })
	return db
}

// check is a step that compares every snapshot and tag there at that
// point (before an expiry or a rollback removes some), as a subtest named
// before-step-N.
const check = "CHECK"

// setUp creates the case's database and runs its statements on one
// connection, which stays in that database; at each check step it calls
// checkpoint.
func setUp(t *testing.T, db *sql.DB, c tableCase, checkpoint func(*testing.T, *sql.Conn, int)) *sql.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	stmts := append([]string{"CREATE DATABASE " + c.name, "USE " + c.name, c.create}, c.steps...)
	for i, s := range stmts {
		if s == check {
			checkpoint(t, conn, i-2)
			continue
		}
		_, err := conn.ExecContext(ctx, s)
		switch {
		case err != nil && c.refused != "" && strings.Contains(err.Error(), c.refused):
			t.Logf("refused as expected: %s: %v", s, err)
			return conn
		case err != nil:
			t.Fatalf("%s: %v", s, err)
		}
	}
	if c.refused != "" {
		t.Fatalf("no statement was refused with %q", c.refused)
	}
	return conn
}

// point is a snapshot or a tag to read at.
type point struct {
	snapshot int64
	tag      string
}

func (p point) String() string {
	if p.tag != "" {
		return "tag=" + p.tag
	}
	return "snapshot=" + strconv.FormatInt(p.snapshot, 10)
}

func (p point) asOf() string {
	if p.tag != "" {
		return "'" + p.tag + "'"
	}
	return strconv.FormatInt(p.snapshot, 10)
}

func (p point) flags() []string {
	if p.tag != "" {
		return []string{"--tag", p.tag}
	}
	return []string{"--snapshot", strconv.FormatInt(p.snapshot, 10)}
}

// points lists the table's snapshots and tags as lakesql sees them.
func points(t *testing.T, conn *sql.Conn) []point {
	t.Helper()
	var ps []point
	for _, q := range []string{"SELECT snapshot_id, '' FROM `t$snapshots` ORDER BY snapshot_id",
		"SELECT 0, tag_name FROM `t$tags` ORDER BY tag_name"} {
		rows, err := conn.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			var p point
			if err := rows.Scan(&p.snapshot, &p.tag); err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		rows.Close()
	}
	return ps
}

// checkPoints compares lakesql's rows with every reader's at each snapshot
// and tag of the table, one subtest each.
func checkPoints(t *testing.T, conn *sql.Conn, wh string, c tableCase, rs []*reader) {
	for _, p := range points(t, conn) {
		t.Run(p.String(), func(t *testing.T) {
			q := "SELECT * FROM t FOR VERSION AS OF " + p.asOf()
			rows, err := conn.QueryContext(context.Background(), q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			want, kinds, err := lakesqlTable(rows)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			t.Logf("lakesql: %d rows, %d columns", len(want.rows), len(want.columns))
			for _, r := range rs {
				t.Run(r.name, func(t *testing.T) {
					args := append([]string{"dump", "--warehouse", wh, "--table", c.name + ".t"}, p.flags()...)
					compareDump(t, c, p, r, args, want, kinds)
				})
			}
		})
	}
}

func compareDump(t *testing.T, c tableCase, p point, r *reader, args []string, want *table, kinds map[string]kind) {
	out, err := r.call(args...)
	if err != nil {
		failOrKnown(t, c, p, r, fmt.Sprintf("reader failed: %v", err))
		return
	}
	got, err := readerTable(out, kinds)
	if err != nil {
		t.Fatal(err)
	}
	if d := firstDifference(want, got); d != "" {
		failOrKnown(t, c, p, r, d)
	}
}

// failOrKnown fails the test, unless the case lists the mismatch as a
// known finding of FINDINGS.md for this reader, which only skips it.
func failOrKnown(t *testing.T, c tableCase, p point, r *reader, msg string) {
	t.Helper()
	for _, k := range append(append([]known{}, globalKnown...), c.known...) {
		if k.matches(r.name, p, msg) {
			t.Skipf("known finding %s (FINDINGS.md): %s", k.finding, msg)
		}
	}
	t.Errorf("case %s, %s, reader %s:\n%s", c.name, p, r.name, msg)
}

// known is a mismatch FINDINGS.md records and the code does not fix yet.
type known struct {
	finding string
	reader  string // prefix of the reader's name; "" is every reader
	point   string // exact point ("snapshot=3", "tag=t1"); "" is every point
	message string // a substring of the mismatch
}

func (k known) matches(reader string, p point, msg string) bool {
	return strings.HasPrefix(reader, k.reader) && (k.point == "" || k.point == p.String()) &&
		strings.Contains(msg, k.message)
}

// jsonLines decodes a reader's JSON lines.
func jsonLines(out string) ([]map[string]any, error) {
	var rows []map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return nil, err
		}
		rows = append(rows, m)
	}
	return rows, nil
}
