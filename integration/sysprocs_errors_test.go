package integration

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// Bad arguments to the sys procedures over the wire: each gets a MySQL
// error whose number and SQLSTATE say what kind of problem it is and
// whose message names it, changes nothing, and leaves the connection
// usable.

// sysProcCalls are the procedures, each with arguments after the table
// that make a valid call, so that a case changes only what it tests.
var sysProcCalls = []struct {
	name, rest string
	// minArgs and maxArgs are the fewest and the most arguments the
	// procedure takes.
	minArgs, maxArgs int
}{
	{"compact", "", 1, 4},
	{"expire_snapshots", "", 1, 5},
	{"create_tag", ", 'x'", 2, 4},
	{"delete_tag", ", 'v1'", 2, 2},
	{"expire_tags", "", 1, 2},
	{"rollback_to", ", 3", 2, 2},
	{"remove_orphan_files", ", NULL, true", 1, 3},
	{"expire_partitions", ", '1 d', 'yyyy-MM-dd'", 3, 4},
	{"wait_watermark", ", 1", 2, 3},
}

// startProcErrors serves sales.orders with snapshots 3 and 4 left after
// expiry (1 and 2 expired; tag v1 holds 1), and sales.plain, an
// unpartitioned append table.
func startProcErrors(t *testing.T) (*lakesqlServer, *sql.DB) {
	t.Helper()
	s, root := startOrders(t)
	servertest.Exec(t, root,
		"INSERT INTO sales.orders VALUES ('2026-04-16', 1, 1)",
		"INSERT INTO sales.orders VALUES ('2026-04-16', 2, 2)",
		"INSERT INTO sales.orders VALUES ('2026-04-17', 3, 3)",
		"INSERT INTO sales.orders VALUES ('2026-04-17', 4, 4)",
		"CALL sys.create_tag('sales.orders', 'v1', 1)",
		"CALL sys.expire_snapshots('sales.orders', 2, 1)",
		"CREATE TABLE sales.plain (a BIGINT)",
		"INSERT INTO sales.plain VALUES (1)")
	if got := procState(t, root); got != "orders 3..4 tags [v1]; plain 1..1" {
		t.Fatalf("set-up left %s", got)
	}
	return s, root
}

// procState is what a failed call must not change: the snapshots of both
// tables and the tags of sales.orders.
func procState(t *testing.T, db sysTableQueryer) string {
	t.Helper()
	return fmt.Sprintf("orders %s tags %v; plain %s",
		sysTableValue(t, db, "SELECT CONCAT(MIN(snapshot_id), '..', MAX(snapshot_id)) FROM sales.`orders$snapshots`"),
		sysTableRows(t, db, "SELECT tag_name FROM sales.`orders$tags` ORDER BY tag_name"),
		sysTableValue(t, db, "SELECT CONCAT(MIN(snapshot_id), '..', MAX(snapshot_id)) FROM sales.`plain$snapshots`"))
}

// wantProcError is wantWireError for a call that must leave both tables
// as they were.
func wantProcError(t *testing.T, conn sysTableQueryer, call string, number uint16, state string, fragments ...string) {
	t.Helper()
	before := procState(t, conn)
	wantWireError(t, conn, call, number, state, fragments...)
	if after := procState(t, conn); after != before {
		t.Errorf("%s failed, yet changed %s into %s", call, before, after)
	}
}

// TestSysProcTableArgumentErrors: every procedure refuses an unknown
// table or database, a malformed name, NULL, and an unqualified name
// without a current database, naming the procedure and the table.
func TestSysProcTableArgumentErrors(t *testing.T) {
	s, root := startProcErrors(t)
	noDB := sysTableSession(t, root)
	inSales := sysTableSession(t, root)
	sysTableExec(t, inSales, "USE sales")
	for _, p := range sysProcCalls {
		call := func(table string) string { return fmt.Sprintf("CALL sys.%s(%s%s)", p.name, table, p.rest) }
		prefix := "sys." + p.name + ": "
		wantProcError(t, noDB, call("'sales.nosuch'"), 1146, "42S02", prefix+"table 'sales.nosuch' doesn't exist")
		wantProcError(t, inSales, call("'nosuch'"), 1146, "42S02", prefix+"table 'sales.nosuch' doesn't exist")
		wantProcError(t, noDB, call("'nosuch.orders'"), 1049, "42000", prefix+"unknown database 'nosuch'")
		wantProcError(t, noDB, call("'orders'"), 1046, "3D000", prefix+"no database selected; name the table as 'db.orders'")
		for _, malformed := range []string{"sales.orders.x", "`sales", "sales.", "`sales`orders", ""} {
			wantProcError(t, noDB, call("'"+malformed+"'"), 1210, "42000",
				prefix+fmt.Sprintf("table %q is not a table name", malformed), "'db.table'")
		}
		wantProcError(t, noDB, call("NULL"), 1210, "42000", prefix+`table "" is not a table name`)
	}
	// The server took every refusal in its stride.
	wantSysTableRows(t, s.Connect(t, "root", ""), "SELECT COUNT(*) FROM sales.orders", "4")
}

