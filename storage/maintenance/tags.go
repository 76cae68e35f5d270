package maintenance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// CreateTagOptions configures CreateTag.
type CreateTagOptions struct {
	// SnapshotID is the snapshot to tag; 0 tags the latest one.
	SnapshotID int64
	// TimeRetained, if set, lets ExpireTags delete the tag once it has
	// existed that long.
	TimeRetained *time.Duration
	// Now stamps the tag's creation time (as Java's LocalDateTime.now(),
	// the wall clock of Now's location); default time.Now.
	Now func() time.Time
}

// CreateTag writes tag/tag-<name> for a snapshot, in Java's layout: the
// snapshot's JSON, plus tagCreateTime and tagTimeRetained when a retention
// is given (TagManager.createTag). A snapshot that has expired can still
// be tagged if another tag holds it, as Java allows. The tag file is
// created atomically and never replaced: an existing tag fails with
// ErrAlreadyExists.
//
// If a concurrent expiry is deleting the snapshot, or has deleted it, the
// call fails with lakeerr.ErrNotFound, without writing the tag when the
// expiry had begun before; otherwise the tag is removed again: after
// writing the tag, CreateTag looks for the intent expiry records before its
// last look at the tags, so one of the two always sees the other. Likewise
// when the snapshot has expired and the tag it is copied from is deleted
// meanwhile: that deletion may not have seen the new tag, so the new tag
// may hold files it deleted.
func CreateTag(ctx context.Context, fio fileio.FileIO, tableDir, name string, opts CreateTagOptions) (*spec.Tag, error) {
	if err := validateTagName(name); err != nil {
		return nil, err
	}
	if opts.SnapshotID < 0 {
		return nil, fmt.Errorf("create tag %q: snapshot id %d: %w", name, opts.SnapshotID, ErrInvalidArgument)
	}
	if opts.TimeRetained != nil && *opts.TimeRetained <= 0 {
		return nil, fmt.Errorf("create tag %q: time retained %v must be positive: %w", name, *opts.TimeRetained, ErrInvalidArgument)
	}
	t, err := openTable(ctx, fio, tableDir)
	if err != nil {
		return nil, err
	}
	s, sourceTag, err := tagSource(ctx, t, opts.SnapshotID)
	if err != nil {
		return nil, fmt.Errorf("create tag %q: %w", name, err)
	}
	tag := &spec.Tag{Snapshot: *s}
	if opts.TimeRetained != nil {
		created := nowOrDefault(opts.Now)()
		retained := *opts.TimeRetained
		tag.CreateTime, tag.TimeRetained = &created, &retained
	}
	data, err := spec.EncodeTag(tag)
	if err != nil {
		return nil, err
	}
	if sourceTag == "" {
		// Refused before the tag is written when an expiry is already
		// deleting the snapshot: written, the tag would name files that
		// may be gone until the check below withdraws it, and orphan
		// removal or another expiry reading it then would take it for
		// a broken one.
		if gone, err := expiringOrGone(ctx, t, s.ID); err != nil || gone {
			if err == nil {
				err = fmt.Errorf("snapshot %d expired while it was being tagged: %w", s.ID, lakeerr.ErrNotFound)
			}
			return nil, fmt.Errorf("create tag %q: %w", name, err)
		}
	}
	p := t.snapshots.TagPath(name)
	if err := fio.PutIfAbsent(ctx, p, data); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return nil, fmt.Errorf("create tag %q: tag %w", name, ErrAlreadyExists)
		}
		return nil, fmt.Errorf("create tag %q: %w", name, err)
	}
	check := func() error { return checkStillThere(ctx, t, s.ID, p) }
	if sourceTag != "" {
		check = func() error { return checkSourceTag(ctx, t, sourceTag, s, p) }
	}
	if err := check(); err != nil {
		return nil, fmt.Errorf("create tag %q: %w", name, err)
	}
	return tag, nil
}

