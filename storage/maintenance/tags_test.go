package maintenance

import (
	"context"
	"errors"
	"path"
	"slices"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
)

func TestCreateTag(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	f.insert("w", row("d1", 1, "a"))
	f.insert("w", row("d1", 2, "b"))
	mgr := snapshot.NewManager(f.FS, f.Dir, "")

	latest, err := CreateTag(ctx, f.FS, f.Dir, "latest", CreateTagOptions{Now: f.clock.Now})
	if err != nil || latest.ID != 2 || latest.CreateTime != nil || latest.TimeRetained != nil {
		t.Fatalf("tag of the latest snapshot: %+v, %v; want snapshot 2 without retention", latest, err)
	}
	// Without a retention the file is the snapshot's JSON, byte for byte,
	// as Java writes it.
	tagFile, err := f.FS.ReadFile(ctx, mgr.TagPath("latest"))
	if err != nil {
		t.Fatal(err)
	}
	snapshotFile, err := f.FS.ReadFile(ctx, mgr.SnapshotPath(2))
	if err != nil || string(tagFile) != string(snapshotFile) {
		t.Fatalf("tag file\n%s\nis not snapshot 2's\n%s", tagFile, snapshotFile)
	}

	week := 7 * 24 * time.Hour
	if _, err := CreateTag(ctx, f.FS, f.Dir, "first", CreateTagOptions{SnapshotID: 1, TimeRetained: &week, Now: f.clock.Now}); err != nil {
		t.Fatal(err)
	}
	first, err := mgr.Tag(ctx, "first")
	if err != nil {
		t.Fatal(err)
	}
	if first.ID != 1 || first.TimeRetained == nil || *first.TimeRetained != week ||
		first.CreateTime == nil || !first.CreateTime.Equal(wallClock(f.clock.Now(), time.UTC)) {
		t.Fatalf("tag of snapshot 1 with retention: %+v", first)
	}
	want, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{SnapshotID: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{Tag: "first"}); err != nil || !slices.Equal(got, want) {
		t.Fatalf("tag reads %v (%v), want %v", got, err, want)
	}

	for _, tc := range []struct {
		name string
		opts CreateTagOptions
		want error
	}{
		{name: "first", want: ErrAlreadyExists},
		{name: " ", want: ErrInvalidArgument},
		{name: "a/b", want: ErrInvalidArgument},
		{name: "gone", opts: CreateTagOptions{SnapshotID: 9}, want: lakeerr.ErrNotFound},
		{name: "negative", opts: CreateTagOptions{SnapshotID: -1}, want: ErrInvalidArgument},
		{name: "zero-retention", opts: CreateTagOptions{TimeRetained: new(time.Duration)}, want: ErrInvalidArgument},
	} {
		if _, err := CreateTag(ctx, f.FS, f.Dir, tc.name, tc.opts); !errors.Is(err, tc.want) {
			t.Errorf("create tag %q %+v: %v, want %v", tc.name, tc.opts, err, tc.want)
		}
	}
}

// expiredHistory is buildHistory with snapshots 1 to 10 expired, so that
// tag t2 holds an expired snapshot and t7 one that is gone too.
func expiredHistory(f *fixture) {
	f.T.Helper()
	buildHistory(f)
	if _, err := ExpireSnapshots(context.Background(), f.FS, f.Dir, ExpireOptions{RetainMin: intp(3),
		OlderThan: ptr(f.clock.Now()), Now: f.clock.Now}); err != nil {
		f.T.Fatal(err)
	}
}

func TestCreateTagOfExpiredSnapshotHeldByTag(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	expiredHistory(f)
	want, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{Tag: "t2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateTag(ctx, f.FS, f.Dir, "copy", CreateTagOptions{SnapshotID: 2}); err != nil {
		t.Fatal(err)
	}
	if got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{Tag: "copy"}); err != nil || !slices.Equal(got, want) {
		t.Fatalf("copy reads %v (%v), want %v", got, err, want)
	}
}

func TestDeleteTag(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	expiredHistory(f)
	if _, err := CreateTag(ctx, f.FS, f.Dir, "t12", CreateTagOptions{SnapshotID: 12}); err != nil {
		t.Fatal(err)
	}
	before := captureState(t, f.FS, f.Dir)

	// The snapshot of t12 exists: only the tag file goes.
	res, err := DeleteTag(ctx, f.FS, f.Dir, "t12")
	if err != nil || len(res.Deleted) != 0 || res.SnapshotID != 12 {
		t.Fatalf("delete t12: %+v, %v; want only the tag file deleted", res, err)
	}
	// t2's snapshot expired: the files only it holds go with it.
	res, err = DeleteTag(ctx, f.FS, f.Dir, "t2")
	if err != nil || res.Deleted[FileKindData] == 0 || res.Deleted[FileKindManifestList] == 0 {
		t.Fatalf("delete t2: %+v, %v; want its own data files and lists deleted", res, err)
	}
	delete(before.tags, "t2")
	delete(before.tags, "t12")
	checkRetained(t, f.FS, f.Dir, before, from(11))
	checkNoLeak(t, f.FS, f.Dir)

	if _, err := DeleteTag(ctx, f.FS, f.Dir, "t2"); !errors.Is(err, lakeerr.ErrNotFound) {
		t.Fatalf("deleting a missing tag: %v, want not found", err)
	}
}

