//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// generated is a RowSource of n rows made by row (n < 0: endless).
type generated struct {
	n, i int
	row  func(i int) []any
}

func (g *generated) Next() ([]any, error) {
	if g.n >= 0 && g.i >= g.n {
		return nil, io.EOF
	}
	g.i++
	return g.row(g.i - 1), nil
}

func (g *generated) Close() error { return nil }

func generatedSource(name string, cols []duckplan.Column, n int, row func(i int) []any) duckplan.Source {
	return duckplan.Source{Name: name, Columns: cols, Rows: func(context.Context) (duckplan.RowSource, error) {
		return &generated{n: n, row: row}, nil
	}}
}

var (
	bigintColumn = duckplan.Column{FileName: "k", Type: spec.DataType{Root: spec.BigInt}}
	stringColumn = duckplan.Column{FileName: "s", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}}
)

// A group-by of two million groups finishes under a 100MB memory limit
// by spilling to the temporary directory, which DuckDB creates only when
// it spills.
func TestGroupBySpills(t *testing.T) {
	if testing.Short() {
		t.Skip("writes two million rows")
	}
	spill := filepath.Join(t.TempDir(), "spill")
	e := newExecutor(t, Config{Threads: 2, MemoryLimit: "100MB", TempDir: spill})
	const n = 2_000_000
	src := generatedSource("t0", []duckplan.Column{bigintColumn, stringColumn}, n, func(i int) []any {
		return []any{int64(i*7919) % n, strings.Repeat("x", i%40)}
	})
	q := &duckplan.Query{
		SQL:    "SELECT count(*), sum(n), sum(l) FROM (SELECT c0, count(*) AS n, max(length(c1)) AS l FROM t0 GROUP BY c0)",
		Schema: gms.Schema{{Type: types.Int64}, {Type: types.MustCreateDecimalType(38, 0)}, {Type: types.MustCreateDecimalType(38, 0)}},
	}
	if _, err := os.Stat(spill); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the spill directory exists before the query: %v", err)
	}
	got := run(t, e, q, src)
	// 7919 is prime to n's factors, so every key appears once; the string
	// of row i has i%40 characters.
	want := renderRow(gms.Row{int64(n), decimalOf(n), decimalOf(n / 40 * (39 * 40 / 2))})
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got %v, want %s", got, want)
	}
	if _, err := os.Stat(spill); err != nil {
		t.Fatalf("DuckDB did not spill: %v", err)
	}
}

// Every connection of the executor's pool reads Parquet footers through
// the cache, which is DuckDB-wide.
func TestParquetFootersCached(t *testing.T) {
	e := newExecutor(t, Config{Threads: 1})
	ctx := context.Background()
	for range 3 {
		conn, err := e.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var cached bool
		if err := conn.QueryRowContext(ctx, "SELECT current_setting('parquet_metadata_cache')").Scan(&cached); err != nil {
			t.Fatal(err)
		}
		if !cached {
			t.Fatal("a connection reads Parquet footers without the cache")
		}
	}
}

// A cancelled context stops DuckDB, both while it runs a query and while
// it reads lakesql's rows.
func TestCancel(t *testing.T) {
	e := newExecutor(t, Config{Threads: 2})
	endless := generatedSource("t0", []duckplan.Column{bigintColumn}, -1, func(i int) []any { return []any{int64(i)} })
	cases := []struct {
		name    string
		sql     string
		sources []duckplan.Source
	}{
		{"query", "SELECT sum(a.range * b.range) FROM range(1000000000) a CROSS JOIN range(1000000) b", nil},
		{"rows", "SELECT count(*) FROM t0", []duckplan.Source{endless}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := runIn(gms.NewContext(ctx), e, &duckplan.Query{SQL: c.sql, Schema: gms.Schema{{Type: types.MustCreateDecimalType(38, 0)}}}, c.sources)
				done <- err
			}()
			time.Sleep(300 * time.Millisecond)
			select {
			case err := <-done:
				t.Fatalf("the query ended before it was cancelled: %v", err)
			default:
			}
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("the cancelled query returned %v", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("the cancelled query still runs")
			}
		})
	}
}

