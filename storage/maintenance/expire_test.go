package maintenance

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"

	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// buildHistory commits a history holding every change expiry must handle
// (new files, a partition overwrite, an upgrade of a file to another level
// without rewrite, a row-level delete of a whole file) and two tags, one
// on a snapshot that will expire.
func buildHistory(f *fixture) {
	f.T.Helper()
	ctx := context.Background()
	f.insert("w1", row("d1", 1, "a"), row("d1", 2, "b"), row("d2", 3, "c")) // 1
	f.insert("w1", row("d1", 1, "a2"), row("d2", 4, "d"))                   // 2
	if _, err := CreateTag(ctx, f.FS, f.Dir, "t2", CreateTagOptions{Now: f.clock.Now}); err != nil {
		f.T.Fatal(err)
	}
	f.insert("w2", row("d3", 5, "e"))                    // 3
	f.overwrite("w1", "d1", row("d1", 10, "x"))          // 4
	f.upgrade("w2", f.liveIn("d3")[0], 5)                // 5
	f.insert("w2", row("d2", 6, "f"), row("d3", 7, "g")) // 6
	f.dropFile("w1", f.liveIn("d2")[0])                  // 7
	retained := 48 * time.Hour
	if _, err := CreateTag(ctx, f.FS, f.Dir, "t7", CreateTagOptions{TimeRetained: &retained, Now: f.clock.Now}); err != nil {
		f.T.Fatal(err)
	}
	for i := range int64(6) { // 8..13; 11 replaces what 8 to 10 wrote
		if i == 3 {
			f.overwrite("w3", "d4", row("d4", 1, "z"))
			continue
		}
		f.insert("w3", row("d4", 100+i, "h"), row("d1", 10, "y"))
	}
}

// liveIn returns the live entries of partition dt in the latest snapshot,
// sorted by file name.
func (f *fixture) liveIn(dt string) []spec.ManifestEntry {
	f.T.Helper()
	s, err := snapshot.NewManager(f.FS, f.Dir, "").Latest(context.Background())
	if err != nil {
		f.T.Fatal(err)
	}
	want, err := spec.SerializeBinaryRow([]spec.DataType{stringType}, []any{dt})
	if err != nil {
		f.T.Fatal(err)
	}
	var out []spec.ManifestEntry
	for _, e := range liveFiles(f.T, f.FS, f.Dir, s) {
		if string(e.Partition) == string(want) {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File.FileName < out[j].File.FileName })
	if len(out) == 0 {
		f.T.Fatalf("no live file in partition %s", dt)
	}
	return out
}

func intp(n int) *int { return &n }

