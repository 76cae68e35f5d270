package commit

import (
	"context"

	"github.com/lakesql/lakesql/storage/spec"
)

// checkReceipt is the first step of the landed check of part p (Java's
// filterCommitted), run once per part before it writes anything: the
// user's receipt shows whether the part landed, and otherwise bounds the
// walk of the first attempt (landed), as the snapshot the user's newest
// commit landed in. It returns the snapshot showing the part landed, or 0
// and the bound.
//
// A receipt of the same identifier and part stands for the commit, unless
// its digest says it holds other rows. A receipt of a newer identifier is
// no proof (see JudgeLanded): only the commit's own snapshot, if still
// retained, can show that it landed.
//
// A Committer that has not read the table yet trusts the receipt: the
// snapshot it names is published, so it is at or before the latest
// snapshot, which becomes the horizon when the Committer reads it: at the
// first attempt, or here if no attempt follows.
func (r *run) checkReceipt(ctx context.Context, p *part) (landedIn, bound int64, err error) {
	user := r.req.CommitUser
	rc, err := r.c.readReceipt(ctx, user)
	if err != nil || rc == nil {
		return 0, 0, err
	}
	if r.c.horizon >= 0 {
		if err := r.c.trustReceipt(user, rc); err != nil {
			return 0, 0, err
		}
	}
	switch {
	case rc.Identifier == r.req.Identifier && (rc.CommitKind == "" || shows(rc.CommitKind, p.kind)):
		if !sameContent(rc.digest(), r.digest) {
			return 0, 0, r.identityError(p, OtherContent, rc.ref(user))
		}
	case rc.Identifier > r.req.Identifier:
		return r.findOlderIdentifier(ctx, p, rc)
	default:
		return 0, rc.SnapshotID, nil
	}
	if err := r.observeLatest(ctx); err != nil {
		return 0, 0, err
	}
	return rc.SnapshotID, 0, nil
}

// findOlderIdentifier looks for the snapshot of the request's identifier,
// older than the receipt's, among all retained snapshots.
func (r *run) findOlderIdentifier(ctx context.Context, p *part, rc *receipt) (landedIn, bound int64, err error) {
	latest, err := r.readLatest(ctx)
	if err != nil {
		return 0, 0, err
	}
	r.c.observe(latest)
	walked, _, err := r.walkUser(ctx, latest, 0)
	if err != nil {
		return 0, 0, err
	}
	v := JudgeLanded(r.req.CommitUser, r.req.Identifier, p.kind, r.digest, walked)
	switch v.Outcome {
	case Landed:
		return v.Snapshot.ID, 0, nil
	case NotLanded:
		// The receipt's snapshot expired: the receipt is the newer commit.
		v = LandedVerdict{Outcome: NotProven, Snapshot: rc.ref(r.req.CommitUser)}
	}
	return 0, 0, r.identityError(p, v.Outcome, v.Snapshot)
}

func (r *run) observeLatest(ctx context.Context) error {
	if r.c.horizon >= 0 {
		return nil
	}
	latest, err := r.readLatest(ctx)
	if err != nil {
		return err
	}
	r.c.observe(latest)
	return nil
}

// landed returns the snapshot showing that part p of the request already
// landed, or 0 (Java's filterCommitted, after checkReceipt, on the first
// attempt, and step 1 of tryCommitOnce on retries), or an *IdentityError
// when the history contradicts the request (see JudgeLanded).
//
// It walks back from latest to checkedUpTo: the receipt's snapshot on the
// first attempt, the previous attempt's latest snapshot, which that attempt
// searched, on a retry. The walk stops at a missing, expired, snapshot,
// since expiry records the receipts of what it deletes first.
func (r *run) landed(ctx context.Context, p *part, latest *spec.Snapshot, checkedUpTo int64) (int64, error) {
	user := r.req.CommitUser
	walked, own, err := r.walkUser(ctx, latest, checkedUpTo)
	if err != nil || own == nil {
		return 0, err
	}
	if err := r.c.checkOwnership(user, own); err != nil {
		return 0, err
	}
	switch v := JudgeLanded(user, r.req.Identifier, p.kind, r.digest, walked); v.Outcome {
	case Landed:
		return v.Snapshot.ID, nil
	case NotLanded:
		return 0, nil
	default:
		return 0, r.identityError(p, v.Outcome, v.Snapshot)
	}
}

// walkUser walks back from latest to bound (exclusive) and returns every
// snapshot it read, newest first, and the newest snapshot of the request's
// user. It stops after the first snapshot of the user with the request's
// identifier or an older one: JudgeLanded needs nothing beyond it.
func (r *run) walkUser(ctx context.Context, latest *spec.Snapshot, bound int64) ([]SnapshotRef, *spec.Snapshot, error) {
	var walked []SnapshotRef
	var own *spec.Snapshot
	for id := idOf(latest); id > bound; id-- {
		s, found, err := r.readSnapshot(ctx, id)
		if err != nil || !found {
			return walked, own, err
		}
		walked = append(walked, RefOf(s))
		if s.CommitUser != r.req.CommitUser {
			continue
		}
		if own == nil {
			own = s
		}
		if s.CommitIdentifier <= r.req.Identifier {
			break
		}
	}
	return walked, own, nil
}

// identityError reports a request whose user and identifier the history
// contradicts.
func (r *run) identityError(p *part, outcome LandedOutcome, s SnapshotRef) *IdentityError {
	return &IdentityError{CommitUser: r.req.CommitUser, Identifier: r.req.Identifier, Kind: p.kind,
		Outcome: outcome, Snapshot: s, Digest: r.digest}
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
	return &SharedUserError{CommitUser: user, Foreign: rc.ref(user), Own: c.lastPublished[user]}
}
