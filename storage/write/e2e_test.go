package write

import (
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/spec"
)

// seqRanges returns the [min, max] sequence numbers of each message's new
// files, per partition and bucket.
func seqRanges(msgs []commit.Message) map[string][2]int64 {
	out := map[string][2]int64{}
	for _, m := range msgs {
		k := fmt.Sprintf("%x/%d", m.Partition, m.Bucket)
		r, ok := out[k]
		for _, f := range m.NewFiles {
			if !ok {
				r, ok = [2]int64{f.MinSequenceNumber, f.MaxSequenceNumber}, true
			}
			r[0], r[1] = min(r[0], f.MinSequenceNumber), max(r[1], f.MaxSequenceNumber)
		}
		out[k] = r
	}
	return out
}

// assertSequencesContinue checks that every bucket of next starts right
// above that bucket's maximum in the table before it.
func assertSequencesContinue(t *testing.T, before []spec.ManifestEntry, next []commit.Message) {
	t.Helper()
	maxSeq := map[string]int64{}
	for _, e := range before {
		k := fmt.Sprintf("%x/%d", e.Partition, e.Bucket)
		if s, ok := maxSeq[k]; !ok || e.File.MaxSequenceNumber > s {
			maxSeq[k] = e.File.MaxSequenceNumber
		}
	}
	for k, r := range seqRanges(next) {
		want := int64(0)
		if s, ok := maxSeq[k]; ok {
			want = s + 1
		}
		if r[0] < want {
			t.Errorf("bucket %s: new files start at sequence %d, want >= %d", k, r[0], want)
		}
	}
}

func TestAppendUnpartitionedRoundTrip(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{
		field("id", bigintType), field("name", stringType), field("score", doubleType)}})
	w := tt.writer()
	msgs := tt.writeCommit(w, []tabletest.Record{tabletest.Insert(int64(1), "a", 1.5), tabletest.Insert(int64(2), nil, nil), tabletest.Update(int64(3), "c", -2.0)})
	if len(msgs) != 1 || msgs[0].Bucket != 0 || msgs[0].TotalBuckets != -1 {
		t.Fatalf("messages %+v, want one for bucket 0 with total buckets -1", msgs)
	}
	f := msgs[0].NewFiles[0]
	if f.MinSequenceNumber != 0 || f.MaxSequenceNumber != 2 || f.RowCount != 3 || *f.DeleteRowCount != 0 {
		t.Errorf("file %+v: want sequences 0..2, 3 rows, 0 deletes", f)
	}
	before := tt.LiveFiles()
	msgs = tt.writeCommit(w, []tabletest.Record{tabletest.Insert(int64(4), "d", 4.0)})
	assertSequencesContinue(t, before, msgs)
	before = tt.LiveFiles()
	msgs = tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Insert(int64(1), "a", 1.5)})
	assertSequencesContinue(t, before, msgs)
	if got := msgs[0].NewFiles[0].MinSequenceNumber; got != 4 {
		t.Errorf("a new writer starts at sequence %d, want 4", got)
	}
	assertRows(t, "rows", tt.Read(), []string{"1|a|1.5", "2|NULL|NULL", "3|c|-2", "4|d|4", "1|a|1.5"})
}

func TestAppendPartitionedRoundTrip(t *testing.T) {
	forEachFileIO(t, testAppendPartitionedRoundTrip)
}

func testAppendPartitionedRoundTrip(t *testing.T, newTable tableMaker) {
	tt := newTable(t, catalog.TableDefinition{
		Fields:        []spec.DataField{field("dt", stringType), field("id", bigintType)},
		PartitionKeys: []string{"dt"},
	})
	tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Insert("2024-01-01", int64(1)), tabletest.Insert("2024-01-02", int64(2)),
		tabletest.Insert(nil, int64(3)), tabletest.Insert("2024-01-01", int64(4))})
	for _, dir := range []string{"dt=2024-01-01", "dt=2024-01-02", "dt=__DEFAULT_PARTITION__"} {
		found := false
		for _, e := range tt.LiveFiles() {
			ok, err := existsFile(tt, tt.dataPath(dir, e.Bucket, e.File.FileName))
			if err != nil {
				t.Fatal(err)
			}
			found = found || ok
		}
		if !found {
			t.Errorf("no data file under %s", dir)
		}
	}
	tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Insert("2024-01-02", int64(5))})
	assertRows(t, "rows", tt.Read(), []string{"2024-01-01|1", "2024-01-02|2", "NULL|3", "2024-01-01|4", "2024-01-02|5"})
}

// pkModel is the expected content of a primary-key table, by key.
type pkModel map[string][]any

func (m pkModel) rows() []string {
	var out []string
	for _, r := range m {
		out = append(out, tabletest.RenderRow(r))
	}
	return out
}

// applyDeduplicate applies records to m as the deduplicate engine does.
func (m pkModel) applyDeduplicate(key func([]any) string, records []tabletest.Record) {
	for _, r := range records {
		if r.Kind.IsRetract() {
			delete(m, key(r.Row))
		} else {
			m[key(r.Row)] = r.Row
		}
	}
}

func TestPrimaryKeyPartitionedTwoBuckets(t *testing.T) {
	forEachFileIO(t, testPrimaryKeyPartitionedTwoBuckets)
}

