package table

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/scantest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

var (
	metaSeeds = flag.Int("scan.seeds", 6, "random tables the pruning property test builds")
	metaSeed  = flag.Uint64("scan.seed", 0, "replay one seed of the pruning property test")
)

// TestPrunedScanMatchesFilteredFullScan is the property pruning must keep:
// on random tables (partitions, buckets, overlapping level-0 files from
// several commits, retractions, deletion vectors, sorted runs) and random
// predicates, a pruned parallel read returns exactly the rows a sequential
// read of everything returns filtered with predicate.Eval. Replay a failure
// with -scan.seed; run more with -scan.seeds.
func TestPrunedScanMatchesFilteredFullScan(t *testing.T) {
	forEachSeed(t, *metaSeeds, "TestPrunedScanMatchesFilteredFullScan", checkSeed)
}

// forEachSeed runs check on n seeds from the clock, or on -scan.seed alone,
// one subtest each, logging how to replay it.
func forEachSeed(t *testing.T, n int, test string, check func(*testing.T, uint64)) {
	seeds := []uint64{*metaSeed}
	if *metaSeed == 0 {
		seeds = nil
		base := uint64(time.Now().UnixNano())
		for i := range n {
			seeds = append(seeds, base+uint64(i))
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Logf("seed %d (replay: go test ./storage/table -run %s -scan.seed=%d)", seed, test, seed)
			check(t, seed)
		})
	}
}

// openGenTable writes a random table with r and opens it, with the ids of
// its snapshots.
func openGenTable(t *testing.T, r *rand.Rand) (*genTable, *Table, []int64) {
	g := newGenTable(t, r)
	g.fill(context.Background())
	tbl, ids := g.open()
	return g, tbl, ids
}

// open opens the written table, with the ids of its snapshots.
func (g *genTable) open() (*Table, []int64) {
	ctx := context.Background()
	tbl, err := Open(ctx, g.w.FS, g.w.Dir)
	if err != nil {
		g.t.Fatal(err)
	}
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil || len(ids) == 0 {
		g.t.Fatalf("no snapshots: %v", err)
	}
	return tbl, ids
}

func checkSeed(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g, tbl, ids := openGenTable(t, r)
	for range 40 {
		at := snapshot.TimeTravel{SnapshotID: ids[r.IntN(len(ids))]}
		if r.IntN(3) == 0 {
			at = snapshot.TimeTravel{}
		}
		p := g.predicate(r, 2)
		checkQuery(t, r, tbl, at, p)
	}
}

// checkQuery compares a pruned read of p with the reference.
func checkQuery(t *testing.T, r *rand.Rand, tbl *Table, at snapshot.TimeTravel, p predicate.Predicate) {
	t.Helper()
	ctx := context.Background()
	all := mustRead(t, tbl, ReadOptions{At: at, Parallelism: 1})
	var want []string
	var wantRows [][]any
	for _, row := range all {
		if p.Eval(row) == predicate.True {
			want = append(want, fmt.Sprint(row))
			wantRows = append(wantRows, row)
		}
	}
	opts := ReadOptions{At: at, Filter: p, Parallelism: 1 + r.IntN(4), Unordered: r.IntN(2) == 0}
	got := rowStrings(mustRead(t, tbl, opts))
	if !sameMultiset(got, want) {
		plan, _ := tbl.PlanScan(ctx, at, p)
		t.Fatalf("filter %s at %+v (parallelism %d): got %d rows, want %d\n got: %v\nwant: %v\n%s",
			p, at, opts.Parallelism, len(got), len(want), got, want, plan.Scan.Explain.String())
	}
	checkLimit(t, r, tbl, opts, want)
	checkMetadata(t, tbl, at, p, wantRows)
}

