package sqlbackend

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
)

// kvModel is what a primary-key table kv(id, v) should hold.
type kvModel map[int64]string

func (m kvModel) rows() []string {
	out := make([]string, 0, len(m))
	for _, id := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("[%d %s]", id, m[id]))
	}
	return out
}

// createKV creates db.kv, a primary-key table of one bucket with the given
// Paimon options, and returns a connection using db.
func createKV(t *testing.T, h *harness, options string) *conn {
	t.Helper()
	c := h.connect()
	c.mustExec("CREATE DATABASE db", "USE db",
		"CREATE TABLE kv (id BIGINT NOT NULL, v VARCHAR(64), PRIMARY KEY (id)) COMMENT 'paimon:{"+options+"}' "+
			"PARTITION BY KEY (id) PARTITIONS 1")
	return c
}

func wantModel(t *testing.T, c *conn, m kvModel, when string) {
	t.Helper()
	got := format(c.mustQuery("SELECT id, v FROM kv ORDER BY id"))
	if want := m.rows(); !slices.Equal(got, want) {
		t.Fatalf("%s:\n got %q\nwant %q", when, got, want)
	}
}

// snapshotKinds lists the commit kinds of the table's snapshots in order.
func snapshotKinds(c *conn) []string {
	var out []string
	for _, r := range c.mustQuery("SELECT commit_kind FROM `kv$snapshots` ORDER BY snapshot_id") {
		out = append(out, fmt.Sprint(r[0]))
	}
	return out
}

// fileLevels counts the live files of kv by LSM level.
func fileLevels(c *conn) map[int64]int {
	out := map[int64]int{}
	for _, r := range c.mustQuery("SELECT level FROM `kv$files`") {
		out[toInt64(r[0])]++
	}
	return out
}

func toInt64(v any) int64 {
	switch x := v.(type) {
	case int32:
		return int64(x)
	case int64:
		return x
	case int:
		return int64(x)
	}
	panic(fmt.Sprintf("not an integer: %T", v))
}

// sortedRuns counts the sorted runs of a bucket from its file levels.
func sortedRuns(levels map[int64]int) int {
	runs := levels[0]
	for level := range levels {
		if level > 0 {
			runs++
		}
	}
	return runs
}

// With background compaction, statements commit APPEND snapshots only,
// and the service's COMPACT snapshots, under its own commit user, bring
// the bucket back to the compaction trigger, past which the universal
// strategy compacts, the rows unchanged.
func TestBackgroundCompactionCompactsAfterCommits(t *testing.T) {
	h := newHarnessWith(t, t.TempDir(), localio.New(), func(o *Options) { o.BackgroundCompaction = true })
	c := createKV(t, h, `"num-sorted-run.compaction-trigger":"2"`)
	m := kvModel{}
	upsertRandomly(c, m, rand.New(rand.NewPCG(5, 8)), 12, 20, "bg")
	deadline := time.Now().Add(time.Minute)
	for sortedRuns(fileLevels(c)) > 2 {
		if time.Now().After(deadline) {
			t.Fatalf("after a minute the bucket still has %d sorted runs (levels %v), compaction trigger 2", sortedRuns(fileLevels(c)), fileLevels(c))
		}
		time.Sleep(10 * time.Millisecond)
	}
	compacted := 0
	for _, r := range c.mustQuery("SELECT commit_kind, commit_user FROM `kv$snapshots` ORDER BY snapshot_id") {
		kind, user := fmt.Sprint(r[0]), fmt.Sprint(r[1])
		if background := strings.HasPrefix(user, "lakesql-compact-"); background != (kind == "COMPACT") {
			t.Fatalf("a %s snapshot by %s: want COMPACT snapshots by the service only", kind, user)
		}
		if kind == "COMPACT" {
			compacted++
		}
	}
	if compacted == 0 {
		t.Fatal("no COMPACT snapshot")
	}
	wantModel(t, c, m, "after background compaction")
}

