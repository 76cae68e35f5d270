package table

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// A pinned read (a SQL transaction, a long reconciliation) reads snapshot
// N well after it resolved it: planning reads N's manifest lists and
// manifests, and the read opens its data files later still. Expiry (or
// the deletion of the tag that held N) may delete those files in between,
// which surfaces as a file that does not exist. Such a read gets
// lakeerr.ErrNotFound naming the snapshot, like a read of a snapshot that
// was gone before it started; a file missing while something still holds
// the snapshot is damage, lakeerr.ErrCorruption.

// vanishedFileError classifies err, a failure to plan or read snap (pinned
// through tag when tag is not ""), if a missing file caused it; other
// errors, errors already classified, and errors of a cancelled read (which
// nobody waits for) are returned unchanged.
func (t *Table) vanishedFileError(ctx context.Context, snap *spec.Snapshot, tag string, err error) error {
	if snap == nil || ctx.Err() != nil || !errors.Is(err, fileio.ErrNotExist) ||
		errors.Is(err, lakeerr.ErrNotFound) || errors.Is(err, lakeerr.ErrCorruption) {
		return err
	}
	subject := fmt.Sprintf("snapshot %d", snap.ID)
	if tag != "" {
		subject = fmt.Sprintf("tag %q (snapshot %d)", tag, snap.ID)
	}
	lost, checkErr := t.pinLost(ctx, snap, tag)
	switch {
	case checkErr != nil:
		return fmt.Errorf("%w (checking whether %s is still retained failed: %v)", err, subject, checkErr)
	case lost != "":
		return fmt.Errorf("%s %s; re-run the statement: %w: %w", subject, lost, lakeerr.ErrNotFound, err)
	}
	return fmt.Errorf("%s is retained but a file it needs is missing: %w: %w", subject, lakeerr.ErrCorruption, err)
}

// pinLost says how the files of snap went away (pinned through tag when
// tag is not ""), or "" when the snapshot or a tag still holds them.
func (t *Table) pinLost(ctx context.Context, snap *spec.Snapshot, tag string) (string, error) {
	fileHolds, err := t.snapshotFileHolds(ctx, snap)
	if err != nil {
		return "", err
	}
	expiringBelow := int64(0)
	if fileHolds {
		if expiringBelow, err = t.expiringBelow(ctx); err != nil {
			return "", err
		}
		if snap.ID >= expiringBelow {
			return "", nil
		}
	}
	if held, err := t.tagHolds(ctx, snap); err != nil || held {
		return "", err
	}
	switch {
	case tag != "":
		return "was deleted while it was being read", nil
	case fileHolds:
		return fmt.Sprintf("expired while it was being read (an expiry of the snapshots before %d is running)", expiringBelow), nil
	}
	earliest, ok, err := t.snapshots.EarliestID(ctx)
	if err != nil || !ok {
		return "expired while it was being read", err
	}
	return fmt.Sprintf("expired while it was being read (earliest is now %d)", earliest), nil
}

// snapshotFileHolds reports whether snapshot-<id> is still there and is
// snap (a rollback and new commits can write another snapshot of that id).
func (t *Table) snapshotFileHolds(ctx context.Context, snap *spec.Snapshot) (bool, error) {
	current, err := t.snapshots.Snapshot(ctx, snap.ID)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return false, nil
	}
	return err == nil && sameSnapshot(current, snap), err
}

// tagHolds reports whether a tag holds snap: tags keep their snapshot's
// files after the snapshot itself expires.
func (t *Table) tagHolds(ctx context.Context, snap *spec.Snapshot) (bool, error) {
	names, err := t.snapshots.TagNames(ctx)
	if err != nil {
		return false, err
	}
	for _, name := range names {
		tag, err := t.snapshots.Tag(ctx, name)
		if errors.Is(err, lakeerr.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, err
		}
		if sameSnapshot(&tag.Snapshot, snap) {
			return true, nil
		}
	}
	return false, nil
}

func sameSnapshot(a, b *spec.Snapshot) bool {
	return a.ID == b.ID && a.BaseManifestList == b.BaseManifestList && a.DeltaManifestList == b.DeltaManifestList
}

// expiringBelow is the highest end an expiry intent announces, 0 if none:
// the snapshots below it are being deleted (or were half deleted by an
// expiry that crashed, until a later one finishes), data files first and
// snapshot files last.
func (t *Table) expiringBelow(ctx context.Context) (int64, error) {
	ends, err := t.snapshots.ExpiryIntents(ctx)
	if err != nil || len(ends) == 0 {
		return 0, err
	}
	return slices.Max(ends), nil
}

// vanishedFileError classifies a failure to read the task's split.
func (tk *task) vanishedFileError(ctx context.Context, err error) error {
	return tk.r.table.vanishedFileError(ctx, tk.r.plan.Snapshot, tk.r.plan.tag, err)
}
