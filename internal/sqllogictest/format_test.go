package sqllogictest

import (
	"slices"
	"testing"
)

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		value any
		typ   byte
		want  string
	}{
		{nil, 'T', "NULL"},
		{nil, 'I', "NULL"},
		{nil, 'R', "NULL"},
		{[]byte("cbwys"), 'T', "cbwys"},
		{[]byte(""), 'T', "(empty)"},
		{[]byte("NULL"), 'T', "NULL"},
		// Every byte outside ' '..'~' becomes '@', also each byte of a
		// multi-byte character.
		{[]byte("a\tb~\x7f"), 'T', "a@b~@"},
		{[]byte("h\u00e9llo"), 'T', "h@@llo"},
		{int64(-42), 'T', "-42"},
		{float32(562.42), 'T', "562.42"},
		{int64(585), 'I', "585"},
		{uint64(18446744073709551615), 'I', "9223372036854775807"},
		// MySQL's / gives a DECIMAL where SQLite divides integers; the
		// ODBC conversion truncates toward zero, so both print the same.
		{[]byte("3.5000"), 'I', "3"},
		{[]byte("-3.5000"), 'I', "-3"},
		{[]byte("-0.2062"), 'I', "0"},
		{[]byte("123456789012345678.9"), 'I', "123456789012345678"},
		{float64(-7.9), 'I', "-7"},
		{float32(2.5), 'I', "2"},
		{[]byte("1e3"), 'I', "1000"},
		{[]byte("99999999999999999999"), 'I', "9223372036854775807"},
		{[]byte("abc"), 'I', "0"},
		{[]byte(""), 'I', "0"},
		{int64(3), 'R', "3.000"},
		{[]byte("0.3333"), 'R', "0.333"},
		{[]byte("-11.4375"), 'R', "-11.438"},
		{float64(2) / 3, 'R', "0.667"},
		{float32(562.42), 'R', "562.420"},
		{[]byte("abc"), 'R', "0.000"},
	} {
		if got := FormatValue(tc.value, tc.typ); got != tc.want {
			t.Errorf("FormatValue(%#v, %c) = %q, want %q", tc.value, tc.typ, got, tc.want)
		}
	}
}

func TestSortValues(t *testing.T) {
	for _, tc := range []struct {
		name    string
		values  []string
		columns int
		mode    SortMode
		want    []string
	}{
		{
			// random/aggregates/slt_good_0: SELECT ALL + col1 AS col0, col2
			// AS col2 FROM tab1, rowsort: strcmp puts "5" after "47".
			name: "rowsort compares text", values: []string{"14", "96", "5", "59", "47", "68"}, columns: 2, mode: RowSort,
			want: []string{"14", "96", "47", "68", "5", "59"},
		},
		{
			name: "rowsort breaks ties on later columns", values: []string{"1", "b", "1", "a", "0", "z"}, columns: 2, mode: RowSort,
			want: []string{"0", "z", "1", "a", "1", "b"},
		},
		{
			name: "valuesort ignores rows", values: []string{"14", "96", "5", "59", "NULL", "-3"}, columns: 2, mode: ValueSort,
			want: []string{"-3", "14", "5", "59", "96", "NULL"},
		},
		{
			name: "nosort keeps order", values: []string{"b", "a"}, columns: 1, mode: NoSort,
			want: []string{"b", "a"},
		},
	} {
		got := slices.Clone(tc.values)
		SortValues(got, tc.columns, tc.mode)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestHashLine(t *testing.T) {
	// random/aggregates/slt_good_0: query III rowsort, SELECT DISTINCT *
	// FROM tab2 WHERE - col2 + col1 IS NOT NULL over tab2's three rows.
	values := []string{"64", "77", "40", "75", "67", "58", "46", "51", "23"}
	SortValues(values, 3, RowSort)
	if got, want := HashLine(values), "9 values hashing to 75c998aa53ac83218cbf2feb962d0a49"; got != want {
		t.Errorf("HashLine = %q, want %q", got, want)
	}
	if got, want := HashLine(nil), "0 values hashing to d41d8cd98f00b204e9800998ecf8427e"; got != want {
		t.Errorf("HashLine(nil) = %q, want %q", got, want)
	}
}

func TestCompare(t *testing.T) {
	nine := []string{"46", "51", "23", "64", "77", "40", "75", "67", "58"}
	hash := []string{"9 values hashing to 75c998aa53ac83218cbf2feb962d0a49"}
	for _, tc := range []struct {
		name             string
		expected, values []string
		threshold        int
		wantMatch        bool
	}{
		{"values equal", []string{"0"}, []string{"0"}, 8, true},
		{"value differs", []string{"0"}, []string{"1"}, 8, false},
		{"too many rows", []string{"0"}, []string{"0", "0"}, 8, false},
		{"too few rows", []string{"0", "0"}, []string{"0"}, 8, false},
		{"no rows expected", nil, nil, 8, true},
		{"over the threshold: hash", hash, nine, 8, true},
		{"over the threshold: other values", hash, append(slices.Clone(nine[:8]), "59"), 8, false},
		{"over the threshold, values listed", nine, nine, 8, false},
		{"threshold 0 never hashes", nine, nine, 0, true},
		{"under the threshold, hash listed", hash, nine, 20, false},
	} {
		reason := compare(tc.expected, tc.values, tc.threshold)
		if (reason == "") != tc.wantMatch {
			t.Errorf("%s: compare = %q, want match %v", tc.name, reason, tc.wantMatch)
		}
	}
}
