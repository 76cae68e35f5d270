package tabletest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// Record is one row with its change kind, as a writer takes it.
type Record struct {
	Row  []any
	Kind spec.RowKind
}

// Insert is an INSERT of row.
func Insert(row ...any) Record { return Record{Row: row, Kind: spec.RowKindInsert} }

// Inserts are INSERTs of rows.
func Inserts(rows ...[]any) []Record {
	out := make([]Record, len(rows))
	for i, r := range rows {
		out[i] = Insert(r...)
	}
	return out
}

// Update is the new value of an updated row.
func Update(row ...any) Record { return Record{Row: row, Kind: spec.RowKindUpdateAfter} }

// Retract is the old value of an updated row.
func Retract(row ...any) Record { return Record{Row: row, Kind: spec.RowKindUpdateBefore} }

// Delete is a DELETE of row.
func Delete(row ...any) Record { return Record{Row: row, Kind: spec.RowKindDelete} }

// Read returns the rows of the latest snapshot, rendered and sorted.
func (t *Table) Read() []string {
	t.T.Helper()
	return t.ReadWith(table.ReadOptions{})
}

// ReadWith returns the rows opts read, rendered and sorted.
func (t *Table) ReadWith(opts table.ReadOptions) []string {
	t.T.Helper()
	rows, err := ReadRows(t.FS, t.Dir, opts)
	if err != nil {
		t.T.Fatal(err)
	}
	return rows
}

// ReadRows opens the table at dir through fsys afresh and returns the rows
// opts read, rendered and sorted: how a reader that shares nothing with
// the test sees the table.
func ReadRows(fsys fileio.FileIO, dir string, opts table.ReadOptions) ([]string, error) {
	tbl, err := table.Open(context.Background(), fsys, dir)
	if err != nil {
		return nil, err
	}
	return ReadTable(tbl, opts)
}

// ReadTable returns the rows opts read from tbl, rendered and sorted.
func ReadTable(tbl *table.Table, opts table.ReadOptions) ([]string, error) {
	rows, err := tbl.Read(context.Background(), opts)
	if err != nil {
		return nil, err
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		return nil, err
	}
	return RenderRows(all), nil
}

// RenderRows renders rows and sorts them.
func RenderRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = RenderRow(r)
	}
	slices.Sort(out)
	return out
}

// RenderRow renders a row as its values joined by |: NULL for a null,
// decimals and timestamps as SQL prints them, anything else with fmt.
func RenderRow(row []any) string {
	parts := make([]string, len(row))
	for i, v := range row {
		switch x := v.(type) {
		case nil:
			parts[i] = "NULL"
		case spec.DecimalValue:
			parts[i] = x.String()
		case spec.TimestampValue:
			parts[i] = x.Format(6)
		default:
			parts[i] = fmt.Sprint(x)
		}
	}
	return strings.Join(parts, "|")
}
