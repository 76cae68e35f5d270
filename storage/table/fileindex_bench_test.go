package table_test

import (
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// BenchmarkIndexedLookup reads one order number from an append table of
// 32 files of 20,000 rows whose order numbers interleave (statistics prune
// nothing): without an index every file is read, with a bloom filter or a
// bitmap only the one holding it (and a bloom filter's false positives).
//
//	go test -run '^$' -bench IndexedLookup ./storage/table
func BenchmarkIndexedLookup(b *testing.B) {
	const files, rows = 32, 20_000
	for _, index := range []string{"none", spec.FileIndexBloomFilter, spec.FileIndexBitmap} {
		b.Run(index, func(b *testing.B) {
			def := catalog.TableDefinition{Fields: []spec.DataField{
				{ID: 0, Name: "id", Type: spec.DataType{Root: spec.BigInt}},
				{ID: 1, Name: "order_no", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}},
			}, Options: map[string]string{"write-only": "true", "file-index.in-manifest-threshold": "1 b"}}
			if index != "none" {
				def.Options[spec.FileIndexColumnsOption(index)] = "order_no"
			}
			tt := tabletest.NewLocal(b, def)
			for f := range files {
				records := make([]tabletest.Record, rows)
				for i := range rows {
					id := int64(f + files*i)
					records[i] = tabletest.Insert(id, fmt.Sprintf("o%08d", id))
				}
				writetest.Commit(tt, "u", records...)
			}
			tbl := tt.Open()
			col := predicate.ColumnOf(1, def.Fields[1])
			n := 0
			for b.Loop() {
				p, err := predicate.Leaf(col, predicate.OpEq, fmt.Sprintf("o%08d", (n*7919)%(files*rows)))
				if err != nil {
					b.Fatal(err)
				}
				n++
				if got := len(readRows(b, tbl, table.ReadOptions{Filter: p})); got != 1 {
					b.Fatalf("%d rows", got)
				}
			}
		})
	}
}