func testPrimaryKeyPartitionedTwoBuckets(t *testing.T, newTable tableMaker) {
	tt := newTable(t, catalog.TableDefinition{
		Fields:        []spec.DataField{field("dt", stringType), field("id", bigintType), field("v", stringType)},
		PartitionKeys: []string{"dt"}, PrimaryKeys: []string{"dt", "id"},
		Options: map[string]string{"bucket": "2"},
	})
	key := func(r []any) string { return fmt.Sprint(r[0], "/", r[1]) }
	model := pkModel{}
	var batches [][]tabletest.Record
	for round := range 3 {
		var batch []tabletest.Record
		for i := range 40 {
			id := int64((i*7 + round*3) % 30)
			dt := fmt.Sprintf("2024-01-0%d", 1+i%2)
			switch {
			case i%9 == 4:
				batch = append(batch, tabletest.Delete(dt, id, nil))
			case i%5 == 0:
				batch = append(batch, tabletest.Update(dt, id, fmt.Sprintf("u%d-%d", round, i)))
			default:
				batch = append(batch, tabletest.Insert(dt, id, fmt.Sprintf("v%d-%d", round, i)))
			}
		}
		batches = append(batches, batch)
	}
	w := tt.writer()
	for i, batch := range batches {
		if i == 2 {
			w = tt.writer() // restore path: a fresh TableWriter continues the sequences
		}
		before := tt.liveFiles0()
		msgs := tt.writeCommit(w, batch)
		assertSequencesContinue(t, before, msgs)
		assertBucketsMatchKeys(t, tt, msgs)
		model.applyDeduplicate(key, batch)
		assertRows(t, fmt.Sprintf("after commit %d", i+1), tt.Read(), model.rows())
	}
}

// liveFiles0 is liveFiles, or nothing before the first snapshot.
func (tt *testTable) liveFiles0() []spec.ManifestEntry {
	if tt.LatestID() == 0 {
		return nil
	}
	return tt.LiveFiles()
}

// assertBucketsMatchKeys checks that every key in a message's files hashes
// to the message's bucket and that totals are the bucket option.
func assertBucketsMatchKeys(t *testing.T, tt *testTable, msgs []commit.Message) {
	t.Helper()
	for _, m := range msgs {
		if m.TotalBuckets != 2 {
			t.Errorf("total buckets %d, want 2", m.TotalBuckets)
		}
		for _, f := range m.NewFiles {
			for _, kv := range readKeyValues(t, tt, m, f) {
				row, err := spec.EncodeBinaryRow([]spec.DataType{notNull(bigintType)}, kv.Key, spec.RowKindInsert)
				if err != nil {
					t.Fatal(err)
				}
				if b, _ := spec.Bucket(row, 2); int32(b) != m.Bucket {
					t.Errorf("key %v in bucket %d, hashes to %d", kv.Key, m.Bucket, b)
				}
			}
		}
	}
}

func TestPrimaryKeySequenceField(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{
		Fields:      []spec.DataField{field("id", bigintType), field("ts", bigintType), field("v", stringType)},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1", "sequence.field": "ts"},
	})
	w := tt.writer()
	// Within one flush, the row with the larger ts wins whatever the order.
	tt.writeCommit(w, []tabletest.Record{tabletest.Insert(int64(1), int64(20), "new"), tabletest.Insert(int64(1), int64(10), "old"),
		tabletest.Insert(int64(2), int64(5), "a")})
	assertRows(t, "first commit", tt.Read(), []string{"1|20|new", "2|5|a"})
	// Across files too: a later write with a smaller ts loses.
	tt.writeCommit(w, []tabletest.Record{tabletest.Insert(int64(1), int64(15), "late"), tabletest.Insert(int64(2), int64(6), "b")})
	assertRows(t, "second commit", tt.Read(), []string{"1|20|new", "2|6|b"})
}

func TestPrimaryKeyPartialUpdate(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{
		Fields:      []spec.DataField{field("id", bigintType), field("a", stringType), field("b", bigintType)},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "2", "merge-engine": "partial-update"},
	})
	w := tt.writer()
	tt.writeCommit(w, []tabletest.Record{tabletest.Insert(int64(1), "x", nil), tabletest.Insert(int64(1), nil, int64(7)), tabletest.Insert(int64(2), "y", nil)})
	assertRows(t, "first commit", tt.Read(), []string{"1|x|7", "2|y|NULL"})
	tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Insert(int64(2), nil, int64(9)), tabletest.Insert(int64(1), "z", nil)})
	assertRows(t, "second commit", tt.Read(), []string{"1|z|7", "2|y|9"})
}

func TestPrimaryKeyAggregationSum(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{
		Fields:      []spec.DataField{field("id", bigintType), field("amount", bigintType)},
		PrimaryKeys: []string{"id"},
		Options: map[string]string{"bucket": "2", "merge-engine": "aggregation",
			"fields.amount.aggregate-function": "sum"},
	})
	sums := map[int64]int64{}
	apply := func(records []tabletest.Record) {
		for _, r := range records {
			v := r.Row[1].(int64)
			if r.Kind.IsRetract() {
				v = -v
			}
			sums[r.Row[0].(int64)] += v
		}
	}
	w := tt.writer()
	for round := range 3 {
		var batch []tabletest.Record
		for i := range 30 {
			id, amount := int64(i%7), int64(round*100+i)
			if round > 0 && i%6 == 0 {
				batch = append(batch, tabletest.Retract(id, amount/2))
			} else {
				batch = append(batch, tabletest.Insert(id, amount))
			}
		}
		tt.writeCommit(w, batch)
		apply(batch)
		var want []string
		for id, s := range sums {
			want = append(want, fmt.Sprintf("%d|%d", id, s))
		}
		assertRows(t, fmt.Sprintf("round %d", round), tt.Read(), want)
	}
}
