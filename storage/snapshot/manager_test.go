package snapshot

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

const tableDir = "/wh/db.db/t"

// fakeTable writes snapshot files with the given commit times: ids start at
// first and are contiguous, as expiry leaves them.
func fakeTable(t *testing.T, first int64, times ...int64) (*memio.FS, *Manager) {
	t.Helper()
	fs := memio.New()
	m := NewManager(fs, tableDir, "")
	for i, ms := range times {
		putSnapshot(t, fs, m, first+int64(i), ms)
	}
	return fs, m
}

func putSnapshot(t *testing.T, fs fileio.FileIO, m *Manager, id, ms int64) {
	t.Helper()
	data, err := spec.EncodeSnapshot(&spec.Snapshot{
		Version: spec.CurrentSnapshotVersion, ID: id, CommitUser: "u", CommitIdentifier: id,
		CommitKind: spec.CommitKindAppend, TimeMillis: ms,
		BaseManifestList: "base", DeltaManifestList: "delta",
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.PutIfAbsent(context.Background(), m.SnapshotPath(id), data); err != nil {
		t.Fatal(err)
	}
}

func putHint(t *testing.T, fs fileio.FileIO, name, value string) {
	t.Helper()
	if err := fs.Overwrite(context.Background(), tableDir+"/snapshot/"+name, []byte(value)); err != nil {
		t.Fatal(err)
	}
}

func TestLatestAndEarliestUseHintsOnlyWhenTheyAreRight(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name             string
		latest, earliest string // hint contents; "" = no hint file
		wantLatest       int64
		wantEarliest     int64
	}{
		{"no hints", "", "", 7, 3},
		{"exact hints", "7", "3", 7, 3},
		{"stale latest hint", "5", "3", 7, 3},
		{"garbage hints", "x", "-1", 7, 3},
		{"hint to an expired earliest", "7", "1", 7, 3},
		{"hint beyond the last snapshot", "9", "3", 7, 3},
	}
	for _, c := range cases {
		fs, m := fakeTable(t, 3, 10, 20, 30, 40, 50)
		if c.latest != "" {
			putHint(t, fs, "LATEST", c.latest)
		}
		if c.earliest != "" {
			putHint(t, fs, "EARLIEST", c.earliest)
		}
		latest, ok, err := m.LatestID(ctx)
		if err != nil || !ok || latest != c.wantLatest {
			t.Errorf("%s: LatestID = %d, %v, %v; want %d", c.name, latest, ok, err, c.wantLatest)
		}
		earliest, ok, err := m.EarliestID(ctx)
		if err != nil || !ok || earliest != c.wantEarliest {
			t.Errorf("%s: EarliestID = %d, %v, %v; want %d", c.name, earliest, ok, err, c.wantEarliest)
		}
	}
}

// TestLatestFoundBeforeIsCheckedAgain: the id LatestID found last is
// returned again only while it is still the latest: another writer's
// commits, a rollback that deletes it, a re-created table that starts at
// 1 and one that reaches it again are each seen on the next call, with or
// without a LATEST hint naming them.
func TestLatestFoundBeforeIsCheckedAgain(t *testing.T) {
	ctx := context.Background()
	fs, m := fakeTable(t, 1, 10, 20, 30)
	want := func(id int64, ok bool) {
		t.Helper()
		got, gotOK, err := m.LatestID(ctx)
		if err != nil || got != id || gotOK != ok {
			t.Fatalf("LatestID = %d, %v, %v; want %d, %v", got, gotOK, err, id, ok)
		}
	}
	want(3, true)
	other := NewManager(fs, tableDir, "")
	putSnapshot(t, fs, other, 4, 40)
	putSnapshot(t, fs, other, 5, 50)
	want(5, true)
	// A rollback to 3: 4 and 5 deleted, the hint rewritten or not.
	for _, id := range []int64{5, 4} {
		if err := fs.Delete(ctx, m.SnapshotPath(id)); err != nil {
			t.Fatal(err)
		}
	}
	want(3, true)
	putHint(t, fs, "LATEST", "3")
	putSnapshot(t, fs, other, 4, 41)
	want(4, true)
	// Dropped and re-created: the ids start again at 1.
	for id := int64(1); id <= 4; id++ {
		if err := fs.Delete(ctx, m.SnapshotPath(id)); err != nil {
			t.Fatal(err)
		}
	}
	want(0, false)
	putSnapshot(t, fs, other, 1, 60)
	want(1, true)
}

func TestEmptyTableHasNoSnapshots(t *testing.T) {
	_, m := fakeTable(t, 1)
	if _, ok, err := m.LatestID(context.Background()); ok || err != nil {
		t.Fatalf("LatestID of an empty table: ok=%v err=%v", ok, err)
	}
	s, err := m.Resolve(context.Background(), TimeTravel{})
	if s != nil || err != nil {
		t.Fatalf("Resolve latest of an empty table = %v, %v; want nil, nil", s, err)
	}
}

func TestMissingSnapshotNamesTheEarliestAvailable(t *testing.T) {
	_, m := fakeTable(t, 4, 10, 20, 30)
	_, err := m.Resolve(context.Background(), TimeTravel{SnapshotID: 2})
	if !errors.Is(err, lakeerr.ErrNotFound) || !strings.Contains(err.Error(), "earliest 4") {
		t.Fatalf("got %v; want a not-found error naming earliest 4", err)
	}
}

func TestResolveByTimestamp(t *testing.T) {
	// Snapshots 3..7 committed at 10, 20, 20, 40, 50.
	_, m := fakeTable(t, 3, 10, 20, 20, 40, 50)
	cases := []struct {
		ms     int64
		wantID int64 // 0 = not found
	}{
		{9, 0}, {10, 3}, {19, 3}, {20, 5}, {39, 5}, {40, 6}, {1000, 7},
	}
	for _, c := range cases {
		ms := c.ms
		s, err := m.Resolve(context.Background(), TimeTravel{TimestampMillis: &ms})
		switch {
		case c.wantID == 0:
			if !errors.Is(err, lakeerr.ErrNotFound) || !strings.Contains(err.Error(), "earliest available snapshot is 3") {
				t.Errorf("t=%d: got %v; want not found naming snapshot 3", c.ms, err)
			}
		case err != nil || s.ID != c.wantID:
			t.Errorf("t=%d: got %v, %v; want snapshot %d", c.ms, s, err, c.wantID)
		}
	}
}

func TestSearchAtOrBeforeSkipsSnapshotsExpiredDuringTheSearch(t *testing.T) {
	times := map[int64]int64{1: 10, 2: 20, 3: 30, 4: 40, 5: 50, 6: 60}
	expired := map[int64]bool{1: true, 2: true, 3: true}
	load := func(id int64) (*spec.Snapshot, error) {
		if expired[id] {
			return nil, nil
		}
		return &spec.Snapshot{ID: id, TimeMillis: times[id]}, nil
	}
	for ms, want := range map[int64]int64{45: 4, 60: 6, 35: 0} {
		got, err := searchAtOrBefore(1, 6, ms, load)
		if err != nil {
			t.Fatal(err)
		}
		if (got == nil && want != 0) || (got != nil && got.ID != want) {
			t.Errorf("t=%d: got %v, want %d", ms, got, want)
		}
	}
}

func TestResolveTagAndVersion(t *testing.T) {
	fs, m := fakeTable(t, 1, 10, 20, 30)
	tag := spec.Tag{Snapshot: spec.Snapshot{Version: 3, ID: 2, CommitUser: "u", CommitKind: spec.CommitKindAppend,
		TimeMillis: 20, BaseManifestList: "b", DeltaManifestList: "d"}}
	data, err := spec.EncodeTag(&tag)
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.PutIfAbsent(context.Background(), m.TagPath("3"), data); err != nil {
		t.Fatal(err)
	}
	// The snapshot the tag points at has expired: the tag still resolves.
	if err := fs.Delete(context.Background(), m.SnapshotPath(2)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tt     TimeTravel
		wantID int64
	}{
		{TimeTravel{Tag: "3"}, 2},
		{TimeTravel{Version: "3"}, 2}, // a tag wins over the snapshot id 3
		{TimeTravel{Version: "1"}, 1},
		{TimeTravel{SnapshotID: 3}, 3},
	}
	for _, c := range cases {
		s, err := m.Resolve(context.Background(), c.tt)
		if err != nil || s.ID != c.wantID {
			t.Errorf("%+v: got %v, %v; want snapshot %d", c.tt, s, err, c.wantID)
		}
	}
	for _, bad := range []TimeTravel{{Tag: "nope"}, {Version: "nope"}, {SnapshotID: -1}} {
		if _, err := m.Resolve(context.Background(), bad); !errors.Is(err, lakeerr.ErrNotFound) {
			t.Errorf("%+v: got %v, want not found", bad, err)
		}
	}
	if _, err := m.Resolve(context.Background(), TimeTravel{Tag: "3", SnapshotID: 1}); err == nil {
		t.Error("two selectors at once were accepted")
	}
}

func TestBranchesHaveTheirOwnSnapshots(t *testing.T) {
	fs := memio.New()
	main, branch := NewManager(fs, tableDir, "main"), NewManager(fs, tableDir, "rt")
	putSnapshot(t, fs, main, 1, 10)
	putSnapshot(t, fs, branch, 1, 10)
	putSnapshot(t, fs, branch, 2, 20)
	if got := branch.SnapshotPath(2); got != tableDir+"/branch/branch-rt/snapshot/snapshot-2" {
		t.Fatalf("branch snapshot path %s", got)
	}
	for m, want := range map[*Manager]int64{main: 1, branch: 2} {
		if id, _, _ := m.LatestID(context.Background()); id != want {
			t.Errorf("%s: latest %d, want %d", m.BranchDir(), id, want)
		}
	}
}

func TestCorruptSnapshotIsReportedWithItsPath(t *testing.T) {
	fs, m := fakeTable(t, 1, 10)
	if err := fs.PutIfAbsent(context.Background(), m.SnapshotPath(2), []byte("{")); err != nil {
		t.Fatal(err)
	}
	_, err := m.Snapshot(context.Background(), 2)
	if !errors.Is(err, lakeerr.ErrCorruption) || !strings.Contains(err.Error(), m.SnapshotPath(2)) {
		t.Fatalf("got %v", err)
	}
}

// A snapshot read again is decoded once, but a rollback that frees an id
// for another commit's snapshot is read as the new file, and what a caller
// does to a snapshot it got stays its own.
func TestSnapshotDecodingFollowsTheFile(t *testing.T) {
	ctx := context.Background()
	fs, m := fakeTable(t, 1, 1000, 2000)
	first, err := m.Snapshot(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	first.Properties = map[string]string{"mine": "x"}
	again, err := m.Snapshot(ctx, 2)
	if err != nil || again.TimeMillis != 2000 || again.Properties != nil {
		t.Fatalf("second read: %+v, %v; want the file's snapshot, untouched by the first caller", again, err)
	}
	again.TimeMillis = 1
	if err := fs.Delete(ctx, m.SnapshotPath(2)); err != nil {
		t.Fatal(err)
	}
	putSnapshot(t, fs, m, 2, 3000)
	rewritten, err := m.Snapshot(ctx, 2)
	if err != nil || rewritten.TimeMillis != 3000 {
		t.Fatalf("after the id was reused: %+v, %v; want the new file's commit time 3000", rewritten, err)
	}
}
