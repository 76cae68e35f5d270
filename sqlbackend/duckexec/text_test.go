//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	vitess "github.com/dolthub/vitess/go/sqltypes"

	lakesqltypes "github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
)

// rowText runs q on the row path and encodes each value as GMS's handler
// does (the column type's SQL method): one line per row, NULL as \N.
func rowText(t *testing.T, e *Executor, q *duckplan.Query, sources ...duckplan.Source) []string {
	t.Helper()
	ctx := gmsContext()
	it, err := e.Run(ctx, q, sources)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close(ctx)
	var out []string
	for {
		row, err := it.Next(ctx)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		values := make([]string, len(row))
		for i, v := range row {
			// The row path's wireResult writes floats as MySQL does.
			if f, ok := lakesqltypes.FloatValueText(v); ok && types.IsFloat(q.Schema[i].Type) {
				values[i] = f
				continue
			}
			text, err := q.Schema[i].Type.SQL(ctx, nil, v)
			if err != nil {
				t.Fatalf("column %d: %v", i, err)
			}
			values[i] = renderText(text.IsNull(), text.Raw())
		}
		out = append(out, strings.Join(values, "|"))
	}
}

// textRowsOf runs q on the text path and renders its rows as rowText
// does; mode says whether they were read from DuckDB's vectors
// ("native") or through Arrow ("arrow").
func textRowsOf(t *testing.T, e *Executor, q *duckplan.Query, sources ...duckplan.Source) (rows []string, mode string) {
	t.Helper()
	rows, mode, err := textRowsErr(e, q, sources...)
	if err != nil {
		t.Fatal(err)
	}
	return rows, mode
}

func textRowsErr(e *Executor, q *duckplan.Query, sources ...duckplan.Source) (out []string, mode string, err error) {
	ctx := gmsContext()
	rows, err := e.RunText(ctx, q, sources)
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	mode = "arrow"
	if rows.(*textRows).native != nil {
		mode = "native"
	}
	for {
		batch, err := rows.Next(ctx)
		if err == io.EOF {
			return out, mode, nil
		}
		if err != nil {
			return nil, mode, err
		}
		for _, row := range batch {
			values := make([]string, len(row))
			for i, v := range row {
				values[i] = renderText(v.IsNull(), v.Raw())
			}
			out = append(out, strings.Join(values, "|"))
		}
	}
}

func renderText(null bool, raw []byte) string {
	if null {
		return `\N`
	}
	return string(raw)
}

