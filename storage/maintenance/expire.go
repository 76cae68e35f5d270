package maintenance

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// ExpireOptions configures ExpireSnapshots. Unset fields take the table's
// options, with Paimon's defaults.
type ExpireOptions struct {
	// RetainMax: at most this many snapshots are kept, whatever their age
	// (snapshot.num-retained.max).
	RetainMax *int
	// RetainMin: at least this many snapshots are kept, whatever their age
	// (snapshot.num-retained.min).
	RetainMin *int
	// OlderThan: snapshots committed before it may expire; unset, now minus
	// snapshot.time-retained.
	OlderThan *time.Time
	// MaxDeletes caps the snapshots one run expires (snapshot.expire.limit).
	MaxDeletes *int
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// ExpireResult says what ExpireSnapshots did.
type ExpireResult struct {
	// Begin and End delimit the expired snapshots, [Begin, End); both are
	// 0 when none expired. End is the new earliest snapshot.
	Begin, End int64
	// Deleted counts, per kind, the files this call deleted. A file another
	// process (or an earlier, interrupted run) deleted first is not counted.
	Deleted map[FileKind]int
}

// SnapshotsExpired is the number of snapshot files this call deleted.
func (r ExpireResult) SnapshotsExpired() int { return r.Deleted[FileKindSnapshot] }

// ExpireSnapshots deletes the snapshots the retention rules let go, and
// every file only they reference. Mirrors ExpireSnapshotsImpl.expire,
// except for how it decides what is still needed: a file survives if any
// snapshot that is not expiring, any tag, or any branch references it (all
// of them read in full, never skipped), so the result does not depend on
// tags' neighbours being readable (apache/paimon#6479) or on which
// snapshots exist between them.
//
// Order of effects, so that a crash at any point leaves every retained
// snapshot and tag readable and a re-run finishes the job:
//  1. the commit-user receipts of the expiring snapshots' writers
//     (commit.Committer.WriteReceipts), so that a retried commit still finds
//     itself landed once its snapshot is gone;
//  2. an intent file, snapshot/.expiring-<end>, that CreateTag honours;
//  3. data and changelog files;
//  4. manifests, index files and statistics, then the manifest lists and
//     index manifests that name them;
//  5. the snapshot files, oldest first, so the snapshots left always form a
//     suffix;
//  6. the EARLIEST hint, then the intent goes.
//
// Two runs at once are safe: deletes are idempotent, and each run protects
// everything its own retained snapshots reference, which includes
// everything the other run keeps. A run that finds a snapshot it protects
// deleted by the other stops with lakeerr.ErrRetryableConflict before
// deleting anything more.
//
// A writer that commits while expiry runs builds on the latest snapshot,
// which is retained, so its snapshot references only protected or new
// files. A tag created on an expiring snapshot while expiry runs is either
// seen by expiry's last look at the tags (taken after the intent is
// written), which then protects it, or refused by CreateTag, which looks
// for the intent after writing the tag. A consumer registered on an
// expiring snapshot after that last look is not protected, as in Java.
func ExpireSnapshots(ctx context.Context, fio fileio.FileIO, tableDir string, opts ExpireOptions) (ExpireResult, error) {
	res := ExpireResult{Deleted: map[FileKind]int{}}
	t, err := openTable(ctx, fio, tableDir)
	if err != nil {
		return res, err
	}
	ret, err := resolveRetention(t.core, opts, nowOrDefault(opts.Now)())
	if err != nil {
		return res, err
	}
	if err := checkChangelogCoupled(t.core, ret); err != nil {
		return res, err
	}
	ids, err := t.snapshots.IDs(ctx)
	if err != nil || len(ids) == 0 {
		return res, err
	}
	minNext, err := minConsumerNext(ctx, t)
	if err != nil {
		return res, err
	}
	bounds := expiryBounds{earliest: ids[0], latest: ids[len(ids)-1], minConsumerNext: minNext}
	end, err := expireEnd(ret, bounds, func(id int64) (int64, bool, error) { return snapshotTime(ctx, t, id) })
	if err != nil {
		return res, err
	}
	begin := expireBegin(ids, end)
	if end <= begin {
		if err := writeEarliestIfMissing(ctx, t, ids[0]); err != nil {
			return res, err
		}
		// An interrupted run may have finished all but retiring its intent.
		return res, retireExpiryIntents(ctx, t, ids[0])
	}
	res.Begin, res.End = begin, end
	return res, expireRange(ctx, t, ids, begin, end, res.Deleted)
}

func snapshotTime(ctx context.Context, t *tableCtx, id int64) (int64, bool, error) {
	s, err := t.snapshots.Snapshot(ctx, id)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return s.TimeMillis, true, nil
}

// writeEarliestIfMissing writes the EARLIEST hint when none exists, so
// readers find the earliest snapshot without listing (Java does the same
// when nothing expires).
func writeEarliestIfMissing(ctx context.Context, t *tableCtx, earliest int64) error {
	ok, err := t.hintExists(ctx, hintEarliest)
	if err != nil || ok {
		return err
	}
	return t.writeHint(ctx, hintEarliest, earliest)
}

// expireRange expires snapshots [begin, end); ids are the snapshots listed
// at the start.
func expireRange(ctx context.Context, t *tableCtx, ids []int64, begin, end int64, deleted map[FileKind]int) error {
	victims, err := loadVictims(ctx, t, begin, end)
	if err != nil {
		return err
	}
	if err := writeReceipts(ctx, t, victims); err != nil {
		return err
	}
	if err := announceExpiry(ctx, t, end); err != nil {
		return err
	}
	keep := slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return id >= begin && id < end })
	protected, err := stableProtection(ctx, t, keep, end)
	if err != nil {
		return err
	}
	candidates, err := expiryCandidates(ctx, t, victims, begin, end)
	if err != nil {
		return err
	}
	plan := planDeletion(candidates, protected)
	if err := plan.execute(ctx, t.io, dataKinds, deleted); err != nil {
		return err
	}
	if err := plan.execute(ctx, t.io, metadataKinds, deleted); err != nil {
		return err
	}
	for id := begin; id < end; id++ {
		removed, err := deleteIfExists(ctx, t.io, t.snapshots.SnapshotPath(id))
		if err != nil {
			return err
		}
		if removed {
			deleted[FileKindSnapshot]++
		}
	}
	// Snapshots below a gap (an interrupted rollback restores a tag's
	// snapshot below newer ones) stay the earliest.
	earliest := end
	if ids[0] < begin {
		earliest = ids[0]
	}
	if err := t.writeHint(ctx, hintEarliest, earliest); err != nil {
		return err
	}
	return retireExpiryIntents(ctx, t, end)
}