func checkLimit(t *testing.T, r *rand.Rand, tbl *Table, opts ReadOptions, want []string) {
	t.Helper()
	opts.Limit = int64(1 + r.IntN(20))
	got := rowStrings(mustRead(t, tbl, opts))
	if len(got) != min(int(opts.Limit), len(want)) || !subMultiset(got, want) {
		t.Fatalf("filter %s limit %d: got %v, want %d rows of %v", opts.Filter, opts.Limit, got, min(int(opts.Limit), len(want)), want)
	}
}

// checkMetadata compares metadata answers, when given, with the rows.
func checkMetadata(t *testing.T, tbl *Table, at snapshot.TimeTravel, p predicate.Predicate, rows [][]any) {
	t.Helper()
	plan, err := tbl.PlanScan(context.Background(), at, p)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := plan.Scan.CountRows(); err == nil && n != int64(len(rows)) {
		t.Fatalf("COUNT(*) WHERE %s: metadata says %d, rows %d", p, n, len(rows))
	}
	for i, f := range plan.Schema.Fields {
		lo, hi, err := plan.Scan.Extremes(f.Name)
		if err != nil {
			continue
		}
		wantLo, wantHi := extremes(f.Type, rows, i)
		if fmt.Sprint(lo) != fmt.Sprint(wantLo) || fmt.Sprint(hi) != fmt.Sprint(wantHi) {
			t.Fatalf("MIN/MAX(%s) WHERE %s: metadata says %v/%v, rows %v/%v", f.Name, p, lo, hi, wantLo, wantHi)
		}
	}
}

func extremes(typ spec.DataType, rows [][]any, col int) (lo, hi any) {
	for _, row := range rows {
		v := row[col]
		if v == nil {
			continue
		}
		if lo == nil || spec.CompareValues(typ, v, lo) < 0 {
			lo = v
		}
		if hi == nil || spec.CompareValues(typ, v, hi) > 0 {
			hi = v
		}
	}
	return lo, hi
}

func mustRead(t *testing.T, tbl *Table, opts ReadOptions) [][]any {
	t.Helper()
	rows, err := tbl.Read(context.Background(), opts)
	if err != nil {
		t.Fatalf("read %+v: %v", opts, err)
	}
	all, err := ReadAll(rows)
	if err != nil {
		t.Fatalf("read %+v: %v", opts, err)
	}
	return all
}

func rowStrings(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, row := range rows {
		out[i] = fmt.Sprint(row)
	}
	return out
}

func sameMultiset(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	sort.Strings(a)
	sort.Strings(b)
	return slices.Equal(a, b)
}

func subMultiset(sub, of []string) bool {
	count := map[string]int{}
	for _, s := range of {
		count[s]++
	}
	for _, s := range sub {
		if count[s]--; count[s] < 0 {
			return false
		}
	}
	return true
}

// genTable is a random table being generated: its layout rules keep what
// real writers guarantee (keys unique within a file, sorted runs within a
// level above 0, keys unique above level 0 for deletion-vector and
// first-row tables, with deletion vectors marking replaced rows).
type genTable struct {
	t       *testing.T
	r       *rand.Rand
	w       *scantest.Table
	pk      bool
	kind    string
	buckets int
	// upper tracks, per bucket, the files above level 0 and their keys in
	// row order, for sorted runs and deletion vectors.
	upper map[genBucket][]genFile
	index map[genBucket]*spec.IndexFileMeta
	dvs   map[genBucket]map[string]*spec.DeletionVector
}

type genBucket struct {
	dt     string
	bucket int32
}

type genFile struct {
	meta spec.DataFileMeta
	keys []int32
}

var genKinds = []string{"append", "append-bucketed", "deduplicate", "partial-update", "first-row", "deletion-vectors"}

// genMergeKinds are more primary-key tables that merge: deduplicate
// tables with sequence.field or ignore-delete, and deletion-vector tables
// read with merge-on-read, whose level-0 files are read too.
var genMergeKinds = []string{"sequence-field", "ignore-delete", "deletion-vectors-merged"}

func newGenTable(t *testing.T, r *rand.Rand) *genTable {
	return newGenTableOf(t, r, genKinds[r.IntN(len(genKinds))], memio.New(), "wh")
}

