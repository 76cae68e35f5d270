//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var (
	groupType  = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	amountType = spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 10, Scale: 2}
)

// pkTable is a primary-key table (k BIGINT, g STRING, v DECIMAL(10,2))
// of 200 keys in groups g0..g6, then updated and partly deleted by a
// second commit.
func pkTable(t *testing.T, buckets int) *tabletest.Table {
	tt := tabletest.NewLocal(t, catalog.TableDefinition{
		Fields:      pkFields(),
		PrimaryKeys: []string{"k"},
		Options:     map[string]string{"bucket": fmt.Sprint(buckets)},
	})
	var first, second []tabletest.Record
	for k := range int64(200) {
		first = append(first, tabletest.Insert(k, fmt.Sprintf("g%d", k%7), spec.NewDecimal(k*101-5000, 2)))
		switch {
		case k%5 == 0:
			second = append(second, tabletest.Delete(k, fmt.Sprintf("g%d", k%7), spec.NewDecimal(k*101-5000, 2)))
		case k%3 == 0:
			second = append(second, tabletest.Update(k, fmt.Sprintf("g%d", k%4), nil))
		}
	}
	writetest.Commit(tt, "u", first...)
	writetest.Commit(tt, "u", second...)
	return tt
}

func compactFull(t *testing.T, tt *tabletest.Table) {
	if _, err := compact.Table(context.Background(), compact.Options{FileIO: tt.FS, TableDir: tt.Dir, Mode: compact.Full, Now: tt.Now}); err != nil {
		t.Fatal(err)
	}
}

// groupQuery is SELECT g, count(*), sum(v) FROM t0 GROUP BY g, in the
// types GMS gives it.
var groupQuery = &duckplan.Query{
	SQL: "SELECT c1, count(*), sum(c2) FROM t0 GROUP BY c1",
	Schema: gms.Schema{
		{Name: "g", Type: types.LongText, Nullable: true},
		{Name: "count(*)", Type: types.Int64},
		{Name: "sum(v)", Type: types.MustCreateDecimalType(38, 2), Nullable: true},
	},
}

// groupRows aggregates the rows lakesql's reader returns as groupQuery
// does.
func groupRows(t *testing.T, tbl *table.Table, plan *table.Plan) []string {
	rows, _ := readPlan(t, tbl, plan, nil)
	type agg struct {
		n   int64
		sum *decimal.Decimal
	}
	groups := map[any]*agg{}
	for _, row := range rows {
		a := groups[row[1]]
		if a == nil {
			a = &agg{}
			groups[row[1]] = a
		}
		a.n++
		if v, ok := row[2].(spec.DecimalValue); ok {
			d := decimal.NewFromBigInt(v.Unscaled(), -2)
			if a.sum != nil {
				d = a.sum.Add(d)
			}
			a.sum = &d
		}
	}
	var out []string
	for g, a := range groups {
		var sum any
		if a.sum != nil {
			sum = *a.sum
		}
		out = append(out, renderRow(gms.Row{g, a.n, sum}))
	}
	slices.Sort(out)
	return out
}

func TestPrimaryKeyTables(t *testing.T) {
	cases := []struct {
		name  string
		table func(t *testing.T) *tabletest.Table
		// files and rows say whether DuckDB reads files and whether
		// lakesql's reader hands over rows.
		files, rows bool
	}{
		{"compacted", func(t *testing.T) *tabletest.Table {
			tt := pkTable(t, 2)
			compactFull(t, tt)
			return tt
		}, true, false},
		{"uncompacted", func(t *testing.T) *tabletest.Table { return pkTable(t, 1) }, true, false},
		{"mixed", func(t *testing.T) *tabletest.Table {
			tt := pkTable(t, 2)
			compactFull(t, tt)
			writetest.Commit(tt, "u", tabletest.Update(int64(1), "g9", spec.NewDecimal(-7, 2)), tabletest.Delete(int64(2), "g2", nil))
			return tt
		}, true, false},
	}
	e := newExecutor(t, Config{Threads: 2})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl := c.table(t).Open()
			plan := planOf(t, tbl, nil)
			src := sourceOf(t, tbl, plan, "t0", nil, true)
			if len(src.Files) > 0 != c.files || (src.Rows != nil) != c.rows {
				t.Fatalf("%d files direct, rows %v; want files %v, rows %v", len(src.Files), src.Rows != nil, c.files, c.rows)
			}
			sameRows(t, run(t, e, groupQuery, src), groupRows(t, tbl, plan))
			identity := &duckplan.Query{SQL: selectAll("t0", 3), Schema: schemaOf(t, src.Columns)}
			sameRows(t, run(t, e, identity, src), readerRows(t, tbl, plan, nil))
		})
	}
}

// A filter pushed into the scan selects the same rows of the files DuckDB
// reads (as FileFilter), with and without deleted rows, as lakesql's
// reader.
func TestPushedFilter(t *testing.T) {
	tt := pkTable(t, 2)
	compactFull(t, tt)
	writetest.Commit(tt, "u", tabletest.Update(int64(1), "g9", spec.NewDecimal(-7, 2)))
	tbl := tt.Open()
	plan := planOf(t, tbl, func(s *spec.TableSchema) predicate.Predicate {
		above, err := predicate.Leaf(predicate.ColumnOf(2, s.Fields[2]), predicate.OpGt, "-10.5")
		if err != nil {
			t.Fatal(err)
		}
		in, err := predicate.Leaf(predicate.ColumnOf(1, s.Fields[1]), predicate.OpIn, "g1", "g2", "g9")
		if err != nil {
			t.Fatal(err)
		}
		return predicate.And(above, in)
	})
	e := newExecutor(t, Config{Threads: 2})
	src := sourceOf(t, tbl, plan, "t0", []string{"g", "v"}, true)
	if src.FileFilter == "" || !slices.ContainsFunc(src.Files, func(f duckplan.File) bool { return len(f.Deleted) > 0 }) {
		t.Fatalf("the case needs a file filter and files with deleted rows: %+v", src)
	}
	q := &duckplan.Query{SQL: selectAll("t0", 2), Schema: schemaOf(t, src.Columns)}
	sameRows(t, run(t, e, q, src), readerRows(t, tbl, plan, []string{"g", "v"}))
}

