package schema

import (
	"context"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
)

// The fixtures below were written by Java Paimon: rows under schema-0, then
// an ALTER TABLE producing schema-1. The input rows are the values stored in
// their schema-0 Parquet files; the expected rows are what Java returns when
// it reads them through schema-1 (the tables' READMEs list them).

// fixtureMapping maps the fixture's schema-0 files to its schema-1.
func fixtureMapping(t *testing.T, table string, opts Options) *RowMapping {
	t.Helper()
	ctx := context.Background()
	m := NewManager(localio.New(), fixtures.TableDir("paimon-java/"+table), "")
	fileSchema, err := m.Schema(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	readSchema, err := m.Schema(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	mapping, err := NewRowMapping(fileSchema.Fields, readSchema.Fields, opts)
	if err != nil {
		t.Fatal(err)
	}
	return mapping
}

func checkFixtureRows(t *testing.T, m *RowMapping, wantColumns []string, in, want [][]any) {
	t.Helper()
	if got := m.FileColumnNames(); !reflect.DeepEqual(got, wantColumns) {
		t.Errorf("file columns %v, want %v", got, wantColumns)
	}
	for i := range in {
		got, err := m.Apply(in[i])
		if err != nil {
			t.Errorf("row %d: %v", i, err)
			continue
		}
		for c := range want[i] {
			if !sameValue(got[c], want[i][c]) {
				t.Errorf("row %d column %d: got %#v, want %#v", i, c, got[c], want[i][c])
			}
		}
	}
}

func TestFixtureAppendTableWithAlterTable(t *testing.T) {
	// Dropped a and c, renamed b -> c and d -> a, moved k, re-added d with a
	// new id in the middle and e at the end.
	m := fixtureMapping(t, "append_table_with_alter_table", Options{})
	checkFixtureRows(t, m, []string{"key0", "key1", "b", "d", "k"},
		[][]any{
			{int32(0), int32(1), int32(13), int32(15), int32(16)},
			{int32(1), int32(1), int32(53), int32(55), int32(56)},
		},
		[][]any{
			{int32(0), int32(1), int32(16), int32(13), nil, int32(15), nil},
			{int32(1), int32(1), int32(56), int32(53), nil, int32(55), nil},
		})
}

func TestFixtureAppendWithBitmapAlterTable(t *testing.T) {
	// f1 INT -> BIGINT and moved first, f2 dropped, f0 renamed f4, f5 added.
	m := fixtureMapping(t, "append_with_bitmap_alter_table", Options{})
	checkFixtureRows(t, m, []string{"f0", "f1", "f3"},
		[][]any{
			{"Alice", int32(10), 11.1},
			{"Alice", int32(20), 18.1},
		},
		[][]any{
			{int64(10), "Alice", 11.1, nil},
			{int64(20), "Alice", 18.1, nil},
		})
}

func TestFixtureAppendTableAlterTableWithCast(t *testing.T) {
	// f0 STRING -> INT, f1 TIMESTAMP(9) -> STRING, f2 DECIMAL(5, 2) ->
	// DECIMAL(6, 3), f3 STRING -> BOOLEAN, f4 DATE -> TIMESTAMP(9) moved
	// first, f5 dropped, f0/f3 swapped names, f6 added.
	m := fixtureMapping(t, "append_table_alter_table_with_cast", Options{})
	in := [][]any{
		{int32(0), int32(1), "100", tsOf(2024, 11, 26, 6, 38, 56, 1000001), dec(2, 2), "True", spec.DateValue(4)},
		{int32(0), int32(1), "110", tsOf(2024, 11, 26, 6, 38, 56, 11000011), dec(1112, 2), "1", spec.DateValue(-44)},
		{int32(0), int32(1), "120", tsOf(2024, 11, 26, 6, 38, 56, 21000021), dec(2222, 2), "nO", spec.DateValue(444)},
		{int32(1), int32(1), "130", tsOf(2024, 11, 26, 6, 38, 56, 31000031), dec(33332, 2), "0", spec.DateValue(-4444)},
		{int32(1), int32(1), "140", tsOf(2024, 11, 26, 6, 38, 56, 41000041), dec(44442, 2), "Yes", spec.DateValue(44444)},
	}
	want := [][]any{
		{tsOf(1970, 1, 5, 0, 0, 0, 0), int32(0), int32(1), int32(100), "2024-11-26 06:38:56.001000001", dec(20, 3), true, nil},
		{tsOf(1969, 11, 18, 0, 0, 0, 0), int32(0), int32(1), int32(110), "2024-11-26 06:38:56.011000011", dec(11120, 3), true, nil},
		{tsOf(1971, 3, 21, 0, 0, 0, 0), int32(0), int32(1), int32(120), "2024-11-26 06:38:56.021000021", dec(22220, 3), false, nil},
		{tsOf(1957, 11, 1, 0, 0, 0, 0), int32(1), int32(1), int32(130), "2024-11-26 06:38:56.031000031", dec(333320, 3), false, nil},
		{tsOf(2091, 9, 7, 0, 0, 0, 0), int32(1), int32(1), int32(140), "2024-11-26 06:38:56.041000041", dec(444420, 3), true, nil},
	}
	checkFixtureRows(t, m, []string{"key0", "key1", "f0", "f1", "f2", "f3", "f4"}, in, want)
}

// TestFixtureAppendWithCastTimestamp expects what Java computes with the JVM
// zone Asia/Shanghai. paimon-cpp's test of this table (TestCastTimestampType
// in test/inte/scan_and_read_inte_test.cpp) expects different values for
// three columns, where the C++ reader departs from Java's cast rules:
// ts_sec -28799 (Java: TIMESTAMP -> INT ignores zones), int_ts_sec
// 08:00:00 and int_ts_tz_micro 00:00:00Z (Java: INT -> TIMESTAMP is UTC,
// INT -> TIMESTAMP_LTZ stores the Shanghai wall clock).
func TestFixtureAppendWithCastTimestamp(t *testing.T) {
	m := fixtureMapping(t, "append_with_cast_timestamp", Options{Location: mustLoadLocation(t, "Asia/Shanghai")})
	ts := func(millis int64, nanos int32) spec.TimestampValue {
		return spec.TimestampValue{Millis: millis, NanoOfMilli: nanos}
	}
	in := [][]any{
		{ts(1000, 0), ts(1, 0), ts(0, 1000), ts(0, 1), ts(2000, 0), ts(2, 0), ts(0, 2000), ts(0, 2), int32(0), int32(0)},
		{ts(3000, 0), ts(3, 0), nil, ts(0, 3), ts(4000, 0), ts(4, 0), ts(0, 4000), ts(0, 4), int32(1), int32(1)},
		{ts(5000, 0), ts(5, 0), nil, nil, ts(6000, 0), nil, ts(0, 6000), nil, int32(-1), int32(-1)},
	}
	want := [][]any{
		{int32(1), spec.DateValue(0), "1970-01-01 00:00:00.000001", ts(-28800000, 1), int32(2), spec.DateValue(0),
			"1970-01-01 08:00:00.000002", ts(28800000, 2), ts(0, 0), ts(28800000, 0)},
		{int32(3), spec.DateValue(0), nil, ts(-28800000, 3), int32(4), spec.DateValue(0),
			"1970-01-01 08:00:00.000004", ts(28800000, 4), ts(1000, 0), ts(28801000, 0)},
		{int32(5), spec.DateValue(0), nil, nil, int32(6), nil,
			"1970-01-01 08:00:00.000006", nil, ts(-1000, 0), ts(28799000, 0)},
	}
	columns := []string{"ts_sec", "ts_milli", "ts_micro", "ts_nano", "ts_tz_sec", "ts_tz_milli",
		"ts_tz_micro", "ts_tz_nano", "int_ts_sec", "int_ts_tz_micro"}
	checkFixtureRows(t, m, columns, in, want)
}
