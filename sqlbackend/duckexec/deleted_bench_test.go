//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// BenchmarkDeletedRows compares the two ways a merged split reaches
// DuckDB, on a bucket of 400,000 keys whose every other key a second
// file updates: its files less the rows a key merge deletes ("files"),
// and the merged rows of lakesql's reader through Arrow ("rows").
func BenchmarkDeletedRows(b *testing.B) {
	ctx := context.Background()
	w, err := scantest.Create(ctx, localio.New(), b.TempDir(), "db", "t", catalog.TableDefinition{
		Fields: pkFields(), PrimaryKeys: []string{"k"}, Options: map[string]string{"bucket": "1"},
	})
	if err != nil {
		b.Fatal(err)
	}
	change := scantest.Change{TotalBuckets: 1}
	for pass := range int64(2) {
		var records []scantest.Record
		for k := pass; k < 400_000; k += 1 + pass {
			records = append(records, scantest.Record{Kind: spec.RowKindInsert, Values: []any{k, fmt.Sprintf("g%d", (k+pass)%7), spec.NewDecimal(k%1000+pass, 2)}})
		}
		f, err := w.WriteFile(ctx, nil, 0, 0, records)
		if err != nil {
			b.Fatal(err)
		}
		change.Partition, change.Add = f.Partition, append(change.Add, f.Meta)
	}
	if _, err := w.Commit(ctx, []scantest.Change{change}); err != nil {
		b.Fatal(err)
	}
	tbl, err := table.Open(ctx, w.FS, w.Dir)
	if err != nil {
		b.Fatal(err)
	}
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

