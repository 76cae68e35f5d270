package fileindex_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// bloomTypes are the column types a bloom filter takes, with a random
// value of each.
var bloomTypes = []struct {
	typ   spec.DataType
	value func(r *rand.Rand) any
}{
	{spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}, func(r *rand.Rand) any { return fmt.Sprintf("v%d-ü\x00😀", r.IntN(1e6)) }},
	{spec.DataType{Root: spec.VarBinary, Length: spec.MaxVarLength}, func(r *rand.Rand) any { return []byte(fmt.Sprint(r.IntN(1e6))) }},
	{spec.DataType{Root: spec.TinyInt}, func(r *rand.Rand) any { return int8(r.IntN(256) - 128) }},
	{spec.DataType{Root: spec.SmallInt}, func(r *rand.Rand) any { return int16(r.IntN(1 << 16)) }},
	{spec.DataType{Root: spec.Int}, func(r *rand.Rand) any { return int32(r.Uint32()) }},
	{spec.DataType{Root: spec.BigInt}, func(r *rand.Rand) any { return int64(r.Uint64()) }},
	{spec.DataType{Root: spec.Float}, func(r *rand.Rand) any { return float32(r.NormFloat64()) }},
	{spec.DataType{Root: spec.Double}, func(r *rand.Rand) any { return r.NormFloat64() * 1e6 }},
	{spec.DataType{Root: spec.Date}, func(r *rand.Rand) any { return spec.DateValue(r.IntN(40000) - 20000) }},
	{spec.DataType{Root: spec.Time}, func(r *rand.Rand) any { return spec.TimeValue(r.IntN(86400) * 1000) }},
	{spec.DataType{Root: spec.Timestamp, Precision: 3}, func(r *rand.Rand) any { return spec.TimestampValue{Millis: r.Int64N(1e13) - 5e12} }},
	{spec.DataType{Root: spec.TimestampLTZ, Precision: 6}, func(r *rand.Rand) any {
		return spec.TimestampValue{Millis: r.Int64N(1e13) - 5e12, NanoOfMilli: int32(r.IntN(1000) * 1000)}
	}},
}

// TestBuiltBloomFiltersKeepEveryMatch writes a file's worth of random
// values of every type, some repeated and some NULL, and checks that no
// written value is ever skipped, that values not written are skipped at
// about the configured rate, and that the filter is sized by the distinct
// values, not by the items option.
func TestBuiltBloomFiltersKeepEveryMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for _, bt := range bloomTypes {
		t.Run(bt.typ.String(), func(t *testing.T) {
			field := spec.DataField{ID: 3, Name: "c ü", Type: bt.typ.WithNullable(true)}
			fields := []spec.DataField{{ID: 1, Name: "other", Type: spec.DataType{Root: spec.Boolean}}, field}
			b, err := fileindex.NewBuilder(fields, []spec.FileIndexColumn{{Column: field.Name, Type: spec.FileIndexBloomFilter,
				Options: map[string]string{"fpp": "0.05"}}})
			if err != nil {
				t.Fatal(err)
			}
			written := map[any]bool{}
			var values []any
			for i := range 3000 {
				v := bt.value(r)
				if i%10 == 9 {
					v = values[r.IntN(len(values))]
				}
				if i%17 == 0 {
					v = nil
				} else {
					values = append(values, v)
					written[key(v)] = true
				}
				b.Add([]any{true, v})
			}
			c := finish(t, b)
			body, _ := c.Lookup(field.Name, spec.FileIndexBloomFilter)
			if maxBytes := 4 + len(written)*8/8; len(body) > maxBytes {
				t.Errorf("a filter of %d bytes for %d distinct values at fpp 0.05, want ≤ %d", len(body), len(written), maxBytes)
			}
			ev := fileindex.NewEvaluator(c, fields)
			col := predicate.ColumnOf(1, field)
			for _, v := range values {
				if cannotEq(t, ev, col, v) {
					t.Fatalf("written value %v is skipped", v)
				}
			}
			skipped, tried := 0, 0
			for attempt := 0; attempt < 20000 && tried < 2000; attempt++ {
				v := bt.value(r)
				if written[key(v)] {
					continue
				}
				tried++
				if cannotEq(t, ev, col, v) {
					skipped++
				}
			}
			if rate := 1 - float64(skipped)/float64(tried); tried > 100 && rate > 0.1 {
				t.Errorf("%.3f of absent values kept, want about 0.05", rate)
			}
		})
	}
}