// tagSource returns the snapshot to tag, and the tag it was read from when
// the snapshot has expired and another tag holds it ("" when it was read
// from its snapshot file).
func tagSource(ctx context.Context, t *tableCtx, id int64) (*spec.Snapshot, string, error) {
	if id == 0 {
		s, err := t.snapshots.Latest(ctx)
		if err == nil && s == nil {
			err = fmt.Errorf("the table has no snapshot: %w", lakeerr.ErrNotFound)
		}
		return s, "", err
	}
	s, err := t.snapshots.Snapshot(ctx, id)
	if !errors.Is(err, lakeerr.ErrNotFound) {
		return s, "", err
	}
	tags, tagErr := readTags(ctx, t.snapshots)
	if tagErr != nil {
		return nil, "", tagErr
	}
	for _, tag := range tags {
		if tag.ID == id {
			return &tag.Snapshot, tag.name, nil
		}
	}
	return nil, "", err
}

// checkSourceTag verifies, after a tag copied from source is written, that
// source still holds the snapshot. DeleteTag deletes a tag's file before it
// reads the other tags to decide which files to keep: if source is still
// there now, its deletion will see the new tag; if it is gone, its deletion
// may have missed the new tag and deleted the snapshot's files, so the new
// tag is deleted again (apache/paimon#9220 is the same race between
// CreateTag and snapshot expiry).
func checkSourceTag(ctx context.Context, t *tableCtx, source string, s *spec.Snapshot, tagPath string) error {
	tag, err := t.snapshots.Tag(ctx, source)
	if err == nil && tag.ID == s.ID && tag.BaseManifestList == s.BaseManifestList {
		return nil
	}
	if err == nil || errors.Is(err, lakeerr.ErrNotFound) {
		err = fmt.Errorf("tag %q, which held expired snapshot %d, was deleted while it was being copied: %w",
			source, s.ID, lakeerr.ErrNotFound)
	}
	if _, delErr := deleteIfExists(ctx, t.io, tagPath); delErr != nil {
		return errors.Join(err, delErr)
	}
	return err
}

// checkStillThere verifies, after the tag is written, that no expiry is
// deleting the snapshot it copies (see announceExpiry) and that none has
// deleted it; if one is or has, the tag's files may be going, so the tag
// is deleted again.
func checkStillThere(ctx context.Context, t *tableCtx, id int64, tagPath string) error {
	gone, err := expiringOrGone(ctx, t, id)
	if err != nil || !gone {
		return err
	}
	if _, err := deleteIfExists(ctx, t.io, tagPath); err != nil {
		return err
	}
	return fmt.Errorf("snapshot %d expired while it was being tagged: %w", id, lakeerr.ErrNotFound)
}

// expiringOrGone reports whether an expiry is deleting snapshot id (see
// announceExpiry) or has deleted it.
func expiringOrGone(ctx context.Context, t *tableCtx, id int64) (bool, error) {
	intent, err := expiryIntent(ctx, t)
	if err != nil {
		return false, err
	}
	ok, err := fileio.Exists(ctx, t.io, t.snapshots.SnapshotPath(id))
	return err == nil && (!ok || id < intent), err
}

// validateTagName accepts the names Java accepts that are also safe file
// names: not blank, no path separator, not a temp file name.
func validateTagName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("tag name %q is blank: %w", name, ErrInvalidArgument)
	case strings.ContainsAny(name, "/\\") || name == "." || name == "..":
		return fmt.Errorf("tag name %q is not a file name: %w", name, ErrInvalidArgument)
	case fileio.IsTempName("tag-" + name):
		return fmt.Errorf("tag name %q looks like a temp file: %w", name, ErrInvalidArgument)
	}
	return nil
}

// DeleteTagResult says what DeleteTag did.
type DeleteTagResult struct {
	SnapshotID int64
	// Deleted counts the files only the tag referenced, deleted with it
	// because its snapshot had expired.
	Deleted map[FileKind]int
	// FilesLeft, when set, says why the files only the tag referenced
	// were left to RemoveOrphanFiles (the table kept changing while they
	// were worked out, a read failed): the tag itself is deleted, so the
	// call succeeded, and running it again would only find no tag.
	FilesLeft error
}

