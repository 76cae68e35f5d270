package parquetio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

func typ(root spec.TypeRoot, nullable bool) spec.DataType {
	return spec.DataType{Root: root, Nullable: nullable}
}

func withPrecision(t spec.DataType, precision, scale int) spec.DataType {
	t.Precision, t.Scale = precision, scale
	return t
}

func nullableArray(t spec.DataType) spec.DataType {
	return spec.DataType{Root: spec.Array, Nullable: true, Element: &t}
}

// allTypesFields covers every type of Paimon's Parquet mapping, nested
// combinations and NOT NULL fields.
func allTypesFields() []spec.DataField {
	str := spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}
	inner := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{
		{ID: 30, Name: "a", Type: typ(spec.Int, true)},
		{ID: 31, Name: "tags", Type: nullableArray(str)},
	}}
	return []spec.DataField{
		{ID: 0, Name: "id", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "flag", Type: typ(spec.Boolean, true)},
		{ID: 2, Name: "tiny", Type: typ(spec.TinyInt, true)},
		{ID: 3, Name: "small", Type: typ(spec.SmallInt, true)},
		{ID: 4, Name: "int", Type: typ(spec.Int, true)},
		{ID: 5, Name: "real", Type: typ(spec.Float, true)},
		{ID: 6, Name: "double", Type: typ(spec.Double, true)},
		{ID: 7, Name: "dec5", Type: withPrecision(typ(spec.Decimal, true), 5, 2)},
		{ID: 8, Name: "dec15", Type: withPrecision(typ(spec.Decimal, true), 15, 3)},
		{ID: 9, Name: "dec30", Type: withPrecision(typ(spec.Decimal, true), 30, 4)},
		{ID: 10, Name: "chr", Type: spec.DataType{Root: spec.Char, Length: 3, Nullable: true}},
		{ID: 11, Name: "str", Type: str},
		{ID: 12, Name: "bin", Type: spec.DataType{Root: spec.Binary, Length: 2, Nullable: true}},
		{ID: 13, Name: "bytes", Type: spec.DataType{Root: spec.VarBinary, Length: spec.MaxVarLength, Nullable: true}},
		{ID: 14, Name: "date", Type: typ(spec.Date, true)},
		{ID: 15, Name: "time", Type: withPrecision(typ(spec.Time, true), 3, 0)},
		{ID: 16, Name: "ts0", Type: withPrecision(typ(spec.Timestamp, true), 0, 0)},
		{ID: 17, Name: "ts3", Type: withPrecision(typ(spec.Timestamp, true), 3, 0)},
		{ID: 18, Name: "ts6", Type: withPrecision(typ(spec.Timestamp, true), 6, 0)},
		{ID: 19, Name: "ts9", Type: withPrecision(typ(spec.Timestamp, true), 9, 0)},
		{ID: 20, Name: "ltz3", Type: withPrecision(typ(spec.TimestampLTZ, true), 3, 0)},
		{ID: 21, Name: "ltz6", Type: withPrecision(typ(spec.TimestampLTZ, true), 6, 0)},
		{ID: 22, Name: "ltz9", Type: withPrecision(typ(spec.TimestampLTZ, true), 9, 0)},
		{ID: 23, Name: "ints", Type: nullableArray(typ(spec.Int, true))},
		{ID: 24, Name: "nested", Type: nullableArray(nullableArray(str))},
		{ID: 25, Name: "map", Type: spec.DataType{Root: spec.Map, Nullable: true, Key: &str, Value: &inner}},
		{ID: 26, Name: "bag", Type: spec.DataType{Root: spec.Multiset, Nullable: true, Element: &str}},
		{ID: 27, Name: "row", Type: inner},
		{ID: 28, Name: "required_row", Type: spec.DataType{Root: spec.Row, Fields: []spec.DataField{
			{ID: 32, Name: "x", Type: typ(spec.Int, false)},
			{ID: 33, Name: "ys", Type: spec.DataType{Root: spec.Array, Element: &spec.DataType{Root: spec.Double}}},
		}}},
	}
}

func big10(s string) *big.Int {
	v, _ := new(big.Int).SetString(s, 10)
	return v
}

