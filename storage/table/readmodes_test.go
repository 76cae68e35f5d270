package table_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

var modesNow = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// modesTable is a table written through storage/write and storage/commit
// and compacted by storage/compact, with deterministic names and times.
type modesTable struct {
	t     *testing.T
	fs    *memio.FS
	dir   string
	uuids int
	ident int64
}

func newModesTable(t *testing.T, def catalog.TableDefinition) *modesTable {
	t.Helper()
	ctx := context.Background()
	fs := memio.New()
	c := catalog.New(fs, "wh", func() time.Time { return modesNow })
	if err := c.CreateDatabase(ctx, "db", true); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable(ctx, "db", "t", def, false); err != nil {
		t.Fatal(err)
	}
	dir, err := c.TablePath("db", "t")
	if err != nil {
		t.Fatal(err)
	}
	return &modesTable{t: t, fs: fs, dir: dir}
}

func (m *modesTable) newUUID() string {
	m.uuids++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", m.uuids)
}

func (m *modesTable) now() time.Time { return modesNow }

type change struct {
	kind spec.RowKind
	row  []any
}

// commit writes the changes with a fresh writer as one commit.
func (m *modesTable) commit(changes ...change) {
	m.t.Helper()
	ctx := context.Background()
	w, err := write.Open(ctx, write.Options{FileIO: m.fs, TableDir: m.dir, Now: m.now, NewUUID: m.newUUID, SpillDir: m.t.TempDir()})
	if err != nil {
		m.t.Fatal(err)
	}
	defer w.Close()
	for _, c := range changes {
		if err := w.Write(ctx, c.row, c.kind); err != nil {
			m.t.Fatal(err)
		}
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		m.t.Fatal(err)
	}
	c, err := commit.New(commit.Options{FileIO: m.fs, TableDir: m.dir, Core: w.Schema().CoreOptions(),
		Now: m.now, NewUUID: m.newUUID, Rand: rand.New(rand.NewPCG(1, 2)),
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		m.t.Fatal(err)
	}
	m.ident++
	if _, err := c.Commit(ctx, commit.Request{CommitUser: "writer", Identifier: m.ident, Messages: msgs}); err != nil {
		m.t.Fatal(err)
	}
}

func (m *modesTable) compact(mode compact.Mode) {
	m.t.Helper()
	res, err := compact.Table(context.Background(), compact.Options{FileIO: m.fs, TableDir: m.dir, Mode: mode,
		Now: m.now, NewUUID: m.newUUID})
	if err != nil {
		m.t.Fatal(err)
	}
	if res.Snapshot == 0 {
		m.t.Fatal("compaction committed nothing")
	}
}

// read returns the rows opts read, rendered as a|b|c and sorted.
func (m *modesTable) read(opts table.ReadOptions) []string {
	m.t.Helper()
	tbl, err := table.Open(context.Background(), m.fs, m.dir)
	if err != nil {
		m.t.Fatal(err)
	}
	rows, err := tbl.Read(context.Background(), opts)
	if err != nil {
		m.t.Fatal(err)
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		m.t.Fatal(err)
	}
	out := make([]string, len(all))
	for i, r := range all {
		parts := make([]string, len(r))
		for j, v := range r {
			parts[j] = fmt.Sprint(v)
		}
		out[i] = strings.Join(parts, "|")
	}
	slices.Sort(out)
	return out
}

// levels returns the levels of the live files, sorted.
func (m *modesTable) levels() []int32 {
	m.t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, m.fs, m.dir)
	if err != nil {
		m.t.Fatal(err)
	}
	snap, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		m.t.Fatal(err)
	}
	entries, err := tbl.LiveFiles(ctx, snap)
	if err != nil {
		m.t.Fatal(err)
	}
	var out []int32
	for _, e := range entries {
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

func pkDefinition() catalog.TableDefinition {
	return catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "k", Type: spec.DataType{Root: spec.BigInt}},
			{Name: "v", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: true}},
		},
		PrimaryKeys: []string{"k"},
		Options:     map[string]string{"bucket": "1"},
	}
}

func ins(k int64, v string) change { return change{spec.RowKindInsert, []any{k, v}} }
func upd(k int64, v string) change { return change{spec.RowKindUpdateAfter, []any{k, v}} }
func del(k int64, v string) change { return change{spec.RowKindDelete, []any{k, v}} }

