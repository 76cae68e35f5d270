package reconcile

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"testing"
)

func text(s string) *string { return &s }

// row is a row of (id, amount, status); "" status is NULL.
func row(id int, amount, status string) Row {
	r := Row{text(strconv.Itoa(id)), text(amount), nil}
	if status != "" {
		r[2] = text(status)
	}
	return r
}

var testColumns = []Column{{Name: "id", Key: true}, {Name: "amount"}, {Name: "status"}}

type lakeRows struct{ rows []Row }

func (l *lakeRows) Next() (Row, error) {
	if len(l.rows) == 0 {
		return nil, io.EOF
	}
	r := l.rows[0]
	l.rows = l.rows[1:]
	return r, nil
}

// fakeSource holds rows sorted by their integer id; it counts the
// queries it answers.
type fakeSource struct {
	rows               []Row
	checksums, fetches int
}

func keyInt(r Row) int {
	n, _ := strconv.Atoi(*r[0])
	return n
}

func (s *fakeSource) inRange(lo, hi Row) []Row {
	var out []Row
	for _, r := range s.rows {
		k := keyInt(r)
		if (lo == nil || k > keyInt(lo)) && (hi == nil || k <= keyInt(hi)) {
			out = append(out, r)
		}
	}
	return out
}

func (s *fakeSource) Checksum(_ context.Context, lo, hi Row) (int64, uint64, error) {
	s.checksums++
	var sum uint64
	rows := s.inRange(lo, hi)
	for _, r := range rows {
		sum ^= RowChecksum(r)
	}
	return int64(len(rows)), sum, nil
}

func (s *fakeSource) Rows(_ context.Context, lo, hi Row, each func(Row) error) error {
	s.fetches++
	for _, r := range s.inRange(lo, hi) {
		if err := each(r); err != nil {
			return err
		}
	}
	return nil
}

func describe(ds []Difference) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %v", d.Kind, *d.Key[0], d.Columns))
	}
	return out
}

func TestCompare(t *testing.T) {
	base := func() []Row {
		var rows []Row
		for id := 1; id <= 10; id++ {
			rows = append(rows, row(id, fmt.Sprintf("%d.00", id), "PAID"))
		}
		return rows
	}
	without := func(rows []Row, ids ...int) []Row {
		return slices.DeleteFunc(rows, func(r Row) bool { return slices.Contains(ids, keyInt(r)) })
	}
	cases := []struct {
		name           string
		lake, source   []Row
		want           []string
		chunksCompared int64
	}{
		{name: "identical", lake: base(), source: base()},
		{name: "a CDC gap in the middle", lake: without(base(), 5), source: base(),
			want: []string{"missing_in_lake 5 []"}, chunksCompared: 1},
		{name: "missing before the first and after the last lake key", lake: without(base(), 1, 10), source: base(),
			want: []string{"missing_in_lake 1 []", "missing_in_lake 10 []"}, chunksCompared: 2},
		{name: "a wrong delete leaves an extra row", lake: base(), source: without(base(), 7),
			want: []string{"extra_in_lake 7 []"}, chunksCompared: 1},
		{name: "a correction applied twice", lake: append(without(base(), 3), row(3, "6.00", "PAID")), source: base(),
			want: []string{"differs 3 [amount]"}, chunksCompared: 1},
		{name: "NULL is not the empty string", lake: append(without(base(), 4), row(4, "4.00", "")),
			source: append(without(base(), 4), Row{text("4"), text("4.00"), text("")}),
			want:   []string{"differs 4 [status]"}, chunksCompared: 1},
		{name: "an empty lake", source: base()[:2], want: []string{"missing_in_lake 1 []", "missing_in_lake 2 []"}, chunksCompared: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lake := slices.SortedFunc(slices.Values(c.lake), func(a, b Row) int { return keyInt(a) - keyInt(b) })
			src := &fakeSource{rows: c.source}
			rep, err := Compare(context.Background(), testColumns, &lakeRows{rows: lake}, src, Options{ChunkRows: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(rep.Differences); !slices.Equal(got, c.want) {
				t.Errorf("differences = %q, want %q", got, c.want)
			}
			if rep.Matches() != (len(c.want) == 0) {
				t.Errorf("Matches = %v with %d differences", rep.Matches(), len(c.want))
			}
			if rep.LakeRows != int64(len(c.lake)) || rep.SourceRows != int64(len(c.source)) {
				t.Errorf("rows lake %d source %d, want %d and %d", rep.LakeRows, rep.SourceRows, len(c.lake), len(c.source))
			}
			if rep.ChunksCompared != c.chunksCompared || src.fetches != int(c.chunksCompared) {
				t.Errorf("%d chunks compared row by row (%d fetches), want %d", rep.ChunksCompared, src.fetches, c.chunksCompared)
			}
		})
	}
}

func TestCompareCountsEveryDifferenceAndKeepsTheLimit(t *testing.T) {
	var lake, source []Row
	for id := 1; id <= 20; id++ {
		source = append(source, row(id, "1.00", "PAID"))
		if id%2 == 0 {
			lake = append(lake, row(id, "1.00", "PAID"))
		}
	}
	rep, err := Compare(context.Background(), testColumns, &lakeRows{rows: lake}, &fakeSource{rows: source}, Options{ChunkRows: 4, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Missing != 10 || len(rep.Differences) != 3 {
		t.Fatalf("missing %d, %d kept; want 10 counted, 3 kept", rep.Missing, len(rep.Differences))
	}
}

// The checksum tells NULL from the empty string and from the text "1",
// and depends on the order of the values.
func TestRowChecksumSeparatesNullsAndOrder(t *testing.T) {
	sums := map[uint64]string{}
	for name, r := range map[string]Row{
		"null":         {text("a"), nil},
		"empty":        {text("a"), text("")},
		"one":          {text("a"), text("1")},
		"swapped":      {text("1"), text("a")},
		"joined":       {text("a" + Separator + "1")},
		"leading null": {nil, text("a")},
	} {
		s := RowChecksum(r)
		if other, dup := sums[s]; dup {
			t.Errorf("rows %s and %s have the same checksum", name, other)
		}
		sums[s] = name
	}
}
