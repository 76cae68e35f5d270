package orcio

import (
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestStripeStatsBoundTheRows checks, for every stripe and top-level
// column of the pyarrow corpus, that the statistics the reader returns
// agree with the stripe's decoded rows: the null count exactly, and the
// bounds are the least and greatest values (pyarrow writes exact ones).
func TestStripeStatsBoundTheRows(t *testing.T) {
	checked := 0
	eachStripeColumn(t, func(path string, f *File, i int, rows [][]any, c int, field spec.DataField) {
		stats, ok, err := f.StripeStats(i, field.Name, field.Type)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return
		}
		lo, hi, nulls := actualBounds(rows, c, field.Type)
		if stats.NullCount != nulls || !equalValues(field.Type, stats.Min, lo) || !equalValues(field.Type, stats.Max, hi) {
			t.Errorf("%s stripe %d %s: stats %+v; rows hold %v..%v with %d nulls", path, i, field.Name, stats, lo, hi, nulls)
		}
		checked++
	})
	if checked < 50 {
		t.Fatalf("%d column statistics checked", checked)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "pyarrow", "*.orc"))
	if _, ok, _ := openCorpusFile(t, files[0]).StripeStats(0, "no such column", spec.DataType{Root: spec.Int}); ok {
		t.Error("statistics of a missing column")
	}
}

// eachStripeColumn calls check with every stripe's rows and each of its
// top-level columns, for every file of the pyarrow corpus.
func eachStripeColumn(t *testing.T, check func(path string, f *File, stripe int, rows [][]any, c int, field spec.DataField)) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "pyarrow", "*.orc"))
	for _, path := range files {
		f := openCorpusFile(t, path)
		fields, err := f.Fields()
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.NumStripes() {
			rows, err := f.ReadStripe(i, fields)
			if err != nil {
				t.Fatal(err)
			}
			for c, field := range fields {
				check(path, f, i, rows, c, field)
			}
		}
	}
}

func actualBounds(rows [][]any, c int, t spec.DataType) (lo, hi any, nulls int64) {
	for _, row := range rows {
		v := row[c]
		switch {
		case v == nil:
			nulls++
		case lo == nil:
			lo, hi = v, v
		default:
			if spec.CompareValues(t, v, lo) < 0 {
				lo = v
			}
			if spec.CompareValues(t, v, hi) > 0 {
				hi = v
			}
		}
	}
	return lo, hi, nulls
}

func equalValues(t spec.DataType, a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return spec.CompareValues(t, a, b) == 0
}

// TestRowGroupStatsBoundTheirRows checks the row index statistics of
// every stripe and top-level column of the pyarrow corpus (written with
// 250-row row groups) against the decoded rows of each group: one group
// per 250 rows, a group of only NULLs marked so, and bounds that are the
// group's least and greatest values.
func TestRowGroupStatsBoundTheirRows(t *testing.T) {
	checked, onlyNulls := 0, 0
	eachStripeColumn(t, func(path string, f *File, i int, rows [][]any, c int, field spec.DataField) {
		groups, ok, err := f.RowGroupStats(i, field.Name, field.Type)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return
		}
		stride := int(f.footer.rowIndexStride)
		if len(groups) != (len(rows)+stride-1)/stride {
			t.Fatalf("%s stripe %d %s: %d row groups for %d rows of %d", path, i, field.Name, len(groups), len(rows), stride)
		}
		for g, stats := range groups {
			from := g * stride
			lo, hi, nulls := actualBounds(rows[from:min(from+stride, len(rows))], c, field.Type)
			if stats.FirstRow != int64(from) || stats.OnlyNulls != (lo == nil && nulls > 0) ||
				stats.Min != nil && (!equalValues(field.Type, stats.Min, lo) || !equalValues(field.Type, stats.Max, hi)) {
				t.Errorf("%s stripe %d %s group %d: stats %+v; rows %d.. hold %v..%v with %d nulls", path, i, field.Name, g, stats, from, lo, hi, nulls)
			}
			if stats.OnlyNulls {
				onlyNulls++
			}
			if stats.Min != nil {
				checked++
			}
		}
	})
	if checked < 100 || onlyNulls == 0 {
		t.Fatalf("%d row group bounds checked, %d groups of only NULLs", checked, onlyNulls)
	}
}