// TestReadModesOfPrimaryKeyTable follows a primary-key table through
// commits and compactions: the audit read is the merged rows with their
// kinds, deletes included until a compaction into the highest level drops
// them; the read-optimized read sees only what was compacted up there.
func TestReadModesOfPrimaryKeyTable(t *testing.T) {
	m := newModesTable(t, pkDefinition())
	audit := table.ReadOptions{WithRowKind: true}
	ro := table.ReadOptions{ReadOptimized: true}

	m.commit(ins(1, "a"), ins(2, "a"), ins(3, "a"), ins(4, "a")) // snapshot 1
	expectRows(t, "audit of level-0 inserts", m.read(audit), "+I|1|a", "+I|2|a", "+I|3|a", "+I|4|a")
	expectRows(t, "ro before any compaction", m.read(ro))

	m.compact(compact.Full) // snapshot 2
	if got := m.levels(); !slices.Equal(got, []int32{5}) {
		t.Fatalf("levels after full compaction: %v, want one file on level 5", got)
	}
	expectRows(t, "ro after full compaction", m.read(ro), "1|a", "2|a", "3|a", "4|a")

	m.commit(upd(2, "b"), del(3, "a"), ins(5, "e")) // snapshot 3
	m.commit(del(5, "e"), upd(4, "c"))              // snapshot 4
	expectRows(t, "table", m.read(table.ReadOptions{}), "1|a", "2|b", "4|c")
	expectRows(t, "audit with pending changes", m.read(audit),
		"+I|1|a", "+U|2|b", "-D|3|a", "+U|4|c", "-D|5|e")
	expectRows(t, "ro misses what is not compacted", m.read(ro), "1|a", "2|a", "3|a", "4|a")

	at2 := snapshot.TimeTravel{SnapshotID: 2}
	expectRows(t, "audit as of snapshot 2", m.read(table.ReadOptions{At: at2, WithRowKind: true}),
		"+I|1|a", "+I|2|a", "+I|3|a", "+I|4|a")
	at1 := snapshot.TimeTravel{SnapshotID: 1}
	expectRows(t, "ro as of snapshot 1", m.read(table.ReadOptions{At: at1, ReadOptimized: true}))

	kAtLeast3, err := predicate.Leaf(predicate.ColumnOf(0, spec.DataField{ID: 0, Name: "k", Type: spec.DataType{Root: spec.BigInt}}),
		predicate.OpGe, 3)
	if err != nil {
		t.Fatal(err)
	}
	filtered := table.ReadOptions{WithRowKind: true, Columns: []string{"v"}, Filter: kAtLeast3}
	expectRows(t, "audit projected and filtered", m.read(filtered), "+U|c", "-D|a", "-D|e")

	m.compact(compact.Full) // snapshot 5
	expectRows(t, "ro after the second full compaction equals the table", m.read(ro), "1|a", "2|b", "4|c")
	expectRows(t, "audit after deletes were compacted away", m.read(audit), "+I|1|a", "+U|2|b", "+U|4|c")
}

// TestReadModesOfAppendTable: an append table holds only inserts, and
// every file is read without merging, so $ro is the table.
func TestReadModesOfAppendTable(t *testing.T) {
	def := pkDefinition()
	def.PrimaryKeys = nil
	def.Options = nil
	m := newModesTable(t, def)
	m.commit(ins(1, "a"), ins(2, "b"))
	m.commit(ins(1, "c"))
	expectRows(t, "audit", m.read(table.ReadOptions{WithRowKind: true}), "+I|1|a", "+I|1|c", "+I|2|b")
	expectRows(t, "ro", m.read(table.ReadOptions{ReadOptimized: true}), "1|a", "1|c", "2|b")
}

// TestReadOptimizedLimit: a limited read-optimized read takes its rows
// from the top level only, and as many as the limit asks when it holds
// them.
func TestReadOptimizedLimit(t *testing.T) {
	m := newModesTable(t, pkDefinition())
	m.commit(ins(1, "a"), ins(2, "a"), ins(3, "a"))
	m.compact(compact.Full)
	m.commit(ins(4, "d"))
	got := m.read(table.ReadOptions{ReadOptimized: true, Limit: 2, Parallelism: 1})
	if len(got) != 2 {
		t.Fatalf("ro limit 2: got %q", got)
	}
	for _, r := range got {
		if r == "4|d" {
			t.Fatalf("ro limit 2 returned the level-0 row: %q", got)
		}
	}
}
