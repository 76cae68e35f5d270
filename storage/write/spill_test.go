package write

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/spec"
)

func spillTableDefinition() catalog.TableDefinition {
	return catalog.TableDefinition{
		Fields:      []spec.DataField{field("id", bigintType), field("v", stringType), field("n", bigintType)},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "2"},
	}
}

// randomChanges is a seeded mix of inserts, updates and deletes over a few
// hundred keys, applied to a model as it goes.
func randomChanges(n int, model pkModel) []tabletest.Record {
	rng := rand.New(rand.NewPCG(7, 11))
	key := func(r []any) string { return fmt.Sprint(r[0]) }
	var out []tabletest.Record
	for i := range n {
		id := int64(rng.IntN(300))
		var r tabletest.Record
		switch rng.IntN(10) {
		case 0:
			r = tabletest.Delete(id, nil, nil)
		case 1, 2:
			r = tabletest.Update(id, fmt.Sprintf("u%d", i), int64(i))
		default:
			r = tabletest.Insert(id, fmt.Sprintf("value-%d-%d", id, i), int64(i))
		}
		out = append(out, r)
		model.applyDeduplicate(key, []tabletest.Record{r})
	}
	return out
}

// countFiles counts the regular files under dir.
func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// fileRecords renders the records of every file of msgs, in order.
func fileRecords(t *testing.T, tt *testTable, msgs []commit.Message) []string {
	t.Helper()
	var out []string
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			for _, kv := range readKeyValues(t, tt, m, f) {
				out = append(out, fmt.Sprintf("b%d %v #%d %s %s", m.Bucket, kv.Key, kv.Seq, kv.Kind, tabletest.RenderRow(kv.Value)))
			}
		}
	}
	return out
}

func TestSpilledBufferMatchesInMemory(t *testing.T) {
	records := randomChanges(3000, pkModel{})
	plain := newTestTable(t, spillTableDefinition())
	plainMsgs := plain.prepare(plainWriter(plain, records))

	spilled := newTestTable(t, spillTableDefinition())
	opts := spilled.options()
	opts.MemoryBudget = 16 << 10
	w := spilled.open(opts)
	spilled.writeAll(w, records)
	if n := countFiles(t, opts.SpillDir); n < 10 {
		t.Fatalf("%d spill files after writing, want at least 10", n)
	}
	spilledMsgs := spilled.prepare(w)
	got, want := fileRecords(t, spilled, spilledMsgs), fileRecords(t, plain, plainMsgs)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("spilled output differs from in-memory output:\n got  %d records\n want %d records", len(got), len(want))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := countFiles(t, opts.SpillDir); n != 0 {
		t.Errorf("%d spill files left after Close", n)
	}
}

func plainWriter(tt *testTable, records []tabletest.Record) *TableWriter {
	w := tt.writer()
	tt.writeAll(w, records)
	return w
}

// TestManySpillsFlushToLevel0 forces more spilled runs than one merge
// reads, so the writer flushes level-0 files while writing; the files
// overlap in key range and must still read back as the model says.
func TestManySpillsFlushToLevel0(t *testing.T) {
	model := pkModel{}
	records := randomChanges(2000, model)
	tt := newTestTable(t, spillTableDefinition())
	opts := tt.options()
	opts.MemoryBudget = 2 << 10
	w := tt.open(opts)
	tt.writeAll(w, records)
	msgs := tt.prepare(w)
	files := 0
	for _, m := range msgs {
		files += len(m.NewFiles)
	}
	if files <= len(msgs) {
		t.Fatalf("%d files in %d buckets: the fan-in limit did not force a flush", files, len(msgs))
	}
	tt.commit(msgs)
	assertRows(t, "rows", tt.Read(), model.rows())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := countFiles(t, opts.SpillDir); n != 0 {
		t.Errorf("%d spill files left after Close", n)
	}
}

// TestUnspillableBufferFlushes turns spilling off: an exhausted budget then
// flushes level-0 files directly and writes no spill files.
func TestUnspillableBufferFlushes(t *testing.T) {
	model := pkModel{}
	records := randomChanges(1000, model)
	def := spillTableDefinition()
	def.Options["write-buffer-spillable"] = "false"
	tt := newTestTable(t, def)
	opts := tt.options()
	opts.MemoryBudget = 8 << 10
	w := tt.open(opts)
	tt.writeAll(w, records)
	if n := countFiles(t, opts.SpillDir); n != 0 {
		t.Fatalf("%d spill files with write-buffer-spillable = false", n)
	}
	msgs := tt.prepare(w)
	if files := len(msgs[0].NewFiles) + len(msgs[1].NewFiles); files < 10 {
		t.Fatalf("%d files, want a flush each time the 8 kb budget ran out", files)
	}
	tt.commit(msgs)
	assertRows(t, "rows", tt.Read(), model.rows())
}

// MaxMemoryBudget caps a table's write-buffer-size: the same rows spill
// under the cap, and write no spill file without it.
func TestMaxMemoryBudgetCapsTheTablesBuffer(t *testing.T) {
	records := randomChanges(3000, pkModel{})
	for _, capped := range []bool{false, true} {
		tt := newTestTable(t, spillTableDefinition())
		opts := tt.options()
		if capped {
			opts.MaxMemoryBudget = 16 << 10
		}
		w := tt.open(opts)
		tt.writeAll(w, records)
		if n := countFiles(t, opts.SpillDir); (n > 0) != capped {
			t.Errorf("capped %v: %d spill files", capped, n)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
