package avroio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hamba/avro/v2/ocf"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// The fixtures are tables Java Paimon 1.4.2 wrote with file.format = avro
// (testdata/NOTICE). These tests read their data files directly; the
// storage/table tests read the tables at every snapshot and compare with
// Java's dumps.

const warehouse = "testdata/warehouse/avro.db"

// dataFiles returns the data files of a fixture table, sorted by name.
func dataFiles(t *testing.T, table string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(warehouse, table), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "data-") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("data files of %s: %v (%d)", table, err, len(files))
	}
	slices.Sort(files)
	return files
}

// schema0 returns the first schema of a fixture table.
func schema0(t *testing.T, table string) *spec.TableSchema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(warehouse, table, "schema", "schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.DecodeSchema(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func columnsOf(fields []spec.DataField) []Column {
	out := make([]Column, len(fields))
	for i, f := range fields {
		out[i] = Column{Name: f.Name, Type: f.Type}
	}
	return out
}

func openFile(t *testing.T, data []byte, name string) *Reader {
	t.Helper()
	r, err := Open(bytes.NewReader(data), name)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	return r
}

// readAll reads every row of the requested columns, in batches of three
// so that batches cross blocks.
func readAll(data []byte, name string, columns []Column) (rows [][]any, positions []int64, err error) {
	r, err := Open(bytes.NewReader(data), name)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	it, err := r.NewRowIterator(columns)
	if err != nil {
		return nil, nil, err
	}
	defer it.Close()
	for {
		batch := make([][]any, 3)
		n, err := it.NextBatch(batch)
		for i := range n {
			rows = append(rows, batch[i])
			positions = append(positions, it.Position()+int64(i))
		}
		if err == io.EOF {
			return rows, positions, nil
		}
		if err != nil {
			return rows, positions, err
		}
	}
}

// fileOfRows returns the data file of a table that holds n rows.
func fileOfRows(t *testing.T, table string, n int) string {
	t.Helper()
	for _, f := range dataFiles(t, table) {
		if len(readFile(t, f, []Column{{Name: "id", Type: spec.DataType{Root: spec.Int}}})) == n {
			return f
		}
	}
	t.Fatalf("%s: no data file of %d rows", table, n)
	return ""
}

func readFile(t *testing.T, path string, columns []Column) [][]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := readAll(data, path, columns)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return rows
}

func ts(millis int64, nanos int32) spec.TimestampValue {
	return spec.TimestampValue{Millis: millis, NanoOfMilli: nanos}
}

func dec(s string, scale int) spec.DecimalValue {
	unscaled, ok := new(big.Int).SetString(strings.Replace(s, ".", "", 1), 10)
	if !ok {
		panic("dec: " + s)
	}
	return spec.NewDecimalBig(unscaled, scale)
}

// TestTypesAsJavaWroteThem reads the first file of the all-types table and
// checks every value of its first row against what Java's dump prints for
// it (testdata/expected/types/snapshot-1.jsonl), and that the row of NULLs
// reads as NULLs.
func TestTypesAsJavaWroteThem(t *testing.T) {
	s := schema0(t, "types")
	rows := readFile(t, fileOfRows(t, "types", 3), columnsOf(s.Fields))
	byName := func(row []any) map[string]any {
		m := map[string]any{}
		for i, f := range s.Fields {
			m[f.Name] = row[i]
		}
		return m
	}
	first := byName(rows[0])
	want := map[string]any{
		"id": int32(1), "b": true, "i8": int8(1), "i16": int16(2), "i32": int32(3), "i64": int64(4),
		"f": float32(1.5), "d": 2.25,
		"d52": dec("123.45", 2), "d184": dec("12345678901234.5678", 4),
		"d3818": dec("12345678901234567890.123456789012345678", 18),
		"c":     "ab", "vc": "hello", "s": "long text",
		"bn": []byte{1, 2, 3, 4}, "vb": []byte{0xca, 0xfe}, "bl": []byte{0, 0xff, 0},
		"dt": spec.DateValue(20559), "tm": spec.TimeValue(45296000), "tm3": spec.TimeValue(45296789),
		"ts0": ts(1776301323000, 0), "ts3": ts(1776301323456, 0), "ts6": ts(1776301323456, 789000),
		"lt3": ts(1776301323456, 0), "lt6": ts(1776301323456, 789000),
		"nn": "x", "nd": dec("1.500", 3), "nts": ts(1767225600000, 1000),
		"ai": []any{int32(1), nil, int32(3)}, "as": []any{"a", "", "ünï"},
		"ms": spec.MapValue{Keys: []any{"k1", "k2"}, Values: []any{int32(1), nil}},
		"mi": spec.MapValue{Keys: []any{int32(7), int32(-1)}, Values: []any{"seven", nil}},
		"md": spec.MapValue{Keys: []any{spec.DateValue(20455)}, Values: []any{[]any{dec("1.25", 2), nil}}},
		"r":  []any{int32(5), "bee", ts(946684799999, 0)},
		"ar": []any{[]any{int32(1), []any{"p", nil}}, []any{nil, nil}},
		"mr": spec.MapValue{Keys: []any{"m"}, Values: []any{[]any{int64(9), spec.MapValue{Keys: []any{"qq"}, Values: []any{"v"}}}}},
	}
	for name, w := range want {
		if got := first[name]; !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %#v, want %#v", name, got, w)
		}
	}
	nulls := byName(rows[2])
	for _, f := range s.Fields {
		if f.Type.Nullable && f.Name != "as" && nulls[f.Name] != nil {
			t.Errorf("row 3: %s = %#v, want NULL", f.Name, nulls[f.Name])
		}
	}
}

