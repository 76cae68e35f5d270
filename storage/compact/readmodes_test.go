package compact

import (
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// The tests of this file follow storage/table's read modes (the audit
// read with row kinds, the read-optimized read of the top level) through
// commits and compactions. They live here, above storage/table, because
// they compact.

// compactFully compacts tt into the highest level and checks that it
// committed.
func compactFully(tt *testTable) {
	tt.T.Helper()
	if res := tt.compact(Full); res.Snapshot == 0 {
		tt.T.Fatal("compaction committed nothing")
	}
}

// levels returns the levels of the live files, sorted.
func levels(tt *testTable) []int32 {
	var out []int32
	for _, e := range tt.LiveFiles() {
		out = append(out, e.File.Level)
	}
	slices.Sort(out)
	return out
}

func expectRows(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func readModesDefinition() catalog.TableDefinition {
	return catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "k", Type: spec.DataType{Root: spec.BigInt}},
			{Name: "v", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}},
		},
		PrimaryKeys: []string{"k"},
		Options:     map[string]string{"bucket": "1"},
	}
}

// ins, upd and del are the changes of a row (k, v).
func ins(k int64, v string) tabletest.Record { return tabletest.Insert(k, v) }
func upd(k int64, v string) tabletest.Record { return tabletest.Update(k, v) }
func del(k int64, v string) tabletest.Record { return tabletest.Delete(k, v) }

// TestReadModesOfPrimaryKeyTable follows a primary-key table through
// commits and compactions: the audit read is the merged rows with their
// kinds, deletes included until a compaction into the highest level drops
// them; the read-optimized read sees only what was compacted up there.
func TestReadModesOfPrimaryKeyTable(t *testing.T) {
	tt := newMemTable(t, readModesDefinition())
	audit := table.ReadOptions{WithRowKind: true}
	ro := table.ReadOptions{ReadOptimized: true}

	tt.writeCommit(ins(1, "a"), ins(2, "a"), ins(3, "a"), ins(4, "a")) // snapshot 1
	expectRows(t, "audit of level-0 inserts", tt.ReadWith(audit), "+I|1|a", "+I|2|a", "+I|3|a", "+I|4|a")
	expectRows(t, "ro before any compaction", tt.ReadWith(ro))

	compactFully(tt) // snapshot 2
	if got := levels(tt); !slices.Equal(got, []int32{5}) {
		t.Fatalf("levels after full compaction: %v, want one file on level 5", got)
	}
	expectRows(t, "ro after full compaction", tt.ReadWith(ro), "1|a", "2|a", "3|a", "4|a")

	tt.writeCommit(upd(2, "b"), del(3, "a"), ins(5, "e")) // snapshot 3
	tt.writeCommit(del(5, "e"), upd(4, "c"))              // snapshot 4
	expectRows(t, "table", tt.Read(), "1|a", "2|b", "4|c")
	expectRows(t, "audit with pending changes", tt.ReadWith(audit),
		"+I|1|a", "+U|2|b", "-D|3|a", "+U|4|c", "-D|5|e")
	expectRows(t, "ro misses what is not compacted", tt.ReadWith(ro), "1|a", "2|a", "3|a", "4|a")

	at2 := snapshot.TimeTravel{SnapshotID: 2}
	expectRows(t, "audit as of snapshot 2", tt.ReadWith(table.ReadOptions{At: at2, WithRowKind: true}),
		"+I|1|a", "+I|2|a", "+I|3|a", "+I|4|a")
	at1 := snapshot.TimeTravel{SnapshotID: 1}
	expectRows(t, "ro as of snapshot 1", tt.ReadWith(table.ReadOptions{At: at1, ReadOptimized: true}))

	kAtLeast3, err := predicate.Leaf(predicate.ColumnOf(0, spec.DataField{ID: 0, Name: "k", Type: spec.DataType{Root: spec.BigInt}}),
		predicate.OpGe, 3)
	if err != nil {
		t.Fatal(err)
	}
	filtered := table.ReadOptions{WithRowKind: true, Columns: []string{"v"}, Filter: kAtLeast3}
	expectRows(t, "audit projected and filtered", tt.ReadWith(filtered), "+U|c", "-D|a", "-D|e")

	compactFully(tt) // snapshot 5
	expectRows(t, "ro after the second full compaction equals the table", tt.ReadWith(ro), "1|a", "2|b", "4|c")
	expectRows(t, "audit after deletes were compacted away", tt.ReadWith(audit), "+I|1|a", "+U|2|b", "+U|4|c")
}

// TestReadModesOfAppendTable: an append table holds only inserts, and
// every file is read without merging, so $ro is the table.
func TestReadModesOfAppendTable(t *testing.T) {
	def := readModesDefinition()
	def.PrimaryKeys = nil
	def.Options = nil
	tt := newMemTable(t, def)
	tt.writeCommit(ins(1, "a"), ins(2, "b"))
	tt.writeCommit(ins(1, "c"))
	expectRows(t, "audit", tt.ReadWith(table.ReadOptions{WithRowKind: true}), "+I|1|a", "+I|1|c", "+I|2|b")
	expectRows(t, "ro", tt.ReadWith(table.ReadOptions{ReadOptimized: true}), "1|a", "1|c", "2|b")
}

// TestReadOptimizedLimit: a limited read-optimized read takes its rows
// from the top level only, and as many as the limit asks when it holds
// them.
func TestReadOptimizedLimit(t *testing.T) {
	tt := newMemTable(t, readModesDefinition())
	tt.writeCommit(ins(1, "a"), ins(2, "a"), ins(3, "a"))
	compactFully(tt)
	tt.writeCommit(ins(4, "d"))
	got := tt.ReadWith(table.ReadOptions{ReadOptimized: true, Limit: 2, Parallelism: 1})
	if len(got) != 2 {
		t.Fatalf("ro limit 2: got %q", got)
	}
	for _, r := range got {
		if r == "4|d" {
			t.Fatalf("ro limit 2 returned the level-0 row: %q", got)
		}
	}
}
