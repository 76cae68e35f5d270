//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

func newExecutor(t *testing.T, cfg Config) *Executor {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}

func gmsContext() *gms.Context { return gms.NewContext(context.Background()) }

// planOf plans a read of the latest snapshot with the filter filter builds
// over the read schema (nil: none).
func planOf(t testing.TB, tbl *table.Table, filter func(*spec.TableSchema) predicate.Predicate) *table.Plan {
	t.Helper()
	ctx := context.Background()
	plan, err := tbl.PlanScan(ctx, snapshot.TimeTravel{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if filter != nil {
		if plan, err = tbl.PlanScan(ctx, snapshot.TimeTravel{}, filter(plan.Schema)); err != nil {
			t.Fatal(err)
		}
	}
	return plan
}

// sourceOf is the relation name reading columns (nil: all) of plan the
// way the SQL backend hands it over: the files ExternalRead gives DuckDB,
// filtered by the residual filter, and the rest through lakesql's reader.
// direct false leaves every row to the reader.
func sourceOf(t testing.TB, tbl *table.Table, plan *table.Plan, name string, columns []string, direct bool) duckplan.Source {
	t.Helper()
	src := duckplan.Source{Name: name, Columns: columnsOf(t, plan.Schema, columns)}
	rest := plan
	if direct {
		ext, err := tbl.ExternalRead(context.Background(), plan, columns)
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(plan.Schema.Fields))
		for i, f := range plan.Schema.Fields {
			names[i] = f.Name
		}
		if src.FileFilter, err = duckplan.FilterSQL(plan.Scan.Filter.Residual, names); err != nil {
			t.Fatal(err)
		}
		for _, f := range ext.Files {
			src.Files = append(src.Files, duckplan.File{Path: f.Path, Deleted: f.Deleted})
		}
		rest = ext.Rest
	}
	if rest != nil {
		src.Rows = func(ctx context.Context) (duckplan.RowSource, error) {
			return tbl.ExecutePlan(ctx, rest, table.ReadOptions{Columns: columns})
		}
	}
	return src
}

func columnsOf(t testing.TB, s *spec.TableSchema, names []string) []duckplan.Column {
	var out []duckplan.Column
	for _, f := range s.Fields {
		if names == nil || slices.Contains(names, f.Name) {
			out = append(out, duckplan.Column{FileName: f.Name, Type: f.Type})
		}
	}
	if names != nil && len(out) != len(names) {
		t.Fatalf("columns %v must be in schema order", names)
	}
	return out
}

// schemaOf is the GMS schema of columns read as lakesql shows them.
func schemaOf(t *testing.T, cols []duckplan.Column) gms.Schema {
	out := make(gms.Schema, len(cols))
	for i, c := range cols {
		typ, err := sqltypes.Type(c.Type)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = &gms.Column{Name: fmt.Sprintf("c%d", i), Type: typ, Nullable: true}
	}
	return out
}

// selectAll is SELECT c0, c1, … FROM name.
func selectAll(name string, n int) string {
	cols := make([]string, n)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d", i)
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM " + name
}

// run runs q and returns its rows, rendered and sorted.
func run(t *testing.T, e *Executor, q *duckplan.Query, sources ...duckplan.Source) []string {
	t.Helper()
	rows, err := runErr(e, q, sources...)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func runErr(e *Executor, q *duckplan.Query, sources ...duckplan.Source) ([]string, error) {
	ctx := gmsContext()
	it, err := e.Run(ctx, q, sources)
	if err != nil {
		return nil, err
	}
	var out []string
	for {
		row, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errors.Join(err, it.Close(ctx))
		}
		out = append(out, renderRow(row))
	}
	slices.Sort(out)
	return out, it.Close(ctx)
}

// readerRows are the rows lakesql's reader returns for the plan,
// converted as the SQL backend converts them for GMS, rendered and
// sorted.
func readerRows(t *testing.T, tbl *table.Table, plan *table.Plan, columns []string) []string {
	t.Helper()
	rows, fields := readPlan(t, tbl, plan, columns)
	var out []string
	for _, row := range rows {
		converted := make(gms.Row, len(row))
		for i, v := range row {
			var err error
			if converted[i], err = sqltypes.ToSQL(fields[i].Type, v); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, renderRow(converted))
	}
	slices.Sort(out)
	return out
}

// readPlan returns the rows lakesql's reader returns for the plan, and
// their fields.
func readPlan(t *testing.T, tbl *table.Table, plan *table.Plan, columns []string) ([][]any, []spec.DataField) {
	t.Helper()
	rs, err := tbl.ExecutePlan(context.Background(), plan, table.ReadOptions{Columns: columns})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := table.ReadAll(rs)
	if err != nil {
		t.Fatal(err)
	}
	return rows, rs.Fields()
}

// renderRow prints each value with its Go type, exactly: decimals with
// their exponent, times with their zone.
func renderRow(row gms.Row) string {
	parts := make([]string, len(row))
	for i, v := range row {
		switch x := v.(type) {
		case nil:
			parts[i] = "NULL"
		case decimal.Decimal:
			parts[i] = fmt.Sprintf("decimal(%se%d)", x.Coefficient(), x.Exponent())
		case time.Time:
			parts[i] = "time(" + x.Format(time.RFC3339Nano) + " " + x.Location().String() + ")"
		case []byte:
			parts[i] = fmt.Sprintf("bytes(%x)", x)
		default:
			parts[i] = fmt.Sprintf("%T(%v)", v, v)
		}
	}
	return strings.Join(parts, " | ")
}

func sameRows(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("DuckDB returns\n%s\nlakesql's reader\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(want) == 0 {
		t.Fatal("no rows; the case tests nothing")
	}
}