// DuckDB drops exactly the rows a merge deletes from the files it reads,
// and numbers each file's rows (file_row_number) as lakesql's Parquet
// reader positions them, over files of many row groups and pages.
func TestDeletedRowsByPosition(t *testing.T) {
	// Three overlapping level-0 files: every key, then updates and deletes
	// of scattered keys, then updates of some of those again.
	var files [][]scantest.Record
	for pass := range int64(3) {
		var records []scantest.Record
		for k := range int64(6000) {
			kind := spec.RowKindInsert
			switch {
			case pass == 1 && k%11 == 0:
				kind = spec.RowKindDelete
			case pass == 1 && k%7 != 0, pass == 2 && k%21 != 0:
				continue
			}
			records = append(records, scantest.Record{Kind: kind, Values: []any{k, fmt.Sprintf("g%d", (k+pass)%7), spec.NewDecimal(k*pass-900, 2)}})
		}
		files = append(files, records)
	}
	tbl := level0Table(t, 16<<10, files)
	plan := planOf(t, tbl, nil)
	src := sourceOf(t, tbl, plan, "t0", nil, true)
	deleted := 0
	for _, f := range src.Files {
		deleted += len(f.Deleted)
	}
	if len(src.Files) != 3 || src.Rows != nil || deleted == 0 {
		t.Fatalf("%d files direct with %d deleted rows, rows %v; want the 3 files with deleted rows", len(src.Files), deleted, src.Rows != nil)
	}
	e := newExecutor(t, Config{Threads: 2})
	identity := &duckplan.Query{SQL: selectAll("t0", 3), Schema: schemaOf(t, src.Columns)}
	sameRows(t, run(t, e, identity, src), readerRows(t, tbl, plan, nil))
	sameRows(t, run(t, e, groupQuery, src), groupRows(t, tbl, plan))
	groups := 0
	for _, f := range src.Files {
		groups = max(groups, rowGroups(t, f.Path))
	}
	if groups < 3 {
		t.Fatalf("the largest file has %d row groups; the case needs several", groups)
	}
	for _, f := range src.Files {
		if got, want := duckRowNumbers(t, e, f.Path), lakesqlRowNumbers(t, f.Path); !slices.Equal(got, want) {
			t.Fatalf("%s: DuckDB numbers the rows\n%v\nlakesql\n%v", f.Path, got, want)
		}
	}
}

// level0Table is a primary-key table of pkFields, one bucket, whose files
// are level-0 files of the records of each of files (in write order),
// cut into row groups of rowGroupSize bytes (0: the default).
func level0Table(tb testing.TB, rowGroupSize int64, files [][]scantest.Record) *table.Table {
	ctx := context.Background()
	w, err := scantest.Create(ctx, localio.New(), tb.TempDir(), "db", "t", catalog.TableDefinition{
		Fields: pkFields(), PrimaryKeys: []string{"k"}, Options: map[string]string{"bucket": "1"},
	})
	if err != nil {
		tb.Fatal(err)
	}
	w.RowGroupSize = rowGroupSize
	change := scantest.Change{TotalBuckets: 1}
	for _, records := range files {
		f, err := w.WriteFile(ctx, nil, 0, 0, records)
		if err != nil {
			tb.Fatal(err)
		}
		change.Partition, change.Add = f.Partition, append(change.Add, f.Meta)
	}
	if _, err := w.Commit(ctx, []scantest.Change{change}); err != nil {
		tb.Fatal(err)
	}
	tbl, err := table.Open(ctx, w.FS, w.Dir)
	if err != nil {
		tb.Fatal(err)
	}
	return tbl
}

func pkFields() []spec.DataField {
	return []spec.DataField{
		{ID: 0, Name: "k", Type: spec.DataType{Root: spec.BigInt}},
		{ID: 1, Name: "g", Type: groupType},
		{ID: 2, Name: "v", Type: amountType},
	}
}

func openParquet(t *testing.T, path string) *parquetio.Reader {
	t.Helper()
	f, err := localio.New().Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := parquetio.Open(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rowGroups(t *testing.T, path string) int { return len(openParquet(t, path).RowGroups()) }

// duckRowNumbers is "file_row_number:k" of each row of a file, as DuckDB
// reads them.
func duckRowNumbers(t *testing.T, e *Executor, path string) []string {
	t.Helper()
	rows, err := e.db.Query("SELECT file_row_number, k FROM read_parquet(" + duckplan.QuoteString(path) + ", file_row_number = true) ORDER BY file_row_number")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n, k int64
		if err := rows.Scan(&n, &k); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d:%d", n, k))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// lakesqlRowNumbers is "position:k" of each record of a primary-key data
// file, as lakesql's reader positions them.
func lakesqlRowNumbers(t *testing.T, path string) []string {
	t.Helper()
	it, err := openParquet(t, path).NewKeyValueIterator([]string{"k"}, pkFields())
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for {
		kv, err := it.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d:%d", kv.Position, kv.Value[0]))
	}
}