// newGenTableOf is newGenTable of a given kind, in a warehouse on fs: a
// kind of genKinds or of genMergeKinds.
func newGenTableOf(t *testing.T, r *rand.Rand, kind string, fs fileio.FileIO, warehouse string) *genTable {
	g := &genTable{t: t, r: r, kind: kind, buckets: 1 + r.IntN(3),
		upper: map[genBucket][]genFile{}, index: map[genBucket]*spec.IndexFileMeta{}, dvs: map[genBucket]map[string]*spec.DeletionVector{}}
	g.pk = g.kind != "append" && g.kind != "append-bucketed"
	str := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	def := catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "dt", Type: str}, {Name: "k", Type: spec.DataType{Root: spec.Int, Nullable: true}},
			{Name: "v", Type: spec.DataType{Root: spec.Int, Nullable: true}}, {Name: "s", Type: str},
		},
		PartitionKeys: []string{"dt"},
		Options:       map[string]string{"bucket": fmt.Sprint(g.buckets)},
	}
	switch g.kind {
	case "append":
		def.Options["bucket"] = "-1"
		g.buckets = 1
	case "append-bucketed":
		def.Options["bucket-key"] = "k"
	case "partial-update", "first-row":
		def.Options["merge-engine"] = g.kind
	case "deletion-vectors":
		def.Options["deletion-vectors.enabled"] = "true"
	case "sequence-field":
		def.Options["sequence.field"] = "v"
	case "ignore-delete":
		def.Options["ignore-delete"] = "true"
	case "deletion-vectors-merged":
		def.Options["deletion-vectors.enabled"] = "true"
		def.Options["deletion-vectors.merge-on-read"] = "true"
	}
	if g.pk {
		def.PrimaryKeys = []string{"dt", "k"}
	}
	w, err := scantest.Create(context.Background(), fs, warehouse, "db", "t", def)
	if err != nil {
		t.Fatal(err)
	}
	w.RowGroupSize = 256
	g.w = w
	t.Logf("table %s, %d buckets", g.kind, g.buckets)
	return g
}

// fill commits several rounds of writes, some of them "compactions" that
// add files above level 0.
func (g *genTable) fill(ctx context.Context) {
	for range 3 + g.r.IntN(5) {
		var changes []scantest.Change
		for range 1 + g.r.IntN(4) {
			changes = append(changes, g.change(ctx))
		}
		index, err := g.w.Commit(ctx, mergeChanges(changes))
		if err != nil {
			g.t.Fatal(err)
		}
		g.recordIndex(mergeChanges(changes), index)
	}
}

// mergeChanges combines changes of the same bucket, which one commit
// message must carry together.
func mergeChanges(changes []scantest.Change) []scantest.Change {
	var out []scantest.Change
	for _, c := range changes {
		i := slices.IndexFunc(out, func(o scantest.Change) bool {
			return string(o.Partition) == string(c.Partition) && o.Bucket == c.Bucket
		})
		if i < 0 {
			out = append(out, c)
			continue
		}
		out[i].Add = append(out[i].Add, c.Add...)
		if c.DeletionVectors != nil {
			out[i].DeletionVectors, out[i].OldIndex = c.DeletionVectors, c.OldIndex
		}
	}
	return out
}

func (g *genTable) recordIndex(changes []scantest.Change, index map[int]*spec.IndexFileMeta) {
	for i, f := range index {
		c := changes[i]
		for b := range g.dvs {
			if b.bucket == c.Bucket && string(g.partition(b.dt)) == string(c.Partition) {
				g.index[b] = f
			}
		}
	}
}

var genPartitions = []string{"d0", "d1", "d2", "null"}

func (g *genTable) partition(dt string) []byte {
	p, err := spec.SerializeBinaryRow([]spec.DataType{{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}}, []any{dtValue(dt)})
	if err != nil {
		g.t.Fatal(err)
	}
	return p
}

