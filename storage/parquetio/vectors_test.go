package parquetio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/spec"
)

// vectorRequests keeps the requests the vector path reads.
func vectorRequests(r *Reader, requests []ColumnRequest) []ColumnRequest {
	var out []ColumnRequest
	for _, req := range requests {
		if r.CanVectorize(req) {
			out = append(out, req)
		}
	}
	return out
}

// readVectors decodes the requested columns of the given row groups in
// batches of batchRows, boxing each value as a row read would hold it.
func readVectors(r *Reader, requests []ColumnRequest, groups []int, batchRows int) ([][]any, []int64, error) {
	return readVectorRanges(r, requests, r.wholeGroups(groups), batchRows)
}

func readVectorRanges(r *Reader, requests []ColumnRequest, ranges []RowRange, batchRows int) ([][]any, []int64, error) {
	it, err := r.NewVectorRangeIterator(requests, ranges)
	if err != nil {
		return nil, nil, err
	}
	defer it.Close()
	var rows [][]any
	var positions []int64
	for {
		vectors, n, err := it.Next(batchRows)
		if errors.Is(err, io.EOF) {
			return rows, positions, nil
		}
		if err != nil {
			return nil, nil, err
		}
		for i := range n {
			row := make([]any, len(vectors))
			for c, v := range vectors {
				row[c] = v.Value(i)
			}
			rows = append(rows, row)
			positions = append(positions, it.Position()+int64(i))
		}
	}
}

func readRowGroups(t testing.TB, r *Reader, requests []ColumnRequest, groups []int) ([][]any, []int64) {
	t.Helper()
	it, err := r.NewRowGroupIterator(requests, groups)
	if err != nil {
		t.Fatal(err)
	}
	return drainRows(t, it)
}

// drainRows reads every row of it, with its position, and closes it.
func drainRows(t testing.TB, it *RowIterator) ([][]any, []int64) {
	t.Helper()
	defer it.Close()
	var rows [][]any
	var positions []int64
	for {
		row, err := it.Next()
		if errors.Is(err, io.EOF) {
			return rows, positions
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
		positions = append(positions, it.Position())
	}
}

func checkVectorsMatchRows(t *testing.T, what string, r *Reader, requests []ColumnRequest, groups []int, batchRows int) {
	t.Helper()
	want, wantPos := readRowGroups(t, r, requests, groups)
	got, gotPos, err := readVectors(r, requests, groups, batchRows)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows from vectors, %d from rows", what, len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) || gotPos[i] != wantPos[i] {
			t.Fatalf("%s: row %d at %d: vectors %#v, rows at %d %#v", what, i, gotPos[i], got[i], wantPos[i], want[i])
		}
	}
}

// TestVectorsMatchRowsOnJavaFiles decodes every flat column of every
// Java-written fixture file (dictionary and plain pages, v1 and v2,
// NULLs, several codecs) both ways and requires the same values at the
// same positions.
func TestVectorsMatchRowsOnJavaFiles(t *testing.T) {
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	columns := 0
	for _, table := range tables {
		schemas := loadSchemas(t, table.Dir)
		for _, path := range dataFiles(t, table.Dir) {
			rel, _ := filepath.Rel(fixtures.Root(), path)
			r := openFixture(t, path)
			requests := decodableRequests(t, r, schemas)
			if requests == nil {
				continue
			}
			requests = vectorRequests(r, requests)
			columns += len(requests)
			checkVectorsMatchRows(t, rel, r, requests, allGroups(r), 3)
		}
	}
	if columns < 200 {
		t.Fatalf("only %d fixture columns read as vectors", columns)
	}
}

// decodableRequests returns the requests of the first table schema the
// row path decodes the file with.
func decodableRequests(t *testing.T, r *Reader, schemas []testSchema) []ColumnRequest {
	for _, s := range schemas {
		requests, ok := requestsFor(r, s)
		if !ok {
			continue
		}
		if _, _, err := readAll(t, r, requests); err == nil {
			return requests
		}
	}
	return nil
}

