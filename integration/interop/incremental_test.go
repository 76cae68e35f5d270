//go:build interop

package interop

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// compareIncremental checks what a streaming reader sees of an append
// table: Java's incremental-between A,B reads the delta manifest lists of
// snapshots A+1 … B (COMPACT ones add no rows), which must hold exactly
// the rows snapshot B has and A has not. It runs for the whole range and
// for each pair of consecutive snapshots.
func compareIncremental(t *testing.T, conn *sql.Conn, wh string, c tableCase, rs []*reader) {
	var ids []int64
	for _, p := range points(t, conn) {
		if p.tag == "" {
			ids = append(ids, p.snapshot)
		}
	}
	if len(ids) < 2 {
		t.Skip("fewer than two snapshots")
	}
	var pairs [][2]int64
	if len(ids) > 2 {
		pairs = append(pairs, [2]int64{ids[0], ids[len(ids)-1]})
	}
	for i := 0; i+1 < len(ids); i++ {
		pairs = append(pairs, [2]int64{ids[i], ids[i+1]})
	}
	for _, pair := range pairs {
		from, to := pair[0], pair[1]
		t.Run(fmt.Sprintf("%d,%d", from, to), func(t *testing.T) {
			older, _ := rowsAt(t, conn, from)
			newer, kinds := rowsAt(t, conn, to)
			want := &table{columns: newer.columns, rows: minus(newer.rows, older.rows)}
			want.sort()
			p := point{tag: fmt.Sprintf("incremental %d,%d", from, to)}
			for _, r := range javaReaders(rs) {
				t.Run(r.name, func(t *testing.T) {
					args := []string{"dump", "--warehouse", wh, "--table", c.name + ".t", "--incremental", fmt.Sprintf("%d,%d", from, to)}
					compareDump(t, c, p, r, args, want, kinds)
				})
			}
		})
	}
}

// compareChanges checks lakesql's incremental reads against Java's on any
// table: `t$audit_log FOR VERSION BETWEEN A AND B` must hold exactly the
// records, with their row kinds, that Java's audit log reads with
// incremental-between A,B (the delta files of APPEND snapshots, or the
// changelog files of a table with a changelog producer). It runs for the
// whole history and for each pair of consecutive snapshots.
func compareChanges(t *testing.T, conn *sql.Conn, wh string, c tableCase, rs []*reader) {
	var ids []int64
	for _, p := range points(t, conn) {
		if p.tag == "" {
			ids = append(ids, p.snapshot)
		}
	}
	if len(ids) == 0 {
		t.Skip("no snapshot")
	}
	if refusesChanges(t, conn, ids[len(ids)-1]) {
		t.Skip("lakesql refuses incremental reads of data-evolution tables")
	}
	skipsLevel0 := batchSkipsLevel0(t, conn)
	pairs := [][2]int64{{ids[0] - 1, ids[len(ids)-1]}}
	for i := 0; i+1 < len(ids); i++ {
		pairs = append(pairs, [2]int64{ids[i], ids[i+1]})
	}
	for _, pair := range pairs {
		from, to := pair[0], pair[1]
		t.Run(fmt.Sprintf("%d,%d", from, to), func(t *testing.T) {
			want, kinds := queryTable(t, conn, fmt.Sprintf("SELECT * FROM `t$audit_log` FOR VERSION BETWEEN %d AND %d", from, to))
			want.sort()
			p := point{tag: fmt.Sprintf("changes %d,%d", from, to)}
			for _, r := range javaReaders(rs) {
				t.Run(r.name, func(t *testing.T) {
					args := []string{"dump", "--warehouse", wh, "--table", c.name + ".t$audit_log", "--incremental", fmt.Sprintf("%d,%d", from, to)}
					if skipsLevel0 {
						expectNoChanges(t, r, args)
						return
					}
					compareDump(t, c, p, r, args, want, kinds)
				})
			}
		})
	}
}

// refusesChanges reports whether lakesql refuses incremental reads of the
// table, as it must for a data-evolution table, with MySQL's 1235.
func refusesChanges(t *testing.T, conn *sql.Conn, latest int64) bool {
	t.Helper()
	q := fmt.Sprintf("SELECT * FROM `t$audit_log` FOR VERSION BETWEEN %d AND %d", latest, latest)
	rows, err := conn.QueryContext(context.Background(), q)
	if err == nil {
		rows.Close()
		return false
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Number == 1235 && strings.Contains(me.Message, "data-evolution") {
		return true
	}
	t.Fatalf("%s: %v", q, err)
	return false
}

// batchSkipsLevel0 reports whether Java's batch scans of the table skip
// level 0: primary-key tables with deletion vectors or the first-row
// merge engine (F37).
func batchSkipsLevel0(t *testing.T, conn *sql.Conn) bool {
	t.Helper()
	count := func(q string) int {
		var n int
		if err := conn.QueryRowContext(context.Background(), q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	keyed := count("SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() " +
		"AND TABLE_NAME = 't' AND INDEX_NAME = 'PRIMARY'")
	skipping := count("SELECT COUNT(*) FROM `t$options` WHERE (`key` = 'deletion-vectors.enabled' AND LOWER(value) = 'true') " +
		"OR (`key` = 'merge-engine' AND LOWER(value) = 'first-row')")
	return keyed > 0 && skipping > 0
}

// expectNoChanges checks F37: Java reads no change of a table whose batch
// scans skip level 0, whatever the range holds.
func expectNoChanges(t *testing.T, r *reader, args []string) {
	out, err := r.call(args...)
	if err != nil {
		t.Fatalf("reader failed: %v", err)
	}
	if rows, err := jsonLines(out); err != nil || len(rows) > 0 {
		t.Errorf("F37 no longer holds: Java read %d changes (%v); compare them with lakesql's", len(rows), err)
	}
}

func rowsAt(t *testing.T, conn *sql.Conn, id int64) (*table, map[string]kind) {
	t.Helper()
	return queryTable(t, conn, fmt.Sprintf("SELECT * FROM t FOR VERSION AS OF %d", id))
}

// queryTable is lakesql's answer to q, with its columns' kinds.
func queryTable(t *testing.T, conn *sql.Conn, q string) (*table, map[string]kind) {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	tb, kinds, err := lakesqlTable(rows)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return tb, kinds
}
