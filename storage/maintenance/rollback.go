package maintenance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// RollbackTarget selects what RollbackTo returns the table to: exactly one
// of a snapshot id or a tag name.
type RollbackTarget struct {
	SnapshotID int64
	Tag        string
}

// RollbackResult says what RollbackTo did.
type RollbackResult struct {
	// SnapshotID is the snapshot the table was rolled back to, now its
	// latest.
	SnapshotID int64
	// SnapshotsDeleted lists the snapshot files deleted, newest first.
	SnapshotsDeleted []int64
	// TagsDeleted names the tags of deleted snapshots.
	TagsDeleted []string
	// Restored is set when the target had expired and its snapshot file was
	// written back from the tag.
	Restored bool
}

// RollbackTo makes a snapshot the latest one again, with Java's semantics
// (Table.rollbackTo on a filesystem catalog): the snapshots after it, and
// the tags and long-lived changelogs of those, are deleted, and the LATEST
// hint names it. Rolling back to a tag whose snapshot has expired writes
// the snapshot file back from the tag first, and makes it the earliest.
// A snapshot id that has expired but is held by a tag rolls back to that
// tag. Data files of the deleted snapshots are left for RemoveOrphanFiles,
// as in Java: a reader still pinned on them keeps working until then.
//
// Commit receipts (see package commit) that record a commit of a deleted
// snapshot are reset to the user's newest remaining commit, or removed
// when none remains, so that a retry of a commit whose snapshot was rolled
// back lands again, as it does in Java (whose landed check only walks the
// snapshots), instead of being reported as already committed.
//
// Snapshot files are deleted newest first, so a crash leaves a table whose
// latest snapshot is readable (an older one than before, or the target)
// and a re-run finishes the job.
//
// Concurrency: like Java's, a rollback is not safe against writers
// committing at the same time. A writer that read the latest snapshot
// before the rollback deleted it may publish a snapshot built on it
// afterwards, which brings rolled-back files back. RollbackTo detects
// snapshots published while it ran and fails with
// lakeerr.ErrRetryableConflict naming them (run it again to remove them),
// but a publish after its final check goes unseen: stop the writers first.
func RollbackTo(ctx context.Context, fio fileio.FileIO, tableDir string, target RollbackTarget) (RollbackResult, error) {
	var res RollbackResult
	if (target.SnapshotID > 0) == (target.Tag != "") || target.SnapshotID < 0 {
		return res, fmt.Errorf("rollback: give exactly one of a positive snapshot id or a tag, got %+v: %w", target, ErrInvalidArgument)
	}
	t, err := openTable(ctx, fio, tableDir)
	if err != nil {
		return res, err
	}
	s, fromTag, err := rollbackSnapshot(ctx, t, target)
	if err != nil {
		return res, fmt.Errorf("rollback: %w", err)
	}
	res.SnapshotID = s.ID
	ids, err := t.snapshots.IDs(ctx)
	if err != nil {
		return res, err
	}
	if len(ids) > 0 && s.ID > ids[len(ids)-1] {
		return res, fmt.Errorf("rollback: snapshot %d is newer than the latest snapshot %d: %w", s.ID, ids[len(ids)-1], ErrInvalidArgument)
	}
	if fromTag && !slices.Contains(ids, s.ID) {
		if err := restoreSnapshot(ctx, t, s); err != nil {
			return res, err
		}
		res.Restored = true
	}
	if err := t.writeHint(ctx, hintLatest, s.ID); err != nil {
		return res, err
	}
	if res.SnapshotsDeleted, err = deleteSnapshotsAfter(ctx, t, ids, s.ID); err != nil {
		return res, err
	}
	if res.TagsDeleted, err = deleteTagsAfter(ctx, t, s.ID); err != nil {
		return res, err
	}
	if err := deleteChangelogsAfter(ctx, t, s.ID); err != nil {
		return res, err
	}
	if res.Restored {
		if err := t.writeHint(ctx, hintEarliest, s.ID); err != nil {
			return res, err
		}
	}
	if err := resetReceipts(ctx, t, s.ID); err != nil {
		return res, err
	}
	return res, checkNoneAfter(ctx, t, s.ID)
}

// rollbackSnapshot resolves the target, and reports whether it comes from
// a tag (and may need restoring).
func rollbackSnapshot(ctx context.Context, t *tableCtx, target RollbackTarget) (*spec.Snapshot, bool, error) {
	if target.Tag != "" {
		tag, err := t.snapshots.Tag(ctx, target.Tag)
		if err != nil {
			return nil, false, err
		}
		return &tag.Snapshot, true, nil
	}
	s, err := t.snapshots.Snapshot(ctx, target.SnapshotID)
	if !errors.Is(err, lakeerr.ErrNotFound) {
		return s, false, err
	}
	tags, tagErr := readTags(ctx, t.snapshots)
	if tagErr != nil {
		return nil, false, tagErr
	}
	for _, tag := range tags {
		if tag.ID == target.SnapshotID {
			return &tag.Snapshot, true, nil
		}
	}
	return nil, false, err
}

