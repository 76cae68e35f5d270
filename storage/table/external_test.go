package table_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var (
	extInt    = spec.DataType{Root: spec.Int, Nullable: true}
	extKey    = spec.DataType{Root: spec.Int}
	extString = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
)

// extFields are k (INT NOT NULL, the key of the primary-key tables), v INT
// and s STRING.
func extFields() []spec.DataField {
	return []spec.DataField{{ID: 0, Name: "k", Type: extKey}, {ID: 1, Name: "v", Type: extInt}, {ID: 2, Name: "s", Type: extString}}
}

func extRows(from, to int32) []tabletest.Record {
	var out []tabletest.Record
	for k := from; k < to; k++ {
		out = append(out, tabletest.Insert(k, k*10, strings.Repeat("x", int(k%3))))
	}
	return out
}

// localTable creates def in a local warehouse and returns it with the
// warehouse's catalog, for ALTER TABLE.
func localTable(t *testing.T, def catalog.TableDefinition) (*tabletest.Table, *catalog.Catalog) {
	wh := t.TempDir()
	tt := tabletest.Create(t, tabletest.Config{FS: localio.New(), Warehouse: wh}, def)
	return tt, catalog.New(tt.FS, wh, tt.Now)
}

func appendTable(t *testing.T, fs fileio.FileIO) *table.Table {
	tt := tabletest.Create(t, tabletest.Config{FS: fs, Warehouse: t.TempDir()}, catalog.TableDefinition{Fields: extFields()})
	writetest.Commit(tt, "u", extRows(0, 5)...)
	writetest.Commit(tt, "u", extRows(5, 9)...)
	return tt.Open()
}

// uncompactedTable is a primary-key table of two overlapping level-0
// files, the second updating and deleting keys of the first.
func uncompactedTable(t *testing.T) *table.Table {
	tt, _ := localTable(t, catalog.TableDefinition{Fields: extFields(), PrimaryKeys: []string{"k"}, Options: map[string]string{"bucket": "1"}})
	writetest.Commit(tt, "u", extRows(0, 6)...)
	writetest.Commit(tt, "u", tabletest.Update(int32(1), int32(-1), "new"), tabletest.Delete(int32(2), int32(20), "xx"))
	return tt.Open()
}

