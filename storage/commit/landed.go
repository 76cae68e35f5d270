package commit

import (
	"context"

	"github.com/lakesql/lakesql/storage/spec"
)

// landed returns the snapshot showing that part p of the request already
// landed, or 0 (Java's filterCommitted on the first attempt, and step 1 of
// tryCommitOnce on retries).
//
// The first attempt consults the user's receipt, then walks back from the
// latest snapshot to the receipt's snapshot. A retry walks back only to the
// previous attempt's latest snapshot, which that attempt searched. Either
// walk stops at the first snapshot of the user, which decides (identifiers
// increase, so an older snapshot of the user cannot hold a newer commit),
// or at a missing, expired, snapshot, since expiry records the receipts of
// what it deletes first.
func (r *run) landed(ctx context.Context, p *part, latest *spec.Snapshot, checkedUpTo int64) (int64, error) {
	user := r.req.CommitUser
	bound := checkedUpTo
	if bound < 0 {
		rc, err := r.c.readReceipt(ctx, user)
		if err != nil {
			return 0, err
		}
		bound = 0
		if rc != nil {
			if err := r.c.trustReceipt(user, rc); err != nil {
				return 0, err
			}
			if rc.covers(r.req.Identifier, p.kind) {
				return rc.SnapshotID, nil
			}
			bound = rc.SnapshotID
		}
	}
	own, walked, err := r.newestOfUser(ctx, latest, bound)
	if err != nil || own == nil {
		return 0, err
	}
	if err := r.c.checkOwnership(user, own); err != nil {
		return 0, err
	}
	if s, ok := FindLanded(user, r.req.Identifier, p.kind, walked); ok {
		return s.ID, nil
	}
	return 0, nil
}

// newestOfUser walks back from latest to bound (exclusive) and returns the
// first snapshot of the request's user, with every snapshot it read.
func (r *run) newestOfUser(ctx context.Context, latest *spec.Snapshot, bound int64) (*spec.Snapshot, []SnapshotRef, error) {
	var walked []SnapshotRef
	for id := idOf(latest); id > bound; id-- {
		s, found, err := r.readSnapshot(ctx, id)
		if err != nil || !found {
			return nil, walked, err
		}
		walked = append(walked, RefOf(s))
		if s.CommitUser == r.req.CommitUser {
			return s, walked, nil
		}
	}
	return nil, walked, nil
}

// checkOwnership refuses a snapshot of the user that this Committer did
// not publish and that appeared after it started (see SharedUserError).
// Snapshots up to the newer of the horizon and this Committer's last
// publish were vetted by earlier walks, which cover every id in between.
// A snapshot carrying the uuid of a pending put is this Committer's own
// publish, which landed although its put reported a failure, in this call
// or in an earlier call of the same request.
func (c *Committer) checkOwnership(user string, s *spec.Snapshot) error {
	if s.ID <= max(c.horizon, c.lastPublished[user]) {
		return nil
	}
	if _, mine := c.pending[uuidOf(s)]; mine {
		c.settle(user, s.ID)
		return nil
	}
	return &SharedUserError{CommitUser: user, Foreign: RefOf(s), Own: c.lastPublished[user]}
}

// settle records that snapshot id of user is this Committer's, and forgets
// the pending puts of the user up to it: ids up to a published snapshot
// are all taken, so those puts can no longer land.
func (c *Committer) settle(user string, id int64) {
	c.lastPublished[user] = max(c.lastPublished[user], id)
	for uuid, p := range c.pending {
		if p.user == user && p.id <= id {
			delete(c.pending, uuid)
		}
	}
}

// trustReceipt refuses a receipt naming a snapshot this Committer cannot
// account for: another writer of the same user wrote it, and trusting it
// would both skip that writer's snapshots in the walk and possibly take its
// commit for this one.
func (c *Committer) trustReceipt(user string, rc *receipt) error {
	if rc.SnapshotID <= max(c.horizon, c.lastPublished[user]) {
		return nil
	}
	foreign := SnapshotRef{ID: rc.SnapshotID, CommitUser: user, CommitIdentifier: rc.Identifier, CommitKind: rc.CommitKind}
	return &SharedUserError{CommitUser: user, Foreign: foreign, Own: c.lastPublished[user]}
}
