//go:build duckdb_arrow && cgo

package duckexec

import (
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/spec"
)

// BenchmarkDeletedRows compares the two ways a merged split reaches
// DuckDB, on a bucket of 400,000 keys whose every other key a second
// file updates: its files less the rows a key merge deletes ("files"),
// and the merged rows of lakesql's reader through Arrow ("rows").
func BenchmarkDeletedRows(b *testing.B) {
	var files [][]scantest.Record
	for pass := range int64(2) {
		var records []scantest.Record
		for k := pass; k < 400_000; k += 1 + pass {
			records = append(records, scantest.Record{Kind: spec.RowKindInsert, Values: []any{k, fmt.Sprintf("g%d", (k+pass)%7), spec.NewDecimal(k%1000+pass, 2)}})
		}
		files = append(files, records)
	}
	tbl := level0Table(b, 0, files)
	e, err := New(Config{Threads: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	for _, direct := range []bool{true, false} {
		name := map[bool]string{true: "files", false: "rows"}[direct]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				plan := planOf(b, tbl, nil)
				src := sourceOf(b, tbl, plan, "t0", nil, direct)
				if _, err := runErr(e, groupQuery, src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
