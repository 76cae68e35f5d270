package commit

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// receipt is the content of commit-user/<user> in the branch directory: the
// newest commit of the user known to have landed. Java Paimon has no such
// file; it finds a user's last commit by walking snapshots
// (SnapshotManager.latestSnapshotOfUser), which forgets the commit once its
// snapshot expires, so a retry after expiry commits the batch again. A
// receipt outlives the snapshot: the Committer writes it after each publish
// and expiry writes it (WriteReceipts) before deleting snapshots. Java
// readers ignore the directory.
//
// The receipt answers "did identifier N land?" for the newest identifier:
// CommitKind tells which part of it landed (see phase; a receipt without
// it counts as the whole commit), and Digest whether it holds the rows of
// the commit asking. An older identifier needs its own snapshot (see
// JudgeLanded).
type receipt struct {
	Identifier int64           `json:"identifier"`
	SnapshotID int64           `json:"snapshotId"`
	CommitKind spec.CommitKind `json:"commitKind,omitempty"`
	// Digest is the commit's content digest (Digest.String), so that a
	// retry of the same identifier is told from other rows after its
	// snapshot expired.
	Digest string `json:"digest,omitempty"`
}

// digest is the receipt's Digest; unknown when absent or unreadable.
func (rc *receipt) digest() Digest {
	d, _ := ParseDigest(rc.Digest)
	return d
}

// ref describes the commit the receipt records, for errors.
func (rc *receipt) ref(user string) SnapshotRef {
	return SnapshotRef{ID: rc.SnapshotID, CommitUser: user, CommitIdentifier: rc.Identifier, CommitKind: rc.CommitKind, Digest: rc.digest()}
}

// receiptOf is the receipt of a published snapshot.
func receiptOf(s *spec.Snapshot) receipt {
	rc := receipt{Identifier: s.CommitIdentifier, SnapshotID: s.ID, CommitKind: s.CommitKind}
	if d := snapshotDigest(s.Properties); !d.IsZero() {
		rc.Digest = d.String()
	}
	return rc
}

// newerThan orders receipts of one user by the commit they record.
func (rc *receipt) newerThan(other *receipt) bool {
	return cmp.Or(
		cmp.Compare(rc.Identifier, other.Identifier),
		cmp.Compare(phase(rc.CommitKind), phase(other.CommitKind)),
		cmp.Compare(rc.SnapshotID, other.SnapshotID)) > 0
}

func (c *Committer) receiptPath(user string) string { return path.Join(c.receiptDir, user) }

// readReceipt returns the user's receipt, or nil if there is none.
func (c *Committer) readReceipt(ctx context.Context, user string) (*receipt, error) {
	p := c.receiptPath(user)
	data, err := c.io.ReadFile(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("commit: read receipt: %w", err)
	}
	var rc receipt
	if err := json.Unmarshal(data, &rc); err != nil {
		return nil, fmt.Errorf("commit: receipt %s: %v: %w", p, err, lakeerr.ErrCorruption)
	}
	return &rc, nil
}

// writeReceipt replaces the user's receipt durably, as expiry needs
// before it deletes the snapshots the receipt stands for. Overwrite is
// atomic, so a reader sees the old or the new receipt, never a torn one.
func (c *Committer) writeReceipt(ctx context.Context, user string, rc receipt) error {
	return c.putReceipt(ctx, user, rc, c.io.Overwrite)
}

// hintReceipt replaces the user's receipt after a publish, atomically but
// not necessarily durably (fileio.OverwriteHint): the snapshot it names
// is in the table, and the landed check walks the snapshots back from the
// latest one to whatever receipt a crash leaves, so a lost receipt only
// lengthens that walk.
func (c *Committer) hintReceipt(ctx context.Context, user string, rc receipt) error {
	return c.putReceipt(ctx, user, rc, func(ctx context.Context, p string, data []byte) error {
		return fileio.OverwriteHint(ctx, c.io, p, data)
	})
}

func (c *Committer) putReceipt(ctx context.Context, user string, rc receipt, write func(context.Context, string, []byte) error) error {
	data, err := json.Marshal(rc)
	if err != nil {
		return fmt.Errorf("commit: encode receipt: %w", err)
	}
	if err := write(ctx, c.receiptPath(user), data); err != nil {
		return fmt.Errorf("commit: write receipt of user %s: %w", user, err)
	}
	return nil
}

// WriteReceipts records, for every commit user of the given snapshots, its
// newest commit among them, unless the user's receipt already records that
// or a newer one. Snapshot expiry must call it with the snapshots it is
// about to delete, before deleting them, so that a writer retrying a
// commit whose snapshot expired still finds it landed. Users whose name
// Commit would refuse (see Request.CommitUser) are skipped: no retry of
// theirs can come through a Committer.
func (c *Committer) WriteReceipts(ctx context.Context, snapshots []*spec.Snapshot) error {
	newest := map[string]*receipt{}
	for _, s := range snapshots {
		if validateCommitUser(s.CommitUser) != nil {
			continue
		}
		rc := new(receipt)
		*rc = receiptOf(s)
		if prev, ok := newest[s.CommitUser]; !ok || rc.newerThan(prev) {
			newest[s.CommitUser] = rc
		}
	}
	for _, user := range slices.Sorted(maps.Keys(newest)) {
		if err := c.advanceReceipt(ctx, user, newest[user]); err != nil {
			return err
		}
	}
	return nil
}

func (c *Committer) advanceReceipt(ctx context.Context, user string, rc *receipt) error {
	current, err := c.readReceipt(ctx, user)
	if err != nil {
		return err
	}
	if current != nil && !rc.newerThan(current) {
		return nil
	}
	return c.writeReceipt(ctx, user, *rc)
}

// maxUserWalk bounds the snapshots NewestIdentifier reads when the user
// has no receipt: a user without one has, as a rule, never committed.
const maxUserWalk = 100

// NewestIdentifier returns the newest identifier user committed to the
// table as far as its receipt and the snapshots published after it show
// (without a receipt, the newest maxUserWalk snapshots); 0 if none. A
// writer that picks its own identifiers starts above it, so that its
// commits are never mistaken for older ones of the same user, whatever
// the clocks of the processes that used the user before.
func (c *Committer) NewestIdentifier(ctx context.Context, user string) (int64, error) {
	rc, err := c.readReceipt(ctx, user)
	if err != nil {
		return 0, err
	}
	newest, bound := int64(0), int64(-1)
	if rc != nil {
		newest, bound = rc.Identifier, rc.SnapshotID
	}
	latest, ok, err := c.snapshots.LatestID(ctx)
	if err != nil || !ok {
		return newest, err
	}
	if bound < 0 {
		bound = max(0, latest-maxUserWalk)
	}
	r := c.newRun(&Request{CommitUser: user}, nil)
	for id := latest; id > bound; id-- {
		s, found, err := r.readSnapshot(ctx, id)
		if err != nil || !found {
			return newest, err
		}
		if s.CommitUser == user {
			newest = max(newest, s.CommitIdentifier)
		}
	}
	return newest, nil
}