// TestExtremes reads the second commit's file: the largest values of each
// type, NaN and -Infinity.
func TestExtremes(t *testing.T) {
	s := schema0(t, "types")
	cols := []Column{}
	for _, name := range []string{"i64", "f", "d", "d3818", "vc", "dt", "tm3", "ts6", "lt6", "nts", "r"} {
		f := s.Fields[s.FieldIndex(name)]
		cols = append(cols, Column{Name: f.Name, Type: f.Type})
	}
	rows := readFile(t, fileOfRows(t, "types", 1), cols)
	row := rows[0]
	if row[0] != int64(math.MaxInt64) || !math.IsNaN(float64(row[1].(float32))) || !math.IsInf(row[2].(float64), -1) {
		t.Errorf("numbers: %#v", row[:3])
	}
	want := []any{
		dec("99999999999999999999.999999999999999999", 18), "ünïcødé ✓ 𝄞", spec.DateValue(2932896),
		spec.TimeValue(86399999), ts(253402300799999, 999000), ts(951825600000, 1000), ts(253402300799999, 999000), nil,
	}
	if !reflect.DeepEqual(row[3:], want) {
		t.Errorf("got  %#v\nwant %#v", row[3:], want)
	}
}

// TestProjection: columns in any order, some absent from the file, which
// read as NULL; the other fields are skipped.
func TestProjection(t *testing.T) {
	s := schema0(t, "types")
	r := s.Fields[s.FieldIndex("r")]
	sub := r.Type
	sub.Fields = []spec.DataField{sub.Fields[2], {Name: "gone", Type: spec.DataType{Root: spec.Int, Nullable: true}}}
	cols := []Column{
		{Name: "s", Type: spec.DataType{Root: spec.VarChar, Nullable: true}},
		{Name: "missing", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
		{Name: "r", Type: sub},
		{Name: "id", Type: spec.DataType{Root: spec.Int}},
	}
	rows := readFile(t, fileOfRows(t, "types", 3), cols)
	want := [][]any{
		{"long text", nil, []any{ts(946684799999, 0), nil}, int32(1)},
		{"", nil, []any{nil, nil}, int32(2)},
		{nil, nil, nil, int32(3)},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("got  %#v\nwant %#v", rows, want)
	}
}

// TestCodecs: Java's avro.codec null, deflate, snappy and bzip2 (zstandard
// is the default, used by every other fixture).
func TestCodecs(t *testing.T) {
	cols := []Column{{Name: "id", Type: spec.DataType{Root: spec.Int}}, {Name: "v", Type: spec.DataType{Root: spec.VarChar, Nullable: true}}}
	want := [][]any{{int32(1), strings.Repeat("a", 42)}, {int32(2), nil}, {int32(3), "hello"}}
	for _, codec := range []string{"null", "deflate", "snappy", "bzip2"} {
		rows := readFile(t, dataFiles(t, "codec_"+codec)[0], cols)
		if !reflect.DeepEqual(rows, want) {
			t.Errorf("%s: got %#v", codec, rows)
		}
	}
}

// TestXZRefused: Java's bundle cannot write or read xz (its codec class is
// missing); a file that names it is refused as unsupported.
func TestXZRefused(t *testing.T) {
	data, err := os.ReadFile(dataFiles(t, "codec_null")[0])
	if err != nil {
		t.Fatal(err)
	}
	// The codec is the header's last metadata entry: key, then value.
	xz := bytes.Replace(data, []byte("\x14avro.codec\x08null"), []byte("\x14avro.codec\x04xz"), 1)
	if bytes.Equal(xz, data) {
		t.Fatal("codec entry not found")
	}
	_, err = Open(bytes.NewReader(xz), "xz.avro")
	if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), `"xz"`) {
		t.Errorf("got %v, want unsupported naming xz", err)
	}
}

