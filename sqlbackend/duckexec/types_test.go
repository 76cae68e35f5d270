//go:build duckdb_arrow && cgo

package duckexec

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

func nullable(root spec.TypeRoot) spec.DataType { return spec.DataType{Root: root, Nullable: true} }

// typesFields has a column of each supported type, several scales of
// DECIMAL and both timestamp encodings (millis up to 3, micros up to 6),
// with and without local time zone.
var typesFields = []spec.DataField{
	{ID: 0, Name: "k", Type: spec.DataType{Root: spec.Int}},
	{ID: 1, Name: "b", Type: nullable(spec.Boolean)},
	{ID: 2, Name: "ti", Type: nullable(spec.TinyInt)},
	{ID: 3, Name: "si", Type: nullable(spec.SmallInt)},
	{ID: 4, Name: "i", Type: nullable(spec.Int)},
	{ID: 5, Name: "bi", Type: nullable(spec.BigInt)},
	{ID: 6, Name: "f", Type: nullable(spec.Float)},
	{ID: 7, Name: "d", Type: nullable(spec.Double)},
	{ID: 8, Name: "dec_int32", Type: spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 5, Scale: 2}},
	{ID: 9, Name: "dec_int64", Type: spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 18, Scale: 4}},
	{ID: 10, Name: "dec_fixed", Type: spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 38, Scale: 10}},
	{ID: 11, Name: "dec_whole", Type: spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 20, Scale: 0}},
	{ID: 12, Name: "c", Type: spec.DataType{Root: spec.Char, Nullable: true, Length: 5}},
	{ID: 13, Name: "vc", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: 20}},
	{ID: 14, Name: "bin", Type: spec.DataType{Root: spec.Binary, Nullable: true, Length: 3}},
	{ID: 15, Name: "vb", Type: spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxVarLength}},
	{ID: 16, Name: "dt", Type: nullable(spec.Date)},
	{ID: 17, Name: "ts3", Type: spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: 3}},
	{ID: 18, Name: "ts6", Type: spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: 6}},
	{ID: 19, Name: "ltz3", Type: spec.DataType{Root: spec.TimestampLTZ, Nullable: true, Precision: 3}},
	{ID: 20, Name: "ltz6", Type: spec.DataType{Root: spec.TimestampLTZ, Nullable: true, Precision: 6}},
}

func bigDecimal(digits string, scale int) spec.DecimalValue {
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		panic(digits)
	}
	return spec.NewDecimalBig(n, scale)
}

// The first second of year 1 and the last of year 9999, the ends of
// MySQL's DATETIME.
var (
	year1    = spec.TimestampFromTime(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC))
	year9999 = spec.TimestampFromTime(time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC))
)

