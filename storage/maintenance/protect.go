package maintenance

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// snapshotRange adds every file the snapshots ids (ascending) reference.
// A file's live interval is contiguous, so the data files live in any of
// them are those live in the first plus those each later delta adds; only
// the first snapshot after a gap in ids is read in full.
func (r *refReader) snapshotRange(ctx context.Context, mgr *snapshot.Manager, ids []int64, out refSet) error {
	return r.snapshotRangeAfter(ctx, mgr, -1, ids, out)
}

// snapshotRangeAfter is snapshotRange for snapshots that follow snapshot
// prev, whose files the caller holds already: a first id of prev+1 is read
// as a delta. It records the last snapshot read in r.last.
func (r *refReader) snapshotRangeAfter(ctx context.Context, mgr *snapshot.Manager, prev int64, ids []int64, out refSet) error {
	for _, id := range ids {
		s, err := readSnapshot(ctx, mgr, id)
		if err != nil {
			return err
		}
		r.last = s
		if err := r.metadata(ctx, s, out, strict); err != nil {
			return r.missingUnder(ctx, mgr, id, err)
		}
		if id == prev+1 {
			err = r.added(ctx, s, out, strict)
		} else {
			err = r.live(ctx, s, out)
		}
		if err == nil {
			err = r.changelog(ctx, s, out, strict)
		}
		if err != nil {
			return r.missingUnder(ctx, mgr, id, err)
		}
		prev = id
	}
	return nil
}

// readSnapshot reads a snapshot maintenance needs to be there. Snapshot
// files disappear only through expiry and rollback, so a missing one means
// another process changed the table under this one.
func readSnapshot(ctx context.Context, mgr *snapshot.Manager, id int64) (*spec.Snapshot, error) {
	s, err := mgr.Snapshot(ctx, id)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return nil, fmt.Errorf("%w: snapshot %d disappeared while maintenance read the table "+
			"(a concurrent expiry or rollback); nothing was deleted after it, run again: %w", lakeerr.ErrRetryableConflict, id, err)
	}
	return s, err
}

// missingUnder classifies a file missing under snapshot id, which was
// listed. Expiry announces the snapshots it deletes before deleting any of
// their files, and deletes the snapshot file after them; so if no expiry
// announces id and the snapshot file is still there, no expiry removed the
// file: the snapshot is damaged (PR apache/paimon#5438 is Java expiring
// anyway), and running again cannot help. Otherwise another process's
// expiry removed the snapshot after this one listed it (vanishedFile).
// The intents are read first: an expiry that deleted the file and
// retired its intent since has deleted the snapshot file too.
func (r *refReader) missingUnder(ctx context.Context, mgr *snapshot.Manager, id int64, err error) error {
	if errors.Is(err, lakeerr.ErrRetryableConflict) || !errors.Is(err, fileio.ErrNotExist) {
		return err
	}
	intent, intentErr := expiryIntent(ctx, r.t)
	if intentErr != nil {
		return errors.Join(err, intentErr)
	}
	_, snapshotErr := mgr.Snapshot(ctx, id)
	if snapshotErr == nil && id >= intent {
		return fmt.Errorf("snapshot %d references a file that is missing, and no expiry is deleting it: "+
			"%w: %w", id, lakeerr.ErrCorruption, err)
	}
	return vanishedFile(err)
}

// vanishedFile classifies a metadata file missing under a snapshot that
// is still listed: another process's expiry removed the snapshot's files
// after this one listed it.
func vanishedFile(err error) error {
	if errors.Is(err, lakeerr.ErrRetryableConflict) || !errors.Is(err, fileio.ErrNotExist) {
		return err
	}
	return fmt.Errorf("%w: a file of a retained snapshot is missing, most likely removed by a concurrent expiry; "+
		"nothing further was deleted, run again: %w", lakeerr.ErrRetryableConflict, err)
}

// tagRefs adds every file the tags reference. A tag that cannot be read
// stops the operation: deleting with an incomplete protected set is how
// apache/paimon#6479 and PR #5229 lost live data. Only a tag whose files
// are missing or undecodable is reported broken; a failed read (a timeout)
// is returned as it is, so that nobody deletes a sound tag over it.
func (r *refReader) tagRefs(ctx context.Context, tags []namedTag, out refSet) error {
	for _, tag := range tags {
		err := r.everything(ctx, &tag.Snapshot, out)
		switch {
		case err == nil:
		case errors.Is(err, lakeerr.ErrCorruption) || errors.Is(err, fileio.ErrNotExist):
			if doubt := r.tagInDoubt(ctx, tag); doubt != nil {
				return doubt
			}
			return fmt.Errorf("tag %q (snapshot %d) is broken, delete it first: %w: %w", tag.name, tag.ID, lakeerr.ErrCorruption, err)
		default:
			return fmt.Errorf("tag %q (snapshot %d): %w", tag.name, tag.ID, err)
		}
	}
	return nil
}