func key(v any) any {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}

func cannotEq(t *testing.T, ev *fileindex.Evaluator, col predicate.Column, v any) bool {
	t.Helper()
	p, err := predicate.Leaf(col, predicate.OpEq, v)
	if err != nil {
		t.Fatal(err)
	}
	cannot, err := ev.Cannot(p)
	if err != nil {
		t.Fatal(err)
	}
	return cannot
}

// TestEvaluatorLogic: AND skips when one conjunct is proven empty, OR only
// when every disjunct is, IN when every value is absent; other operators,
// a column without an index and a column whose type changed since the
// file was written never skip; a renamed column finds its index by id.
func TestEvaluatorLogic(t *testing.T) {
	intType := spec.DataType{Root: spec.Int, Nullable: true}
	written := []spec.DataField{{ID: 1, Name: "a", Type: intType}, {ID: 2, Name: "b", Type: intType}}
	b, err := fileindex.NewBuilder(written, []spec.FileIndexColumn{{Column: "a", Type: spec.FileIndexBloomFilter}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range int32(100) {
		b.Add([]any{i, i})
	}
	c := finish(t, b)
	renamed := []spec.DataField{{ID: 1, Name: "a2", Type: intType}, {ID: 2, Name: "b", Type: intType}}
	a := predicate.ColumnOf(0, renamed[0])
	bcol := predicate.ColumnOf(1, renamed[1])
	leaf := func(col predicate.Column, op predicate.Op, lits ...any) predicate.Predicate {
		p, err := predicate.Leaf(col, op, lits...)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	present, absent := leaf(a, predicate.OpEq, int32(5)), leaf(a, predicate.OpEq, int32(-777))
	cases := []struct {
		name string
		p    predicate.Predicate
		want bool
	}{
		{"present", present, false},
		{"absent", absent, true},
		{"absent AND b", predicate.And(absent, leaf(bcol, predicate.OpEq, int32(1))), true},
		{"present AND b", predicate.And(present, leaf(bcol, predicate.OpEq, int32(-777))), false},
		{"absent OR absent", predicate.Or(absent, leaf(a, predicate.OpEq, int32(-778))), true},
		{"absent OR present", predicate.Or(absent, present), false},
		{"absent OR unindexed", predicate.Or(absent, leaf(bcol, predicate.OpEq, int32(-1))), false},
		{"IN absent", leaf(a, predicate.OpIn, int32(-1), int32(-2), int32(-3)), true},
		{"IN one present", leaf(a, predicate.OpIn, int32(-1), int32(7), int32(-3)), false},
		{"range", leaf(a, predicate.OpLt, int32(-5)), false},
		{"NOT IN", leaf(a, predicate.OpNotIn, int32(5)), false},
		{"unindexed", leaf(bcol, predicate.OpEq, int32(-777)), false},
		{"type changed", leaf(predicate.ColumnOf(0, spec.DataField{ID: 1, Name: "a2", Type: spec.DataType{Root: spec.BigInt}}),
			predicate.OpEq, int64(-777)), false},
	}
	// The predicates read the table's current schema, where a is a2; the
	// file was written when it was a.
	ev := fileindex.NewEvaluator(c, written)
	for _, tc := range cases {
		got, err := ev.Cannot(tc.p)
		if err != nil || got != tc.want {
			t.Errorf("%s: Cannot(%s) = %v, %v; want %v", tc.name, tc.p, got, err, tc.want)
		}
	}
}

// TestDecodeRefusesDamage: every truncation of a container, and a wrong
// magic, is a corruption error, never a panic or a silent skip.
func TestDecodeRefusesDamage(t *testing.T) {
	b, err := fileindex.NewBuilder([]spec.DataField{{ID: 1, Name: "a", Type: spec.DataType{Root: spec.BigInt}}},
		[]spec.FileIndexColumn{{Column: "a", Type: spec.FileIndexBloomFilter}})
	if err != nil {
		t.Fatal(err)
	}
	b.Add([]any{int64(1)})
	data, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(data) - 5 {
		if _, err := fileindex.Decode(data[:n]); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Fatalf("a container cut to %d of %d bytes: %v", n, len(data), err)
		}
	}
	bad := append([]byte(nil), data...)
	bad[7] ^= 1
	if _, err := fileindex.Decode(bad); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("a wrong magic: %v", err)
	}
}

// TestBuilderRefusesWhatJavaRefuses: an index on a missing column or on a
// type the index cannot take fails the writer, as in Java; declarations of
// index types lakesql does not write build nothing.
func TestBuilderRefusesWhatJavaRefuses(t *testing.T) {
	fields := []spec.DataField{{ID: 1, Name: "d", Type: spec.DataType{Root: spec.Decimal, Precision: 10, Scale: 2}}}
	for _, decl := range []spec.FileIndexColumn{{Column: "missing", Type: spec.FileIndexBloomFilter},
		{Column: "d", Type: spec.FileIndexBloomFilter}, {Column: "d", Type: spec.FileIndexBitmap}} {
		if _, err := fileindex.NewBuilder(fields, []spec.FileIndexColumn{decl}); !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("%+v: %v", decl, err)
		}
	}
	b, err := fileindex.NewBuilder(fields, []spec.FileIndexColumn{{Column: "d", Type: "bsi"}, {Column: "m[k]", Type: spec.FileIndexBloomFilter}})
	if b != nil || err != nil {
		t.Errorf("bsi and map-key declarations built %v, %v", b, err)
	}
}