// TestSysProcArgumentCountAndTypeErrors: a call with too few or too many
// arguments gets MySQL's 1318 naming the counts the procedure takes, an
// argument that does not convert to the parameter's type 1366, and a
// procedure sys does not have MySQL's 1305, before any procedure runs.
func TestSysProcArgumentCountAndTypeErrors(t *testing.T) {
	_, root := startProcErrors(t)
	conn := sysTableSession(t, root)
	for _, p := range sysProcCalls {
		expected := fmt.Sprint(p.maxArgs)
		if p.minArgs < p.maxArgs {
			expected = fmt.Sprintf("%d to %d", p.minArgs, p.maxArgs)
		}
		wantProcError(t, conn, fmt.Sprintf("CALL sys.%s()", p.name), 1318, "42000",
			fmt.Sprintf("Incorrect number of arguments for PROCEDURE sys.%s; expected %s, got 0", p.name, expected))
		tooMany := "'sales.orders'" + strings.Repeat(", NULL", p.maxArgs)
		wantProcError(t, conn, fmt.Sprintf("CALL sys.%s(%s)", p.name, tooMany), 1318, "42000",
			fmt.Sprintf("Incorrect number of arguments for PROCEDURE sys.%s; expected %s, got %d", p.name, expected, p.maxArgs+1))
	}
	for call, mysqlType := range map[string]string{
		"CALL sys.expire_snapshots('sales.orders', 'abc')":            "bigint",
		"CALL sys.expire_snapshots('sales.orders', 0, 0, NULL, 'x')":  "bigint",
		"CALL sys.create_tag('sales.orders', 'x', 'abc')":             "bigint",
		"CALL sys.remove_orphan_files('sales.orders', NULL, 'maybe')": "tinyint",
		"CALL sys.wait_watermark('sales.orders', 1, 'abc')":           "bigint",
	} {
		wantProcError(t, conn, call, 1366, "HY000", "is not a valid value for '"+mysqlType+"'")
	}
	for _, call := range []string{"CALL sys.nosuch('sales.orders')", "CALL sys.nosuch()", "CALL SYS.nosuch(1, 2)"} {
		wantProcError(t, conn, call, 1305, "42000", "PROCEDURE sys.nosuch does not exist")
	}
}

