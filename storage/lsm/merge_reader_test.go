package lsm

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

var mergeSeed = flag.Int64("lsm.seed", 0, "seed for TestMergeReaderMatchesModel (0: time-based)")

func runsOf(runs ...[]KeyValue) []RecordIterator {
	its := make([]RecordIterator, len(runs))
	for i, r := range runs {
		its[i] = NewSliceIterator(r)
	}
	return its
}

// seqTable is (f0 INT key, f1 INT value, f2 INT usable as sequence field).
func seqRecord(kind spec.RowKind, key, seq int, v, ts any) KeyValue {
	return KeyValue{Key: ints(key), Seq: int64(seq), Kind: kind, Value: ints(key, v, ts)}
}

func TestMergeReader(t *testing.T) {
	ins := spec.RowKindInsert
	asc := map[string]string{"sequence.field": "f2"}
	desc := map[string]string{"sequence.field": "f2", "sequence.field.sort-order": "descending"}
	sum := withEngine(EngineAggregation, map[string]string{"fields.f1.aggregate-function": "sum", "fields.f2.aggregate-function": "sum"})
	r := seqRecord
	cases := []struct {
		name       string
		options    map[string]string
		runs       [][]KeyValue
		keepDelete bool
		want       []KeyValue
	}{
		{name: "no runs"},
		{name: "empty runs", runs: [][]KeyValue{nil, {}, nil}},
		{name: "one run", runs: [][]KeyValue{{r(ins, 1, 1, 10, nil), r(ins, 2, 2, 20, nil)}},
			want: []KeyValue{r(ins, 1, 1, 10, nil), r(ins, 2, 2, 20, nil)}},
		{name: "one run with repeated key", runs: [][]KeyValue{{r(ins, 1, 1, 10, nil), r(ins, 1, 4, 11, nil), r(ins, 2, 2, 20, nil)}},
			want: []KeyValue{r(ins, 1, 4, 11, nil), r(ins, 2, 2, 20, nil)}},
		{name: "interleaved keys", runs: [][]KeyValue{
			{r(ins, 1, 1, 10, nil), r(ins, 4, 2, 40, nil)},
			{},
			{r(ins, 2, 3, 20, nil), r(ins, 5, 4, 50, nil)},
			{r(ins, 3, 5, 30, nil)},
		}, want: []KeyValue{r(ins, 1, 1, 10, nil), r(ins, 2, 3, 20, nil), r(ins, 3, 5, 30, nil), r(ins, 4, 2, 40, nil), r(ins, 5, 4, 50, nil)}},
		{name: "equal keys across runs: highest sequence wins", runs: [][]KeyValue{
			{r(ins, 1, 9, 19, nil), r(ins, 2, 2, 20, nil)},
			{r(ins, 1, 5, 15, nil), r(ins, 2, 8, 28, nil)},
			{r(ins, 1, 7, 17, nil)},
		}, want: []KeyValue{r(ins, 1, 9, 19, nil), r(ins, 2, 8, 28, nil)}},
		{name: "deletes dropped", runs: [][]KeyValue{
			{r(ins, 1, 1, 10, nil), r(ins, 2, 2, 20, nil)},
			{r(3, 1, 3, 10, nil), r(3, 3, 4, 30, nil)},
		}, want: []KeyValue{r(ins, 2, 2, 20, nil)}},
		{name: "deletes kept", keepDelete: true, runs: [][]KeyValue{
			{r(ins, 1, 1, 10, nil), r(ins, 2, 2, 20, nil)},
			{r(3, 1, 3, 10, nil), r(1, 3, 4, 30, nil)},
		}, want: []KeyValue{r(3, 1, 3, 10, nil), r(ins, 2, 2, 20, nil), r(1, 3, 4, 30, nil)}},
		{name: "retraction before addition at equal sequence", runs: [][]KeyValue{
			{r(ins, 1, 5, 10, nil)},
			{r(3, 1, 5, 11, nil)},
		}, want: []KeyValue{r(ins, 1, 5, 10, nil)}},
		{name: "sequence field ascending", options: asc, runs: [][]KeyValue{
			{r(ins, 1, 1, 10, 7)},
			{r(ins, 1, 2, 11, 3), r(ins, 2, 3, 20, nil)},
			{r(ins, 2, 4, 21, 1)},
		}, want: []KeyValue{r(ins, 1, 1, 10, 7), r(ins, 2, 4, 21, 1)}},
		{name: "sequence field descending", options: desc, runs: [][]KeyValue{
			{r(ins, 1, 1, 10, 7)},
			{r(ins, 1, 2, 11, 3), r(ins, 2, 3, 20, nil)},
			{r(ins, 2, 4, 21, 1)},
		}, want: []KeyValue{r(ins, 1, 2, 11, 3), r(ins, 2, 4, 21, 1)}}, // a null sequence sorts first (oldest) in both orders
		{name: "aggregation across runs", options: sum, runs: [][]KeyValue{
			{r(ins, 1, 1, 10, 1), r(ins, 2, 2, 20, 1)},
			{r(ins, 1, 3, 5, 1), r(1, 2, 4, 20, 1)},
			{r(ins, 1, 5, 1, nil)},
		}, want: []KeyValue{r(ins, 1, 5, 16, 2), r(ins, 2, 4, 0, 0)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := mustEngine(t, newTestSchema(intColumns(3), []string{"f0"}, tc.options))
			reader, err := e.NewMergeReader(runsOf(tc.runs...), compareTestRows, tc.keepDelete)
			if err != nil {
				t.Fatal(err)
			}
			got := collect(t, reader)
			if !reflect.DeepEqual(formatRecords(got), formatRecords(tc.want)) {
				t.Fatalf("got  %v\nwant %v", formatRecords(got), formatRecords(tc.want))
			}
			if _, ok, err := reader.Next(); ok || err != nil {
				t.Fatalf("Next after the end: ok=%v err=%v", ok, err)
			}
		})
	}
}

