package maintenance

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// TestOrphanScanDuringTagWithdrawal: CreateTag checks snapshot 2, an expiry
// that deletes it runs up to each of its points, then CreateTag writes its
// tag, with an orphan scan at each of its points, and the expiry finishes.
// A tag written after the expiry's last look at the tags is deleted again
// by CreateTag, which finds the expiry's intent; until then it names a
// manifest list the expiry may have deleted. A scan that reads it then
// must report a retryable conflict, not a broken tag (as
// TestMultiServerMaintenance once saw), and no retained snapshot or tag
// may lose a file.
func TestOrphanScanDuringTagWithdrawal(t *testing.T) {
	ctx := context.Background()
	base := newFixture(t, pkTable)
	for i := range int64(6) {
		base.insert("w", row("d1", i, "v"), row("d2", 10+i, "v"))
	}
	want, err := readAt(base.FS, base.Dir, snapshot.TimeTravel{SnapshotID: 2})
	if err != nil {
		t.Fatal(err)
	}
	expire := func(f *fixture, fio fileio.FileIO) error {
		_, err := ExpireSnapshots(ctx, fio, f.Dir, ExpireOptions{RetainMin: intp(2), RetainMax: intp(2), Now: f.clock.Now})
		return err
	}
	createTag := func(f *fixture, fio fileio.FileIO) error {
		_, err := CreateTag(ctx, fio, f.Dir, "late", CreateTagOptions{SnapshotID: 2, Now: f.clock.Now})
		return err
	}
	expiryOps := countOps(t, base, expire)
	// CreateTag lists and reads the schema, reads snapshot 2, looks for
	// intents and checks that the snapshot is still there, then writes
	// the tag (its sixth operation) and checks again; a withdrawal
	// deletes the tag after. An expiry that started before the first
	// check makes CreateTag refuse without writing; one that runs between
	// the checks is the window swept here.
	const tagWrite = 5
	tagOps := countOps(t, base, createTag)
	inDoubt := 0
	for k := range expiryOps {
		for j := tagWrite; j <= tagOps; j++ {
			f := base.clone(base.mem.CrashClone())
			var scanErr error
			expiry := startPaused(f.FS, k, func(fio fileio.FileIO) error { return expire(f, fio) })
			afterRead := &hookFS{FileIO: f.FS, at: tagWrite, hook: expiry.waitPaused}
			scanDuringTag := &hookFS{FileIO: afterRead, at: j, hook: func() {
				_, scanErr = RemoveOrphanFiles(ctx, f.FS, f.Dir, OrphanOptions{OlderThan: new(time.Duration), Now: f.clock.Now})
			}}
			createErr := createTag(f, scanDuringTag)
			if err := expiry.finish(); err != nil && !errors.Is(err, lakeerr.ErrRetryableConflict) {
				t.Fatalf("expiry point %d, tag point %d: expiry: %v", k, j, err)
			}
			switch {
			case scanErr != nil && !errors.Is(scanErr, lakeerr.ErrRetryableConflict):
				t.Fatalf("expiry point %d, tag point %d: orphan scan: %v", k, j, scanErr)
			case createErr != nil && !errors.Is(createErr, lakeerr.ErrNotFound):
				t.Fatalf("expiry point %d, tag point %d: create tag: %v", k, j, createErr)
			case scanErr != nil && strings.Contains(scanErr.Error(), "withdrawn"):
				inDoubt++
			}
			checkTagsRead(t, f, createErr == nil, want)
			if t.Failed() {
				t.Fatalf("expiry point %d, tag point %d", k, j)
			}
		}
	}
	if inDoubt == 0 {
		t.Fatal("no orphan scan read a tag being withdrawn: the sweep misses the window")
	}
	t.Logf("%d of %d points read a tag being withdrawn", inDoubt, expiryOps*(tagOps-tagWrite+1))
}

// pausedRun is an operation running in a goroutine that stops before its
// at-th file operation until finish is called.
type pausedRun struct {
	paused, resume chan struct{}
	done           chan error
}

func startPaused(fio fileio.FileIO, at int, op func(fileio.FileIO) error) *pausedRun {
	r := &pausedRun{paused: make(chan struct{}), resume: make(chan struct{}), done: make(chan error, 1)}
	h := &hookFS{FileIO: fio, at: at, hook: func() {
		close(r.paused)
		<-r.resume
	}}
	go func() { r.done <- op(h) }()
	return r
}