func dtValue(dt string) any {
	if dt == "null" {
		return nil
	}
	return dt
}

// change writes one file to a random bucket: at level 0, or for
// primary-key tables sometimes above it.
func (g *genTable) change(ctx context.Context) scantest.Change {
	dt := genPartitions[g.r.IntN(len(genPartitions))]
	if g.pk && dt == "null" {
		dt = "d0" // a primary key column is NOT NULL
	}
	bucket := int32(g.r.IntN(g.buckets))
	level := int32(0)
	if g.pk && g.r.IntN(3) == 0 {
		level = int32(1 + g.r.IntN(4))
	}
	keys := g.keys(genBucket{dt, bucket}, level)
	if len(keys) == 0 {
		level, keys = 0, []int32{g.anyKey(bucket)}
	}
	records := g.records(dt, keys, level)
	f, err := g.w.WriteFile(ctx, []any{dtValue(dt)}, bucket, level, records)
	if err != nil {
		g.t.Fatal(err)
	}
	c := scantest.Change{Partition: f.Partition, Bucket: bucket, TotalBuckets: f.TotalBuckets, Add: []spec.DataFileMeta{f.Meta}}
	if level > 0 {
		g.addUpper(genBucket{dt, bucket}, genFile{meta: f.Meta, keys: keys}, &c)
	}
	return c
}

// keys picks sorted distinct keys that hash to the bucket: above level 0,
// outside the key ranges of the level's other files (a sorted run), and
// for first-row tables outside every file above level 0.
func (g *genTable) keys(b genBucket, level int32) []int32 {
	taken := map[int32]bool{}
	var ranges [][2]int32
	for _, f := range g.upper[b] {
		if f.meta.Level == level {
			ranges = append(ranges, [2]int32{f.keys[0], f.keys[len(f.keys)-1]})
		}
		if g.kind == "first-row" && level > 0 {
			for _, k := range f.keys {
				taken[k] = true
			}
		}
	}
	lo := int32(g.r.IntN(100))
	hi := lo + int32(g.r.IntN(30))
	var keys []int32
	for k := lo; k <= hi; k++ {
		if g.bucketOf(k) != b.bucket || taken[k] || (level > 0 && inRanges(k, ranges)) || g.r.IntN(3) == 0 {
			continue
		}
		if level > 0 && len(keys) > 0 && inRanges2(keys[0], k, ranges) {
			break
		}
		keys = append(keys, k)
	}
	return keys
}

// anyKey returns a key of the bucket.
func (g *genTable) anyKey(bucket int32) int32 {
	for k := int32(g.r.IntN(100)); ; k++ {
		if g.bucketOf(k) == bucket {
			return k
		}
	}
}

func inRanges(k int32, ranges [][2]int32) bool {
	for _, r := range ranges {
		if k >= r[0] && k <= r[1] {
			return true
		}
	}
	return false
}

// inRanges2 reports whether [lo, hi] overlaps a range.
func inRanges2(lo, hi int32, ranges [][2]int32) bool {
	for _, r := range ranges {
		if lo <= r[1] && hi >= r[0] {
			return true
		}
	}
	return false
}

func (g *genTable) bucketOf(k int32) int32 {
	if g.kind == "append" {
		return 0
	}
	row, err := spec.EncodeBinaryRow([]spec.DataType{{Root: spec.Int}}, []any{k}, spec.RowKindInsert)
	if err != nil {
		g.t.Fatal(err)
	}
	b, err := spec.Bucket(row, g.buckets)
	if err != nil {
		g.t.Fatal(err)
	}
	return int32(b)
}

var genStrings = []any{nil, "a", "ab", "abc", "b", "pay", "payment", "z"}

// genRetracting are the kinds of table whose level-0 files retract some
// keys: deduplicate tables (the other engines refuse retractions without
// further options).
var genRetracting = []string{"deduplicate", "deletion-vectors", "sequence-field", "ignore-delete", "deletion-vectors-merged"}