// TestDeleteTagReportsFilesLeft: once the tag file is gone the tag is
// deleted, so a failure to work out which files only it held makes the
// call succeed with those files left to orphan removal (FilesLeft), not
// fail: a retry would only find no tag.
func TestDeleteTagReportsFilesLeft(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	expiredHistory(f)
	tagPath := path.Join(f.Dir, "tag", "tag-t2")
	fio := errorio.Wrap(f.FS, &failReadsAfterDelete{path: tagPath})
	res, err := DeleteTag(ctx, fio, f.Dir, "t2")
	if err != nil || !errors.Is(res.FilesLeft, fileio.ErrInjected) || len(res.Deleted) != 0 {
		t.Fatalf("DeleteTag with reads failing after the tag file went: %+v, %v; want success with FilesLeft", res, err)
	}
	if ok, err := fileio.Exists(ctx, f.FS, tagPath); ok || err != nil {
		t.Fatalf("tag file exists %v (%v), want it deleted", ok, err)
	}
}

// failReadsAfterDelete fails every read once path has been deleted.
type failReadsAfterDelete struct {
	path    string
	deleted bool
}

func (i *failReadsAfterDelete) Fault(op errorio.Op) errorio.Fault {
	if op.Kind == errorio.Delete && op.Path == i.path {
		i.deleted = true
	}
	if i.deleted && (op.Kind == errorio.Read || op.Kind == errorio.List) {
		return errorio.FailBefore
	}
	return errorio.NoFault
}

// TestDeleteTagNextToBrokenTag is apache/paimon#6479: a neighbouring tag
// whose manifest list is missing must stop the deletion of another tag
// before anything, its tag file included, is deleted, rather than let it
// delete what the broken tag's readable neighbours share.
func TestDeleteTagNextToBrokenTag(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	expiredHistory(f)
	t7, err := snapshot.NewManager(f.FS, f.Dir, "").Tag(ctx, "t7")
	if err != nil {
		t.Fatal(err)
	}
	filesBefore := tableFiles(f.mem)
	if err := f.FS.Delete(ctx, path.Join(f.Dir, "manifest", t7.BaseManifestList)); err != nil {
		t.Fatal(err)
	}
	_, err = DeleteTag(ctx, f.FS, f.Dir, "t2")
	if !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("delete t2 next to a broken t7: %v, want a corruption error naming t7", err)
	}
	var lost []string
	after := tableFiles(f.mem)
	for _, p := range filesBefore {
		if !slices.Contains(after, p) && path.Base(p) != t7.BaseManifestList {
			lost = append(lost, p)
		}
	}
	if len(lost) > 0 {
		t.Fatalf("files deleted despite the broken tag: %v", lost)
	}
}

func TestExpireTags(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, pkTable)
	buildHistory(f) // t2 without retention, t7 kept 48 hours
	f.clock.Advance(47 * time.Hour)
	res, err := ExpireTags(ctx, f.FS, f.Dir, ExpireTagsOptions{Now: f.clock.Now})
	if err != nil || len(res.Expired) != 0 {
		t.Fatalf("after 47 hours: expired %v, %v; want none", res.Expired, err)
	}
	f.clock.Advance(2 * time.Hour)
	res, err = ExpireTags(ctx, f.FS, f.Dir, ExpireTagsOptions{Now: f.clock.Now})
	if err != nil || !slices.Equal(res.Expired, []string{"t7"}) {
		t.Fatalf("after 49 hours: expired %v, %v; want t7", res.Expired, err)
	}
	// older_than reaches tags without a retention by their file's age.
	res, err = ExpireTags(ctx, f.FS, f.Dir, ExpireTagsOptions{OlderThan: ptr(f.clock.Now().Add(-time.Hour)), Now: f.clock.Now})
	if err != nil || !slices.Equal(res.Expired, []string{"t2"}) {
		t.Fatalf("older than an hour ago: expired %v, %v; want t2", res.Expired, err)
	}
}

func TestTagAgeExpired(t *testing.T) {
	created := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	tests := []struct {
		name      string
		age       tagAge
		now       time.Time
		olderThan *time.Time
		want      bool
	}{
		{"no creation time", tagAge{retained: &day}, created.Add(2 * day), nil, false},
		{"within retention", tagAge{created: &created, retained: &day}, created.Add(day), nil, false},
		{"past retention", tagAge{created: &created, retained: &day}, created.Add(day + time.Millisecond), nil, true},
		{"no retention", tagAge{created: &created}, created.Add(100 * day), nil, false},
		{"older than", tagAge{created: &created}, created.Add(day), ptr(created.Add(time.Second)), true},
		{"not older than", tagAge{created: &created}, created.Add(day), ptr(created), false},
	}
	for _, tc := range tests {
		if got := tc.age.expired(tc.now, tc.olderThan, time.UTC); got != tc.want {
			t.Errorf("%s: expired=%v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDeleteTagFaultSweep deletes a tag whose snapshot expired with a
// fault at each step. The tag file goes first, so a fault afterwards
// leaks the files only it held; RemoveOrphanFiles reclaims them.
func TestDeleteTagFaultSweep(t *testing.T) {
	sweep(t, sweepCase{
		setup: expiredHistory,
		run: func(f *fixture, fio fileio.FileIO) error {
			_, err := DeleteTag(context.Background(), fio, f.Dir, "t2")
			return err
		},
		rerun: func(f *fixture, fio fileio.FileIO) error {
			_, err := DeleteTag(context.Background(), fio, f.Dir, "t2")
			if !errors.Is(err, lakeerr.ErrNotFound) {
				return err
			}
			_, err = RemoveOrphanFiles(context.Background(), fio, f.Dir, OrphanOptions{OlderThan: new(time.Duration), Now: f.clock.Now})
			return err
		},
		keep:     from(11),
		dropTags: []string{"t2"},
	})
}