func runIn(ctx *gms.Context, e *Executor, q *duckplan.Query, sources []duckplan.Source) (int, error) {
	it, err := e.Run(ctx, q, sources)
	if err != nil {
		return 0, err
	}
	n := 0
	for {
		_, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return n, it.Close(ctx)
		}
		if err != nil {
			return n, errors.Join(err, it.Close(ctx))
		}
		n++
	}
}

func TestUnsupported(t *testing.T) {
	e := newExecutor(t, Config{Threads: 1})
	column := func(t spec.DataType) []duckplan.Source {
		return []duckplan.Source{{Name: "t0", Columns: []duckplan.Column{{FileName: "x", Type: t}}}}
	}
	bigint := gms.Schema{{Type: types.Int64}}
	cases := []struct {
		name    string
		schema  gms.Schema
		sources []duckplan.Source
	}{
		{"nanoseconds", bigint, column(spec.DataType{Root: spec.Timestamp, Precision: 9})},
		{"local time zone nanoseconds", bigint, column(spec.DataType{Root: spec.TimestampLTZ, Precision: 7})},
		{"time", bigint, column(spec.DataType{Root: spec.Time})},
		{"array", bigint, column(spec.DataType{Root: spec.Array, Element: &spec.DataType{Root: spec.Int}})},
		{"json result", gms.Schema{{Type: types.JSON}}, nil},
		{"year result", gms.Schema{{Type: types.Year}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.Run(gmsContext(), &duckplan.Query{SQL: "SELECT 1", Schema: c.schema}, c.sources)
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %v, want ErrUnsupported", err)
			}
		})
	}
}

func decimalOf(n int64) any { return decimal.NewFromInt(n) }

// Values convert to the result column's GMS type exactly or not at all.
func TestResultConversion(t *testing.T) {
	e := newExecutor(t, Config{Threads: 1})
	cases := []struct {
		sql  string
		typ  gms.Type
		want string // "" expects errInexact
	}{
		{"SELECT true", types.Boolean, "int8(1)"},
		{"SELECT 127::HUGEINT", types.Int8, "int8(127)"},
		{"SELECT 128", types.Int8, ""},
		{"SELECT -1", types.Uint64, ""},
		{"SELECT 255::UTINYINT", types.Uint8, "uint8(255)"},
		{"SELECT 16777215", types.Uint24, "uint32(16777215)"},
		{"SELECT 8388608", types.Int24, ""},
		{"SELECT CAST(3 AS DECIMAL(10,0))", types.Int32, "int32(3)"},
		{"SELECT CAST(3.5 AS DECIMAL(10,1))", types.Int32, ""},
		{"SELECT 1.5::DOUBLE", types.Float32, "float32(1.5)"},
		{"SELECT 0.1::DOUBLE", types.Float32, ""},
		{"SELECT 'NaN'::DOUBLE", types.Float32, "float32(NaN)"},
		{"SELECT 0.1::FLOAT", types.Float64, "float64(0.10000000149011612)"},
		{"SELECT 1", types.Float64, ""},
		// Decimals keep DuckDB's scale and are not checked against the
		// GMS type, which GMS does not do with its own values either.
		{"SELECT CAST(1.5 AS DECIMAL(10,1))", types.MustCreateDecimalType(20, 3), "decimal(15e-1)"},
		{"SELECT CAST(-1.250 AS DECIMAL(10,3))", types.MustCreateDecimalType(20, 2), "decimal(-1250e-3)"},
		{"SELECT CAST(100 AS DECIMAL(10,0))", types.MustCreateDecimalType(3, 1), "decimal(100e0)"},
		{"SELECT 12345678901234567890::HUGEINT", types.MustCreateDecimalType(65, 0), "decimal(12345678901234567890e0)"},
		{"SELECT 9223372036854775807::HUGEINT * 10", types.MustCreateDecimalType(38, 0), "decimal(92233720368547758070e0)"},
		{"SELECT 1.5::DOUBLE", types.MustCreateDecimalType(10, 1), ""},
		{"SELECT DATE '2024-02-29'", types.Date, "time(2024-02-29T00:00:00Z UTC)"},
		{"SELECT TIMESTAMP '2024-02-29 10:11:12.123456'", types.Date, ""},
		{"SELECT TIMESTAMP '2024-02-29 10:11:12.123456'", types.DatetimeMaxPrecision, "time(2024-02-29T10:11:12.123456Z UTC)"},
		{"SELECT TIMESTAMP '2024-02-29 10:11:12.123456'", types.MustCreateDatetimeType(types.Datetime.Type(), 3), ""},
		{"SELECT 'é'", types.LongText, "string(é)"},
		{"SELECT '\\x00\\xff'::BLOB", types.LongBlob, "bytes(00ff)"},
		{"SELECT '\\x00\\xff'::BLOB", types.LongText, ""},
		{"SELECT NULL::INTEGER", types.Int8, "NULL"},
	}
	for _, c := range cases {
		t.Run(c.sql+" as "+c.typ.String(), func(t *testing.T) {
			got, err := runErr(e, &duckplan.Query{SQL: c.sql, Schema: gms.Schema{{Type: c.typ, Nullable: true}}})
			if c.want == "" {
				if !errors.Is(err, errInexact) {
					t.Fatalf("got %v, %v; want errInexact", got, err)
				}
				return
			}
			if err != nil || len(got) != 1 || got[0] != c.want {
				t.Fatalf("got %v, %v; want %s", got, err, c.want)
			}
		})
	}
}

