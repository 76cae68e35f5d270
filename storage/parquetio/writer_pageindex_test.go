package parquetio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestWriterPageIndexes: every chunk's offset index locates each of its
// data pages (as the page headers lie in the file) and the page's first
// row, counting rows, not values, in a nested column, and pages cut by
// size (text) as well as at 20,000 rows; the column index
// bounds each page's values, marks a page of only nulls, cuts long text
// bounds to 64 bytes that still bound the values, says a sorted key
// ascends, and is left out where parquet-mr leaves it out (NaN, INT96).
func TestWriterPageIndexes(t *testing.T) {
	str := typ(spec.VarChar, true)
	fields := []spec.DataField{
		{ID: 0, Name: "key", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "text", Type: str},
		{ID: 2, Name: "score", Type: typ(spec.Double, true)},
		{ID: 3, Name: "ts9", Type: withPrecision(typ(spec.Timestamp, false), 9, 0)},
		{ID: 4, Name: "ints", Type: nullableArray(typ(spec.Int, true))},
		{ID: 5, Name: "down", Type: typ(spec.Int, false)},
	}
	rows := make([][]any, 45_000)
	for i := range rows {
		var text any // the first page's texts are all NULL
		if i >= 20_000 {
			text = fmt.Sprintf("%070d", i)
		}
		score := float64(i)
		if i == 30_000 {
			score = math.NaN()
		}
		rows[i] = []any{int64(i), text, score, spec.TimestampValue{Millis: int64(i)}, []any{int32(i), nil, int32(-i)}, int32(-i)}
	}
	data := writeFile(t, fields, rows, WriterOptions{})
	r, err := Open(bytes.NewReader(data), "indexed.parquet")
	if err != nil {
		t.Fatal(err)
	}
	checkReadableByParquetGo(t, data, len(rows))
	for _, chunk := range r.meta.RowGroups[0].Columns {
		name := chunk.MetaData.PathInSchema[0]
		offsets := readIndex[format.OffsetIndex](t, data, chunk.OffsetIndexOffset, chunk.OffsetIndexLength)
		checkPageLocations(t, name, data, chunk.MetaData, offsets.PageLocations)
		hasColumnIndex := chunk.ColumnIndexLength > 0
		if want := name != "score" && name != "ts9"; hasColumnIndex != want {
			t.Errorf("%s: column index %v, want %v", name, hasColumnIndex, want)
		}
		if !hasColumnIndex {
			continue
		}
		index := readIndex[format.ColumnIndex](t, data, chunk.ColumnIndexOffset, chunk.ColumnIndexLength)
		checkColumnIndex(t, name, index)
	}
}

func readIndex[T any](t *testing.T, data []byte, offset int64, length int32) *T {
	t.Helper()
	if offset <= 0 || length <= 0 || offset+int64(length) > int64(len(data)) {
		t.Fatalf("index at [%d,+%d) in a file of %d bytes", offset, length, len(data))
	}
	v := new(T)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[offset:offset+int64(length)], v); err != nil {
		t.Fatal(err)
	}
	return v
}

// checkPageLocations compares an offset index with the data pages as
// their headers lie in the chunk: offsets, sizes with headers, and first
// rows counted from the pages' entries (three a row in ints).
func checkPageLocations(t *testing.T, name string, data []byte, m format.ColumnMetaData, got []format.PageLocation) {
	t.Helper()
	entriesPerRow := int64(1)
	if name == "ints" {
		entriesPerRow = 3
	}
	var want []format.PageLocation
	var rows int64
	start := m.DataPageOffset
	if m.DictionaryPageOffset != 0 {
		start = m.DictionaryPageOffset
	}
	var protocol thrift.CompactProtocol
	for off := start; off < start+m.TotalCompressedSize; {
		var h format.PageHeader
		in := protocol.NewReaderFromBytes(data[off:])
		if err := thrift.NewDecoder(in).Decode(&h); err != nil {
			t.Fatal(err)
		}
		size := int64(in.BytesRead()) + int64(h.CompressedPageSize)
		if h.Type == format.DataPage {
			want = append(want, format.PageLocation{Offset: off, CompressedPageSize: int32(size), FirstRowIndex: rows})
			rows += int64(h.DataPageHeader.V.NumValues) / entriesPerRow
		}
		off += size
	}
	if !slices.Equal(got, want) || len(want) < 3 {
		t.Errorf("%s: page locations %v, want %v", name, got, want)
	}
}

func checkColumnIndex(t *testing.T, name string, index *format.ColumnIndex) {
	t.Helper()
	i64 := func(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }
	i32 := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	zeros := []byte(strings.Repeat("0", 64))
	type want struct {
		nullPages []bool
		nulls     []int64
		min, max  [][]byte
		order     format.BoundaryOrder
	}
	w := map[string]want{
		"key": {[]bool{false, false, false}, []int64{0, 0, 0},
			[][]byte{i64(0), i64(20_000), i64(40_000)}, [][]byte{i64(19_999), i64(39_999), i64(44_999)}, format.Ascending},
		"text": {[]bool{true, false, false}, []int64{20_000, 0, 0},
			[][]byte{{}, zeros, zeros}, [][]byte{{}, append(zeros[:63:63], '1'), append(zeros[:63:63], '1')}, format.Ascending},
		"ints": {[]bool{false, false, false}, []int64{20_000, 20_000, 5_000},
			[][]byte{i32(-19_999), i32(-39_999), i32(-44_999)}, [][]byte{i32(19_999), i32(39_999), i32(44_999)}, format.Unordered},
		"down": {[]bool{false, false, false}, []int64{0, 0, 0},
			[][]byte{i32(-19_999), i32(-39_999), i32(-44_999)}, [][]byte{i32(0), i32(-20_000), i32(-40_000)}, format.Descending},
	}[name]
	got := want{index.NullPages, index.NullCounts, index.MinValues, index.MaxValues, index.BoundaryOrder}
	if !slices.Equal(got.nullPages, w.nullPages) || !slices.Equal(got.nulls, w.nulls) ||
		!slices.EqualFunc(got.min, w.min, bytes.Equal) || !slices.EqualFunc(got.max, w.max, bytes.Equal) || got.order != w.order {
		t.Errorf("%s: column index\n%+v\nwant\n%+v", name, got, w)
	}
}