// typesRows hold extremes, negatives, empty strings and bytes, a row of
// NULLs, and values on both sides of the epoch.
func typesRows() []tabletest.Record {
	return tabletest.Inserts(
		[]any{int32(1), true, int8(-128), int16(-32768), int32(math.MinInt32), int64(math.MinInt64), float32(-1.5), math.Copysign(0, -1),
			spec.NewDecimal(-99999, 2), spec.NewDecimal(-123456789012345678, 4), bigDecimal("-99999999999999999999999999999999999999", 10),
			bigDecimal("-99999999999999999999", 0), "", "", []byte{0, 0, 0}, []byte{},
			spec.DateValue(-719162), spec.TimestampValue{Millis: -1}, spec.TimestampValue{Millis: -1, NanoOfMilli: 999_000},
			year1, spec.TimestampValue{Millis: year1.Millis, NanoOfMilli: 1000}},
		[]any{int32(2), false, int8(127), int16(32767), int32(math.MaxInt32), int64(math.MaxInt64), float32(math.MaxFloat32), math.Inf(1),
			spec.NewDecimal(99999, 2), spec.NewDecimal(1, 4), bigDecimal("12345678901234567890123456780123456789", 10),
			spec.NewDecimal(0, 0), "ab", "it's é", []byte{0xff, 'a', 0}, []byte("\x00bytes\xff"),
			spec.DateValue(2932896), spec.TimestampValue{Millis: 1_700_000_000_123}, spec.TimestampValue{Millis: 1_700_000_000_123, NanoOfMilli: 456_000},
			spec.TimestampValue{Millis: year9999.Millis + 999}, spec.TimestampValue{Millis: year9999.Millis + 999, NanoOfMilli: 999_000}},
		[]any{int32(3), nil, nil, nil, nil, nil, float32(math.NaN()), math.NaN(), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		[]any{int32(4), true, int8(0), int16(-1), int32(-7), int64(-9), float32(math.Copysign(0, -1)), 0.1,
			spec.NewDecimal(-1, 2), spec.NewDecimal(-5, 4), bigDecimal("1", 10), spec.NewDecimal(-1, 0), "x    ", "  ", []byte("abc"), []byte("é"),
			spec.DateValue(0), spec.TimestampValue{}, spec.TimestampValue{NanoOfMilli: 1000},
			spec.TimestampValue{Millis: -1}, spec.TimestampValue{Millis: -1, NanoOfMilli: 999_000}},
	)
}

// typesTable is an append table of typesRows in two files.
func typesTable(t *testing.T) *table.Table {
	tt := tabletest.NewLocal(t, catalog.TableDefinition{Fields: typesFields})
	rows := typesRows()
	writetest.Commit(tt, "u", rows[:2]...)
	writetest.Commit(tt, "u", rows[2:]...)
	return tt.Open()
}

// Every supported type reads the same through DuckDB as through lakesql's
// reader, whether DuckDB reads the Parquet files or the reader's rows
// arrive as Arrow batches.
func TestTypesRoundTrip(t *testing.T) {
	tbl := typesTable(t)
	e := newExecutor(t, Config{Threads: 2})
	plan := planOf(t, tbl, nil)
	want := readerRows(t, tbl, plan, nil)
	for _, direct := range []bool{true, false} {
		src := sourceOf(t, tbl, plan, "t0", nil, direct)
		if direct && (len(src.Files) != 2 || src.Rows != nil) {
			t.Fatalf("the append table's files are not all direct: %d files, rows %v", len(src.Files), src.Rows != nil)
		}
		q := &duckplan.Query{SQL: selectAll("t0", len(src.Columns)), Schema: schemaOf(t, src.Columns)}
		sameRows(t, run(t, e, q, src), want)
	}
}

// Timestamps read and filter the same whatever DuckDB's TimeZone: a
// TIMESTAMP_LTZ column, which DuckDB reads from the files as a
// TIMESTAMPTZ, is the instant's UTC wall clock, as lakesql shows it.
func TestTimestampsIgnoreDuckDBTimeZone(t *testing.T) {
	tbl := typesTable(t)
	e := newExecutor(t, Config{Threads: 2})
	if _, err := e.db.Exec("SET GLOBAL TimeZone = 'America/St_Johns'"); err != nil {
		t.Fatal(err)
	}
	columns := []string{"k", "ts3", "ts6", "ltz3", "ltz6"}
	at := func(col int, op predicate.Op, ts spec.TimestampValue) func(*spec.TableSchema) predicate.Predicate {
		return func(s *spec.TableSchema) predicate.Predicate {
			p, err := predicate.Leaf(predicate.ColumnOf(col, s.Fields[col]), op, ts)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	epoch := spec.TimestampValue{}
	filters := map[string]func(*spec.TableSchema) predicate.Predicate{
		"none":             nil,
		"ltz6 < epoch":     at(20, predicate.OpLt, epoch),
		"ltz3 = -1ms":      at(19, predicate.OpEq, spec.TimestampValue{Millis: -1}),
		"ltz6 >= year1":    at(20, predicate.OpGe, year1),
		"ts6 > epoch":      at(18, predicate.OpGt, epoch),
		"ts3 <= -1ms":      at(17, predicate.OpLe, spec.TimestampValue{Millis: -1}),
		"ltz6 <> 1µs past": at(20, predicate.OpNotEq, spec.TimestampValue{Millis: year1.Millis, NanoOfMilli: 1000}),
	}
	for name, filter := range filters {
		t.Run(name, func(t *testing.T) {
			plan := planOf(t, tbl, filter)
			want := readerRows(t, tbl, plan, columns)
			for _, direct := range []bool{true, false} {
				src := sourceOf(t, tbl, plan, "t0", columns, direct)
				if direct && src.Rows != nil {
					t.Fatal("the files are not all read by DuckDB")
				}
				q := &duckplan.Query{SQL: selectAll("t0", len(columns)), Schema: schemaOf(t, src.Columns)}
				sameRows(t, run(t, e, q, src), want)
			}
		})
	}
}