// waitPaused returns once the run has reached its pause point, or ended
// before it.
func (r *pausedRun) waitPaused() {
	select {
	case <-r.paused:
	case err := <-r.done:
		r.done <- err
	}
}

// finish lets the run go on and returns its error.
func (r *pausedRun) finish() error {
	close(r.resume)
	return <-r.done
}

// countOps is the number of file operations of a clean run of op on a
// copy of base.
func countOps(t *testing.T, base *fixture, op func(f *fixture, fio fileio.FileIO) error) int {
	t.Helper()
	f := base.clone(base.mem.CrashClone())
	trace := errorio.Wrap(f.FS, nil)
	if err := op(f, trace); err != nil {
		t.Fatal(err)
	}
	return len(trace.Trace())
}

// checkTagsRead reads every snapshot and tag of f in full; tag "late" must
// exist exactly when its CreateTag succeeded, and read as want.
func checkTagsRead(t *testing.T, f *fixture, created bool, want []string) {
	t.Helper()
	ctx := context.Background()
	mgr := snapshot.NewManager(f.FS, f.Dir, "")
	ids, err := mgr.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{SnapshotID: id}); err != nil {
			t.Errorf("snapshot %d: %v", id, err)
		}
	}
	names, err := mgr.TagNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(names, "late") != created {
		t.Errorf("tag late exists: %v, its CreateTag succeeded: %v", !created, created)
	}
	for _, name := range names {
		got, err := readAt(f.FS, f.Dir, snapshot.TimeTravel{Tag: name})
		if err != nil {
			t.Errorf("tag %s: %v", name, err)
		} else if name == "late" && !slices.Equal(got, want) {
			t.Errorf("tag late reads %v, want snapshot 2's %v", got, want)
		}
	}
}

// TestCreateTagRefusesBeforeWriting: CreateTag reads snapshot 2, then an
// expiry that deletes it runs up to each of its points and stays there
// while CreateTag goes on. Whenever the expiry has begun deleting (its
// intent is recorded), CreateTag must refuse without writing the tag:
// written and withdrawn, the tag would name missing files for a while,
// which TestMultiServerMaintenance's orphan scans reported as a broken
// tag.
func TestCreateTagRefusesBeforeWriting(t *testing.T) {
	ctx := context.Background()
	base := newFixture(t, pkTable)
	for i := range int64(6) {
		base.insert("w", row("d1", i, "v"), row("d2", 10+i, "v"))
	}
	expire := func(f *fixture, fio fileio.FileIO) error {
		_, err := ExpireSnapshots(ctx, fio, f.Dir, ExpireOptions{RetainMin: intp(2), RetainMax: intp(2), Now: f.clock.Now})
		return err
	}
	const afterSnapshotRead = 3
	refused := 0
	for k := range countOps(t, base, expire) {
		f := base.clone(base.mem.CrashClone())
		expiry := startPaused(f.FS, k, func(fio fileio.FileIO) error { return expire(f, fio) })
		tagFS := &tagPutCounter{FileIO: &hookFS{FileIO: f.FS, at: afterSnapshotRead, hook: expiry.waitPaused}}
		_, createErr := CreateTag(ctx, tagFS, f.Dir, "late", CreateTagOptions{SnapshotID: 2, Now: f.clock.Now})
		if err := expiry.finish(); err != nil && !errors.Is(err, lakeerr.ErrRetryableConflict) {
			t.Fatalf("expiry point %d: %v", k, err)
		}
		switch {
		case createErr != nil && !errors.Is(createErr, lakeerr.ErrNotFound):
			t.Fatalf("expiry point %d: create tag: %v", k, createErr)
		case createErr != nil && tagFS.puts > 0:
			t.Fatalf("expiry point %d: the tag was written, then withdrawn (%v)", k, createErr)
		case createErr != nil:
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("no expiry point made CreateTag refuse")
	}
}

// tagPutCounter counts the tag files put.
type tagPutCounter struct {
	fileio.FileIO
	puts int
}

func (c *tagPutCounter) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	if strings.Contains(p, "/tag/tag-") {
		c.puts++
	}
	return c.FileIO.PutIfAbsent(ctx, p, data)
}
