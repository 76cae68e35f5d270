package parquetio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go"
)

// benchRow mirrors a typical Paimon table: keys, measures, low-cardinality
// strings, nullable columns, dates and timestamps.
type benchRow struct {
	ID       int64   `parquet:"id"`
	Category int32   `parquet:"category"`
	Name     string  `parquet:"name,plain"`
	City     string  `parquet:"city,dict"`
	Price    float64 `parquet:"price"`
	Active   bool    `parquet:"active"`
	Discount *int64  `parquet:"discount,optional"`
	Day      int32   `parquet:"day,date"`
	Updated  int64   `parquet:"updated,timestamp(microsecond)"`
	Note     *string `parquet:"note,optional,plain"`
}

var benchColumns = []ColumnRequest{
	{Name: "id", Type: spec.DataType{Root: spec.BigInt}},
	{Name: "category", Type: spec.DataType{Root: spec.Int}},
	{Name: "name", Type: spec.DataType{Root: spec.VarChar}},
	{Name: "city", Type: spec.DataType{Root: spec.VarChar}},
	{Name: "price", Type: spec.DataType{Root: spec.Double}},
	{Name: "active", Type: spec.DataType{Root: spec.Boolean}},
	{Name: "discount", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
	{Name: "day", Type: spec.DataType{Root: spec.Date}},
	{Name: "updated", Type: spec.DataType{Root: spec.Timestamp, Precision: 6}},
	{Name: "note", Type: spec.DataType{Root: spec.VarChar, Nullable: true}},
}

const benchRows = 1_000_000

var benchFile = sync.OnceValues(func() ([]byte, error) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[benchRow](&buf, parquet.Compression(&parquet.Zstd))
	cities := []string{"Berlin", "Paris", "Lima", "Osaka", "Quito", "Accra", "Perth"}
	batch := make([]benchRow, 0, 4096)
	for i := range benchRows {
		row := benchRow{
			ID: int64(i), Category: int32(i % 100), Name: fmt.Sprintf("customer-%07d", i),
			City: cities[i%len(cities)], Price: float64(i) * 0.25, Active: i%3 == 0,
			Day: int32(19000 + i%1000), Updated: 1_700_000_000_000_000 + int64(i)*1000,
		}
		if i%4 != 0 {
			d := int64(i % 50)
			row.Discount = &d
		}
		if i%10 == 0 {
			n := "note"
			row.Note = &n
		}
		if batch = append(batch, row); len(batch) == cap(batch) {
			if _, err := w.Write(batch); err != nil {
				return nil, err
			}
			batch = batch[:0]
		}
	}
	if _, err := w.Write(batch); err != nil {
		return nil, err
	}
	err := w.Close()
	return buf.Bytes(), err
})

func BenchmarkDecode1MRows10Columns(b *testing.B) {
	data, err := benchFile()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	rows := make([][]any, 1024)
	var total int
	var elapsed time.Duration
	for b.Loop() {
		start := time.Now()
		total += decodeAllBatches(b, data, rows)
		elapsed += time.Since(start)
	}
	b.ReportMetric(float64(total)/elapsed.Seconds(), "rows/s")
}

func decodeAllBatches(b *testing.B, data []byte, rows [][]any) int {
	r, err := Open(bytes.NewReader(data), "bench.parquet")
	if err != nil {
		b.Fatal(err)
	}
	it, err := r.NewRowIterator(benchColumns)
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	count := 0
	for {
		n, err := it.NextBatch(rows)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		count += n
	}
	if count != benchRows {
		b.Fatalf("decoded %d rows", count)
	}
	return count
}

// BenchmarkDecode1MRowsVectors decodes the same file's columns that have
// a vector layout (all but the timestamp) through a VectorIterator.
func BenchmarkDecode1MRowsVectors(b *testing.B) {
	data, err := benchFile()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var total int
	var elapsed time.Duration
	for b.Loop() {
		start := time.Now()
		total += decodeAllVectors(b, data)
		elapsed += time.Since(start)
	}
	b.ReportMetric(float64(total)/elapsed.Seconds(), "rows/s")
}

func decodeAllVectors(b *testing.B, data []byte) int {
	r, err := Open(bytes.NewReader(data), "bench.parquet")
	if err != nil {
		b.Fatal(err)
	}
	var columns []ColumnRequest
	for _, c := range benchColumns {
		if r.CanVectorize(c) {
			columns = append(columns, c)
		}
	}
	if len(columns) != len(benchColumns)-1 {
		b.Fatalf("%d of %d columns vectorize", len(columns), len(benchColumns))
	}
	it, err := r.NewVectorIterator(columns, allGroups(r))
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	count := 0
	for {
		_, n, err := it.Next(4096)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		count += n
	}
	if count != benchRows {
		b.Fatalf("decoded %d rows", count)
	}
	return count
}
