//go:build interop

package interop

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	// Beside the payment incident, whose time is mostly Flink's paced
	// source (.ci/interop runs go test with -parallel 3: this test and the
	// incident's two variants).
	t.Parallel()
	rs := allReaders(t)
	wh := warehouseDir(t)
	srv := servertest.Start(t, servertest.Config(wh), server.Options{})
	db := connect(t, srv)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn := setUp(t, db, c, func(t *testing.T, conn *sql.Conn, step int, s string) {
				runSpecialStep(t, conn, wh, c, rs, step, s)
			})
			if c.unreadable != "" {
				t.Skipf("lakesql cannot read the table: known finding %s (FINDINGS.md)", c.unreadable)
			}
			checkPoints(t, conn, wh, c, rs)
			t.Run("system-tables", func(t *testing.T) { compareSystemTables(t, conn, wh, c, rs) })
			t.Run("filters", func(t *testing.T) { compareFilters(t, conn, wh, c, rs) })
			if c.incremental {
				t.Run("incremental", func(t *testing.T) { compareIncremental(t, conn, wh, c, rs) })
			}
			t.Run("changes", func(t *testing.T) { compareChanges(t, conn, wh, c, rs) })
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
// readers print TIMESTAMP WITH LOCAL TIME ZONE in, and that send every
// query as text.
func connect(t *testing.T, srv *servertest.Server) *sql.DB {
	t.Helper()
	return srv.Connect(t, "root", "", func(c *mysql.Config) {
		c.Params = map[string]string{"time_zone": "'+00:00'"}
		// Text protocol for queries with arguments too: over the binary
		// protocol go-sql-driver prints a TIMESTAMP(p) value with as many
		// fraction digits as the field's Decimals, which lakesql sends as 0
		// (FINDINGS.md, F3).
		c.InterpolateParams = true
	})
}

// Steps that are not SQL, made by the functions named: check compares
// every snapshot and tag there at that point (before an expiry or a
// rollback removes some), as a subtest named before-step-N.
const (
	check           = "CHECK"
	javaStep        = "JAVA "         // javaCommits
	javaToolStep    = "JAVA-TOOL "    // javaRun
	javaSpecStep    = "JAVA-SPEC "    // javaCreate
	javaExpectStep  = "JAVA-EXPECT "  // javaExpect
	expectStep      = "EXPECT "       // expect
	expectErrorStep = "EXPECT-ERROR " // expectError
	flinkSQLStep    = "FLINK-SQL "    // flinkSQL
)

func isSpecialStep(s string) bool {
	for _, prefix := range []string{javaStep, javaToolStep, javaSpecStep, javaExpectStep, expectStep, expectErrorStep, flinkSQLStep} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return s == check
}

// runSpecialStep runs step number step, s, which is not SQL.
func runSpecialStep(t *testing.T, conn *sql.Conn, wh string, c tableCase, rs []*reader, step int, s string) {
	t.Helper()
	switch {
	case s == check:
		t.Run(fmt.Sprintf("before-step-%d", step), func(t *testing.T) {
			checkPoints(t, conn, wh, c, rs)
		})
	case strings.HasPrefix(s, javaExpectStep):
		t.Run(fmt.Sprintf("java-expect-step-%d", step), func(t *testing.T) {
			javaExpectRows(t, wh, c, rs, strings.TrimPrefix(s, javaExpectStep))
		})
	case strings.HasPrefix(s, javaSpecStep):
		javaWriteSpec(t, wh, c, rs, strings.TrimPrefix(s, javaSpecStep))
	case strings.HasPrefix(s, javaToolStep):
		javaTool(t, wh, c, rs, strings.Fields(strings.TrimPrefix(s, javaToolStep)))
	case strings.HasPrefix(s, javaStep):
		javaWrite(t, wh, c, rs, strings.TrimPrefix(s, javaStep))
	case strings.HasPrefix(s, expectErrorStep):
		stmt, want, _ := strings.Cut(strings.TrimPrefix(s, expectErrorStep), " => ")
		_, err := conn.ExecContext(context.Background(), stmt)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got error %v, want one containing %q", stmt, err, want)
		}
	case strings.HasPrefix(s, expectStep):
		expectResult(t, conn, strings.TrimPrefix(s, expectStep))
	case strings.HasPrefix(s, flinkSQLStep):
		flinkBatch(t, wh, c, step, strings.TrimPrefix(s, flinkSQLStep))
	default:
		t.Fatalf("unknown step %q", s)
	}
}