func TestExpireKeepsRetainedSnapshotsAndTags(t *testing.T) {
	f := newFixture(t, pkTable)
	buildHistory(f)
	before := captureState(t, f.FS, f.Dir)
	res, err := ExpireSnapshots(context.Background(), f.FS, f.Dir, ExpireOptions{RetainMin: intp(3),
		OlderThan: ptr(f.clock.Now()), Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if res.Begin != 1 || res.End != 11 || res.SnapshotsExpired() != 10 {
		t.Fatalf("expired [%d, %d), %d snapshot files; want [1, 11), 10", res.Begin, res.End, res.SnapshotsExpired())
	}
	checkRetained(t, f.FS, f.Dir, before, from(res.End))
	checkNoLeak(t, f.FS, f.Dir)
	for _, kind := range []FileKind{FileKindData, FileKindManifest, FileKindManifestList} {
		if res.Deleted[kind] == 0 {
			t.Errorf("no %s file deleted: %v", kind, res.Deleted)
		}
	}
	earliest, _, err := snapshot.NewManager(f.FS, f.Dir, "").EarliestID(context.Background())
	if err != nil || earliest != 11 {
		t.Errorf("earliest snapshot %d (%v) after expiry, want 11", earliest, err)
	}
}

func TestExpireRespectsTimeRetained(t *testing.T) {
	f := newFixture(t, pkTable)
	buildHistory(f)
	// Snapshot n was committed n minutes after t0 and the clock is at the
	// last, 13: with 4 minutes retained, snapshots 1 to 8 are older.
	res, err := ExpireSnapshots(context.Background(), f.FS, f.Dir, ExpireOptions{RetainMin: intp(1),
		OlderThan: ptr(f.clock.Now().Add(-4 * time.Minute)), Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if res.End != 9 {
		t.Fatalf("expired up to %d, want 9 (the first snapshot committed within the last 4 minutes)", res.End)
	}
	again, err := ExpireSnapshots(context.Background(), f.FS, f.Dir, ExpireOptions{RetainMin: intp(1),
		OlderThan: ptr(f.clock.Now().Add(-4 * time.Minute)), Now: f.clock.Now})
	if err != nil || again.SnapshotsExpired() != 0 {
		t.Fatalf("second run expired %d snapshots, err %v; want none", again.SnapshotsExpired(), err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestExpireDefaultsFromTableOptions(t *testing.T) {
	f := newFixture(t, pkTable)
	buildHistory(f)
	// Defaults: 10 retained at least, one hour: 13 snapshots minutes apart
	// keep 10.
	f.clock.Advance(2 * time.Hour)
	res, err := ExpireSnapshots(context.Background(), f.FS, f.Dir, ExpireOptions{Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if res.Begin != 1 || res.End != 4 {
		t.Fatalf("expired [%d, %d), want [1, 4)", res.Begin, res.End)
	}
	ids, err := snapshot.NewManager(f.FS, f.Dir, "").IDs(context.Background())
	if err != nil || !slices.Equal(ids, []int64{4, 5, 6, 7, 8, 9, 10, 11, 12, 13}) {
		t.Fatalf("snapshots %v (%v) after expiry", ids, err)
	}
}

// TestExpireKeepsConsumerSnapshots: a consumer's next snapshot, and what
// follows, survive however old they are.
func TestExpireKeepsConsumerSnapshots(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	buildHistory(f)
	if err := f.FS.PutIfAbsent(ctx, path.Join(f.Dir, "consumer", "consumer-reader"), spec.EncodeConsumer(&spec.Consumer{NextSnapshot: 5})); err != nil {
		t.Fatal(err)
	}
	before := captureState(t, f.FS, f.Dir)
	res, err := ExpireSnapshots(ctx, f.FS, f.Dir, ExpireOptions{RetainMin: intp(1), OlderThan: ptr(f.clock.Now()), Now: f.clock.Now})
	if err != nil || res.End != 5 {
		t.Fatalf("expired up to %d, %v; want 5, the consumer's next snapshot", res.End, err)
	}
	checkRetained(t, f.FS, f.Dir, before, from(5))
	checkNoLeak(t, f.FS, f.Dir)
}

// TestExpireKeepsBranchFiles: a branch (made as Java does, by copying a
// snapshot and the schema into branch/branch-<name>) shares the table's
// data files and manifests; expiring the main branch must keep them.
func TestExpireKeepsBranchFiles(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	buildHistory(f)
	for _, p := range []string{"schema/schema-0", "snapshot/snapshot-5"} {
		data, err := f.FS.ReadFile(ctx, path.Join(f.Dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.FS.PutIfAbsent(ctx, path.Join(f.Dir, "branch", "branch-b", p), data); err != nil {
			t.Fatal(err)
		}
	}
	want := captureState(t, f.FS, f.Dir).snapshots[5]
	if _, err := ExpireSnapshots(ctx, f.FS, f.Dir, ExpireOptions{RetainMin: intp(1), OlderThan: ptr(f.clock.Now()), Now: f.clock.Now}); err != nil {
		t.Fatal(err)
	}
	b, err := table.OpenBranch(ctx, f.FS, f.Dir, "b")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := b.Read(ctx, table.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		t.Fatalf("branch b after expiry: %v", err)
	}
	if len(all) != len(want) {
		t.Fatalf("branch b reads %d rows, want %d", len(all), len(want))
	}
}

// vanishingTemps fails the first puts of expiry intents as localio does
// when an orphan removal on another server deleted the put's temp file
// before its link.
type vanishingTemps struct {
	fileio.FileIO
	left int
}

func (v *vanishingTemps) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if strings.HasPrefix(path.Base(p), ".expiring-") && v.left > 0 {
		v.left--
		return &os.LinkError{Op: "link", Old: p + ".tmp", New: p, Err: syscall.ENOENT}
	}
	return v.FileIO.PutIfAbsent(ctx, p, data)
}

// An expiry whose intent's temp file vanished puts the intent again, and
// gives up, with the error, when it keeps vanishing.
func TestExpiryIntentSurvivesAVanishedTempFile(t *testing.T) {
	for _, c := range []struct {
		vanish int
		fails  bool
	}{{vanish: putAttempts - 1}, {vanish: putAttempts, fails: true}} {
		f := newFixture(t, pkTable)
		buildHistory(f)
		fsys := &vanishingTemps{FileIO: f.FS, left: c.vanish}
		_, err := ExpireSnapshots(context.Background(), fsys, f.Dir, ExpireOptions{RetainMin: intp(3),
			OlderThan: ptr(f.clock.Now()), Now: f.clock.Now})
		if (err != nil) != c.fails || c.fails && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%d vanished temp files: %v", c.vanish, err)
		}
	}
}