// The text path sends every supported column type's values exactly as
// the row path and GMS's encoding do, in the same order: every type of
// a table's columns (extremes, NULLs, empty strings, dates of year 1 and
// 9999), read from Parquet by DuckDB and from lakesql's rows. The columns
// DuckDB's vectors are read for are read so when all of a result's are,
// and through Arrow beside any other.
func TestTextMatchesRowsOverTypes(t *testing.T) {
	tbl := typesTable(t)
	e := newExecutor(t, Config{Threads: 2})
	plan := planOf(t, tbl, nil)
	readings := []struct {
		columns []string
		mode    string
	}{
		{nil, "arrow"},
		{[]string{"k", "ti", "si", "i", "bi", "dec_int32", "dec_int64", "dec_fixed", "dec_whole", "c", "vc", "dt"}, "native"},
	}
	for _, r := range readings {
		for _, direct := range []bool{true, false} {
			src := sourceOf(t, tbl, plan, "t0", r.columns, direct)
			q := &duckplan.Query{SQL: selectAll("t0", len(src.Columns)) + " ORDER BY c0", Schema: schemaOf(t, src.Columns), Ordered: true}
			want := rowText(t, e, q, src)
			if len(want) != len(typesRows()) {
				t.Fatalf("the row path read %d rows, want %d", len(want), len(typesRows()))
			}
			got, mode := textRowsOf(t, e, q, src)
			if mode != r.mode {
				t.Fatalf("columns %v were read by %s, want %s", r.columns, mode, r.mode)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s, direct %v: the text path sent\n%s\nthe row path\n%s", mode, direct, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// Computed values whose DuckDB types differ from their GMS types: DECIMALs
// of another scale than a column type's (rounded by GMS), of the value's
// own scale, HUGEINT sums, integers into narrower and unsigned types,
// booleans as integers, strings that are not UTF-8.
func TestTextMatchesRowsOverExpressions(t *testing.T) {
	e := newExecutor(t, Config{Threads: 2})
	column := func(p, s uint8) gms.Type { return types.MustCreateColumnDecimalType(p, s) }
	cases := []struct {
		name string
		sql  string
		typ  gms.Type
		// native: the column alone is read from DuckDB's vectors.
		native bool
	}{
		{"column decimal, finer value", "SELECT * FROM (VALUES (1.2345::DECIMAL(10,4)), (-1.2350::DECIMAL(10,4)), (0.0049::DECIMAL(10,4)), (NULL)) v(x)", column(10, 2), false},
		{"column decimal, same scale", "SELECT * FROM (VALUES (1.23::DECIMAL(18,2)), (-0.05::DECIMAL(18,2)), (0::DECIMAL(18,2)), (-99999999999999.99::DECIMAL(18,2))) v(x)", column(18, 2), true},
		{"expression decimal", "SELECT * FROM (VALUES (1.50::DECIMAL(10,2)), (-0.001::DECIMAL(10,3)), (7::DECIMAL(10,0))) v(x)", types.MustCreateDecimalType(20, 4), true},
		{"wide decimal", "SELECT * FROM (VALUES ('-12345678901234567890.123456'::DECIMAL(38,6)), ('0.000001'::DECIMAL(38,6))) v(x)", types.MustCreateDecimalType(38, 6), true},
		{"hugeint sum", "SELECT sum(x) FROM (VALUES (9223372036854775807::BIGINT), (9223372036854775807::BIGINT)) v(x)", types.MustCreateDecimalType(65, 0), false},
		{"integers", "SELECT * FROM (VALUES (0::BIGINT), (-9223372036854775807::BIGINT - 1), (42::TINYINT), (NULL)) v(x)", types.Int64, true},
		{"small integers", "SELECT * FROM (VALUES (-128::BIGINT), (127::BIGINT)) v(x)", types.Int8, true},
		{"unsigned", "SELECT * FROM (VALUES (18446744073709551615::UBIGINT), (0::UBIGINT)) v(x)", types.Uint64, true},
		{"booleans", "SELECT * FROM (VALUES (true), (false), (NULL)) v(x)", types.Boolean, false},
		{"doubles", "SELECT * FROM (VALUES (0.1::DOUBLE), (-0.0::DOUBLE), (1e300::DOUBLE), ('nan'::DOUBLE)) v(x)", types.Float64, false},
		{"strings", "SELECT * FROM (VALUES (''), ('é✓'), ('a' || chr(0) || 'b'), (NULL)) v(x)", types.LongText, true},
		{"dates", "SELECT * FROM (VALUES ('0001-01-01'::DATE), ('0999-12-31'::DATE), ('1000-01-01'::DATE), ('1970-01-01'::DATE), ('9999-12-31'::DATE)) v(x)", types.Date, true},
		{"datetimes", "SELECT * FROM (VALUES ('2024-02-29 23:59:59.123456'::TIMESTAMP), ('1000-01-01 00:00:00'::TIMESTAMP)) v(x)", types.MustCreateDatetimeType(vitess.Datetime, 6), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			alone := &duckplan.Query{SQL: c.sql, Schema: gms.Schema{{Name: "x", Type: c.typ, Nullable: true}}}
			// A DOUBLE beside the column sends the result through Arrow.
			besideDouble := &duckplan.Query{
				SQL:    "SELECT x, 0.5::DOUBLE FROM (" + c.sql + ") w(x)",
				Schema: gms.Schema{{Name: "x", Type: c.typ, Nullable: true}, {Name: "f", Type: types.Float64}},
			}
			modes := map[string]bool{}
			for _, q := range []*duckplan.Query{alone, besideDouble} {
				want := rowText(t, e, q)
				got, mode := textRowsOf(t, e, q)
				modes[mode] = true
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: the text path sent %q, the row path %q", mode, got, want)
				}
			}
			if !modes["arrow"] || modes["native"] != c.native {
				t.Fatalf("the results were read by %v, want Arrow and native %v", modes, c.native)
			}
		})
	}
}

// A value the row path refuses fails the text path too, with the same
// error class: an integer out of the column type's range is inexact.
func TestTextRefusesWhatRowsRefuse(t *testing.T) {
	e := newExecutor(t, Config{Threads: 2})
	q := &duckplan.Query{SQL: "SELECT * FROM (VALUES (128::BIGINT)) v(x)", Schema: gms.Schema{{Name: "x", Type: types.Int8}}}
	if _, _, err := textRowsErr(e, q); !errors.Is(err, errInexact) {
		t.Fatalf("got %v, want errInexact", err)
	}
	if _, err := runErr(e, q); !errors.Is(err, errInexact) {
		t.Fatalf("the row path: got %v, want errInexact", err)
	}
}

// A result of many batches arrives whole and in the query's order.
func TestTextStreamsInOrder(t *testing.T) {
	e := newExecutor(t, Config{Threads: 2})
	const n = 2*resultPageRows + 123
	q := &duckplan.Query{
		SQL:     "SELECT i, 'v' || i FROM range(" + strconv.Itoa(n) + ") r(i) ORDER BY i DESC",
		Schema:  gms.Schema{{Name: "i", Type: types.Int64}, {Name: "s", Type: types.LongText}},
		Ordered: true,
	}
	got, _ := textRowsOf(t, e, q)
	if len(got) != n {
		t.Fatalf("%d rows, want %d", len(got), n)
	}
	for k, row := range got {
		if i := n - 1 - k; row != strconv.Itoa(i)+"|v"+strconv.Itoa(i) {
			t.Fatalf("row %d is %q, want %d", k, row, i)
		}
	}
}

// Cancelling a statement while its result streams stops DuckDB: the next
// batch fails with the cancellation, and the connection it returns to
// the pool runs the next query.
func TestTextStreamCancels(t *testing.T) {
	e := newExecutor(t, Config{Threads: 1})
	ctx, cancel := context.WithCancel(context.Background())
	gctx := gms.NewContext(ctx)
	q := &duckplan.Query{SQL: "SELECT i FROM range(100000000) r(i)", Schema: gms.Schema{{Name: "i", Type: types.Int64}}}
	rows, err := e.RunText(gctx, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rows.Next(gctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	for err == nil {
		_, err = rows.Next(gctx)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("after the cancel: %v, want context.Canceled", err)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	small := &duckplan.Query{SQL: "SELECT 7", Schema: gms.Schema{{Name: "x", Type: types.Int64}}}
	if got, _ := textRowsOf(t, e, small); !slices.Equal(got, []string{"7"}) {
		t.Fatalf("the next query returned %q", got)
	}
}

// A column whose DuckDB type has no Arrow reading is refused as
// unsupported, which sends the statement to the row path.
func TestTextRefusesUnreadArrowTypes(t *testing.T) {
	e := newExecutor(t, Config{Threads: 2})
	q := &duckplan.Query{SQL: "SELECT INTERVAL 1 DAY", Schema: gms.Schema{{Name: "x", Type: types.LongText}}}
	if _, _, err := textRowsErr(e, q); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("got %v, want ErrUnsupported", err)
	}
}

// civilDate agrees with Go's calendar on every day from year 1 to 9999
// and around the epoch on both sides.
func TestCivilDate(t *testing.T) {
	first := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix() / 86400
	last := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).Unix() / 86400
	for days := first - 800; days <= last+800; days++ {
		want := time.Unix(days*86400, 0).UTC()
		year, month, day := civilDate(days)
		if year != int64(want.Year()) || month != int(want.Month()) || day != want.Day() {
			t.Fatalf("day %d: %d-%d-%d, want %s", days, year, month, day, want.Format("2006-01-02"))
		}
	}
}
