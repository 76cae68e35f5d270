package vector

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

var filterSeed = flag.Uint64("vector.seed", 0, "replay one seed of the filter property test")

// filterFields has a column of every Kind, plus one (TIMESTAMP) without a
// Kind that the batches never read.
var filterFields = []spec.DataField{
	{Name: "ti", Type: spec.DataType{Root: spec.TinyInt, Nullable: true}},
	{Name: "si", Type: spec.DataType{Root: spec.SmallInt, Nullable: true}},
	{Name: "i", Type: spec.DataType{Root: spec.Int, Nullable: true}},
	{Name: "bi", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
	{Name: "d", Type: spec.DataType{Root: spec.Date, Nullable: true}},
	{Name: "t", Type: spec.DataType{Root: spec.Time, Nullable: true}},
	{Name: "dec", Type: spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 10, Scale: 2}},
	{Name: "f", Type: spec.DataType{Root: spec.Float, Nullable: true}},
	{Name: "db", Type: spec.DataType{Root: spec.Double, Nullable: true}},
	{Name: "b", Type: spec.DataType{Root: spec.Boolean, Nullable: true}},
	{Name: "s", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
	{Name: "bin", Type: spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxVarLength}},
	{Name: "ts", Type: spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: 3}},
}

// TestFilterMatchesRowEval is the property the vectorized filter must
// keep: on random batches (NULLs, NaN, signed zeros, empty strings) and
// random predicates (every operator, NULL literals, nested AND/OR/NOT),
// Filter.Eval gives every row exactly the value predicate Eval gives the
// same row, and Select keeps exactly the TRUE rows.
func TestFilterMatchesRowEval(t *testing.T) {
	seed := *filterSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (replay: go test ./storage/vector -run TestFilterMatchesRowEval -vector.seed=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for range 200 {
		b, rows := randomBatch(r, 1+r.IntN(64))
		p := randomPredicate(r, 3)
		f := Compile(p)
		got := make([]predicate.Tri, b.Len)
		f.Eval(b, got)
		var wantSel []int32
		for i, row := range rows {
			want := p.Eval(row)
			if got[i] != want {
				t.Fatalf("%s on row %v: vector %s, row %s", p, row, got[i], want)
			}
			if want == predicate.True {
				wantSel = append(wantSel, int32(i))
			}
		}
		sel := f.Select(b, nil, nil)
		if !equalInts(sel, wantSel) {
			t.Fatalf("%s: selected %v, want %v", p, sel, wantSel)
		}
	}
}

func equalInts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// randomBatch returns a batch of n rows and the same rows boxed; the last
// column is never read, so it is nil in the batch and NULL in the rows.
func randomBatch(r *rand.Rand, n int) (*Batch, [][]any) {
	b := &Batch{Len: n, Columns: make([]*Vector, len(filterFields))}
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = make([]any, len(filterFields))
	}
	for c, f := range filterFields {
		if _, ok := KindOf(f.Type); !ok {
			continue
		}
		v := New(f.Type)
		for i := range n {
			x := randomValue(r, f.Type)
			v.Append(x)
			rows[i][c] = x
		}
		b.Columns[c] = v
	}
	return b, rows
}

var (
	sampleFloats  = []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.NaN(), math.Inf(1), math.Inf(-1), 0.1}
	sampleStrings = []string{"", "a", "ab", "abc", "b", "pay", "payment", "SUCCESS", "é"}
)

// randomValue draws from small domains so that literals hit values often.
func randomValue(r *rand.Rand, t spec.DataType) any {
	if r.IntN(6) == 0 {
		return nil
	}
	small := r.IntN(11) - 5
	switch t.Root {
	case spec.TinyInt:
		return int8(small)
	case spec.SmallInt:
		return int16(small)
	case spec.Int:
		return int32(small)
	case spec.BigInt:
		return int64(small)
	case spec.Date:
		return spec.DateValue(20_000 + small)
	case spec.Time:
		return spec.TimeValue(1000 * (10 + small))
	case spec.Decimal:
		return spec.NewDecimal(int64(50*small), t.Scale)
	case spec.Float:
		return float32(sampleFloats[r.IntN(len(sampleFloats))])
	case spec.Double:
		return sampleFloats[r.IntN(len(sampleFloats))]
	case spec.Boolean:
		return r.IntN(2) == 0
	case spec.VarChar:
		return sampleStrings[r.IntN(len(sampleStrings))]
	case spec.VarBinary:
		return []byte(sampleStrings[r.IntN(len(sampleStrings))])
	}
	return nil
}

// randomLiteral is a literal as a SQL layer hands it over: Go ints,
// floats, strings; Leaf converts it to the column type.
func randomLiteral(r *rand.Rand, t spec.DataType) any {
	if r.IntN(12) == 0 {
		return nil
	}
	small := r.IntN(13) - 6
	switch t.Root {
	case spec.Decimal:
		return []any{small, float64(small) / 2, "0.5", "-1.25"}[r.IntN(4)]
	case spec.Float, spec.Double:
		return []any{small, sampleFloats[r.IntN(len(sampleFloats))], 0.5}[r.IntN(3)]
	case spec.Date:
		return spec.DateValue(20_000 + small)
	case spec.Time:
		return spec.TimeValue(1000 * (10 + small))
	case spec.Boolean:
		return r.IntN(2) == 0
	case spec.VarChar:
		return sampleStrings[r.IntN(len(sampleStrings))]
	case spec.VarBinary:
		return []byte(sampleStrings[r.IntN(len(sampleStrings))])
	case spec.Timestamp:
		return spec.TimestampValue{Millis: int64(small)}
	}
	return small
}

func randomPredicate(r *rand.Rand, depth int) predicate.Predicate {
	if depth > 0 && r.IntN(3) == 0 {
		a, b := randomPredicate(r, depth-1), randomPredicate(r, depth-1)
		switch r.IntN(3) {
		case 0:
			return predicate.And(a, b)
		case 1:
			return predicate.Or(a, b)
		}
		return predicate.Not(a)
	}
	for {
		if p, err := randomLeaf(r); err == nil {
			return p
		}
	}
}

var leafOps = []predicate.Op{predicate.OpEq, predicate.OpNotEq, predicate.OpLt, predicate.OpGe, predicate.OpLe,
	predicate.OpGt, predicate.OpIn, predicate.OpNotIn, predicate.OpBetween, predicate.OpNotBetween,
	predicate.OpIsNull, predicate.OpIsNotNull, predicate.OpStartsWith, predicate.OpNotStartsWith}

func randomLeaf(r *rand.Rand) (predicate.Predicate, error) {
	c := r.IntN(len(filterFields))
	f := filterFields[c]
	col := predicate.ColumnOf(c, f)
	lit := func() any { return randomLiteral(r, f.Type) }
	switch op := leafOps[r.IntN(len(leafOps))]; op {
	case predicate.OpIsNull, predicate.OpIsNotNull:
		return predicate.Leaf(col, op)
	case predicate.OpIn, predicate.OpNotIn:
		return predicate.Leaf(col, op, lit(), lit(), lit())
	case predicate.OpBetween, predicate.OpNotBetween:
		return predicate.Leaf(col, op, lit(), lit())
	case predicate.OpStartsWith, predicate.OpNotStartsWith:
		return predicate.Leaf(col, op, sampleStrings[r.IntN(len(sampleStrings))])
	default:
		return predicate.Leaf(col, op, lit())
	}
}