// TestSysProcBadArguments: each procedure's own arguments, out of range,
// malformed or naming what does not exist, get 1210 (a tag that already
// exists 1062), naming the procedure, the argument and the value.
func TestSysProcBadArguments(t *testing.T) {
	_, root := startProcErrors(t)
	servertest.Exec(t, root,
		"CREATE TABLE sales.daily (dt DATE NOT NULL, shard INT NOT NULL, id BIGINT NOT NULL, PRIMARY KEY (dt, shard, id)) PARTITION BY LIST COLUMNS (dt, shard)",
		"INSERT INTO sales.daily VALUES ('2026-04-16', 1, 1)")
	conn := sysTableSession(t, root)
	// A date ahead of the server's clock, however soon: its age is negative.
	nextMonth := time.Now().AddDate(0, 1, 0).Format(time.DateOnly)
	for _, c := range []struct {
		call      string
		fragments []string
	}{
		{"CALL sys.compact('sales.orders', 'region=eu')", []string{"sys.compact: partitions: region is not a partition key of sales.orders (partition keys: [dt])"}},
		{"CALL sys.compact('sales.orders', 'dt')", []string{`sys.compact: partitions "dt"`, "key=value"}},
		{"CALL sys.compact('sales.orders', 'dt=2026-04-16;')", []string{`sys.compact: partitions "dt=2026-04-16;"`}},
		{"CALL sys.compact('sales.plain', 'dt=2026-04-16')", []string{"dt is not a partition key of sales.plain (partition keys: [])"}},
		{"CALL sys.compact('sales.daily', 'dt=2026-13-45')", []string{`sys.compact: compact: partition value dt=2026-13-45: "2026-13-45" is not a valid DATE value`}},
		{"CALL sys.compact('sales.daily', 'shard=x')", []string{`sys.compact: compact: partition value shard=x: "x" is not a valid INT value`}},
		{"CALL sys.compact('sales.orders', 'dt=2026-04-16', 'fullish')", []string{`sys.compact: mode "fullish": want 'full' or 'minor'`}},
		{"CALL sys.compact('sales.orders', '', 'full', 'bucket=2')", []string{`sys.compact: options "bucket=2": bucket is not a compaction option`}},

		{"CALL sys.expire_snapshots('sales.orders', -1)", []string{"sys.expire_snapshots: retain_max -1 must not be negative"}},
		{"CALL sys.expire_snapshots('sales.orders', 0, -1)", []string{"sys.expire_snapshots: retain_min -1 must not be negative"}},
		{"CALL sys.expire_snapshots('sales.orders', 0, 0, NULL, -1)", []string{"sys.expire_snapshots: max_deletes -1 must not be negative"}},
		{"CALL sys.expire_snapshots('sales.orders', 1, 2)", []string{"sys.expire_snapshots: retain_max 1 is less than retain_min 2"}},
		// retain_min left to the table is Paimon's default, 10.
		{"CALL sys.expire_snapshots('sales.orders', 1)", []string{"retain_max 1 is less than retain_min 10"}},
		{"CALL sys.expire_snapshots('sales.orders', 99999999999)", []string{"retain_max 99999999999 is too large"}},
		{"CALL sys.expire_snapshots('sales.orders', 0, 0, 'yesterday')", []string{`sys.expire_snapshots: older_than "yesterday" is neither a datetime`}},
		{"CALL sys.expire_snapshots('sales.orders', 0, 0, '2026-13-45 00:00:00')", []string{`older_than "2026-13-45 00:00:00" is neither a datetime`}},
		{"CALL sys.expire_snapshots('sales.orders', 0, 0, '5')", []string{`older_than "5" is neither a datetime`}},

		{"CALL sys.create_tag('sales.orders', 'x', 99)", []string{`sys.create_tag: create tag "x": snapshot 99: not found`, "3..4"}},
		{"CALL sys.create_tag('sales.orders', 'x', 2)", []string{"snapshot 2: not found", "earliest 3"}},
		{"CALL sys.create_tag('sales.orders', 'x', -1)", []string{"sys.create_tag: snapshot_id -1 is out of range; snapshot ids start at 1"}},
		{"CALL sys.create_tag('sales.orders', '')", []string{`sys.create_tag: tag name "" is blank`}},
		{"CALL sys.create_tag('sales.orders', '  ')", []string{`tag name "  " is blank`}},
		{"CALL sys.create_tag('sales.orders', NULL)", []string{`tag name "" is blank`}},
		{"CALL sys.create_tag('sales.orders', 'a/b')", []string{`tag name "a/b" is not a file name`}},
		{"CALL sys.create_tag('sales.orders', '5')", []string{`sys.create_tag: tag name "5" is a number`, "read a number as a snapshot id"}},
		{"CALL sys.create_tag('sales.orders', 4)", []string{`sys.create_tag: tag name "4" is a number`}},
		{"CALL sys.create_tag('sales.orders', 'x', NULL, 'soon')", []string{`sys.create_tag: time_retained "soon" is not a duration`}},
		{"CALL sys.create_tag('sales.orders', 'x', NULL, '-1 d')", []string{`time_retained "-1 d" is not a duration`}},
		{"CALL sys.create_tag('sales.orders', 'x', NULL, '0 d')", []string{"time retained 0s must be positive"}},

		{"CALL sys.delete_tag('sales.orders', 'nosuch')", []string{`sys.delete_tag: delete tag: tag "nosuch": not found (existing tags: v1)`}},
		{"CALL sys.delete_tag('sales.orders', NULL)", []string{`sys.delete_tag: tag name "" is blank`}},
		{"CALL sys.expire_tags('sales.orders', 'whenever')", []string{`sys.expire_tags: older_than "whenever" is neither a datetime`}},

		{"CALL sys.rollback_to('sales.orders', 'nosuch')", []string{`sys.rollback_to: rollback: tag "nosuch": not found (existing tags: v1)`}},
		{"CALL sys.rollback_to('sales.orders', 99)", []string{"sys.rollback_to: rollback: snapshot 99: not found", "3..4"}},
		{"CALL sys.rollback_to('sales.orders', 2)", []string{"snapshot 2: not found", "earliest 3"}},
		{"CALL sys.rollback_to('sales.orders', 0)", []string{"sys.rollback_to: snapshot id 0 is out of range; snapshot ids start at 1"}},
		{"CALL sys.rollback_to('sales.orders', -1)", []string{"sys.rollback_to: snapshot id -1 is out of range; snapshot ids start at 1"}},
		{"CALL sys.rollback_to('sales.orders', NULL)", []string{"sys.rollback_to: name a snapshot id or a tag to roll back to"}},

		{"CALL sys.remove_orphan_files('sales.orders', 'whenever')", []string{`sys.remove_orphan_files: older_than "whenever" is neither a datetime`}},
		{"CALL sys.remove_orphan_files('sales.orders', '2999-01-01 00:00:00', true)", []string{`sys.remove_orphan_files: older_than "2999-01-01 00:00:00" is in the future (now is `}},
		{"CALL sys.remove_orphan_files('sales.orders', '" + nextMonth + "')", []string{`sys.remove_orphan_files: older_than "` + nextMonth + `" is in the future (now is `}},

		{"CALL sys.expire_partitions('sales.orders', 'a week', 'yyyy-MM-dd')", []string{`sys.expire_partitions: expiration_time "a week" is not a positive duration`}},
		{"CALL sys.expire_partitions('sales.orders', '0 d', 'yyyy-MM-dd')", []string{`expiration_time "0 d" is not a positive duration`}},
		{"CALL sys.expire_partitions('sales.orders', '-1 d', 'yyyy-MM-dd')", []string{`expiration_time "-1 d" is not a positive duration`}},
		{"CALL sys.expire_partitions('sales.orders', NULL, 'yyyy-MM-dd')", []string{`expiration_time "" is not a positive duration`}},
		{"CALL sys.expire_partitions('sales.orders', '1 d', 'bogus')", []string{`sys.expire_partitions: timestamp formatter "bogus": pattern letter 'b' is not supported`}},
		{"CALL sys.expire_partitions('sales.plain', '1 d', 'yyyy-MM-dd')", []string{"sys.expire_partitions: table sales.plain is not partitioned"}},

		{"CALL sys.wait_watermark('sales.orders', 'soon')", []string{`sys.wait_watermark: watermark "soon" is neither epoch milliseconds nor a datetime`}},
		{"CALL sys.wait_watermark('sales.orders', NULL)", []string{"sys.wait_watermark: name the watermark to wait for"}},
		{"CALL sys.wait_watermark('sales.orders', 1, -5)", []string{"sys.wait_watermark: timeout_ms -5 must not be negative"}},
	} {
		wantProcError(t, conn, c.call, 1210, "42000", c.fragments...)
	}
	wantProcError(t, conn, "CALL sys.create_tag('sales.orders', 'v1')", 1062, "23000", `sys.create_tag: create tag "v1": tag already exists`)
	wantProcError(t, conn, "CALL sys.wait_watermark('sales.orders', 99999999999999, 100)", 3024, "HY000",
		"sys.wait_watermark: watermark 99999999999999 not reached after 100ms", "latest snapshot 4")
}