// DeleteTag deletes tag/tag-<name>. If the tagged snapshot has expired and
// no other tag holds it, the files only it referenced are deleted too
// (TagManager.deleteTag): those not referenced by any snapshot, any other
// tag or any branch, all read in full. A missing tag fails with
// lakeerr.ErrNotFound.
//
// Before deleting anything it reads what the rest of the table needs, so
// that when that cannot be read (another tag is damaged, as in
// apache/paimon#6479, or a read fails) the call fails and the tag stays.
// The tag file then goes first, as in Java, and what the rest needs is
// read again: a CreateTag copying this tag either finds it gone and backs
// off, or wrote its copy before and is seen. A crash after the tag file
// goes leaks the files it alone held, for RemoveOrphanFiles to reclaim,
// and never leaves a tag whose files are partly gone.
func DeleteTag(ctx context.Context, fio fileio.FileIO, tableDir, name string) (DeleteTagResult, error) {
	res := DeleteTagResult{Deleted: map[FileKind]int{}}
	if err := validateTagName(name); err != nil {
		return res, err
	}
	t, err := openTable(ctx, fio, tableDir)
	if err != nil {
		return res, err
	}
	tag, err := t.snapshots.Tag(ctx, name)
	if err != nil {
		return res, fmt.Errorf("delete tag: %w", err)
	}
	res.SnapshotID = tag.ID
	alive, err := snapshotFileHolds(ctx, t, &tag.Snapshot)
	if err != nil {
		return res, err
	}
	r := newRefReader(t)
	if !alive {
		if _, err := keptFiles(ctx, t, r, name); err != nil {
			return res, fmt.Errorf("delete tag %q: %w", name, err)
		}
	}
	if _, err := deleteIfExists(ctx, t.io, t.snapshots.TagPath(name)); err != nil || alive {
		return res, err
	}
	res.FilesLeft = cleanTagFiles(ctx, t, r, tag, res.Deleted)
	return res, nil
}

// snapshotFileHolds reports whether the snapshot file of s's id still
// holds s (same manifest lists), so that it keeps every file s needs.
func snapshotFileHolds(ctx context.Context, t *tableCtx, s *spec.Snapshot) (bool, error) {
	current, err := t.snapshots.Snapshot(ctx, s.ID)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return current.BaseManifestList == s.BaseManifestList && current.DeltaManifestList == s.DeltaManifestList, nil
}

// keptFiles is every file the table needs besides those of the tag named
// except: those of every snapshot, every other tag and every branch.
func keptFiles(ctx context.Context, t *tableCtx, r *refReader, except string) (refSet, error) {
	ids, err := t.snapshots.IDs(ctx)
	if err != nil {
		return nil, err
	}
	tags, err := readTags(ctx, t.snapshots)
	if err != nil {
		return nil, err
	}
	tags = slices.DeleteFunc(tags, func(tag namedTag) bool { return tag.name == except })
	return protectedRefs(ctx, t, r, ids, tags)
}

// cleanTagFiles deletes what only the deleted tag referenced. Its tag file
// is gone, so a caller could not run DeleteTag again: when the table
// changes while it is read (a retryable conflict), it reads it again here.
func cleanTagFiles(ctx context.Context, t *tableCtx, r *refReader, tag *spec.Tag, deleted map[FileKind]int) error {
	const attempts = 3
	var protected refSet
	var err error
	for range attempts {
		if protected, err = keptFiles(ctx, t, r, ""); !errors.Is(err, lakeerr.ErrRetryableConflict) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("the tag of snapshot %d is deleted, the files only it held are left to orphan removal: %w", tag.ID, err)
	}
	candidates := refSet{}
	if err := r.metadata(ctx, &tag.Snapshot, candidates, lenient); err != nil {
		return err
	}
	if err := r.changelog(ctx, &tag.Snapshot, candidates, lenient); err != nil {
		return err
	}
	if err := lenient.tolerate(r.live(ctx, &tag.Snapshot, candidates)); err != nil {
		return err
	}
	plan := planDeletion(candidates, protected)
	if err := plan.execute(ctx, t.io, dataKinds, deleted); err != nil {
		return err
	}
	return plan.execute(ctx, t.io, metadataKinds, deleted)
}