func allTypesRows() [][]any {
	ts := func(millis int64, nanos int32) spec.TimestampValue {
		return spec.TimestampValue{Millis: millis, NanoOfMilli: nanos}
	}
	empty := spec.MapValue{Keys: []any{}, Values: []any{}}
	full := []any{
		int64(1), true, int8(-128), int16(32767), int32(-7), float32(1.5), -2.25,
		spec.NewDecimal(-12345, 2), spec.NewDecimal(123456789012345, 3),
		spec.NewDecimalBig(big10("-12345678901234567890123456"), 4),
		"abc", "héllo", []byte{1, 2}, []byte{}, spec.DateValue(-719162), spec.TimeValue(86399999),
		ts(-1000, 0), ts(-1, 0), ts(-1, 999000), ts(-2240521239999, 1001), ts(1700000000123, 0),
		ts(1700000000123, 456000), ts(1700000000123, 456789),
		[]any{int32(1), nil, int32(3)}, []any{[]any{"a"}, []any{}, nil, []any{nil, "b"}},
		spec.MapValue{Keys: []any{"k1", "k2"}, Values: []any{[]any{int32(1), []any{"t"}}, nil}},
		spec.MapValue{Keys: []any{"x"}, Values: []any{int32(3)}},
		[]any{nil, []any{}}, []any{int32(5), []any{1.0, 2.0}},
	}
	nulls := make([]any, len(full))
	nulls[0] = int64(2)
	nulls[28] = []any{int32(6), []any{}}
	empties := []any{
		int64(3), false, int8(0), int16(0), int32(0), float32(0), 0.0,
		spec.NewDecimal(99999, 2), spec.NewDecimal(-1, 3), spec.NewDecimalBig(big10("99999999999999999999999999"), 4),
		"", "", []byte{0, 0}, []byte{}, spec.DateValue(0), spec.TimeValue(0),
		ts(0, 0), ts(0, 0), ts(0, 0), ts(0, 0), ts(0, 0), ts(0, 0), ts(0, 0),
		[]any{}, []any{}, empty, empty, []any{nil, nil}, []any{int32(0), []any{}},
	}
	return [][]any{full, nulls, empties}
}

func writeFile(t testing.TB, fields []spec.DataField, rows [][]any, opts WriterOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, fields, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if err := w.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func requestsOf(fields []spec.DataField) []ColumnRequest {
	out := make([]ColumnRequest, len(fields))
	for i, f := range fields {
		out[i] = ColumnRequest{Name: f.Name, Type: f.Type}
	}
	return out
}

func TestWriterRoundTripAllTypes(t *testing.T) {
	fields, rows := allTypesFields(), allTypesRows()
	data := writeFile(t, fields, rows, WriterOptions{})
	r, err := Open(bytes.NewReader(data), "roundtrip.parquet")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := readAll(t, r, requestsOf(fields))
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, rows)
	checkReadableByParquetGo(t, data, len(rows))
}

// checkReadableByParquetGo reads every row through parquet-go's own row
// reader, an independent check of the levels and pages.
func checkReadableByParquetGo(t *testing.T, data []byte, numRows int) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, g := range f.RowGroups() {
		rows := g.Rows()
		buf := make([]parquet.Row, 16)
		for {
			n, err := rows.ReadRows(buf)
			count += n
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
	}
	if count != numRows {
		t.Fatalf("parquet-go read %d rows, want %d", count, numRows)
	}
}

func TestWriterPagesAndRowGroups(t *testing.T) {
	fields := allTypesFields()
	var rows [][]any
	for i := range 300 {
		row := allTypesRows()[i%3]
		row[0] = int64(i)
		rows = append(rows, row)
	}
	data := writeFile(t, fields, rows, WriterOptions{PageSize: 256, RowGroupSize: 8 << 10})
	r, err := Open(bytes.NewReader(data), "paged.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.RowGroups()) < 3 {
		t.Fatalf("want several row groups, got %d", len(r.RowGroups()))
	}
	got, positions, err := readAll(t, r, requestsOf(fields))
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, rows)
	for i, p := range positions {
		if p != int64(i) {
			t.Fatalf("row %d at position %d", i, p)
		}
	}
	checkReadableByParquetGo(t, data, len(rows))
}

