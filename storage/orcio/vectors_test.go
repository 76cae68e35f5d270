package orcio

import (
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestVectorsMatchRows reads every column of the pyarrow corpus that
// vectorizes, and a column the files lack, through a VectorIterator in
// batches of 100 rows and checks each value and position against the
// row read.
func TestVectorsMatchRows(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "pyarrow", "*.orc"))
	checked := map[spec.TypeRoot]int{}
	for _, path := range files {
		f := openCorpusFile(t, path)
		fields, whole := readCorpusFile(t, path)
		var vectorized []spec.DataField
		var positions []int
		for i, field := range fields {
			if f.CanVectorize(field.Name, field.Type) {
				vectorized, positions = append(vectorized, field), append(positions, i)
			}
		}
		vectorized = append(vectorized, spec.DataField{Name: "no such column", Type: spec.DataType{Root: spec.VarChar}})
		var stripes []int
		for i := range f.NumStripes() {
			stripes = append(stripes, i)
		}
		it, err := f.NewVectorIterator(vectorized, stripes)
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		for {
			vectors, n, err := it.Next(100)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for j := range n {
				pos := it.Position() + int64(j)
				for c, p := range positions {
					if got, want := vectors[c].Value(j), whole[pos][p]; !reflect.DeepEqual(got, want) {
						t.Fatalf("%s row %d column %s: vector %#v, row %#v", path, pos, vectorized[c].Name, got, want)
					}
					checked[vectorized[c].Type.Root]++
				}
				if v := vectors[len(positions)].Value(j); v != nil {
					t.Fatalf("%s row %d: the missing column reads %v", path, pos, v)
				}
			}
			rows += n
		}
		if rows != len(whole) {
			t.Fatalf("%s: %d rows read as vectors, %d as rows", path, rows, len(whole))
		}
	}
	for _, root := range []spec.TypeRoot{spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Date, spec.Float, spec.Double, spec.Boolean, spec.VarChar, spec.VarBinary} {
		if checked[root] == 0 {
			t.Errorf("no %v value checked: %v", root, checked)
		}
	}
}