// tagInDoubt reports, as a retryable conflict, a tag with missing files
// that may be one CreateTag is withdrawing, and returns nil for a broken
// one. CreateTag writes its tag, then looks for an expiry intent and,
// finding one, deletes the tag again: in between, the tag names files the
// expiry may have deleted. So a tag of a snapshot below another expiry's
// end is in doubt, and so is a tag gone since it was read. The intents are
// listed before the tag is looked up again. CreateTag refuses without
// writing when the expiry had begun before it wrote, so a withdrawal is
// missed here only if a whole expiry ran between CreateTag's check and
// its write, or retired its intent before this listing while CreateTag
// has not yet made its one delete call; two expiries to the same end
// share one intent, so one of them can also take the other's withdrawal
// for a broken tag. Either way nothing is deleted.
func (r *refReader) tagInDoubt(ctx context.Context, tag namedTag) error {
	ends, err := r.t.snapshots.ExpiryIntents(ctx)
	if err != nil {
		return err
	}
	for _, end := range ends {
		if end != r.ownExpiry && tag.ID < end {
			return fmt.Errorf("%w: tag %q (snapshot %d) misses files while an expiry up to snapshot %d runs (a tag created on an expiring snapshot is withdrawn); run again",
				lakeerr.ErrRetryableConflict, tag.name, tag.ID, end)
		}
	}
	return r.tagGone(ctx, tag.name)
}

// tagGone reports a tag deleted since it was read, whose files may be gone
// with it (a CreateTag backing off from an expiry, a DeleteTag), as a
// retryable conflict; nil if the tag is still there.
func (r *refReader) tagGone(ctx context.Context, name string) error {
	_, err := r.t.snapshots.Tag(ctx, name)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return fmt.Errorf("%w: tag %q was deleted while maintenance read it; run again: %w", lakeerr.ErrRetryableConflict, name, err)
	}
	return nil
}

type namedTag struct {
	name string
	*spec.Tag
}

// readTags reads every tag of a branch, sorted by name.
func readTags(ctx context.Context, mgr *snapshot.Manager) ([]namedTag, error) {
	names, err := mgr.TagNames(ctx)
	if err != nil {
		return nil, err
	}
	tags := make([]namedTag, 0, len(names))
	for _, name := range names {
		tag, err := mgr.Tag(ctx, name)
		if errors.Is(err, lakeerr.ErrNotFound) {
			return nil, fmt.Errorf("%w: tag %q was deleted while maintenance read the table; run again: %w",
				lakeerr.ErrRetryableConflict, name, err)
		}
		if err != nil {
			return nil, err
		}
		tags = append(tags, namedTag{name: name, Tag: tag})
	}
	return tags, nil
}

// branchNames lists the branches other than main.
func branchNames(ctx context.Context, t *tableCtx) ([]string, error) {
	infos, err := t.io.List(ctx, path.Join(t.dir, "branch"))
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	var names []string
	for _, fi := range infos {
		if name, ok := strings.CutPrefix(path.Base(fi.Path), "branch-"); ok && fi.IsDir && name != "" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// branchRefs adds every file the snapshots and tags of the other branches
// reference: a branch shares the data files and manifests of the table.
func branchRefs(ctx context.Context, t *tableCtx, out refSet) error {
	names, err := branchNames(ctx, t)
	if err != nil {
		return err
	}
	for _, name := range names {
		b, err := t.branch(ctx, name)
		if err != nil {
			return err
		}
		ids, err := b.snapshots.IDs(ctx)
		if err != nil {
			return err
		}
		r := newRefReader(b)
		if err := r.snapshotRange(ctx, b.snapshots, ids, out); err != nil {
			return fmt.Errorf("branch %s: %w", name, err)
		}
		tags, err := readTags(ctx, b.snapshots)
		if err != nil {
			return fmt.Errorf("branch %s: %w", name, err)
		}
		if err := r.tagRefs(ctx, tags, out); err != nil {
			return fmt.Errorf("branch %s: %w", name, err)
		}
	}
	return nil
}

// protectedRefs is everything that must survive: the files of the main
// branch's snapshots keep (ascending ids), of the tags, and of every other
// branch.
func protectedRefs(ctx context.Context, t *tableCtx, r *refReader, keep []int64, tags []namedTag) (refSet, error) {
	out := refSet{}
	if err := r.snapshotRange(ctx, t.snapshots, keep, out); err != nil {
		return nil, err
	}
	if err := r.tagRefs(ctx, tags, out); err != nil {
		return nil, err
	}
	if err := branchRefs(ctx, t, out); err != nil {
		return nil, err
	}
	return out, nil
}