// DuckDB evaluates FileFilter as package predicate evaluates the filter:
// NaN above +Inf and equal to itself, -0.0 equal to 0.0, strings in
// unsigned byte order, case-sensitive.
func TestFilterSemantics(t *testing.T) {
	tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: []spec.DataField{
		{ID: 0, Name: "d", Type: nullable(spec.Double)},
		{ID: 1, Name: "f", Type: nullable(spec.Float)},
		{ID: 2, Name: "s", Type: stringColumn.Type},
	}})
	writetest.Commit(tt, "u", tabletest.Inserts(
		[]any{math.NaN(), float32(math.NaN()), "a"},
		[]any{math.Copysign(0, -1), float32(math.Copysign(0, -1)), "B"},
		[]any{0.0, float32(0), "é"},
		[]any{1.0, float32(1), "z"},
		[]any{math.Inf(-1), float32(math.Inf(-1)), ""},
		[]any{math.Inf(1), float32(math.Inf(1)), "ab"},
		[]any{nil, nil, nil},
	)...)
	tbl := tt.Open()
	e := newExecutor(t, Config{Threads: 1})
	leaf := func(col int, op predicate.Op, lits ...any) func(*spec.TableSchema) predicate.Predicate {
		return func(s *spec.TableSchema) predicate.Predicate {
			p, err := predicate.Leaf(predicate.ColumnOf(col, s.Fields[col]), op, lits...)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	filters := map[string]func(*spec.TableSchema) predicate.Predicate{
		"d > 1":           leaf(0, predicate.OpGt, 1),
		"d >= 0":          leaf(0, predicate.OpGe, 0),
		"d = 0":           leaf(0, predicate.OpEq, 0),
		"d <> 0":          leaf(0, predicate.OpNotEq, 0),
		"d < 1":           leaf(0, predicate.OpLt, 1),
		"d NOT IN (0, 1)": leaf(0, predicate.OpNotIn, 0, 1),
		"d NOT BETWEEN -1 AND 1": func(s *spec.TableSchema) predicate.Predicate {
			return predicate.Not(leaf(0, predicate.OpBetween, -1, 1)(s))
		},
		"f = 0":                   leaf(1, predicate.OpEq, 0),
		"f > 0.5":                 leaf(1, predicate.OpGt, 0.5),
		"s < 'a'":                 leaf(2, predicate.OpLt, "a"),
		"s >= 'z'":                leaf(2, predicate.OpGe, "z"),
		"s LIKE 'a%'":             leaf(2, predicate.OpStartsWith, "a"),
		"s NOT IN ('a', 'B', '')": leaf(2, predicate.OpNotIn, "a", "B", ""),
		"s IS NULL":               leaf(2, predicate.OpIsNull),
	}
	for name, filter := range filters {
		t.Run(name, func(t *testing.T) {
			plan := planOf(t, tbl, filter)
			src := sourceOf(t, tbl, plan, "t0", nil, true)
			if src.Rows != nil {
				t.Fatal("the file is not read by DuckDB")
			}
			q := &duckplan.Query{SQL: selectAll("t0", 3), Schema: schemaOf(t, src.Columns)}
			got, err := runErr(e, q, src)
			if err != nil {
				t.Fatal(err)
			}
			if want := readerRows(t, tbl, plan, nil); !slices.Equal(got, want) {
				t.Fatalf("filter %s\nDuckDB keeps\n%s\nlakesql keeps\n%s", src.FileFilter, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// Relations are common table expressions beside the query's own, a
// relation of lakesql's rows may be read twice, and a source with neither
// files nor rows is an empty relation of its types.
func TestRelations(t *testing.T) {
	e := newExecutor(t, Config{Threads: 2})
	rows := generatedSource("t0", []duckplan.Column{bigintColumn, stringColumn}, 5000, func(i int) []any {
		return []any{int64(i % 100), "v"}
	})
	empty := duckplan.Source{Name: "t1", Columns: []duckplan.Column{stringColumn}}
	count := gms.Schema{{Type: types.Int64}}
	cases := []struct {
		sql  string
		want string
	}{
		{"WITH x AS (SELECT c0 FROM t0 WHERE c0 < 10) SELECT count(*) FROM x", "int64(500)"},
		{"  with recursive r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT count(*) FROM r, t1", "int64(0)"},
		{"SELECT count(*) FROM t0 a JOIN t0 b ON a.c0 = b.c0 WHERE a.c0 = 7", "int64(2500)"},
		{"SELECT count(*) FROM t1 WHERE c0 IS NULL", "int64(0)"},
	}
	for _, c := range cases {
		got := run(t, e, &duckplan.Query{SQL: c.sql, Schema: count}, rows, empty)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: got %v, want %s", c.sql, got, c.want)
		}
	}
}

// EXPLAIN shows DuckDB's plan: a Parquet scan of the files and a scan of
// the table lakesql's rows were copied to.
func TestExplain(t *testing.T) {
	tbl := typesTable(t)
	plan := planOf(t, tbl, nil)
	files := sourceOf(t, tbl, plan, "t0", nil, true)
	rows := sourceOf(t, tbl, plan, "t1", nil, false)
	rows.Rows = func(context.Context) (duckplan.RowSource, error) {
		t.Fatal("EXPLAIN opened the rows")
		return nil, nil
	}
	e := newExecutor(t, Config{Threads: 1})
	q := &duckplan.Query{SQL: "SELECT count(*) FROM t0 JOIN t1 ON t0.c0 = t1.c0", Schema: gms.Schema{{Type: types.Int64}}}
	got, err := e.Explain(gmsContext(), q, []duckplan.Source{files, rows})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"READ_PARQUET", "SEQ_SCAN", "HASH_JOIN"} {
		if !strings.Contains(got, want) {
			t.Errorf("the plan has no %s:\n%s", want, got)
		}
	}
}
