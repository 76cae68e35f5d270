package commit

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// ParentProperty is the snapshot property naming the uuid of the snapshot
// a lakesql commit built on, so that the commit of the snapshot before it
// can tell its successor from one that succeeded an expired namesake (see
// offChain). Java Paimon keeps snapshot properties and ignores this one.
const ParentProperty = "lakesql.parent-uuid"

// errPhantom is the cause of an attempt whose put re-created an expired
// snapshot id: it was withdrawn and is retried like a lost race.
var errPhantom = errors.New("the snapshot id was free again because expiry had deleted it; the snapshot was withdrawn")

// errBaseGone is the cause of an attempt not put because expiry deleted
// the snapshot it built on.
var errBaseGone = errors.New("expiry deleted the snapshot this attempt built on before it was published")

// offChain reports whether snap, just put, is a phantom: a snapshot at an
// id that an earlier snapshot held until expiry deleted it, so that no
// later snapshot builds on it and readers never see its rows. A commit
// whose attempt stalls between reading the latest snapshot and putting
// the next id (writing manifests under load takes that long) while
// others commit and an expiry keeping few snapshots runs, lands there:
// the put succeeds, for the id is free.
//
// Expiry deletes snapshots oldest first and never the newest, so a
// phantom always has newer snapshots beside it, and its namesake's
// successor is either gone (with the namesake, which went first) or
// names the namesake as its parent. So a snapshot is on the chain when it
// is the newest, or when every snapshot from it up to the newest names
// the one before it as parent; a gap or another parent makes it a
// phantom. The whole way up is checked, because a committer misled by a
// stale LATEST hint can build on a phantom before it is withdrawn. Two
// cases are taken for on the chain without proof: a successor with no
// parent property (Java's), since Java records no parent; and a snapshot
// that is gone already, which an expiry deleted after the put, as it
// deletes a published snapshot (baseGone makes the stall that creates a
// phantom a window of one call, and an expiry would have to delete it
// within the next one).
func (r *run) offChain(ctx context.Context, snap *spec.Snapshot) (bool, error) {
	ids, err := r.c.snapshots.IDs(ctx)
	if err != nil {
		return false, err
	}
	if len(ids) == 0 || ids[len(ids)-1] <= snap.ID || !slices.Contains(ids, snap.ID) {
		return false, nil
	}
	parent := uuidOf(snap)
	for id := snap.ID + 1; id <= ids[len(ids)-1]; id++ {
		next, found, err := r.readSnapshotFile(ctx, id)
		if err != nil || !found {
			return !found && err == nil, err
		}
		named, ok := next.Properties[ParentProperty]
		if !ok {
			return false, nil
		}
		if named != parent {
			return true, nil
		}
		parent = uuidOf(next)
	}
	return false, nil
}

// baseGone reports whether the snapshot an attempt built on (latestID; 0
// for none) is gone: expiry deleted it after the attempt read it, so the
// next id may have been taken and deleted too, and a put would re-create
// it as a phantom (see offChain). It is checked right before the put, so
// that the stall that creates a phantom shrinks from the whole attempt,
// manifests written, to one call.
func (r *run) baseGone(ctx context.Context, latestID int64) (bool, error) {
	if latestID == 0 {
		return false, nil
	}
	ok, err := fileio.Exists(ctx, r.c.io, r.c.snapshots.SnapshotPath(latestID))
	return !ok, err
}

// withdrawPhantom deletes the phantom snapshot this attempt put. Nobody
// builds on it but a committer misled by a stale LATEST hint, whose own
// check finds its snapshot off the chain too.
func (r *run) withdrawPhantom(ctx context.Context, snap *spec.Snapshot) error {
	err := r.c.io.Delete(ctx, r.c.snapshots.SnapshotPath(snap.ID))
	if err != nil && !errors.Is(err, fileio.ErrNotExist) {
		return fmt.Errorf("commit: snapshot %d re-created an expired id and could not be withdrawn: %w", snap.ID, err)
	}
	return nil
}
