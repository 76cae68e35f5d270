package commit

import (
	"context"
	"errors"
	"fmt"
	"path"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// stageSnapshot stages the put of the prepared snapshot
// (fileio.StagePut). Its error is the put's, failed before landing: see
// publish.
func (r *run) stageSnapshot(ctx context.Context, prep *preparation) (fileio.Staged, error) {
	return fileio.StagePut(ctx, r.c.io, r.c.snapshots.SnapshotPath(prep.snap.ID), prep.encoded)
}

// publish creates snapshot-<id> by the staged PutIfAbsent, the commit
// point: the table changes exactly when the put succeeds and the snapshot
// extends the table's history (a put that re-created an expired id is
// withdrawn and retried, see offChain), and ErrExist means another commit
// took the id. Any other error, staging's
// (stageErr) included, leaves the outcome unknown until the snapshot is
// read back (resolveUnknown). The snapshot's uuid is recorded as pending
// first, so that the Committer recognises the snapshot as its own if it
// turns up later.
func (r *run) publish(ctx context.Context, snap *spec.Snapshot, latestID int64, staged fileio.Staged, stageErr error) (attemptOutcome, error) {
	r.c.pending[uuidOf(snap)] = pendingPut{user: r.req.CommitUser, id: snap.ID}
	out := attemptOutcome{snapshotID: snap.ID, latestID: latestID}
	putErr := stageErr
	if putErr == nil {
		if gone, err := r.baseGone(ctx, latestID); err != nil || gone {
			// Not put: a failed check is retried like a failed put.
			staged.Discard()
			delete(r.c.pending, uuidOf(snap))
			out.status, out.cause = lostRace, errBaseGone
			if err != nil {
				out.status, out.cause = notLanded, err
			}
			return out, nil
		}
		putErr = staged.Put(ctx)
	}
	var err error
	switch {
	case putErr == nil:
		out.status = published
	case errors.Is(putErr, fileio.ErrExist):
		// The id is taken, so this put can never land.
		delete(r.c.pending, uuidOf(snap))
		out.status = lostRace
		return out, nil
	default:
		out.status, err = r.resolveUnknown(ctx, snap, putErr)
		if out.status == lostRace {
			delete(r.c.pending, uuidOf(snap))
		}
		if err != nil || out.status != published {
			out.cause = putErr
			return out, err
		}
	}
	phantom, err := r.offChain(ctx, snap)
	if err != nil {
		out.warnings = append(out.warnings, fmt.Errorf("commit: snapshot %d published, but checking that it extends the table's history failed: %w", snap.ID, err))
	}
	if phantom {
		delete(r.c.pending, uuidOf(snap))
		out.status, out.cause = lostRace, errPhantom
		return out, r.withdrawPhantom(ctx, snap)
	}
	r.c.settle(r.req.CommitUser, snap.ID)
	r.cache.snapshots[snap.ID] = snap
	return out, nil
}

// resolveUnknown decides a put that failed with an error other than
// ErrExist by reading the snapshot back, never by guessing: this
// attempt's snapshot (same uuid, user and identifier) means it landed;
// another one means the race was lost; none means it did not land. If it
// cannot be read, the outcome stays unknown, and nothing is cleaned up:
// the files may be referenced by a published snapshot.
func (r *run) resolveUnknown(ctx context.Context, snap *spec.Snapshot, putErr error) (attemptStatus, error) {
	found, exists, err := r.readSnapshotFile(ctx, snap.ID)
	switch {
	case err != nil:
	case !exists:
		return notLanded, nil
	case sameCommit(found, snap):
		return published, nil
	default:
		return lostRace, nil
	}
	return unknownOutcome, fmt.Errorf("commit: snapshot %d of user %s identifier %d: %w: the put failed (%w) and reading the snapshot back failed (%v); retry the same request to find out",
		snap.ID, snap.CommitUser, snap.CommitIdentifier, lakeerr.ErrUnknownOutcome, putErr, err)
}

func sameCommit(a, b *spec.Snapshot) bool {
	return uuidOf(a) != "" && uuidOf(a) == uuidOf(b) &&
		a.CommitUser == b.CommitUser && a.CommitIdentifier == b.CommitIdentifier
}

// afterPublish updates the LATEST hint, if writeLatest (readers verify
// it, so it only saves a listing; one write per batch suffices), and the
// user's receipt (expiry records it again before deleting the snapshot).
// Both are best effort: their failures are returned as warnings. Both are
// advisory, so they are written without waiting for durability
// (fileio.OverwriteHint): the snapshot put is the only durable write a
// commit needs after its metadata files.
func (r *run) afterPublish(ctx context.Context, snap *spec.Snapshot, writeLatest bool) []error {
	var warnings []error
	if writeLatest {
		hint := path.Join(r.c.snapshots.BranchDir(), "snapshot", "LATEST")
		if err := r.c.group.writeLatestHint(ctx, r.c.io, hint, snap.ID); err != nil {
			warnings = append(warnings, fmt.Errorf("commit: snapshot %d published, but updating the LATEST hint failed: %w", snap.ID, err))
		}
	}
	if err := r.c.hintReceipt(ctx, r.req.CommitUser, receiptOf(snap)); err != nil {
		warnings = append(warnings, fmt.Errorf("commit: snapshot %d published, but %w", snap.ID, err))
	}
	return warnings
}