// TestSysProcDefaultArguments: 0 and NULL are the defaults, not errors,
// and arguments that select nothing do nothing.
func TestSysProcDefaultArguments(t *testing.T) {
	_, root := startProcErrors(t)
	before := procState(t, root)
	for _, call := range []string{
		"CALL sys.expire_snapshots('sales.orders', 0, 0)",
		"CALL sys.expire_snapshots('sales.orders', NULL, NULL, NULL, NULL)",
	} {
		if res := callRow(t, root, call); res["snapshots_expired"] != "0" {
			t.Errorf("%s: %v, want nothing expired under the table's retention (10 snapshots)", call, res)
		}
	}
	if res := callRow(t, root, "CALL sys.compact('sales.orders', 'dt=2099-01-01', NULL)"); res["snapshot_id"] != "NULL" || res["files_rewritten"] != "0" {
		t.Errorf("compacting a partition that does not exist: %v, want nothing done", res)
	}
	// Partition values the formatter cannot read are left alone, not an
	// error.
	wantSysTableRows(t, root, "CALL sys.expire_partitions('sales.orders', '1 d', 'yyyyMMdd')", "sales.orders NULL NULL 0")
	if after := procState(t, root); after != before {
		t.Errorf("calls that select nothing changed %s into %s", before, after)
	}
}