// upsertRandomly runs n single-row INSERTs (upserts) of random keys below
// keys, in the table and the model.
func upsertRandomly(c *conn, m kvModel, rng *rand.Rand, n, keys int, tag string) {
	for i := range n {
		id := rng.Int64N(int64(keys))
		v := fmt.Sprintf("%s-%d", tag, i)
		c.mustExec(fmt.Sprintf("INSERT INTO kv VALUES (%d, '%s')", id, v))
		m[id] = v
	}
}

// Single-row INSERTs into a primary-key table compact inline: level-0
// files stop piling up, compacted levels appear, each compacting commit
// publishes APPEND then COMPACT, and reads match the model.
func TestSQLWritesCompactInline(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := createKV(t, h, `"num-sorted-run.compaction-trigger":"2"`)
	m, rng := kvModel{}, rand.New(rand.NewPCG(3, 5))
	upsertRandomly(c, m, rng, 12, 8, "a")
	wantModel(t, c, m, "after 12 INSERTs")
	kinds := snapshotKinds(c)
	compactions := strings.Count(strings.Join(kinds, ","), "COMPACT")
	if compactions == 0 || len(kinds) != 12+compactions {
		t.Fatalf("snapshots %v: want one APPEND per INSERT and some COMPACT ones", kinds)
	}
	for i, kind := range kinds {
		if kind == "COMPACT" && (i == 0 || kinds[i-1] != "APPEND") {
			t.Fatalf("snapshots %v: a COMPACT snapshot must follow its statement's APPEND", kinds)
		}
	}
	levels := fileLevels(c)
	if len(levels) == 0 || levels[0] == sum(levels) {
		t.Fatalf("live files by level %v: want compacted levels", levels)
	}
	stop, err := spec.NewCoreOptions(map[string]string{"num-sorted-run.compaction-trigger": "2"}).NumSortedRunStopTrigger()
	if err != nil {
		t.Fatal(err)
	}
	if runs := sortedRuns(levels); runs > stop {
		t.Fatalf("%d sorted runs (levels %v); the stop trigger is %d", runs, levels, stop)
	}
	checkNoUnreferencedDataFiles(t, h, c)
}

func sum(levels map[int64]int) int {
	n := 0
	for _, count := range levels {
		n += count
	}
	return n
}

// With write-only = true a compaction service does the compacting: SQL
// writes never publish a COMPACT snapshot, however many runs pile up.
func TestSQLWritesOnWriteOnlyTableDoNotCompact(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := createKV(t, h, `"num-sorted-run.compaction-trigger":"2","write-only":"true"`)
	m, rng := kvModel{}, rand.New(rand.NewPCG(3, 5))
	upsertRandomly(c, m, rng, 8, 8, "a")
	wantModel(t, c, m, "after 8 INSERTs")
	if kinds := snapshotKinds(c); slices.Contains(kinds, "COMPACT") || len(kinds) != 8 {
		t.Fatalf("snapshots %v: want 8 APPENDs", kinds)
	}
	if levels := fileLevels(c); levels[0] != 8 || len(levels) != 1 {
		t.Fatalf("live files by level %v: want 8 level-0 files", levels)
	}
}