// TestKeyValueFields: primary-key files carry _KEY_ fields, the sequence
// number and the value kind in their record, except in thin mode.
func TestKeyValueFields(t *testing.T) {
	data, err := os.ReadFile(dataFiles(t, "pk")[0])
	if err != nil {
		t.Fatal(err)
	}
	r := openFile(t, data, "pk")
	defer r.Close()
	if !r.HasField("_KEY_id") || r.HasField("_KEY_dt") {
		t.Errorf("pk: want _KEY_id and no _KEY_dt (partition keys are trimmed)")
	}
	cols := []Column{
		{Name: "_KEY_id", Type: spec.DataType{Root: spec.Int}},
		{Name: "_SEQUENCE_NUMBER", Type: spec.DataType{Root: spec.BigInt}},
		{Name: "_VALUE_KIND", Type: spec.DataType{Root: spec.TinyInt}},
		{Name: "id", Type: spec.DataType{Root: spec.Int}},
	}
	it, err := r.NewRowIterator(cols)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	row, err := it.Next()
	if err != nil || row[0] != row[3] || row[2] != int8(0) {
		t.Errorf("first record %#v, %v", row, err)
	}
	thin, err := os.ReadFile(dataFiles(t, "thin")[0])
	if err != nil {
		t.Fatal(err)
	}
	if r := openFile(t, thin, "thin"); r.HasField("_KEY_id") || !r.HasField("_SEQUENCE_NUMBER") {
		t.Errorf("thin: want no _KEY_ fields")
	}
}

// TestTypeMismatchRefused: a column cannot be read as a type its Avro type
// does not hold, nor a decimal at another scale.
func TestTypeMismatchRefused(t *testing.T) {
	data, err := os.ReadFile(dataFiles(t, "types")[0])
	if err != nil {
		t.Fatal(err)
	}
	r := openFile(t, data, "types")
	defer r.Close()
	for _, c := range []Column{
		{Name: "s", Type: spec.DataType{Root: spec.Int}},
		{Name: "ts6", Type: spec.DataType{Root: spec.BigInt}},
		{Name: "d52", Type: spec.DataType{Root: spec.Decimal, Precision: 5, Scale: 3}},
		{Name: "ms", Type: spec.DataType{Root: spec.Array, Element: &spec.DataType{Root: spec.Int}}},
	} {
		if _, err := r.NewRowIterator([]Column{c}); !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), c.Name) {
			t.Errorf("%s as %s: got %v, want unsupported", c.Name, c.Type.String(), err)
		}
	}
}

// TestDamagedFiles: every single-byte change and every truncation of a
// small file reads without panicking, and any error is corruption (or
// unsupported, for a changed codec name).
func TestDamagedFiles(t *testing.T) {
	data, err := os.ReadFile(dataFiles(t, "codec_null")[0])
	if err != nil {
		t.Fatal(err)
	}
	cols := []Column{{Name: "id", Type: spec.DataType{Root: spec.Int}}, {Name: "v", Type: spec.DataType{Root: spec.VarChar, Nullable: true}}}
	check := func(what string, damaged []byte) {
		_, _, err := readAll(damaged, what, cols)
		if err != nil && !errors.Is(err, lakeerr.ErrCorruption) && !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("%s: %v is neither corruption nor unsupported", what, err)
		}
	}
	for i := range data {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			damaged := bytes.Clone(data)
			damaged[i] ^= x
			check(fmt.Sprintf("byte %d ^ %#x", i, x), damaged)
		}
		check("truncated", data[:i])
	}
	if _, _, err := readAll(data[:len(data)-1], "truncated", cols); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("truncated file: got %v, want corruption", err)
	}
}

// TestPositions: positions count records from the start of the file.
func TestPositions(t *testing.T) {
	data, err := os.ReadFile(fileOfRows(t, "types", 3))
	if err != nil {
		t.Fatal(err)
	}
	_, positions, err := readAll(data, "types", []Column{{Name: "id", Type: spec.DataType{Root: spec.Int}}})
	if err != nil || !reflect.DeepEqual(positions, []int64{0, 1, 2}) {
		t.Errorf("positions %v, %v", positions, err)
	}
}

// TestBatchesCrossBlocks: rows and positions run on across blocks, here
// of two records each, and batches of three.
func TestBatchesCrossBlocks(t *testing.T) {
	const schema = `{"type":"record","name":"record","fields":[{"name":"id","type":"int"},{"name":"v","type":["null","string"],"default":null}]}`
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(schema, &buf, ocf.WithBlockLength(2), ocf.WithCodec(ocf.Snappy))
	if err != nil {
		t.Fatal(err)
	}
	var want [][]any
	for i := range int32(7) {
		var v any
		if i%3 != 0 {
			v = fmt.Sprint("v", i)
		}
		if err := enc.Encode(map[string]any{"id": i, "v": v}); err != nil {
			t.Fatal(err)
		}
		want = append(want, []any{i, v})
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	cols := []Column{{Name: "id", Type: spec.DataType{Root: spec.Int}}, {Name: "v", Type: spec.DataType{Root: spec.VarChar, Nullable: true}}}
	rows, positions, err := readAll(buf.Bytes(), "blocks", cols)
	if err != nil || !reflect.DeepEqual(rows, want) || !reflect.DeepEqual(positions, []int64{0, 1, 2, 3, 4, 5, 6}) {
		t.Errorf("rows %v, positions %v, %v", rows, positions, err)
	}
}