func allGroups(r *Reader) []int {
	out := make([]int, len(r.RowGroups()))
	for i := range out {
		out[i] = i
	}
	return out
}

// TestVectorsMatchRowsOnWrittenFiles covers page and row-group boundaries
// inside batches, runs of NULLs, and row-group subsets, on random files of
// every flat type.
func TestVectorsMatchRowsOnWrittenFiles(t *testing.T) {
	var fields []spec.DataField
	for _, f := range allTypesFields() {
		if f.Type.Root != spec.Row && f.Type.Root != spec.Array && f.Type.Root != spec.Map && f.Type.Root != spec.Multiset {
			fields = append(fields, f)
		}
	}
	r := rand.New(rand.NewPCG(7, 11))
	rows := randomFlatRows(r, fields, 3000)
	data := writeFile(t, fields, rows, WriterOptions{PageSize: 700, RowGroupSize: 12_000})
	pr, err := Open(bytes.NewReader(data), "vectors.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.RowGroups()) < 3 {
		t.Fatalf("%d row groups, want several", len(pr.RowGroups()))
	}
	requests := vectorRequests(pr, requestsOf(fields))
	if len(requests) < 12 {
		t.Fatalf("only %d columns vectorize", len(requests))
	}
	// A column the file lacks reads as NULL on both paths.
	requests = append(requests, ColumnRequest{Name: "absent", Type: spec.DataType{Root: spec.Int, Nullable: true}})
	for _, batch := range []int{1, 7, 256, 5000} {
		checkVectorsMatchRows(t, fmt.Sprintf("batch %d", batch), pr, requests, allGroups(pr), batch)
	}
	checkVectorsMatchRows(t, "groups 2,0", pr, requests, []int{2, 0}, 100)
}

// randomFlatRows draws values from the all-types sample rows, with runs of
// NULLs so that pages hold none, some and only NULLs.
func randomFlatRows(r *rand.Rand, fields []spec.DataField, n int) [][]any {
	samples := allTypesRows()
	all := allTypesFields()
	index := map[string]int{}
	for i, f := range all {
		index[f.Name] = i
	}
	rows := make([][]any, n)
	nullRun := 0
	for i := range rows {
		if nullRun == 0 && r.IntN(50) == 0 {
			nullRun = 1 + r.IntN(400)
		}
		row := make([]any, len(fields))
		for c, f := range fields {
			v := samples[r.IntN(len(samples))][index[f.Name]]
			if f.Type.Nullable && (nullRun > 0 || r.IntN(5) == 0) {
				v = nil
			}
			row[c] = v
		}
		if f := fields[0]; !f.Type.Nullable {
			row[0] = int64(i)
		}
		if nullRun > 0 {
			nullRun--
		}
		rows[i] = row
	}
	return rows
}

// Damaged files read as vectors give classified errors, never a panic.
func TestVectorsOfDamagedFilesAreClassified(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for name, data := range corruptionSeeds(t) {
		for i := range 1000 {
			corrupt := bytes.Clone(data)
			for range 1 + rng.IntN(4) {
				corrupt[rng.IntN(len(corrupt))] = byte(rng.IntN(256))
			}
			requireClassified(t, fmt.Sprintf("%s: mutation %d", name, i), decodeVectors(corrupt))
		}
	}
}

func decodeVectors(data []byte) error {
	r, err := Open(bytes.NewReader(data), "test.parquet")
	if err != nil {
		return err
	}
	var requests []ColumnRequest
	for _, c := range r.Schema() {
		req := ColumnRequest{Name: c.Name, Type: c.Type}
		if c.Type.Root != 0 && r.CanVectorize(req) {
			requests = append(requests, req)
		}
	}
	_, _, err = readVectors(r, requests, allGroups(r), 5)
	return err
}
