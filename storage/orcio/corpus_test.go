package orcio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestPyarrowCorpus reads every file pyarrow wrote (testdata/pyarrow,
// see gen.py there: every type, nulls at every level, each codec,
// RLE v1 and v2 with all four sub-encodings, dictionary and direct
// strings, several stripes, none) and compares each row with the rows
// pyarrow read back, in order.
func TestPyarrowCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "pyarrow", "*.orc"))
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".orc")
		t.Run(name, func(t *testing.T) {
			fields, rows := readCorpusFile(t, path)
			want := expectedCorpusRows(t, name)
			if len(rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(rows), len(want))
			}
			row := spec.DataType{Root: spec.Row, Fields: fields}
			for i := range rows {
				got, exp := canonical(rows[i], row), canonicalExpected(t, want[i], row)
				if !reflect.DeepEqual(got, exp) {
					t.Fatalf("row %d:\n got %v\nwant %v", i, got, exp)
				}
			}
		})
	}
}

func openCorpusFile(t *testing.T, path string) *File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)), path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func readCorpusFile(t *testing.T, path string) ([]spec.DataField, [][]any) {
	t.Helper()
	f := openCorpusFile(t, path)
	fields, err := f.Fields()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.ReadRows(fields)
	if err != nil {
		t.Fatal(err)
	}
	return fields, rows
}

// expectedCorpusRows reads the JSON rows of a corpus file; files of one
// table share them (types_zlib reads types.jsonl.gz).
func expectedCorpusRows(t *testing.T, name string) []map[string]any {
	t.Helper()
	base := name
	if _, err := os.Stat(filepath.Join("testdata", "pyarrow", base+".jsonl.gz")); err != nil {
		base, _, _ = strings.Cut(name, "_")
	}
	raw, err := os.Open(filepath.Join("testdata", "pyarrow", base+".jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	gz, err := gzip.NewReader(raw)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(gz)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var row map[string]any
		if err := d.Decode(&row); err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// canonical renders a value read by this package in gen.py's JSON
// encoding, as nested strings, slices and maps.
func canonical(v any, t spec.DataType) any {
	if v == nil {
		return nil
	}
	switch t.Root {
	case spec.Boolean:
		return v
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt:
		return fmt.Sprint(v)
	case spec.Float:
		return strconv.FormatFloat(float64(v.(float32)), 'g', -1, 64)
	case spec.Double:
		return strconv.FormatFloat(v.(float64), 'g', -1, 64)
	case spec.VarBinary:
		return hex.EncodeToString(v.([]byte))
	case spec.Decimal, spec.Date:
		return fmt.Sprint(v)
	case spec.Timestamp, spec.TimestampLTZ:
		return v.(spec.TimestampValue).Format(9)
	case spec.Array:
		var out []any
		for _, e := range v.([]any) {
			out = append(out, canonical(e, *t.Element))
		}
		return out
	case spec.Map:
		m := v.(spec.MapValue)
		var out []any
		for i := range m.Keys {
			out = append(out, []any{canonical(m.Keys[i], *t.Key), canonical(m.Values[i], *t.Value)})
		}
		return out
	case spec.Row:
		out := map[string]any{}
		for i, f := range t.Fields {
			out[f.Name] = canonical(v.([]any)[i], f.Type)
		}
		return out
	}
	return v
}

// canonicalExpected renders a JSON value of gen.py as canonical does.
func canonicalExpected(t *testing.T, v any, dt spec.DataType) any {
	t.Helper()
	if v == nil {
		return nil
	}
	switch dt.Root {
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt:
		return v.(json.Number).String()
	case spec.Float, spec.Double:
		f, err := v.(json.Number).Float64()
		if err != nil {
			t.Fatal(err)
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	case spec.Array:
		var out []any
		for _, e := range v.([]any) {
			out = append(out, canonicalExpected(t, e, *dt.Element))
		}
		return out
	case spec.Map:
		var out []any
		for _, e := range v.([]any) {
			kv := e.([]any)
			out = append(out, []any{canonicalExpected(t, kv[0], *dt.Key), canonicalExpected(t, kv[1], *dt.Value)})
		}
		return out
	case spec.Row:
		m := v.(map[string]any)
		out := map[string]any{}
		for _, f := range dt.Fields {
			out[f.Name] = canonicalExpected(t, m[f.Name], f.Type)
		}
		return out
	}
	return v
}

// TestBatchedReadsMatchWholeReads reads each corpus file through a
// RowIterator in batches of 7 rows, over ranges that skip rows within
// each stripe (one row, then one; then two thirds of it, then its row
// groups but the last), and checks every row and position against a
// whole read.
func TestBatchedReadsMatchWholeReads(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "pyarrow", "*.orc"))
	layouts := []func(rows int64) [][2]int64{
		func(rows int64) [][2]int64 { return [][2]int64{{1, rows / 3}, {rows/3 + 1, rows}} },
		func(rows int64) [][2]int64 { return [][2]int64{{2 * rows / 3, rows - 1}} },
		func(rows int64) [][2]int64 { return [][2]int64{{max(rows-rows%250-1, 0), rows}} },
	}
	for _, path := range files {
		f := openCorpusFile(t, path)
		fields, whole := readCorpusFile(t, path)
		for _, layout := range layouts {
			var ranges []RowRange
			want := 0
			for i, s := range f.Stripes() {
				if s.NumRows < 6 {
					continue
				}
				for _, r := range layout(s.NumRows) {
					ranges = append(ranges, RowRange{Stripe: i, From: r[0], To: r[1]})
					want += int(r[1] - r[0])
				}
			}
			checkRanges(t, path, f, fields, whole, ranges, want)
		}
	}
}

func checkRanges(t *testing.T, path string, f *File, fields []spec.DataField, whole [][]any, ranges []RowRange, want int) {
	t.Helper()
	it, err := f.NewRowIterator(fields, ranges)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	batch := make([][]any, 7)
	for {
		n, err := it.NextBatch(batch)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for j := range n {
			pos := it.Position() + int64(j)
			if !reflect.DeepEqual(batch[j], whole[pos]) {
				t.Fatalf("%s: row at position %d differs", path, pos)
			}
			checked++
		}
	}
	if checked != want {
		t.Fatalf("%s: %d rows read, want %d", path, checked, want)
	}
}
