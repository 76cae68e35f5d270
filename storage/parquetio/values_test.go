package parquetio

import (
	"errors"
	"io"
	"math/big"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/spec"
)

// readTable decodes every row of every data file under a directory of a
// fixture table, with the column types of the table's first schema, which
// wrote the files these tests read.
func readTable(t *testing.T, table, subdir string) [][]any {
	t.Helper()
	dir := fixtures.TableDir(table)
	schemas := loadSchemas(t, dir)
	schema := schemas[len(schemas)-1]
	var rows [][]any
	for _, path := range dataFiles(t, filepath.Join(dir, subdir)) {
		r := openFixture(t, path)
		requests, ok := requestsFor(r, schema)
		if !ok {
			t.Fatalf("%s: columns not in schema", path)
		}
		got, _, err := readAll(t, r, requests)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, got...)
	}
	return rows
}

func sortRowsByFirst(rows [][]any) {
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(string) < rows[j][0].(string) })
}

func checkRows(t *testing.T, got, want [][]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d:\n%v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("row %d:\n got %#v\nwant %#v", i, got[i], want[i])
		}
	}
}

func TestAppend09Partition20(t *testing.T) {
	rows := readTable(t, "paimon-java/append_09", "f1=20/bucket-0")
	sortRowsByFirst(rows)
	checkRows(t, rows, [][]any{
		{"Lucy", int32(20), int32(1), 14.1},
		{"Paul", int32(20), int32(1), nil},
	})
}

func bigDecimal(t *testing.T, unscaled string, scale int) spec.DecimalValue {
	t.Helper()
	v, ok := new(big.Int).SetString(unscaled, 10)
	if !ok {
		t.Fatalf("bad number %s", unscaled)
	}
	return spec.NewDecimalBig(v, scale)
}

// The compacted file of partition f1=10 holds the five f1=10 rows of
// snapshots 1-2 and the row of snapshot 3, in insertion order.
func TestAppendComplexDataTimestampsAndDecimals(t *testing.T) {
	rows := readTable(t, "paimon-java/append_complex_data", "f1=10/bucket-0/data-f8754699-0c43-4e53-be00-7e8af1754913-0.parquet")
	ts := func(millis int64, nanos int32) spec.TimestampValue {
		return spec.TimestampValue{Millis: millis, NanoOfMilli: nanos}
	}
	checkRows(t, rows, [][]any{
		{int32(10), int32(1), spec.DateValue(1234), ts(2000000000000, 0), bigDecimal(t, "12345678998765432145678", 5), []byte("add")},
		{int32(10), int32(1), spec.DateValue(19909), ts(2000000000000, 1001), spec.NewDecimal(1230000, 5), []byte("cat")},
		{int32(10), int32(1), spec.DateValue(0), ts(1230422400000, 123456), nil, []byte("dad")},
		{int32(10), int32(1), spec.DateValue(100), ts(1230422400000, 123450), spec.NewDecimal(-12345000, 5), []byte("eat")},
		{int32(10), int32(1), nil, ts(-2240521239999, 1001), spec.NewDecimal(0, 5), []byte("fat")},
		{int32(10), int32(1), spec.DateValue(20006), ts(1728555010100, 100100), spec.NewDecimal(172855141010010010, 5), nil},
	})
	wantText := []string{"2033-05-18 03:33:20.000000000", "1899-01-01 00:59:20.001001001", "2024-10-10 10:10:10.100100100"}
	for i, row := range []int{0, 4, 5} {
		if got := rows[row][3].(spec.TimestampValue).Format(9); got != wantText[i] {
			t.Errorf("row %d timestamp %s, want %s", row, got, wantText[i])
		}
	}
	if got := rows[0][4].(spec.DecimalValue).String(); got != "123456789987654321.45678" {
		t.Errorf("decimal %s", got)
	}
}

func TestAppendComplexDataNegativeDecimal(t *testing.T) {
	rows := readTable(t, "paimon-java/append_complex_data", "f1=20/bucket-0")
	if got := rows[0][4].(spec.DecimalValue).String(); got != "-123456789987654321.45678" {
		t.Errorf("decimal %s", got)
	}
}

func TestNestedTypesWithFieldIDs(t *testing.T) {
	rows := readTable(t, "paimon-java/append_complex_build_in_fieldid", "")
	ts := spec.TimestampValue{Millis: 123123, NanoOfMilli: 123000}
	checkRows(t, rows, [][]any{
		{spec.MapValue{Keys: []any{int8(0)}, Values: []any{int16(0)}}, []any{float32(0.1), float32(0.2)},
			[]any{true, int64(2)}, ts, spec.DateValue(2456), spec.NewDecimal(22, 2)},
		{spec.MapValue{Keys: []any{int8(127), int8(-128)}, Values: []any{int16(32767), int16(-32768)}}, []any{float32(1.1), float32(1.2)},
			[]any{false, int64(2222)}, ts, spec.DateValue(245), spec.NewDecimal(12, 2)},
		{spec.MapValue{Keys: []any{int8(1), int8(2)}, Values: []any{int16(64), int16(32)}}, []any{float32(2.2), float32(3.2)},
			[]any{true, int64(2)}, spec.TimestampValue{}, spec.DateValue(24), nil},
	})
}