// TestWriterCutsPagesAtTheRowLimit: parquet-mr cuts a page at 20,000
// rows however small (parquet.page.row.count.limit), so a reader decodes
// at most that many values of a column to reach any row; a nested column's
// pages count rows, not values.
func TestWriterCutsPagesAtTheRowLimit(t *testing.T) {
	fields := []spec.DataField{
		{ID: 0, Name: "k", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "ints", Type: nullableArray(typ(spec.Int, true))},
	}
	rows := make([][]any, 45_001)
	for i := range rows {
		rows[i] = []any{int64(i), []any{int32(i), int32(-i)}}
	}
	for _, c := range []struct {
		opts WriterOptions
		want []int32 // values per page of k
	}{
		{WriterOptions{}, []int32{20_000, 20_000, 5_001}},
		{WriterOptions{PageRowLimit: 15_000}, []int32{15_000, 15_000, 15_000, 1}},
	} {
		data := writeFile(t, fields, rows, c.opts)
		r, err := Open(bytes.NewReader(data), "limited.parquet")
		if err != nil {
			t.Fatal(err)
		}
		for col, chunk := range r.meta.RowGroups[0].Columns {
			m := chunk.MetaData
			var values []int32
			start, end := int(m.DataPageOffset), int(m.DataPageOffset+m.TotalCompressedSize)
			if err := eachPageHeader(data[start:end], func(h *format.PageHeader) {
				values = append(values, h.DataPageHeader.V.NumValues)
			}); err != nil {
				t.Fatal(err)
			}
			want := c.want
			if col == 1 { // two values a row
				want = slices.Collect(func(yield func(int32) bool) {
					for _, v := range c.want {
						yield(2 * v)
					}
				})
			}
			if !slices.Equal(values, want) {
				t.Errorf("limit %d: column %v pages of %v values, want %v", c.opts.PageRowLimit, m.PathInSchema, values, want)
			}
		}
		got, _, err := readAll(t, r, requestsOf(fields))
		if err != nil {
			t.Fatal(err)
		}
		checkRows(t, got, rows)
	}
}

// TestWriterEncodesAsParquetMr: the encodings of parquet-mr's v1 writer,
// page by page — a dictionary for what it makes smaller, judged on a
// chunk's first page (on its first 1,024 values when they are mostly
// distinct); PLAIN pages once the dictionary passes 1 MiB; PLAIN
// for BOOLEAN, FIXED_LEN_BYTE_ARRAY and INT96 — and every value read back
// by lakesql's reader and parquet-go's.
func TestWriterEncodesAsParquetMr(t *testing.T) {
	str := typ(spec.VarChar, true)
	fields := []spec.DataField{
		{ID: 0, Name: "key", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "status", Type: str},
		{ID: 2, Name: "day", Type: typ(spec.Date, false)},
		{ID: 3, Name: "growing", Type: str},
		{ID: 4, Name: "flag", Type: typ(spec.Boolean, false)},
		{ID: 5, Name: "dec30", Type: withPrecision(typ(spec.Decimal, false), 30, 2)},
		{ID: 6, Name: "ts9", Type: withPrecision(typ(spec.Timestamp, false), 9, 0)},
		{ID: 7, Name: "amount", Type: withPrecision(typ(spec.Decimal, false), 12, 2)},
	}
	statuses := []any{"PAID", "REFUNDED", nil, "", "PENDING"}
	rows := make([][]any, 50_000)
	for i := range rows {
		// Ten values over the first page, then a new 64-byte value a row:
		// the second page is cut at 1 MiB of values just before the
		// dictionary reaches 1 MiB, which it passes within the third.
		growing := fmt.Sprintf("v%d", i%10)
		if i >= 20_000 {
			growing = fmt.Sprintf("%064d", i)
		}
		rows[i] = []any{int64(i), statuses[i%len(statuses)], spec.DateValue(19724), growing, i%3 == 0,
			spec.NewDecimal(int64(i), 2), spec.TimestampValue{Millis: int64(i)}, spec.NewDecimal(int64(i)*7919%1_000_003, 2)}
	}
	data := writeFile(t, fields, rows, WriterOptions{})
	r, err := Open(bytes.NewReader(data), "encodings.parquet")
	if err != nil {
		t.Fatal(err)
	}
	dict, plain := format.PlainDictionary, format.Plain
	want := map[string]struct {
		dictionary int32 // entries of the dictionary page, 0 for none
		pages      []format.Encoding
	}{
		"key":     {0, []format.Encoding{plain, plain, plain}},
		"status":  {4, []format.Encoding{dict, dict, dict}},
		"day":     {1, []format.Encoding{dict, dict, dict}},
		"growing": {10 + (1<<20)/68, []format.Encoding{dict, dict, plain}},
		"flag":    {0, []format.Encoding{plain, plain, plain}},
		"dec30":   {0, []format.Encoding{plain, plain, plain}},
		"ts9":     {0, []format.Encoding{plain, plain, plain}},
		"amount":  {0, []format.Encoding{plain, plain, plain}},
	}
	for _, c := range r.meta.RowGroups[0].Columns {
		m := c.MetaData
		name := m.PathInSchema[0]
		w := want[name]
		dictionary, pages := chunkPages(t, data, m)
		if m.Codec != format.Zstd {
			t.Errorf("%s: codec %s", name, m.Codec)
		}
		if name == "growing" {
			// Entries up to the first past 1 MiB: where exactly is
			// parquet-mr's arithmetic, not this test's.
			if dictionary < w.dictionary || dictionary > w.dictionary+1 {
				t.Errorf("growing: dictionary of %d entries", dictionary)
			}
			dictionary = w.dictionary
		}
		if dictionary != w.dictionary || !slices.Equal(pages, w.pages) {
			t.Errorf("%s: dictionary of %d entries, pages %v; want %d, %v", name, dictionary, pages, w.dictionary, w.pages)
		}
		if got, want := m.Encoding, chunkEncodings(w.pages); !slices.Equal(got, want) {
			t.Errorf("%s: chunk encodings %v, want %v", name, got, want)
		}
	}
	got, _, err := readAll(t, r, requestsOf(fields))
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, rows)
	checkReadableByParquetGo(t, data, len(rows))
}