// restoreSnapshot writes an expired snapshot back from its tag. It goes in
// before the newer snapshots are deleted, so the table never looks empty.
func restoreSnapshot(ctx context.Context, t *tableCtx, s *spec.Snapshot) error {
	data, err := spec.EncodeSnapshot(s)
	if err != nil {
		return err
	}
	err = t.io.PutIfAbsent(ctx, t.snapshots.SnapshotPath(s.ID), data)
	if errors.Is(err, fileio.ErrExist) {
		return nil // an interrupted run, or a concurrent one, restored it
	}
	if err != nil {
		return fmt.Errorf("rollback: restore snapshot %d: %w", s.ID, err)
	}
	return nil
}

// deleteSnapshotsAfter deletes the snapshots listed in ids newer than
// target, newest first.
func deleteSnapshotsAfter(ctx context.Context, t *tableCtx, ids []int64, target int64) ([]int64, error) {
	var deleted []int64
	for _, id := range slices.Backward(ids) {
		if id <= target {
			break
		}
		removed, err := deleteIfExists(ctx, t.io, t.snapshots.SnapshotPath(id))
		if err != nil {
			return deleted, err
		}
		if removed {
			deleted = append(deleted, id)
		}
	}
	return deleted, nil
}

func deleteTagsAfter(ctx context.Context, t *tableCtx, target int64) ([]string, error) {
	tags, err := readTags(ctx, t.snapshots)
	if err != nil {
		return nil, err
	}
	var deleted []string
	for _, tag := range tags {
		if tag.ID <= target {
			continue
		}
		removed, err := deleteIfExists(ctx, t.io, t.snapshots.TagPath(tag.name))
		if err != nil {
			return deleted, err
		}
		if removed {
			deleted = append(deleted, tag.name)
		}
	}
	return deleted, nil
}

// deleteChangelogsAfter deletes the long-lived changelogs
// (changelog/changelog-<id>, written by Java's decoupled changelog
// expiry) newer than target.
func deleteChangelogsAfter(ctx context.Context, t *tableCtx, target int64) error {
	infos, err := t.io.List(ctx, path.Join(t.snapshots.BranchDir(), "changelog"))
	if err != nil {
		return fmt.Errorf("list changelogs: %w", err)
	}
	for _, fi := range infos {
		digits, ok := strings.CutPrefix(path.Base(fi.Path), "changelog-")
		id, err := strconv.ParseInt(digits, 10, 64)
		if !ok || err != nil || fi.IsDir || id <= target {
			continue
		}
		if _, err := deleteIfExists(ctx, t.io, fi.Path); err != nil {
			return err
		}
	}
	return nil
}

// checkNoneAfter fails if a snapshot newer than target exists: a writer
// published while the rollback ran.
func checkNoneAfter(ctx context.Context, t *tableCtx, target int64) error {
	ids, err := t.snapshots.IDs(ctx)
	if err != nil {
		return err
	}
	newer := slices.DeleteFunc(ids, func(id int64) bool { return id <= target })
	if len(newer) == 0 {
		return nil
	}
	return fmt.Errorf("%w: snapshots %v were published while rolling back to %d; they may build on rolled-back "+
		"snapshots: stop the writers and roll back again", lakeerr.ErrRetryableConflict, newer, target)
}

// receiptSnapshot is the one field of a commit receipt
// (commit-user/<user>, see package commit) a rollback needs: the snapshot
// of the commit it records.
type receiptSnapshot struct {
	SnapshotID int64 `json:"snapshotId"`
}

// resetReceipts removes the receipts that record commits of rolled-back
// snapshots, then lets the commit package write each affected user's
// newest remaining commit back: a receipt must only vouch for commits the
// table still holds.
func resetReceipts(ctx context.Context, t *tableCtx, target int64) error {
	dir := path.Join(t.snapshots.BranchDir(), "commit-user")
	infos, err := t.io.List(ctx, dir)
	if err != nil {
		return fmt.Errorf("list commit receipts: %w", err)
	}
	affected := map[string]bool{}
	for _, fi := range infos {
		user := path.Base(fi.Path)
		if fi.IsDir || fileio.IsTempName(user) {
			continue
		}
		data, err := t.io.ReadFile(ctx, fi.Path)
		if errors.Is(err, fileio.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read commit receipt %s: %w", fi.Path, err)
		}
		var rc receiptSnapshot
		if err := json.Unmarshal(data, &rc); err != nil {
			return fmt.Errorf("commit receipt %s: %v: %w", fi.Path, err, lakeerr.ErrCorruption)
		}
		if rc.SnapshotID <= target {
			continue
		}
		if _, err := deleteIfExists(ctx, t.io, fi.Path); err != nil {
			return err
		}
		affected[user] = true
	}
	if len(affected) == 0 {
		return nil
	}
	newest, err := newestCommits(ctx, t, target, affected)
	if err != nil {
		return err
	}
	c, err := commit.New(commit.Options{FileIO: t.io, TableDir: t.dir, Core: t.core})
	if err != nil {
		return err
	}
	return c.WriteReceipts(ctx, newest)
}

// newestCommits walks back from target and returns, for each user in
// users, the newest snapshot of that user still in the table.
func newestCommits(ctx context.Context, t *tableCtx, target int64, users map[string]bool) ([]*spec.Snapshot, error) {
	var found []*spec.Snapshot
	for id := target; id > 0 && len(users) > 0; id-- {
		s, err := t.snapshots.Snapshot(ctx, id)
		if errors.Is(err, lakeerr.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		if users[s.CommitUser] {
			delete(users, s.CommitUser)
			found = append(found, s)
		}
	}
	return found, nil
}