type failingIterator struct {
	records []KeyValue
	err     error
}

func (f *failingIterator) Next() (KeyValue, bool, error) {
	if len(f.records) == 0 {
		return KeyValue{}, false, f.err
	}
	kv := f.records[0]
	f.records = f.records[1:]
	return kv, true, nil
}

func TestMergeReaderErrors(t *testing.T) {
	boom := errors.New("boom")
	dedupe := mustEngine(t, newTestSchema(intColumns(3), []string{"f0"}, nil))
	failing := []RecordIterator{
		NewSliceIterator([]KeyValue{seqRecord(0, 1, 1, 1, nil), seqRecord(0, 3, 2, 3, nil)}),
		&failingIterator{records: []KeyValue{seqRecord(0, 2, 3, 2, nil)}, err: boom},
	}
	reader, err := dedupe.NewMergeReader(failing, compareTestRows, false)
	if err != nil {
		t.Fatal(err)
	}
	if kv, _, err := reader.Next(); err != nil || kv.Seq != 1 {
		t.Fatalf("first record: %v %v", kv, err)
	}
	for range 2 {
		if _, ok, err := reader.Next(); ok || !errors.Is(err, boom) {
			t.Fatalf("got ok=%v err=%v, want the iterator's error, every time", ok, err)
		}
	}

	firstRow := mustEngine(t, newTestSchema(intColumns(3), []string{"f0"}, withEngine(EngineFirstRow, nil)))
	runs := runsOf([]KeyValue{seqRecord(0, 1, 1, 1, nil)}, []KeyValue{seqRecord(3, 1, 2, 1, nil)})
	reader, err = firstRow.NewMergeReader(runs, compareTestRows, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := reader.Next(); !errors.Is(err, ErrRejectedRecord) {
		t.Fatalf("got %v, want the merge function's error", err)
	}

	if _, err := NewMergeReader(nil, &deduplicate{}, MergeOptions{}); err == nil {
		t.Fatal("NewMergeReader without a key comparator succeeded")
	}
}

func TestConcat(t *testing.T) {
	a := []KeyValue{seqRecord(0, 1, 1, 1, nil)}
	b := []KeyValue{seqRecord(0, 2, 2, 2, nil), seqRecord(0, 3, 3, 3, nil)}
	got := collect(t, Concat(NewSliceIterator(a), NewSliceIterator(nil), NewSliceIterator(b)))
	if want := append(slices.Clone(a), b...); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestMergeReaderAllocations checks the merge allocates nothing per record
// for an engine that allocates nothing itself.
func TestMergeReaderAllocations(t *testing.T) {
	runs := benchmarkRuns(4, 1000, 1)
	e := mustEngine(t, newTestSchema([]spec.DataField{column("k", bigintType), column("v", bigintType)}, []string{"k"}, nil))
	allocs := testing.AllocsPerRun(5, func() {
		its := make([]RecordIterator, len(runs))
		for i, r := range runs {
			its[i] = NewSliceIterator(r)
		}
		reader, _ := e.NewMergeReader(its, compareInt64Keys, false)
		for {
			if _, ok, _ := reader.Next(); !ok {
				break
			}
		}
	})
	if allocs > 20 {
		t.Fatalf("%v allocations merging 4000 records, want a constant handful", allocs)
	}
}

// mergeConfig is one table setup of the randomized merge test.
type mergeConfig struct {
	name    string
	options map[string]string
}

var modelConfigs = []mergeConfig{
	{"deduplicate", nil},
	{"deduplicate ignore-delete", map[string]string{"ignore-delete": "true"}},
	{"deduplicate sequence asc", map[string]string{"sequence.field": "f2"}},
	{"deduplicate sequence desc", map[string]string{"sequence.field": "f2", "sequence.field.sort-order": "descending"}},
	{"first-row", withEngine(EngineFirstRow, map[string]string{"ignore-delete": "true"})},
	{"partial-update", withEngine(EnginePartialUpdate, map[string]string{"ignore-delete": "true"})},
	{"partial-update sequence group", withEngine(EnginePartialUpdate, map[string]string{"fields.f2.sequence-group": "f1"})},
	{"aggregation", withEngine(EngineAggregation, map[string]string{
		"fields.f1.aggregate-function": "sum", "sequence.field": "f2"})},
}

// TestMergeReaderMatchesModel compares the streaming merge with a naive
// model: sort every record, group by key, fold each group.
func TestMergeReaderMatchesModel(t *testing.T) {
	rng := modelRand(t)
	for iter := range 500 {
		cfg, e, runs := randomModelCase(t, rng)
		keepDelete := rng.IntN(2) == 0
		want, wantErr := modelMerge(runs, e, keepDelete)
		reader, err := e.NewMergeReader(runsOf(runs...), compareTestRows, keepDelete)
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr := drain(reader)
		if (gotErr != nil) != (wantErr != nil) || !reflect.DeepEqual(formatRecords(got), formatRecords(want)) {
			t.Fatalf("iteration %d (%s, keepDelete=%v): runs %v\ngot  %v (%v)\nwant %v (%v)",
				iter, cfg.name, keepDelete, runs, formatRecords(got), gotErr, formatRecords(want), wantErr)
		}
	}
}

// TestLookupMergeReaderMatchesModel: with MergeOptions.Older, each key's
// record from the levels outside the merge joins the key's records in
// merge order (after records it ties with, as Java's calculateResult
// inserts it only before a record it sorts strictly before), and every
// group goes through the merge function, a lone record too. Older is
// asked once per merged key, in ascending order.
func TestLookupMergeReaderMatchesModel(t *testing.T) {
	rng := modelRand(t)
	for iter := range 500 {
		cfg, e, runs := randomModelCase(t, rng)
		olders := map[int32]KeyValue{}
		for key := range 30 {
			if rng.IntN(2) == 0 {
				rec := randomRecord(rng, key, rng.IntN(3))
				rec.Kind = spec.RowKindInsert
				olders[int32(key)] = rec
			}
		}
		keepDelete := rng.IntN(2) == 0
		want, wantErr := modelLookupMerge(runs, olders, e, keepDelete)
		var asked [][]any
		older := func(key []any) (KeyValue, bool, error) {
			asked = append(asked, key)
			kv, ok := olders[key[0].(int32)]
			return kv, ok, nil
		}
		reader, err := e.NewLookupMergeReader(runsOf(runs...), compareTestRows, keepDelete, older)
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr := drain(reader)
		if (gotErr != nil) != (wantErr != nil) || !reflect.DeepEqual(formatRecords(got), formatRecords(want)) {
			t.Fatalf("iteration %d (%s, keepDelete=%v): runs %v, older %v\ngot  %v (%v)\nwant %v (%v)",
				iter, cfg.name, keepDelete, runs, olders, formatRecords(got), gotErr, formatRecords(want), wantErr)
		}
		if gotErr == nil && !slices.IsSortedFunc(asked, compareTestRows) {
			t.Fatalf("iteration %d: keys asked out of order: %v", iter, asked)
		}
	}
}

// modelRand is the random source of a model test, seeded by -lsm.seed or
// the clock; the seed is logged to rerun a failure.
func modelRand(t *testing.T) *rand.Rand {
	seed := *mergeSeed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	t.Logf("seed %d (rerun with: go test ./storage/lsm -run %s -lsm.seed=%d)", seed, t.Name(), seed)
	return rand.New(rand.NewPCG(uint64(seed), 0))
}

// randomModelCase picks a table setup and makes runs for it.
func randomModelCase(t *testing.T, rng *rand.Rand) (mergeConfig, *Engine, [][]KeyValue) {
	cols := []spec.DataField{column("f0", intType.WithNullable(false)), column("f1", bigintType), column("f2", intType)}
	cfg := modelConfigs[rng.IntN(len(modelConfigs))]
	e := mustEngine(t, newTestSchema(cols, []string{"f0"}, cfg.options))
	return cfg, e, randomRuns(rng, e)
}

// modelLookupMerge is modelMerge with each key's older record appended to
// its group before the group is sorted, so that it sorts after its ties,
// and every group folded by the merge function.
func modelLookupMerge(runs [][]KeyValue, olders map[int32]KeyValue, e *Engine, keepDelete bool) ([]KeyValue, error) {
	return modelMergeGroups(runs, e, keepDelete, func(group []KeyValue) (KeyValue, bool, error) {
		if older, ok := olders[group[0].Key[0].(int32)]; ok {
			group = append(slices.Clone(group), older)
			slices.SortStableFunc(group, modelOrder(e))
		}
		return foldAll(e, group)
	})
}

func drain(it RecordIterator) ([]KeyValue, error) {
	var out []KeyValue
	for {
		kv, ok, err := it.Next()
		if err != nil || !ok {
			return out, err
		}
		out = append(out, kv)
	}
}

// randomRuns makes 0-6 runs over a small key space, so keys repeat across
// and within runs; sequence numbers sometimes repeat, as with two writers,
// and records are dealt to random runs so equal sequence numbers meet
// across runs too.
func randomRuns(rng *rand.Rand, e *Engine) [][]KeyValue {
	runs := make([][]KeyValue, rng.IntN(7))
	if len(runs) == 0 {
		return runs
	}
	keys := 1 + rng.IntN(1+rng.IntN(30)) // often a handful, so keys collide
	seq := 0
	for range rng.IntN(25 * len(runs)) {
		if rng.IntN(4) != 0 {
			seq++
		}
		run := rng.IntN(len(runs))
		runs[run] = append(runs[run], randomRecord(rng, rng.IntN(keys), seq))
	}
	for _, run := range runs {
		slices.SortStableFunc(run, modelOrder(e))
	}
	return runs
}

func randomRecord(rng *rand.Rand, key, seq int) KeyValue {
	kinds := []spec.RowKind{0, 0, 0, 0, 0, 0, 2, 1, 3, 3}
	v := any(int64(rng.IntN(100)))
	if rng.IntN(5) == 0 {
		v = nil
	}
	ts := any(int32(rng.IntN(4)))
	if rng.IntN(5) == 0 {
		ts = nil
	}
	return KeyValue{Key: ints(key), Seq: int64(seq), Kind: kinds[rng.IntN(len(kinds))], Value: []any{int32(key), v, ts}}
}

// modelOrder is the merge order, written out independently of MergeReader.
func modelOrder(e *Engine) func(a, b KeyValue) int {
	userSeq := e.UserSequenceComparator()
	return func(a, b KeyValue) int {
		if c := compareTestRows(a.Key, b.Key); c != 0 {
			return c
		}
		if userSeq != nil {
			if c := userSeq(a.Value, b.Value); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(a.Seq, b.Seq); c != 0 {
			return c
		}
		return cmp.Compare(boolRank(!a.Kind.IsRetract()), boolRank(!b.Kind.IsRetract()))
	}
}

func modelMerge(runs [][]KeyValue, e *Engine, keepDelete bool) ([]KeyValue, error) {
	return modelMergeGroups(runs, e, keepDelete, func(group []KeyValue) (KeyValue, bool, error) { return foldGroup(e, group) })
}

// modelMergeGroups sorts every record, groups them by key and folds each
// group with fold.
func modelMergeGroups(runs [][]KeyValue, e *Engine, keepDelete bool, fold func([]KeyValue) (KeyValue, bool, error)) ([]KeyValue, error) {
	var all []KeyValue
	for _, run := range runs {
		all = append(all, run...) // run by run: a stable sort keeps run order on ties
	}
	slices.SortStableFunc(all, modelOrder(e))
	var out []KeyValue
	for len(all) > 0 {
		n := 1
		for n < len(all) && compareTestRows(all[n].Key, all[0].Key) == 0 {
			n++
		}
		merged, ok, err := fold(all[:n])
		if err != nil {
			return out, err
		}
		if ok && (keepDelete || !merged.Kind.IsRetract()) {
			out = append(out, merged)
		}
		all = all[n:]
	}
	return out, nil
}

func foldGroup(e *Engine, group []KeyValue) (KeyValue, bool, error) {
	if len(group) == 1 {
		return group[0], true, nil // ReducerMergeFunctionWrapper's pass-through
	}
	return foldAll(e, group)
}

// foldAll sends every record of group through the merge function.
func foldAll(e *Engine, group []KeyValue) (KeyValue, bool, error) {
	mf := e.NewMergeFunction()
	mf.Reset()
	for _, kv := range group {
		if err := mf.Add(kv); err != nil {
			return KeyValue{}, false, err
		}
	}
	kv, ok := mf.Result()
	return kv, ok, nil
}

func compareInt64Keys(a, b []any) int { return cmp.Compare(a[0].(int64), b[0].(int64)) }

// benchmarkRuns makes n runs of size records over overlapping int64 keys;
// later runs hold newer sequence numbers.
func benchmarkRuns(n, size int, seed uint64) [][]KeyValue {
	rng := rand.New(rand.NewPCG(seed, 0))
	runs := make([][]KeyValue, n)
	for r := range runs {
		keys := make(map[int64]bool, size)
		for len(keys) < size {
			keys[rng.Int64N(int64(size*n*6/10))] = true
		}
		sorted := make([]int64, 0, size)
		for k := range keys {
			sorted = append(sorted, k)
		}
		slices.Sort(sorted)
		runs[r] = make([]KeyValue, size)
		for i, k := range sorted {
			runs[r][i] = KeyValue{Key: []any{k}, Seq: int64(r*size + i), Value: []any{k, int64(i)}}
		}
	}
	return runs
}

func BenchmarkMergeReader(b *testing.B) {
	const runCount, runSize = 4, 250_000
	runs := benchmarkRuns(runCount, runSize, 42)
	schema := newTestSchema([]spec.DataField{column("k", bigintType), column("v", bigintType)}, []string{"k"}, nil)
	for _, engine := range []string{EngineDeduplicate, EngineAggregation} {
		b.Run(fmt.Sprintf("engine=%s/runs=%d/records=%d", engine, runCount, runCount*runSize), func(b *testing.B) {
			schema.Options = withEngine(engine, map[string]string{"fields.v.aggregate-function": "sum"})
			e := mustEngine(b, schema)
			its := make([]RecordIterator, runCount)
			b.ReportAllocs()
			for b.Loop() {
				for i, r := range runs {
					its[i] = NewSliceIterator(r)
				}
				reader, _ := e.NewMergeReader(its, compareInt64Keys, false)
				for {
					if _, ok, err := reader.Next(); !ok || err != nil {
						break
					}
				}
			}
			b.ReportMetric(float64(runCount*runSize)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