// levelTable writes each file of files as one file of bucket 0 at its
// level, with the deletion vectors dvs deleting positions of the files
// by index, through scantest: a compacted layout without a compactor.
func levelTable(t *testing.T, def catalog.TableDefinition, levels []int32, files [][]scantest.Record, dvs map[int][]int64) *table.Table {
	ctx := context.Background()
	w, err := scantest.Create(ctx, localio.New(), t.TempDir(), "db", "t", def)
	if err != nil {
		t.Fatal(err)
	}
	change := scantest.Change{TotalBuckets: 1}
	var metas []spec.DataFileMeta
	for i, records := range files {
		f, err := w.WriteFile(ctx, nil, 0, levels[i], records)
		if err != nil {
			t.Fatal(err)
		}
		metas = append(metas, f.Meta)
		change.Partition = f.Partition
	}
	change.Add = metas
	for i, positions := range dvs {
		dv := spec.NewDeletionVector(false)
		for _, p := range positions {
			if err := dv.Delete(p); err != nil {
				t.Fatal(err)
			}
		}
		if change.DeletionVectors == nil {
			change.DeletionVectors = map[string]*spec.DeletionVector{}
		}
		change.DeletionVectors[metas[i].FileName] = dv
	}
	if _, err := w.Commit(ctx, []scantest.Change{change}); err != nil {
		t.Fatal(err)
	}
	tbl, err := table.Open(ctx, w.FS, w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func levelRecords(from, to int32) []scantest.Record {
	var out []scantest.Record
	for k := from; k < to; k++ {
		out = append(out, scantest.Record{Kind: spec.RowKindInsert, Values: []any{k, k * 10, "s"}})
	}
	return out
}

func TestExternalRead(t *testing.T) {
	pk := catalog.TableDefinition{Fields: extFields(), PrimaryKeys: []string{"k"}, Options: map[string]string{"bucket": "1"}}
	dvDef := catalog.TableDefinition{Fields: extFields(), PrimaryKeys: []string{"k"},
		Options: map[string]string{"bucket": "1", "deletion-vectors.enabled": "true"}}
	cases := []struct {
		name    string
		table   func(t *testing.T) *table.Table
		columns []string
		filter  func(s *spec.TableSchema) predicate.Predicate
		// direct and rest count the files handed out and left to Rest;
		// fallbackRest expects a Rest without splits.
		direct, rest int
	}{
		{name: "append", table: func(t *testing.T) *table.Table { return appendTable(t, localio.New()) }, direct: 2},
		{name: "append filtered", table: func(t *testing.T) *table.Table { return appendTable(t, localio.New()) },
			columns: []string{"s"}, filter: vAbove(35), direct: 2},
		{name: "append on a remote store", table: func(t *testing.T) *table.Table { return appendTable(t, memio.New()) }, rest: 2},
		{name: "compacted primary key", table: func(t *testing.T) *table.Table {
			return levelTable(t, pk, []int32{5, 5}, [][]scantest.Record{levelRecords(0, 4), levelRecords(4, 9)}, nil)
		}, direct: 2},
		{name: "uncompacted primary key", table: uncompactedTable, direct: 2},
		{name: "compacted file with retractions", table: func(t *testing.T) *table.Table {
			records := levelRecords(0, 4)
			records[2].Kind = spec.RowKindDelete
			return levelTable(t, pk, []int32{5}, [][]scantest.Record{records}, nil)
		}, direct: 1},
		{name: "deletion vector", table: func(t *testing.T) *table.Table {
			return levelTable(t, dvDef, []int32{1, 2}, [][]scantest.Record{levelRecords(0, 4), levelRecords(4, 9)}, map[int][]int64{0: {1, 3}})
		}, direct: 2},
		{name: "added column read", table: func(t *testing.T) *table.Table {
			return alteredTable(t, catalog.AddColumn{Name: "n", Type: extInt})
		}, direct: 1, rest: 1},
		{name: "added column not read", table: func(t *testing.T) *table.Table {
			return alteredTable(t, catalog.AddColumn{Name: "n", Type: extInt})
		}, columns: []string{"k", "s"}, direct: 2},
		{name: "renamed column read", table: func(t *testing.T) *table.Table {
			return alteredTable(t, catalog.RenameColumn{Name: "v", NewName: "w"})
		}, columns: []string{"w"}, direct: 1, rest: 1},
		{name: "renamed column filtered on", table: func(t *testing.T) *table.Table {
			return alteredTable(t, catalog.RenameColumn{Name: "v", NewName: "w"})
		}, columns: []string{"k"}, filter: vAbove(35), direct: 1, rest: 1},
		{name: "renamed column neither read nor filtered on", table: func(t *testing.T) *table.Table {
			return alteredTable(t, catalog.RenameColumn{Name: "v", NewName: "w"})
		}, columns: []string{"k", "s"}, direct: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			tbl := c.table(t)
			plan := planWith(t, tbl, c.filter)
			ext, err := tbl.ExternalRead(ctx, plan, c.columns)
			if err != nil {
				t.Fatal(err)
			}
			if len(ext.Files) != c.direct || restFiles(ext.Rest) != c.rest {
				t.Fatalf("%d files direct, %d left to the reader; want %d and %d", len(ext.Files), restFiles(ext.Rest), c.direct, c.rest)
			}
			if c.rest == 0 && ext.Rest != nil {
				t.Fatal("Rest is set although every file is direct")
			}
			checkExternalUnion(t, tbl, plan, ext, c.columns)
		})
	}
}

// vAbove is v > n over column v of the read schema (whatever its name).
func vAbove(n int32) func(*spec.TableSchema) predicate.Predicate {
	return func(s *spec.TableSchema) predicate.Predicate {
		i := slices.IndexFunc(s.Fields, func(f spec.DataField) bool { return f.ID == 1 })
		p, err := predicate.Leaf(predicate.ColumnOf(i, s.Fields[i]), predicate.OpGt, n)
		if err != nil {
			panic(err)
		}
		return p
	}
}

// alteredTable is an append table of one file written before change and
// one after.
func alteredTable(t *testing.T, change catalog.SchemaChange) *table.Table {
	tt, cat := localTable(t, catalog.TableDefinition{Fields: extFields()})
	writetest.Commit(tt, "u", extRows(0, 5)...)
	s, err := cat.AlterTable(context.Background(), "db", "t", change)
	if err != nil {
		t.Fatal(err)
	}
	var rows []tabletest.Record
	for _, r := range extRows(5, 9) {
		rows = append(rows, tabletest.Insert(append(r.Row, make([]any, len(s.Fields)-len(r.Row))...)...))
	}
	writetest.Commit(tt, "u", rows...)
	return tt.Open()
}

func planWith(t *testing.T, tbl *table.Table, filter func(*spec.TableSchema) predicate.Predicate) *table.Plan {
	ctx := context.Background()
	plan, err := tbl.PlanScan(ctx, snapshot.TimeTravel{}, nil)
	if err != nil || filter == nil {
		if err != nil {
			t.Fatal(err)
		}
		return plan
	}
	if plan, err = tbl.PlanScan(ctx, snapshot.TimeTravel{}, filter(plan.Schema)); err != nil {
		t.Fatal(err)
	}
	return plan
}

func restFiles(p *table.Plan) int {
	if p == nil {
		return 0
	}
	n := 0
	for _, s := range p.Splits {
		n += len(s.Files)
	}
	return n
}

// checkExternalUnion checks that the stored rows of the direct files,
// less their deleted rows, that pass the residual filter, with the rows of
// Rest, are the rows of a plain read of the plan.
func checkExternalUnion(t *testing.T, tbl *table.Table, plan *table.Plan, ext table.ExternalRead, columns []string) {
	t.Helper()
	want := tabletest.RenderRows(readPlan(t, tbl, plan, columns))
	got := tabletest.RenderRows(table.ExternalRows(t, tbl, plan, ext, columns))
	if !slices.Equal(got, want) {
		t.Fatalf("files and rest give\n%v\nthe plan reads\n%v", got, want)
	}
	if len(want) == 0 {
		t.Fatal("the plan reads no row; the case tests nothing")
	}
}

func readPlan(t *testing.T, tbl *table.Table, plan *table.Plan, columns []string) [][]any {
	rs, err := tbl.ExecutePlan(context.Background(), plan, table.ReadOptions{Columns: columns})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := table.ReadAll(rs)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
