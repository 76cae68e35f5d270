//go:build interop

package interop

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
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

func rowsAt(t *testing.T, conn *sql.Conn, id int64) (*table, map[string]kind) {
	t.Helper()
	q := fmt.Sprintf("SELECT * FROM t FOR VERSION AS OF %d", id)
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