// setUp creates the case's database and runs its statements on one
// connection, which stays in that database; the steps that are not SQL
// go to special.
func setUp(t *testing.T, db *sql.DB, c tableCase, special func(*testing.T, *sql.Conn, int, string)) *sql.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	stmts := append([]string{"CREATE DATABASE " + c.name, "USE " + c.name, c.create}, c.steps...)
	for i, s := range stmts {
		if isSpecialStep(s) {
			special(t, conn, i-2, s)
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
			want, kinds := queryTable(t, conn, "SELECT * FROM t FOR VERSION AS OF "+p.asOf())
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

// javaCommits is a step that writes commits to the case's table with the
// Java tool of one version: commits is the JSON array of the write spec's
// "commits" (see PaimonTool.write), rows in the interop encoding.
func javaCommits(version, commits string) string {
	return javaStep + version + " " + commits
}

func javaWrite(t *testing.T, wh string, c tableCase, rs []*reader, step string) {
	t.Helper()
	version, commits, _ := strings.Cut(step, " ")
	spec := fmt.Sprintf(`{"table": %q, "commits": %s}`, c.name+".t", commits)
	file := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	javaTool(t, wh, c, rs, []string{version, "write", "--spec", file})
}

// javaCreate is a step (or a case's create) that makes the case's table
// with the Java tool: spec is a write spec without "table" (columns,
// primaryKeys, partitionKeys, options, and commits if any), for the
// Paimon types lakesql's DDL cannot make.
func javaCreate(version, spec string) string {
	return javaSpecStep + version + " " + spec
}

func javaWriteSpec(t *testing.T, wh string, c tableCase, rs []*reader, step string) {
	t.Helper()
	version, spec, _ := strings.Cut(step, " ")
	// Numbers stay as written: a float64 would round BIGINTs past 2^53
	// (9223372036854775807 became -9223372036854775616 in Java's rows).
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(spec))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("spec %s: %v", spec, err)
	}
	m["table"] = c.name + ".t"
	b, _ := json.Marshal(m)
	file := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	javaTool(t, wh, c, rs, []string{version, "write", "--spec", file})
}

// javaExpect is a step that dumps the rows matching filter (a --filter
// JSON) with the Java tool of version and fails unless the output holds
// want: for values lakesql cannot show (TIMESTAMP(9) past microseconds).
func javaExpect(version, filter, want string) string {
	return javaExpectStep + version + "\x00" + filter + "\x00" + want
}

func javaExpectRows(t *testing.T, wh string, c tableCase, rs []*reader, step string) {
	parts := strings.SplitN(step, "\x00", 3)
	for _, r := range rs {
		if r.name != "java-"+parts[0] {
			continue
		}
		out, err := r.call("dump", "--warehouse", wh, "--table", c.name+".t", "--filter", parts[1])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, parts[2]) {
			failOrKnown(t, c, point{tag: "java-expect"}, r, fmt.Sprintf("rows %s hold no %s:\n%s", parts[1], parts[2], out))
		}
		return
	}
	t.Fatalf("no reader java-%s", parts[0])
}

// javaRun is a step that runs a subcommand of the Java tool of one version
// on the case's table: javaRun("1.4.2", "compact"), javaRun("1.3.1",
// "expire", "--retain", "2").
func javaRun(version string, args ...string) string {
	return javaToolStep + version + " " + strings.Join(args, " ")
}

// javaTool runs args[1:] with the Java tool of version args[0]; the
// warehouse is added, and the table unless it is a write.
func javaTool(t *testing.T, wh string, c tableCase, rs []*reader, args []string) {
	t.Helper()
	call := append([]string{args[1], "--warehouse", wh}, args[2:]...)
	if args[1] != "write" {
		call = append(call, "--table", c.name+".t")
	}
	for _, r := range rs {
		if r.name == "java-"+args[0] {
			out, err := r.call(call...)
			if err != nil {
				t.Fatalf("java %v: %v", call, err)
			}
			t.Logf("java-%s %s: %s", args[0], args[1], strings.TrimSpace(out))
			return
		}
	}
	t.Fatalf("no reader java-%s", args[0])
}

// expect is a step that runs query and fails unless its one value, as
// text, is want (NULL is "NULL"); want may itself be a query in
// parentheses, whose answer it must equal.
func expect(query, want string) string {
	return expectStep + query + " => " + want
}

// expectError is a step that runs stmt and fails unless it fails with an
// error containing want.
func expectError(stmt, want string) string {
	return expectErrorStep + stmt + " => " + want
}

func expectResult(t *testing.T, conn *sql.Conn, step string) {
	t.Helper()
	query, want, _ := strings.Cut(step, " => ")
	if strings.HasPrefix(want, "(") {
		want = scalar(t, conn, strings.TrimSuffix(strings.TrimPrefix(want, "("), ")"))
	}
	if got := scalar(t, conn, query); got != want {
		t.Errorf("%s: got %s, want %s", query, got, want)
	}
}

func scalar(t *testing.T, conn *sql.Conn, query string) string {
	t.Helper()
	var v sql.NullString
	if err := conn.QueryRowContext(context.Background(), query).Scan(&v); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if !v.Valid {
		return "NULL"
	}
	return v.String
}
