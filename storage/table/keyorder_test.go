package table_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// A read in key order returns exactly the table's rows, sorted by the
// primary key, whether the key leads with the partition column or not,
// over buckets with overlapping runs, updates and deletes.
func TestReadKeyOrderedSortsTheWholeTable(t *testing.T) {
	for _, c := range []struct {
		pk       []string
		dtType   spec.DataType
		dayValue func(int) any
	}{
		{[]string{"dt", "k"}, spec.DataType{Root: spec.Int}, func(d int) any { return int32(d) }},
		{[]string{"k", "dt"}, spec.DataType{Root: spec.Int}, func(d int) any { return int32(d) }},
		// Short strings are stored inline in the partition row.
		{[]string{"dt", "k"}, spec.DataType{Root: spec.VarChar, Length: 10}, func(d int) any { return fmt.Sprintf("d%02d", d) }},
	} {
		pk := c.pk
		t.Run(fmt.Sprint(pk, c.dtType.Root), func(t *testing.T) {
			fields := []spec.DataField{
				{ID: 0, Name: "dt", Type: c.dtType},
				{ID: 1, Name: "k", Type: spec.DataType{Root: spec.BigInt}},
				{ID: 2, Name: "v", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
			}
			tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: fields, PrimaryKeys: pk, PartitionKeys: []string{"dt"},
				Options: map[string]string{"bucket": "3", "write-only": "true"}})
			rng := rand.New(rand.NewPCG(7, 8))
			for commit := range 4 {
				var records []tabletest.Record
				for range 300 {
					dt, k := c.dayValue(rng.IntN(3)), int64(rng.IntN(500))
					if rng.IntN(5) == 0 {
						records = append(records, tabletest.Delete(dt, k, ""))
					} else {
						records = append(records, tabletest.Insert(dt, k, fmt.Sprint("c", commit)))
					}
				}
				writetest.Commit(tt, "u", records...)
			}
			tbl := tt.Open()
			want := readStrings(t, tbl, table.ReadOptions{})
			keyCols := []int{slices.Index([]string{"dt", "k", "v"}, pk[0]), slices.Index([]string{"dt", "k", "v"}, pk[1])}
			types := []spec.DataType{fields[keyCols[0]].Type, fields[keyCols[1]].Type}
			got := readKeyOrdered(t, tbl)
			for i := 1; i < len(got); i++ {
				a := []any{got[i-1][keyCols[0]], got[i-1][keyCols[1]]}
				b := []any{got[i][keyCols[0]], got[i][keyCols[1]]}
				if spec.CompareRows(types, a, b) >= 0 {
					t.Fatalf("row %d key %v does not follow %v", i, b, a)
				}
			}
			rendered := tabletest.RenderRows(got)
			if !slices.Equal(rendered, want) {
				t.Fatalf("the key-ordered read has %d rows, the table %d", len(rendered), len(want))
			}
		})
	}
}

func readKeyOrdered(t *testing.T, tbl *table.Table) [][]any {
	t.Helper()
	plan, err := tbl.PlanRead(context.Background(), snapshot.TimeTravel{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := tbl.ReadKeyOrdered(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][]any
	for {
		row, err := rows.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
}
