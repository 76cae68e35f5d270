package randsql

import (
	"errors"
	"testing"
)

// answer builds a result of one row per string slice; "NULL" is NULL.
func answer(types []string, rows ...[]string) *Result {
	r := &Result{}
	for i, t := range types {
		r.Columns = append(r.Columns, ResultColumn{Name: alias(i), Type: t})
	}
	for _, row := range rows {
		var cells []Cell
		for _, v := range row {
			cells = append(cells, Cell{Null: v == "NULL", Text: v})
		}
		r.Rows = append(r.Rows, cells)
	}
	return r
}

func withScale(r *Result, col int, scale int64) *Result {
	r.Columns[col].Scale = scale
	return r
}

// TestComparePlantedDifferences plants each kind of difference the
// comparator must catch, next to the differences MySQL's rules allow.
func TestComparePlantedDifferences(t *testing.T) {
	intDec := []string{"BIGINT", "DECIMAL"}
	base := answer(intDec, []string{"1", "2.50"}, []string{"2", "NULL"}, []string{"2", "NULL"})
	tests := []struct {
		name     string
		cmp      comparison
		a, b     *Result
		mismatch string // "" when the answers agree
	}{
		{"same rows in another order, unordered", comparison{}, base,
			answer(intDec, []string{"2", "NULL"}, []string{"1", "2.50"}, []string{"2", "NULL"}), ""},
		{"a changed value", comparison{}, base,
			answer(intDec, []string{"1", "2.51"}, []string{"2", "NULL"}, []string{"2", "NULL"}), "rows"},
		{"NULL instead of a value", comparison{}, base,
			answer(intDec, []string{"1", "NULL"}, []string{"2", "NULL"}, []string{"2", "NULL"}), "rows"},
		{"a duplicate missing", comparison{}, base,
			answer(intDec, []string{"1", "2.50"}, []string{"2", "NULL"}), "rows"},
		{"one duplicate traded for another", comparison{}, base,
			answer(intDec, []string{"1", "2.50"}, []string{"1", "2.50"}, []string{"2", "NULL"}), "rows"},
		{"DECIMAL scale in the text", comparison{}, base,
			answer(intDec, []string{"1", "2.5"}, []string{"2", "NULL"}, []string{"2", "NULL"}), "rows"},
		{"DOUBLE where MySQL has DECIMAL", comparison{}, base,
			answer([]string{"BIGINT", "DOUBLE"}, []string{"1", "2.5"}, []string{"2", "NULL"}, []string{"2", "NULL"}), "types"},
		{"INT where MySQL has BIGINT", comparison{}, base,
			answer([]string{"INT", "DECIMAL"}, []string{"1", "2.50"}, []string{"2", "NULL"}, []string{"2", "NULL"}), ""},
		{"INT vs BIGINT within lakesql", comparison{sameEngine: true}, base,
			answer([]string{"INT", "DECIMAL"}, []string{"1", "2.50"}, []string{"2", "NULL"}, []string{"2", "NULL"}), "types"},
		{"DECIMAL scale within lakesql", comparison{sameEngine: true}, withScale(answer(intDec, []string{"1", "2.50"}), 1, 2),
			withScale(answer(intDec, []string{"1", "2.50"}), 1, 30), "types"},
		{"a column too many", comparison{}, base, answer([]string{"BIGINT"}, []string{"1"}), "columns"},
		{"an error against rows", comparison{}, base, &Result{Err: errors.New("boom")}, "error"},
		{"two errors", comparison{}, &Result{Err: errors.New("a")}, &Result{Err: errors.New("b")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { expectMismatch(t, tc.cmp, tc.a, tc.b, tc.mismatch) })
	}
}

// TestCompareFloatsWithTolerance: DOUBLE sums may differ in the last
// digits with the order of addition, nothing more.
func TestCompareFloatsWithTolerance(t *testing.T) {
	d := []string{"DOUBLE"}
	expectMismatch(t, comparison{}, answer(d, []string{"0.30000000000000004"}), answer(d, []string{"0.3"}), "")
	expectMismatch(t, comparison{}, answer(d, []string{"1e20"}), answer(d, []string{"100000000000000000000"}), "")
	expectMismatch(t, comparison{}, answer(d, []string{"0.3001"}), answer(d, []string{"0.3"}), "rows")
	expectMismatch(t, comparison{}, answer(d, []string{"-0.3"}), answer(d, []string{"0.3"}), "rows")
}

// TestCompareOrdered: with ORDER BY the sequence of sort keys must agree,
// rows that tie on them form multisets, and rows only count once.
func TestCompareOrdered(t *testing.T) {
	types := []string{"BIGINT", "VARCHAR"}
	ordered := comparison{plan: Plan{SortKeys: []int{0}}}
	a := answer(types, []string{"1", "x"}, []string{"1", "y"}, []string{"2", "z"})
	expectMismatch(t, ordered, a, answer(types, []string{"1", "y"}, []string{"1", "x"}, []string{"2", "z"}), "")
	expectMismatch(t, ordered, a, answer(types, []string{"2", "z"}, []string{"1", "x"}, []string{"1", "y"}), "rows")
	expectMismatch(t, ordered, a, answer(types, []string{"1", "x"}, []string{"1", "y"}, []string{"2", "w"}), "rows")
	unordered := comparison{}
	expectMismatch(t, unordered, a, answer(types, []string{"2", "z"}, []string{"1", "x"}, []string{"1", "y"}), "")
}

// TestCompareAvgOfDecimal: README documents AVG over a window of a DECIMAL
// as a DOUBLE in lakesql; only such columns may be a DOUBLE against MySQL's DECIMAL,
// and only within the DECIMAL's last place.
func TestCompareAvgOfDecimal(t *testing.T) {
	avg := comparison{plan: Plan{AvgDecimal: []int{0}}}
	lake := answer([]string{"DOUBLE"}, []string{"0.3333333333333333"})
	expectMismatch(t, avg, lake, answer([]string{"DECIMAL"}, []string{"0.333333"}), "")
	expectMismatch(t, avg, lake, answer([]string{"DECIMAL"}, []string{"0.333334"}), "")
	expectMismatch(t, avg, lake, answer([]string{"DECIMAL"}, []string{"0.333336"}), "rows")
	expectMismatch(t, comparison{}, lake, answer([]string{"DECIMAL"}, []string{"0.333333"}), "types")
}

func expectMismatch(t *testing.T, c comparison, a, b *Result, kind string) {
	t.Helper()
	m := c.compare(a, b)
	switch {
	case kind == "" && m != nil:
		t.Errorf("want agreement, got %s", m)
	case kind != "" && m == nil:
		t.Errorf("want a %s mismatch, got agreement", kind)
	case kind != "" && m.Kind != kind:
		t.Errorf("want a %s mismatch, got %s", kind, m)
	}
}
