//go:build duckdb_arrow && cgo

package duckexec

import (
	"errors"
	"io"
	"testing"

	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/sqlbackend/duckplan"
)

// Results the plan does not bound are read a page at a time from a
// temporary table: every row arrives once, an ordered result keeps its
// order across pages, and the table is gone after Close.
func TestPagedResults(t *testing.T) {
	e := newExecutor(t, Config{Threads: 2})
	const n = 3*resultPageRows + 7
	src := generatedSource("t0", []duckplan.Column{bigintColumn}, n, func(i int) []any { return []any{int64(i) * 7919 % n} })
	bigint := gms.Schema{{Type: types.Int64}}
	cases := []struct {
		name  string
		query duckplan.Query
		want  func(i int) int64
		rows  int
	}{
		{"ordered", duckplan.Query{SQL: "SELECT c0 AS o0 FROM t0 ORDER BY c0 DESC", Schema: bigint, Ordered: true},
			func(i int) int64 { return int64(n - 1 - i) }, n},
		{"ordered bound past a page", duckplan.Query{SQL: "SELECT c0 AS o0 FROM t0 ORDER BY c0 LIMIT 120000", Schema: bigint, Ordered: true, MaxRows: 120_000},
			func(i int) int64 { return int64(i) }, 120_000},
		{"bound to a page", duckplan.Query{SQL: "SELECT c0 AS o0 FROM t0 ORDER BY c0 LIMIT 10", Schema: bigint, Ordered: true, MaxRows: 10},
			func(i int) int64 { return int64(i) }, 10},
		{"unordered", duckplan.Query{SQL: "SELECT c0 AS o0 FROM t0 WHERE c0 % 2 = 0", Schema: bigint}, nil, (n + 1) / 2},
		{"empty", duckplan.Query{SQL: "SELECT c0 AS o0 FROM t0 WHERE c0 < 0", Schema: bigint}, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := runOrdered(t, e, &c.query, src)
			if len(got) != c.rows {
				t.Fatalf("%d rows, want %d", len(got), c.rows)
			}
			seen := make(map[int64]bool, len(got))
			for i, v := range got {
				if c.want != nil && v != c.want(i) {
					t.Fatalf("row %d is %d, want %d", i, v, c.want(i))
				}
				if seen[v] {
					t.Fatalf("%d arrives twice", v)
				}
				seen[v] = true
			}
			requireNoTemporaryTables(t, e)
		})
	}
}

// runOrdered runs q and returns its single BIGINT column in the order
// the rows arrive.
func runOrdered(t *testing.T, e *Executor, q *duckplan.Query, sources ...duckplan.Source) []int64 {
	t.Helper()
	ctx := gmsContext()
	it, err := e.Run(ctx, q, sources)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for {
		row, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(errors.Join(err, it.Close(ctx)))
		}
		out = append(out, row[0].(int64))
	}
	if err := it.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return out
}

// requireNoTemporaryTables fails unless every query dropped its tables.
func requireNoTemporaryTables(t *testing.T, e *Executor) {
	t.Helper()
	var left int
	if err := e.db.QueryRow("SELECT count(*) FROM duckdb_tables() WHERE temporary").Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Fatalf("%d temporary tables are left", left)
	}
}