// A compaction service compacts the bucket between a transaction's write
// and its COMMIT: the transaction's inline compaction then names files
// that are gone and loses its COMPACT part. The rows are committed all
// the same, COMMIT succeeds with a warning, and the lost compaction's
// output files are deleted.
func TestLostInlineCompactionKeepsTheCommit(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := createKV(t, h, `"num-sorted-run.compaction-trigger":"2"`)
	c.mustExec("INSERT INTO kv VALUES (1, 'one')")
	c.mustExec("BEGIN", "INSERT INTO kv VALUES (2, 'two')")
	tx := c.session.GetTransaction().(*Transaction)
	if !stagedCompaction(tx) {
		t.Fatal("the INSERT did not compact inline; the test needs it to")
	}
	tb, err := h.backend.OpenTable(context.Background(), "db", "kv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compact.Table(context.Background(), compact.Options{FileIO: h.backend.FileIO(), TableDir: tb.Dir(),
		Mode: compact.Full, Now: h.backend.opts.Now}); err != nil {
		t.Fatal(err)
	}
	c.mustExec("COMMIT")
	if w := c.session.Warnings(); len(w) != 1 || !strings.Contains(w[0].Message, "inline compaction was not") ||
		!strings.Contains(w[0].Message, "deleted file no longer live") {
		t.Fatalf("warnings %v: want one naming the dropped compaction and its conflict", w)
	}
	if kinds := snapshotKinds(c); !slices.Equal(kinds, []string{"APPEND", "COMPACT", "APPEND"}) {
		t.Fatalf("snapshots %v: want the first INSERT, the service's compaction, the transaction's APPEND", kinds)
	}
	wantModel(t, c, kvModel{1: "one", 2: "two"}, "after COMMIT")
	checkNoUnreferencedDataFiles(t, h, c)
}

// stagedCompaction reports whether the transaction's staged messages carry
// an inline compaction.
func stagedCompaction(tx *Transaction) bool {
	tx.writes.mu.Lock()
	defer tx.writes.mu.Unlock()
	w := tx.writes.table
	return w != nil && len(w.compaction) > 0
}