// records gives each key a random value; level-0 files of genRetracting
// tables also retract some keys.
func (g *genTable) records(dt string, keys []int32, level int32) []scantest.Record {
	out := make([]scantest.Record, len(keys))
	for i, k := range keys {
		var v any
		if g.r.IntN(5) > 0 {
			v = int32(g.r.IntN(60) - 5)
		}
		kind := spec.RowKindInsert
		if slices.Contains(genRetracting, g.kind) && level == 0 && g.r.IntN(5) == 0 {
			kind = spec.RowKindDelete
		}
		var key any = k
		if !g.pk && g.r.IntN(10) == 0 {
			key = nil
		}
		out[i] = scantest.Record{Kind: kind, Values: []any{dtValue(dt), key, v, genStrings[g.r.IntN(len(genStrings))]}}
	}
	return out
}

// addUpper records a file above level 0; in deletion-vector tables it
// marks the rows of its keys deleted in older files above level 0, as a
// compaction with deletion vectors does.
func (g *genTable) addUpper(b genBucket, f genFile, c *scantest.Change) {
	if g.kind == "deletion-vectors" || g.kind == "deletion-vectors-merged" {
		keys := map[int32]bool{}
		for _, k := range f.keys {
			keys[k] = true
		}
		if g.dvs[b] == nil {
			g.dvs[b] = map[string]*spec.DeletionVector{}
		}
		changed := false
		for _, old := range g.upper[b] {
			for pos, k := range old.keys {
				if !keys[k] {
					continue
				}
				dv := g.dvs[b][old.meta.FileName]
				if dv == nil {
					dv = spec.NewDeletionVector(false)
					g.dvs[b][old.meta.FileName] = dv
				}
				if err := dv.Delete(int64(pos)); err != nil {
					g.t.Fatal(err)
				}
				changed = true
			}
		}
		if changed {
			c.DeletionVectors, c.OldIndex = g.dvs[b], g.index[b]
		}
	}
	g.upper[b] = append(g.upper[b], f)
}

// predicate builds a random predicate over the table's columns.
func (g *genTable) predicate(r *rand.Rand, depth int) predicate.Predicate {
	if depth > 0 && r.IntN(3) == 0 {
		parts := []predicate.Predicate{g.predicate(r, depth-1), g.predicate(r, depth-1)}
		switch r.IntN(3) {
		case 0:
			return predicate.And(parts...)
		case 1:
			return predicate.Or(parts...)
		}
		return predicate.Not(parts[0])
	}
	for {
		if p, err := g.leaf(r); err == nil {
			return p
		}
	}
}

func (g *genTable) leaf(r *rand.Rand) (predicate.Predicate, error) {
	fields := g.w.Schema.Fields
	i := r.IntN(len(fields))
	col := predicate.ColumnOf(i, fields[i])
	lit := func() any {
		switch fields[i].Name {
		case "dt":
			return dtValue(genPartitions[r.IntN(len(genPartitions))])
		case "s":
			return genStrings[r.IntN(len(genStrings))]
		}
		if r.IntN(10) == 0 {
			return nil
		}
		return r.IntN(110) - 5
	}
	ops := []predicate.Op{predicate.OpEq, predicate.OpNotEq, predicate.OpLt, predicate.OpGe, predicate.OpIn,
		predicate.OpNotIn, predicate.OpBetween, predicate.OpIsNull, predicate.OpIsNotNull, predicate.OpStartsWith}
	switch op := ops[r.IntN(len(ops))]; op {
	case predicate.OpIsNull, predicate.OpIsNotNull:
		return predicate.Leaf(col, op)
	case predicate.OpIn, predicate.OpNotIn:
		return predicate.Leaf(col, op, lit(), lit(), lit())
	case predicate.OpBetween:
		return predicate.Leaf(col, op, lit(), lit())
	case predicate.OpStartsWith:
		return predicate.Leaf(col, op, []string{"a", "pay", "z"}[r.IntN(3)])
	default:
		return predicate.Leaf(col, op, lit())
	}
}
