package orcio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// pyarrowPython names a Python with pyarrow for the decode benchmark's
// third reader (gen.py's venv, say); without it the benchmark reports
// ORC against Parquet only.
var pyarrowPython = os.Getenv("LAKESQL_PYARROW_PYTHON")

// BenchmarkDecode decodes the same 1000 rows (the primitive columns of
// the corpus's types table: integers in every RLE sub-encoding,
// dictionary and direct strings, decimals, timestamps, 20% nulls) from
// zstd ORC with this package, from zstd Parquet with parquetio, and,
// when LAKESQL_PYARROW_PYTHON is set, from the ORC file with pyarrow, in
// the same run; it reports each reader's rows per second and the ratios.
//
//	LAKESQL_PYARROW_PYTHON=/tmp/orcvenv/bin/python go test ./storage/orcio -run '^$' -bench Decode
func BenchmarkDecode(b *testing.B) {
	orcData, err := os.ReadFile(filepath.Join("testdata", "pyarrow", "types_zstd.orc"))
	if err != nil {
		b.Fatal(err)
	}
	pqData, err := os.ReadFile(filepath.Join("testdata", "pyarrow", "types.parquet"))
	if err != nil {
		b.Fatal(err)
	}
	fields := primitiveFields(b, orcData)
	var orcTime, pqTime time.Duration
	rows := 0
	for b.Loop() {
		start := time.Now()
		rows = decodeORC(b, orcData, fields)
		orcTime += time.Since(start)
		start = time.Now()
		if n := decodeParquet(b, pqData, fields); n != rows {
			b.Fatalf("parquet %d rows, orc %d", n, rows)
		}
		pqTime += time.Since(start)
	}
	orcRate := float64(rows*b.N) / orcTime.Seconds()
	pqRate := float64(rows*b.N) / pqTime.Seconds()
	b.ReportMetric(orcRate, "orc-rows/s")
	b.ReportMetric(pqRate, "parquet-rows/s")
	b.ReportMetric(orcRate/pqRate, "orc/parquet")
	if pyarrowPython != "" {
		pyRate := pyarrowRate(b, fields)
		b.ReportMetric(pyRate, "pyarrow-rows/s")
		b.ReportMetric(orcRate/pyRate, "orc/pyarrow")
	}
}

func primitiveFields(b *testing.B, data []byte) []spec.DataField {
	f, err := Open(bytes.NewReader(data), int64(len(data)), "types_zstd.orc")
	if err != nil {
		b.Fatal(err)
	}
	all, err := f.Fields()
	if err != nil {
		b.Fatal(err)
	}
	var out []spec.DataField
	for _, field := range all {
		switch field.Type.Root {
		case spec.Array, spec.Map, spec.Row:
		default:
			out = append(out, field)
		}
	}
	return out
}

func decodeORC(b *testing.B, data []byte, fields []spec.DataField) int {
	f, err := Open(bytes.NewReader(data), int64(len(data)), "types_zstd.orc")
	if err != nil {
		b.Fatal(err)
	}
	rows, err := f.ReadRows(fields)
	if err != nil {
		b.Fatal(err)
	}
	return len(rows)
}

func decodeParquet(b *testing.B, data []byte, fields []spec.DataField) int {
	r, err := parquetio.Open(bytes.NewReader(data), "types.parquet")
	if err != nil {
		b.Fatal(err)
	}
	columns := make([]parquetio.ColumnRequest, len(fields))
	for i, f := range fields {
		columns[i] = parquetio.ColumnRequest{Name: f.Name, Type: f.Type}
	}
	it, err := r.NewRowIterator(columns)
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	batch := make([][]any, 256)
	n := 0
	for {
		k, err := it.NextBatch(batch)
		n += k
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// pyarrowRate times pyarrow decoding the same columns of the ORC file into
// Arrow arrays, after a warm-up. (Its Python rows cannot hold the corpus's
// nanosecond timestamps beyond datetime's range, so the comparison is with
// columnar decoding, which boxes no value where this package boxes each.)
func pyarrowRate(b *testing.B, fields []spec.DataField) float64 {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = strconv.Quote(f.Name)
	}
	script := fmt.Sprintf(`
import time, pyarrow.orc as orc
cols = [%s]
path = %q
orc.read_table(path, columns=cols)
rows, start = 0, time.perf_counter()
while time.perf_counter() - start < 2:
    rows += orc.read_table(path, columns=cols).num_rows
print(rows / (time.perf_counter() - start))
`, strings.Join(names, ", "), filepath.Join("testdata", "pyarrow", "types_zstd.orc"))
	out, err := exec.Command(pyarrowPython, "-c", script).CombinedOutput()
	if err != nil {
		b.Fatalf("pyarrow: %v\n%s", err, out)
	}
	rate, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		b.Fatalf("pyarrow printed %q", out)
	}
	return rate
}