// loadVictims reads snapshots [begin, end). One already gone was expired by
// another run, which finished with its files before deleting it.
func loadVictims(ctx context.Context, t *tableCtx, begin, end int64) ([]*spec.Snapshot, error) {
	var victims []*spec.Snapshot
	for id := begin; id < end; id++ {
		s, err := t.snapshots.Snapshot(ctx, id)
		if errors.Is(err, lakeerr.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		victims = append(victims, s)
	}
	return victims, nil
}

// writeReceipts records, before any snapshot goes, the newest commit of
// each writer among the victims: the commit package's landed check falls
// back on receipts once the snapshots are gone.
func writeReceipts(ctx context.Context, t *tableCtx, victims []*spec.Snapshot) error {
	c, err := commit.New(commit.Options{FileIO: t.io, TableDir: t.dir, Core: t.core})
	if err != nil {
		return err
	}
	return c.WriteReceipts(ctx, victims)
}

// stableProtection computes the protected set, then checks that no tag
// appeared or vanished and no consumer moved below end while it did; a
// change means recomputing.
func stableProtection(ctx context.Context, t *tableCtx, keep []int64, end int64) (refSet, error) {
	const attempts = 3
	for range attempts {
		tags, err := readTags(ctx, t.snapshots)
		if err != nil {
			return nil, err
		}
		r := newRefReader(t)
		r.ownExpiry = end
		protected, err := protectedRefs(ctx, t, r, keep, tags)
		if err != nil {
			return nil, err
		}
		names, err := t.snapshots.TagNames(ctx)
		if err != nil {
			return nil, err
		}
		minNext, err := minConsumerNext(ctx, t)
		if err != nil {
			return nil, err
		}
		if minNext > 0 && minNext < end {
			return nil, fmt.Errorf("%w: consumer registered at snapshot %d during expiry up to %d; run again",
				lakeerr.ErrRetryableConflict, minNext, end)
		}
		if slices.EqualFunc(tags, names, func(t namedTag, name string) bool { return t.name == name }) {
			return protected, nil
		}
	}
	return nil, fmt.Errorf("%w: tags kept changing during expiry; run again", lakeerr.ErrRetryableConflict)
}

// expiryCandidates is what the victims reference that may go: their
// metadata, their changelog files, and the data files that stopped being
// live between the first victim and end (the deletes of the deltas of
// (begin, end]). Metadata an interrupted run already deleted is skipped;
// that run deleted the files it named first.
func expiryCandidates(ctx context.Context, t *tableCtx, victims []*spec.Snapshot, begin, end int64) (refSet, error) {
	out := refSet{}
	r := newRefReader(t)
	for _, s := range victims {
		if err := r.metadata(ctx, s, out, lenient); err != nil {
			return nil, err
		}
		if err := r.changelog(ctx, s, out, lenient); err != nil {
			return nil, err
		}
	}
	endSnapshot, err := readSnapshot(ctx, t.snapshots, end)
	if err != nil {
		return nil, err
	}
	deltas := []*spec.Snapshot{endSnapshot}
	for _, s := range victims {
		if s.ID > begin {
			deltas = append(deltas, s)
		}
	}
	for _, s := range deltas {
		if err := r.removed(ctx, s, out, lenient); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// minConsumerNext returns the smallest next snapshot of the table's
// consumers (consumer/consumer-<id>), or 0 if there is none
// (ConsumerManager.minNextSnapshot).
func minConsumerNext(ctx context.Context, t *tableCtx) (int64, error) {
	dir := path.Join(t.snapshots.BranchDir(), "consumer")
	infos, err := t.io.List(ctx, dir)
	if err != nil {
		return 0, fmt.Errorf("list consumers: %w", err)
	}
	var least int64
	for _, fi := range infos {
		name := path.Base(fi.Path)
		if fi.IsDir || !strings.HasPrefix(name, "consumer-") || fileio.IsTempName(name) {
			continue
		}
		data, err := t.io.ReadFile(ctx, fi.Path)
		if errors.Is(err, fileio.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("read consumer %s: %w", fi.Path, err)
		}
		c, err := spec.DecodeConsumer(data)
		if err != nil {
			return 0, fmt.Errorf("consumer %s: %w", fi.Path, err)
		}
		if least == 0 || c.NextSnapshot < least {
			least = c.NextSnapshot
		}
	}
	return least, nil
}

// announceExpiry records, durably and before expiry's last look at the
// tags, that snapshots below end are going. CreateTag checks for it after
// writing its tag, so of a tag and an expiry racing on one snapshot,
// either expiry sees the tag or CreateTag sees the intent and backs off.
//
// An orphan removal of age 0 on another server may delete the put's temp
// file between its write and its link (localio stages a put in a temp
// file of snapshot/, and the intent holds no lease). The intent is empty
// and idempotent, so a put whose temp file vanished is made again.
func announceExpiry(ctx context.Context, t *tableCtx, end int64) error {
	p := t.snapshots.ExpiryIntentPath(end)
	var err error
	for range putAttempts {
		err = t.io.PutIfAbsent(ctx, p, nil)
		if err == nil || errors.Is(err, fileio.ErrExist) {
			return nil
		}
		if !errors.Is(err, fileio.ErrNotExist) {
			break
		}
	}
	return fmt.Errorf("record expiry intent: %w", err)
}

// putAttempts bounds the puts of an expiry intent whose temp file
// vanished.
const putAttempts = 3

// expiryIntent returns the highest end any expiry intent announces, 0 if
// none; an intent left by a crashed run stays until a run finishes past
// it, and the snapshots below it are half deleted meanwhile.
func expiryIntent(ctx context.Context, t *tableCtx) (int64, error) {
	ends, err := t.snapshots.ExpiryIntents(ctx)
	if err != nil || len(ends) == 0 {
		return 0, err
	}
	return slices.Max(ends), nil
}

// retireExpiryIntents deletes the intents a finished run up to end
// fulfilled, its own and those of interrupted runs with smaller ranges.
func retireExpiryIntents(ctx context.Context, t *tableCtx, end int64) error {
	ends, err := t.snapshots.ExpiryIntents(ctx)
	if err != nil {
		return err
	}
	for _, e := range ends {
		if e > end {
			continue
		}
		if _, err := deleteIfExists(ctx, t.io, t.snapshots.ExpiryIntentPath(e)); err != nil {
			return err
		}
	}
	return nil
}
