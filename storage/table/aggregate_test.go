package table

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestAggregateMatchesRowRead is the property the columnar path must keep:
// on random tables (append and primary-key engines, partitions, buckets,
// overlapping level-0 files, retractions, deletion vectors) and random
// predicates, Aggregate, whether answered from metadata, from vectors or
// from merged rows, equals the aggregates of a sequential row read
// filtered with predicate.Eval. Replay a failure with -scan.seed.
func TestAggregateMatchesRowRead(t *testing.T) {
	forEachSeed(t, 2**metaSeeds, "TestAggregateMatchesRowRead", checkAggregateSeed)
}

func checkAggregateSeed(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed^0x51afd7ed558ccd))
	g, tbl, ids := openGenTable(t, r)
	for q := range 40 {
		at := snapshot.TimeTravel{SnapshotID: ids[r.IntN(len(ids))]}
		if r.IntN(3) == 0 {
			at = snapshot.TimeTravel{}
		}
		var p predicate.Predicate
		if q%4 != 0 {
			p = g.predicate(r, 2)
		}
		checkAggregate(t, tbl, ReadOptions{At: at, Filter: p, Parallelism: 1 + r.IntN(4)}, randomSpecs(r, tbl))
	}
}

// randomSpecs picks aggregates over every column; COUNT(*), MIN and MAX
// alone are often answerable from metadata.
func randomSpecs(r *rand.Rand, tbl *Table) []AggSpec {
	s, err := tbl.LatestSchema(context.Background())
	if err != nil {
		panic(err)
	}
	var all []AggSpec
	all = append(all, AggSpec{Func: AggCountStar})
	for _, f := range s.Fields {
		all = append(all, AggSpec{AggCount, f.Name}, AggSpec{AggMin, f.Name}, AggSpec{AggMax, f.Name})
		if _, ok := sumDigits[f.Type.Root]; ok {
			all = append(all, AggSpec{AggSum, f.Name})
		}
	}
	if r.IntN(3) == 0 {
		return all
	}
	metadataOnly := []AggSpec{{Func: AggCountStar}}
	for _, sp := range all {
		if sp.Func == AggMin || sp.Func == AggMax {
			metadataOnly = append(metadataOnly, sp)
		}
	}
	pool := all
	if r.IntN(2) == 0 {
		pool = metadataOnly
	}
	out := make([]AggSpec, 1+r.IntN(4))
	for i := range out {
		out[i] = pool[r.IntN(len(pool))]
	}
	return out
}