// parquet_append_table has MAP<ARRAY<FLOAT>, ROW<BOOLEAN, BIGINT>> with a
// null map and a null row value.
func TestNestedMapOfArrayToRow(t *testing.T) {
	rows := readTable(t, "paimon-java/parquet_append_table", "bucket-0/data-9ea62f34-1dca-49c1-bf7a-d37303d8fb76-0.parquet")
	if len(rows) != 6 {
		t.Fatalf("got %d rows", len(rows))
	}
	want := map[int]any{
		0: spec.MapValue{Keys: []any{[]any{float32(5.11), float32(5.21)}}, Values: []any{[]any{true, int64(61)}}},
		2: nil,
		3: spec.MapValue{
			Keys:   []any{[]any{float32(5.141), float32(5.241)}, []any{float32(5.14), float32(5.24)}},
			Values: []any{[]any{false, int64(641)}, []any{false, int64(64)}},
		},
		5: spec.MapValue{Keys: []any{[]any{float32(5.16), float32(5.26)}}, Values: []any{nil}},
	}
	for i, w := range want {
		if got := rows[i][9]; !reflect.DeepEqual(got, w) {
			t.Errorf("row %d f10 = %#v, want %#v", i, got, w)
		}
	}
	checkRows(t, rows[:1], [][]any{{true, int8(31), nil, int32(300001), int64(3000000001), float32(3.1), 300.000000001,
		"s31", []byte("a31"), want[0], spec.TimestampValue{NanoOfMilli: 71000}, spec.DateValue(81), spec.NewDecimal(91, 2)}})
}

func TestTimestampPrecisions(t *testing.T) {
	rows := readTable(t, "paimon-java/append_with_cast_timestamp", "")
	// Java's Timestamp(millis, nanoOfMilli) from the table README.
	ts := func(millis int64, nanos int32) spec.TimestampValue {
		return spec.TimestampValue{Millis: millis, NanoOfMilli: nanos}
	}
	checkRows(t, rows, [][]any{
		{ts(1000, 0), ts(1, 0), ts(0, 1000), ts(0, 1), ts(2000, 0), ts(2, 0), ts(0, 2000), ts(0, 2), int32(0), int32(0)},
		{ts(3000, 0), ts(3, 0), nil, ts(0, 3), ts(4000, 0), ts(4, 0), ts(0, 4000), ts(0, 4), int32(1), int32(1)},
		{ts(5000, 0), ts(5, 0), nil, nil, ts(6000, 0), nil, ts(0, 6000), nil, int32(-1), int32(-1)},
	})
}

func TestPrimaryKeyFileRecords(t *testing.T) {
	dir := fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor")
	schema := loadSchemas(t, dir)[0]
	r := openFixture(t, filepath.Join(dir, "f1=10/bucket-1/data-7c8140d1-a34f-4634-9814-beb4ff65ebce-0.parquet"))
	want := []KeyValue{
		{Key: []any{"Alex", int32(0)}, Seq: 11, Kind: spec.RowKindDelete, Value: []any{"Alex", int32(10), int32(0), 31.2}, Position: 0},
		{Key: []any{"Marco2", int32(0)}, Seq: 10, Kind: spec.RowKindInsert, Value: []any{"Marco2", int32(10), int32(0), 31.1}, Position: 1},
		{Key: []any{"Skye2", int32(0)}, Seq: 9, Kind: spec.RowKindInsert, Value: []any{"Skye2", int32(10), int32(0), 31.0}, Position: 2},
	}
	// Trimmed primary keys: f0, f2 (f1 is the partition key).
	keys := []string{"f0", "f2"}
	it, err := r.NewKeyValueIterator(keys, schema.Fields)
	if err != nil {
		t.Fatal(err)
	}
	checkKeyValues(t, it, want)

	// Thin mode reads the same keys from the value columns.
	layout, err := NewKeyValueLayout(keys, schema.Fields, true)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := readAll(t, r, layout.Columns())
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		kv, err := layout.Split(row)
		if err != nil {
			t.Fatal(err)
		}
		kv.Position = want[i].Position
		if !reflect.DeepEqual(kv, want[i]) {
			t.Errorf("thin record %d = %#v, want %#v", i, kv, want[i])
		}
	}
}

func checkKeyValues(t *testing.T, it *KeyValueIterator, want []KeyValue) {
	t.Helper()
	defer it.Close()
	for i := 0; ; i++ {
		kv, err := it.Next()
		if errors.Is(err, io.EOF) {
			if i != len(want) {
				t.Fatalf("got %d records, want %d", i, len(want))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if i >= len(want) || !reflect.DeepEqual(kv, want[i]) {
			t.Fatalf("record %d = %#v", i, kv)
		}
	}
}

func TestPrimaryKeyUpdateAfter(t *testing.T) {
	dir := fixtures.TableDir("paimon-java/pk_table_scan_and_read_mor")
	schema := loadSchemas(t, dir)[0]
	r := openFixture(t, filepath.Join(dir, "f1=10/bucket-0/data-dad09a29-e5ad-43d5-86e6-a1706e5c9ad7-1.parquet"))
	it, err := r.NewKeyValueIterator([]string{"f0", "f2"}, schema.Fields)
	if err != nil {
		t.Fatal(err)
	}
	checkKeyValues(t, it, []KeyValue{{
		Key: []any{"Alice", int32(1)}, Seq: 2, Kind: spec.RowKindUpdateAfter,
		Value: []any{"Alice", int32(10), int32(1), 19.1},
	}})
}