// checkNoUnreferencedDataFiles fails unless every data file in the table
// directory is named by some snapshot: compactions that did not commit
// left nothing behind.
func checkNoUnreferencedDataFiles(t *testing.T, h *harness, c *conn) {
	t.Helper()
	referenced := map[string]bool{}
	for _, r := range c.mustQuery("SELECT snapshot_id FROM `kv$snapshots`") {
		for _, f := range c.mustQuery(fmt.Sprintf("SELECT file_path FROM `kv$files` AS OF %d", toInt64(r[0]))) {
			referenced[filepath.Clean(fmt.Sprint(f[0]))] = true
		}
	}
	tb, err := h.backend.OpenTable(context.Background(), "db", "kv")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(tb.Dir(), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "bucket-") {
			return err
		}
		if !referenced[filepath.Clean(p)] {
			t.Errorf("data file %s is named by no snapshot", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// One INSERT of many rows under a tiny write buffer flushes many level-0
// files; the writer compacts whenever a flush brings the bucket to
// num-sorted-run.stop-trigger, so the statement completes with the bucket
// within the trigger, where a write-only table piles up every flush.
func TestLargeInsertStallsAtStopTrigger(t *testing.T) {
	const options = `"write-buffer-size":"2 kb","write-buffer-spillable":"false",` +
		`"num-sorted-run.compaction-trigger":"2","num-sorted-run.stop-trigger":"4"`
	for _, writeOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("write-only=%v", writeOnly), func(t *testing.T) {
			h := newHarness(t, t.TempDir())
			opts := options
			if writeOnly {
				opts += `,"write-only":"true"`
			}
			c := createKV(t, h, opts)
			m := kvModel{}
			var values []string
			for i := range 600 {
				id := int64(i * 7919 % 600)
				m[id] = fmt.Sprintf("v%d-padding-so-the-buffer-fills", i)
				values = append(values, fmt.Sprintf("(%d, '%s')", id, m[id]))
			}
			c.mustExec("INSERT INTO kv VALUES " + strings.Join(values, ", "))
			wantModel(t, c, m, "after the INSERT")
			flushed := fileLevelsAsOf(c, 1)[0]
			if flushed <= 4 {
				t.Fatalf("the INSERT flushed %d files; the test needs more than the stop trigger 4", flushed)
			}
			runs := sortedRuns(fileLevels(c))
			switch {
			case writeOnly && runs != flushed:
				t.Fatalf("write-only: %d sorted runs, want all %d flushes", runs, flushed)
			case !writeOnly && runs > 4:
				t.Fatalf("%d sorted runs after the INSERT, stop trigger 4", runs)
			}
		})
	}
}

func fileLevelsAsOf(c *conn, snapshot int64) map[int64]int {
	out := map[int64]int{}
	for _, r := range c.mustQuery(fmt.Sprintf("SELECT level FROM `kv$files` AS OF %d", snapshot)) {
		out[toInt64(r[0])]++
	}
	return out
}

// An explicit transaction reads its own writes while its writer compacts
// the files of its earlier statements and of the table: every statement
// sees the model, and COMMIT publishes the data and the compaction.
func TestTransactionReadsItsOwnWritesWhileCompacting(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := createKV(t, h, `"num-sorted-run.compaction-trigger":"2"`)
	m, rng := kvModel{}, rand.New(rand.NewPCG(9, 4))
	upsertRandomly(c, m, rng, 3, 10, "committed")
	c.mustExec("BEGIN")
	tx := c.session.GetTransaction().(*Transaction)
	for round := range 6 {
		upsertRandomly(c, m, rng, 2, 10, fmt.Sprintf("tx%d", round))
		id := rng.Int64N(10)
		c.mustExec(fmt.Sprintf("DELETE FROM kv WHERE id = %d", id))
		delete(m, id)
		c.mustExec(fmt.Sprintf("UPDATE kv SET v = CONCAT(v, '+') WHERE id < %d", round+3))
		for k, v := range m {
			if k < int64(round+3) {
				m[k] = v + "+"
			}
		}
		wantModel(t, c, m, fmt.Sprintf("round %d of the transaction", round))
	}
	if !stagedCompaction(tx) {
		t.Fatal("the transaction's writer never compacted; the test needs it to")
	}
	before := len(snapshotKinds(c))
	c.mustExec("COMMIT")
	if kinds := snapshotKinds(c)[before:]; !slices.Equal(kinds, []string{"APPEND", "COMPACT"}) {
		t.Fatalf("COMMIT published %v, want APPEND then COMPACT", kinds)
	}
	wantModel(t, c, m, "after COMMIT")
	other := h.connect()
	other.mustExec("USE db")
	wantModel(t, other, m, "in another session")
	checkNoUnreferencedDataFiles(t, h, c)
}

// An INSERT OVERWRITE in a transaction whose earlier INSERT compacted:
// the overwrite replaces the files that compaction rewrote, so the commit
// drops it (one OVERWRITE snapshot, no COMPACT one) and deletes its
// outputs. The rows are those of the same transaction without compaction.
func TestOverwriteDropsTheTransactionsCompaction(t *testing.T) {
	var want []string
	for _, writeOnly := range []bool{true, false} {
		h := newHarness(t, t.TempDir())
		c := createKV(t, h, fmt.Sprintf(`"num-sorted-run.compaction-trigger":"2","write-only":"%v"`, writeOnly))
		c.mustExec("INSERT INTO kv VALUES (1, 'one')")
		c.mustExec("BEGIN", "INSERT INTO kv VALUES (2, 'two')")
		if compacted := stagedCompaction(c.session.GetTransaction().(*Transaction)); compacted == writeOnly {
			t.Fatalf("write-only=%v: the INSERT compacted: %v", writeOnly, compacted)
		}
		c.mustExec("INSERT OVERWRITE kv VALUES (3, 'three')", "COMMIT")
		if kinds := snapshotKinds(c); !slices.Equal(kinds, []string{"APPEND", "OVERWRITE"}) {
			t.Fatalf("write-only=%v: snapshots %v: want the INSERT's APPEND and one OVERWRITE", writeOnly, kinds)
		}
		got := format(c.mustQuery("SELECT id, v FROM kv ORDER BY id"))
		if writeOnly {
			want = got
		} else if !slices.Equal(got, want) {
			t.Fatalf("rows %q; the same transaction without compaction gives %q", got, want)
		}
		checkNoUnreferencedDataFiles(t, h, c)
	}
}