// checkAggregate compares Aggregate with the aggregates of the rows a full
// sequential read returns and the filter keeps.
func checkAggregate(t *testing.T, tbl *Table, opts ReadOptions, specs []AggSpec) {
	t.Helper()
	all := mustRead(t, tbl, ReadOptions{At: opts.At, Parallelism: 1})
	plan, err := tbl.PlanScan(context.Background(), opts.At, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for _, row := range all {
		if opts.Filter == nil || opts.Filter.Eval(row) == predicate.True {
			rows = append(rows, row)
		}
	}
	got, err := tbl.Aggregate(context.Background(), opts, specs)
	if err != nil {
		t.Fatalf("aggregate %v where %v: %v", specs, opts.Filter, err)
	}
	for i, sp := range specs {
		want := referenceAggregate(plan.Schema, sp, rows)
		if !sameValue(got[i].Value, want) {
			t.Fatalf("%s(%s) WHERE %v at %+v: got %v (%T), want %v (%T) over %d rows",
				sp.Func, sp.Column, opts.Filter, opts.At, got[i].Value, got[i].Value, want, want, len(rows))
		}
	}
}

// referenceAggregate computes one aggregate of rows the plain way: big
// integers for sums, spec.CompareValues for extremes.
func referenceAggregate(s *spec.TableSchema, sp AggSpec, rows [][]any) any {
	if sp.Func == AggCountStar {
		return int64(len(rows))
	}
	col := s.FieldIndex(sp.Column)
	typ := s.Fields[col].Type
	var count int64
	sum := new(big.Int)
	var extreme any
	for _, row := range rows {
		v := row[col]
		if v == nil {
			continue
		}
		count++
		switch sp.Func {
		case AggSum:
			sum.Add(sum, bigOf(v))
		case AggMin:
			if extreme == nil || spec.CompareValues(typ, v, extreme) < 0 {
				extreme = v
			}
		case AggMax:
			if extreme == nil || spec.CompareValues(typ, v, extreme) > 0 {
				extreme = v
			}
		}
	}
	switch sp.Func {
	case AggCount:
		return count
	case AggSum:
		if count == 0 {
			return nil
		}
		scale := 0
		if typ.Root == spec.Decimal {
			scale = typ.Scale
		}
		return spec.NewDecimalBig(sum, scale)
	}
	return extreme
}

func bigOf(v any) *big.Int {
	switch x := v.(type) {
	case int8:
		return big.NewInt(int64(x))
	case int16:
		return big.NewInt(int64(x))
	case int32:
		return big.NewInt(int64(x))
	case int64:
		return big.NewInt(x)
	case spec.DecimalValue:
		return x.Unscaled()
	}
	panic(fmt.Sprintf("not an exact number: %T", v))
}

// sameValue compares aggregate values by Go type and printed form, which
// tells DECIMAL scales and float signs apart.
func sameValue(a, b any) bool {
	return fmt.Sprintf("%T %v", a, a) == fmt.Sprintf("%T %v", b, b)
}

// TestAggregateJavaFixtures aggregates every column of every readable
// Java-written fixture table and compares with its full read: dictionary
// pages, evolved schemas, deletion vectors and merge engines as Java left
// them.
func TestAggregateJavaFixtures(t *testing.T) {
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, ft := range tables {
		tbl := openFixture(t, ft.Dir)
		if !readable(t, tbl) {
			continue
		}
		s, err := tbl.LatestSchema(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		specs := []AggSpec{{Func: AggCountStar}}
		for _, f := range s.Fields {
			if _, err := resultType(AggMin, f.Type); err != nil {
				continue
			}
			specs = append(specs, AggSpec{AggCount, f.Name}, AggSpec{AggMin, f.Name}, AggSpec{AggMax, f.Name})
			if _, ok := sumDigits[f.Type.Root]; ok || f.Type.Root == spec.Decimal {
				specs = append(specs, AggSpec{AggSum, f.Name})
			}
		}
		checkAggregate(t, tbl, ReadOptions{}, specs)
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d fixture tables aggregated", checked)
	}
}

// readable reports whether the table reads, false when it is refused as
// unsupported.
func readable(t *testing.T, tbl *Table) bool {
	rows, err := tbl.Read(context.Background(), ReadOptions{})
	if err == nil {
		_, err = ReadAll(rows)
	}
	if errors.Is(err, lakeerr.ErrUnsupported) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}

// SUM of integers is exact past int64, and SUM of DECIMAL keeps the scale
// at MySQL's widened precision.
func TestSumResultTypes(t *testing.T) {
	bigint := spec.DataType{Root: spec.BigInt, Nullable: true}
	dec := spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 10, Scale: 2}
	a := aggregate{fn: AggSum, typ: bigint}
	var err error
	if a.result, err = resultType(AggSum, bigint); err != nil {
		t.Fatal(err)
	}
	var acc accumulator
	for range 4 {
		acc.addRow(&a, []any{int64(1<<62 + 1)})
	}
	got, err := acc.result(&a)
	if err != nil {
		t.Fatal(err)
	}
	if got.Value.(spec.DecimalValue).String() != "18446744073709551620" || got.Type.Precision != 38 {
		t.Fatalf("SUM of 4 x (2^62+1) = %v as %s", got.Value, got.Type)
	}
	d := aggregate{fn: AggSum, typ: dec}
	if d.result, err = resultType(AggSum, dec); err != nil {
		t.Fatal(err)
	}
	var dacc accumulator
	dacc.addRow(&d, []any{spec.NewDecimal(-150, 2)})
	dacc.addRow(&d, []any{spec.NewDecimal(25, 2)})
	got, err = dacc.result(&d)
	if err != nil {
		t.Fatal(err)
	}
	if got.Value.(spec.DecimalValue).String() != "-1.25" || got.Type.Precision != 32 || got.Type.Scale != 2 {
		t.Fatalf("SUM(DECIMAL(10,2)) = %v as %s", got.Value, got.Type)
	}
	if _, err := resultType(AggSum, spec.DataType{Root: spec.VarChar}); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Fatalf("SUM of VARCHAR: %v, want unsupported", err)
	}
}

// TestMetadataMayAnswer: only COUNT(*), MIN and MAX under a filter of
// partition values may come from file metadata.
func TestMetadataMayAnswer(t *testing.T) {
	str := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	s := &spec.TableSchema{
		Fields: []spec.DataField{
			{ID: 0, Name: "dt", Type: str}, {ID: 1, Name: "k", Type: spec.DataType{Root: spec.Int}}, {ID: 2, Name: "s", Type: str},
		},
		PartitionKeys: []string{"dt"},
	}
	leaf := func(col int, lit any) predicate.Predicate {
		p, err := predicate.Leaf(predicate.ColumnOf(col, s.Fields[col]), predicate.OpEq, lit)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	onDay, onStatus := leaf(0, "2024-01-02"), leaf(2, "PAID")
	countMinMax := []AggSpec{{Func: AggCountStar}, {Func: AggMin, Column: "k"}, {Func: AggMax, Column: "s"}}
	for _, c := range []struct {
		filter predicate.Predicate
		specs  []AggSpec
		want   bool
	}{
		{nil, countMinMax, true},
		{onDay, countMinMax, true},
		{onStatus, countMinMax, false},
		{predicate.And(onDay, onStatus), []AggSpec{{Func: AggCountStar}}, false},
		{onDay, []AggSpec{{Func: AggCountStar}, {Func: AggSum, Column: "k"}}, false},
		{nil, []AggSpec{{Func: AggCount, Column: "k"}}, false},
	} {
		if got := MetadataMayAnswer(s, c.filter, c.specs); got != c.want {
			t.Errorf("filter %v, %v: %v, want %v", c.filter, c.specs, got, c.want)
		}
	}
}