// TestBitmapsAnswerExactly: a bitmap index skips exactly the files
// without the value: every written value is kept, every other refuted; a
// zero finds -0.0; IS NULL is refuted only where no NULL was written.
func TestBitmapsAnswerExactly(t *testing.T) {
	double := spec.DataType{Root: spec.Double, Nullable: true}
	text := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	fields := []spec.DataField{{ID: 1, Name: "d", Type: double}, {ID: 2, Name: "s", Type: text}}
	b, err := fileindex.NewBuilder(fields, []spec.FileIndexColumn{{Column: "d", Type: spec.FileIndexBitmap}, {Column: "s", Type: spec.FileIndexBitmap}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 500 {
		d := any(float64(i % 50))
		if i%50 == 0 {
			d = math.Copysign(0, -1) // the file holds no +0.0
		}
		b.Add([]any{d, fmt.Sprintf("s%d", i)})
	}
	c := finish(t, b)
	ev := fileindex.NewEvaluator(c, fields)
	dcol, scol := predicate.ColumnOf(0, fields[0]), predicate.ColumnOf(1, fields[1])
	for i := range 600 {
		if got := cannotEq(t, ev, scol, fmt.Sprintf("s%d", i)); got != (i >= 500) {
			t.Errorf("s = s%d: refuted %v", i, got)
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 49, 50, 0.5} {
		if got, want := cannotEq(t, ev, dcol, v), v >= 50 || v == 0.5; got != want {
			t.Errorf("d = %v: refuted %v", v, got)
		}
	}
	for _, col := range []predicate.Column{dcol, scol} {
		isNull, err := predicate.Leaf(col, predicate.OpIsNull)
		if err != nil {
			t.Fatal(err)
		}
		expectCannot(t, ev, isNull, true)
	}
}

// finish decodes what the builder finishes.
func finish(t *testing.T, b *fileindex.Builder) *fileindex.Container {
	t.Helper()
	data, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	c, err := fileindex.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBitmapRowsAreExact: the rows a bitmap narrows a filter to are
// exactly the rows that make its indexed leaves TRUE; AND with a leaf no
// bitmap answers keeps what the others narrow to; OR with one narrows
// nothing.
func TestBitmapRowsAreExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	fields := []spec.DataField{
		{ID: 1, Name: "a", Type: spec.DataType{Root: spec.Int, Nullable: true}},
		{ID: 2, Name: "s", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
		{ID: 3, Name: "x", Type: spec.DataType{Root: spec.Int, Nullable: true}},
	}
	b, err := fileindex.NewBuilder(fields, []spec.FileIndexColumn{{Column: "a", Type: spec.FileIndexBitmap}, {Column: "s", Type: spec.FileIndexBitmap}})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for i := range 5000 {
		row := []any{int32(r.IntN(40)), fmt.Sprintf("s%d", r.IntN(3000)), int32(i)}
		if i%11 == 0 {
			row[0] = nil
		}
		rows = append(rows, row)
		b.Add(row)
	}
	ev := fileindex.NewEvaluator(finish(t, b), fields)
	leaf := func(col int, op predicate.Op, lits ...any) predicate.Predicate {
		p, err := predicate.Leaf(predicate.ColumnOf(col, fields[col]), op, lits...)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	x := leaf(2, predicate.OpLt, int32(2500))
	for _, p := range []predicate.Predicate{
		leaf(0, predicate.OpEq, int32(7)),
		leaf(0, predicate.OpIn, int32(1), int32(39), int32(99)),
		leaf(0, predicate.OpIsNull),
		leaf(1, predicate.OpEq, "s17"),
		leaf(1, predicate.OpEq, "absent"),
		predicate.And(leaf(0, predicate.OpEq, int32(3)), leaf(1, predicate.OpIn, "s1", "s2", "s3", "s4")),
		predicate.Or(leaf(0, predicate.OpEq, int32(3)), leaf(1, predicate.OpEq, "s5")),
	} {
		got, ok, err := ev.Rows(p)
		if err != nil || !ok {
			t.Fatalf("%s: %v, %v", p, ok, err)
		}
		want := roaring.New()
		for i, row := range rows {
			if p.Eval(row) == predicate.True {
				want.Add(uint32(i))
			}
		}
		if !got.Equals(want) {
			t.Errorf("%s: %d rows, want %d", p, got.GetCardinality(), want.GetCardinality())
		}
		narrowed, ok, err := ev.Rows(predicate.And(p, x))
		if err != nil || !ok || !narrowed.Equals(want) {
			t.Errorf("%s AND an unindexed leaf: %v, %v (%d rows)", p, ok, err, narrowed.GetCardinality())
		}
		if _, ok, _ := ev.Rows(predicate.Or(p, x)); ok {
			t.Errorf("%s OR an unindexed leaf narrows", p)
		}
	}
}

// TestJavaBitmapRows: Java's version-2 bitmaps (the fixture beside an
// external path) give the rows README lists.
func TestJavaBitmapRows(t *testing.T) {
	c, err := fileindex.Decode(sidecar(t, "append_with_bitmap_no_embedding"))
	if err != nil {
		t.Fatal(err)
	}
	ev := fileindex.NewEvaluator(c, javaFixtureFields[:3])
	for _, tc := range []struct {
		p    predicate.Predicate
		want []uint32
	}{
		{eq(t, 0, "Bob"), []uint32{1, 5}},
		{eq(t, 0, "Emily"), []uint32{2}},
		{eq(t, 1, int32(20)), []uint32{4, 6, 7}},
		{eq(t, 2, int32(0)), []uint32{2, 3, 6}},
		{eq(t, 1, int32(15)), nil},
	} {
		rows, ok, err := ev.Rows(tc.p)
		if err != nil || !ok || !slices.Equal(rows.ToArray(), tc.want) {
			t.Errorf("%s: %v, %v, %v; want %v", tc.p, rows, ok, err, tc.want)
		}
	}
	isNull, err := predicate.Leaf(predicate.ColumnOf(2, javaFixtureFields[2]), predicate.OpIsNull)
	if err != nil {
		t.Fatal(err)
	}
	if rows, ok, err := ev.Rows(isNull); err != nil || !ok || !slices.Equal(rows.ToArray(), []uint32{7}) {
		t.Errorf("f2 IS NULL: %v, %v, %v", rows, ok, err)
	}
}