// chunkPages reads a column chunk's page headers: the entries of its
// dictionary page (0 for none, which must then be absent from the
// metadata) and its data pages' encodings, all v1 pages.
func chunkPages(t *testing.T, data []byte, m format.ColumnMetaData) (dictionary int32, pages []format.Encoding) {
	t.Helper()
	start := m.DataPageOffset
	if m.DictionaryPageOffset != 0 {
		start = m.DictionaryPageOffset
	}
	err := eachPageHeader(data[start:start+m.TotalCompressedSize], func(h *format.PageHeader) {
		switch {
		case h.Type == format.DictionaryPage && len(pages) == 0 && dictionary == 0:
			if m.DictionaryPageOffset == 0 {
				t.Errorf("%v: a dictionary page the metadata does not point to", m.PathInSchema)
			}
			dictionary = h.DictionaryPageHeader.V.NumValues
		case h.Type == format.DataPage:
			pages = append(pages, h.DataPageHeader.V.Encoding)
		default:
			t.Errorf("%v: unexpected %s page", m.PathInSchema, h.Type)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return dictionary, pages
}

// chunkEncodings are the encodings a chunk of data pages of the given
// encodings lists: the dictionary's, PLAIN if a page is PLAIN, and the
// levels' RLE.
func chunkEncodings(pages []format.Encoding) []format.Encoding {
	var out []format.Encoding
	if slices.Contains(pages, format.PlainDictionary) {
		out = append(out, format.PlainDictionary)
	}
	if slices.Contains(pages, format.Plain) {
		out = append(out, format.Plain)
	}
	return append(out, format.RLE)
}

func eachPageHeader(chunk []byte, do func(*format.PageHeader)) error {
	var protocol thrift.CompactProtocol
	for off := 0; off < len(chunk); {
		var h format.PageHeader
		in := protocol.NewReaderFromBytes(chunk[off:])
		if err := thrift.NewDecoder(in).Decode(&h); err != nil {
			return err
		}
		do(&h)
		off += in.BytesRead() + int(h.CompressedPageSize)
	}
	return nil
}

func TestWriterStatistics(t *testing.T) {
	dec := withPrecision(typ(spec.Decimal, true), 30, 2)
	fields := []spec.DataField{
		{ID: 1, Name: "d", Type: dec},
		{ID: 2, Name: "s", Type: typ(spec.VarChar, true)},
		{ID: 3, Name: "f", Type: typ(spec.Double, true)},
	}
	rows := [][]any{
		{spec.NewDecimal(5, 2), "b", 0.0},
		{spec.NewDecimalBig(big10("-100000000000000000000"), 2), "ab", nil},
		{nil, "c", 3.5},
	}
	r, err := Open(bytes.NewReader(writeFile(t, fields, rows, WriterOptions{})), "stats.parquet")
	if err != nil {
		t.Fatal(err)
	}
	want := []ColumnStats{
		{NullCount: 1, Min: rows[1][0], Max: rows[0][0]},
		{NullCount: 0, Min: "ab", Max: "c"},
		{NullCount: 1, Min: math.Copysign(0, -1), Max: 3.5},
	}
	for i, f := range fields {
		got, ok, err := r.ColumnStats(0, ColumnRequest{Name: f.Name, Type: f.Type})
		if err != nil || !ok || !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%s: got %+v (%v, %v), want %+v", f.Name, got, ok, err, want[i])
		}
	}
	// The Parquet spec writes a zero minimum as -0.0.
	if got, _, _ := r.ColumnStats(0, ColumnRequest{Name: "f", Type: fields[2].Type}); !math.Signbit(got.Min.(float64)) {
		t.Errorf("zero minimum written as +0.0")
	}
}

// An empty string or byte string is a bound like any other: the minimum
// of a chunk holding one, so that row-group pruning never drops it.
func TestWriterStatisticsOfEmptyValues(t *testing.T) {
	fields := []spec.DataField{
		{ID: 1, Name: "s", Type: typ(spec.VarChar, true)},
		{ID: 2, Name: "b", Type: typ(spec.VarBinary, true)},
	}
	// The empty value comes first, when there are no bounds yet.
	rows := [][]any{{"", []byte{}}, {"b", []byte("b")}, {"a", []byte("a")}}
	r, err := Open(bytes.NewReader(writeFile(t, fields, rows, WriterOptions{})), "empty.parquet")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := r.ColumnStats(0, ColumnRequest{Name: "s", Type: fields[0].Type})
	if err != nil || s.Min != "" || s.Max != "b" {
		t.Errorf("s: got %+v (%v), want min '' and max 'b'", s, err)
	}
	b, _, err := r.ColumnStats(0, ColumnRequest{Name: "b", Type: fields[1].Type})
	if min, ok := b.Min.([]byte); err != nil || !ok || len(min) != 0 || !bytes.Equal(b.Max.([]byte), []byte("b")) {
		t.Errorf("b: got %+v (%v), want min empty and max 'b'", b, err)
	}
}

func TestWriterRejectsBadValues(t *testing.T) {
	fields := []spec.DataField{{ID: 1, Name: "n", Type: typ(spec.Int, false)}, {ID: 2, Name: "d", Type: withPrecision(typ(spec.Decimal, true), 3, 1)}}
	for _, row := range [][]any{
		{nil, nil},
		{int64(1), nil},
		{int32(1), spec.NewDecimal(1, 2)},
		{int32(1), spec.NewDecimal(100000, 1)},
	} {
		w, err := NewWriter(io.Discard, fields, WriterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(row); err == nil {
			t.Errorf("row %v accepted", row)
		} else if w.Close() == nil {
			t.Errorf("row %v: Close succeeded after a failed Write", row)
		}
	}
	if _, err := NewWriter(io.Discard, []spec.DataField{{Name: "v", Type: typ(spec.Variant, true)}}, WriterOptions{}); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("VARIANT: %v", err)
	}
}

func TestWriterKeyValueRoundTrip(t *testing.T) {
	valueFields := []spec.DataField{
		{ID: 0, Name: "k", Type: typ(spec.VarChar, false)},
		{ID: 1, Name: "v", Type: typ(spec.Double, true)},
	}
	layout, err := NewKeyValueLayout([]string{"k"}, valueFields, false)
	if err != nil {
		t.Fatal(err)
	}
	records := []KeyValue{
		{Key: []any{"a"}, Seq: 7, Kind: spec.RowKindInsert, Value: []any{"a", 1.0}, Position: 0},
		{Key: []any{"b"}, Seq: 9, Kind: spec.RowKindDelete, Value: []any{"b", nil}, Position: 1},
	}
	var rows [][]any
	for _, kv := range records {
		rows = append(rows, layout.Row(kv))
	}
	r, err := Open(bytes.NewReader(writeFile(t, layout.Fields(), rows, WriterOptions{})), "kv.parquet")
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.NewKeyValueIterator([]string{"k"}, valueFields)
	if err != nil {
		t.Fatal(err)
	}
	checkKeyValues(t, it, records)
}
