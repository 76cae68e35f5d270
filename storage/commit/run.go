package commit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

// run is the state of one Commit call, shared by its parts and attempts.
type run struct {
	c     *Committer
	req   *Request
	table *tableLayout
	// fileUUID and fileCount name the metadata files of this call,
	// manifest-<uuid>-<n>, as one Java FileStorePathFactory does.
	fileUUID  string
	fileCount int
	cache     metaCache
	// view is set while a batch runs an attempt of this call: what the
	// attempt sees of the snapshots the batch is about to publish.
	view *chainView
	// leases are checked before each snapshot put.
	leases *writeLeases
	// keys holds the primary keys of the data files the key check read.
	keys map[string][][]any
	// digest is the request's content digest, recorded by each snapshot
	// and the receipt (see Digest).
	digest Digest
}

func (c *Committer) newRun(req *Request, table *tableLayout) *run {
	return &run{c: c, req: req, table: table, fileUUID: c.newUUID(), cache: newMetaCache(), keys: map[string][][]any{},
		digest: requestDigest(req.Messages)}
}

type attemptStatus int

const (
	// published: this attempt's snapshot is in the table.
	published attemptStatus = iota
	// alreadyLanded: an earlier attempt or call published the part.
	alreadyLanded
	// lostRace: another snapshot took the id this attempt wanted.
	lostRace
	// notLanded: the put failed and the snapshot is not there.
	notLanded
	// unknownOutcome: the put failed and the snapshot could not be read
	// back; it comes with an error wrapping lakeerr.ErrUnknownOutcome.
	unknownOutcome
)

type attemptOutcome struct {
	status attemptStatus
	// snapshotID is the snapshot published or found landed, or the id the
	// attempt tried to take.
	snapshotID int64
	// latestID is the snapshot the attempt built on; 0 for an empty table.
	latestID int64
	// cause is why a notLanded put failed.
	cause    error
	warnings []error
}

// commitPart is Java's tryCommit: it checks the receipt, resolves an
// overwrite's deletes and writes the part's own files, then runs attempts
// until the part is published or found landed, waiting between attempts,
// until commit.max-retries or commit.timeout. Only lost races and puts
// that did not land are retried; conflicts and other errors return at
// once. Files no snapshot put named are deleted before it returns.
func (r *run) commitPart(ctx context.Context, p *part, res *Result) error {
	start := r.c.now()
	landedIn, checkedUpTo, err := r.checkReceipt(ctx, p)
	if err != nil || landedIn != 0 {
		res.AlreadyCommittedIn = max(res.AlreadyCommittedIn, landedIn)
		return err
	}
	if err := r.resolveOverwrite(ctx, p); err != nil {
		return err
	}
	if err := r.precheckKeys(ctx, p); err != nil {
		return err
	}
	if err := r.writeDelta(ctx, p); err != nil {
		return err
	}
	err = r.attempts(ctx, p, res, start, checkedUpTo)
	if !p.deltaNamed {
		if cleanErr := r.deleteDelta(ctx, p); cleanErr != nil && err != nil {
			err = errors.Join(err, cleanErr)
		} else if cleanErr != nil {
			res.Warnings = append(res.Warnings, cleanErr)
		}
	}
	return err
}

// attempts runs the attempts of part p; checkedUpTo bounds the landed
// walk of the first (see landed).
func (r *run) attempts(ctx context.Context, p *part, res *Result, start time.Time, checkedUpTo int64) error {
	losses := 0 // consecutive lost races
	for attempt := 1; ; attempt++ {
		out, err := r.c.group.attempt(ctx, r, p, attempt, checkedUpTo)
		if err != nil {
			return err
		}
		switch out.status {
		case published:
			res.Snapshots = append(res.Snapshots, out.snapshotID)
			res.Warnings = append(res.Warnings, out.warnings...)
			return nil
		case alreadyLanded:
			res.AlreadyCommittedIn = max(res.AlreadyCommittedIn, out.snapshotID)
			return nil
		}
		if reason := r.exhausted(attempt, start); reason != "" {
			return r.retryExhausted(ctx, p, out, attempt, reason)
		}
		if out.status == lostRace {
			losses++
		} else {
			losses = 0
		}
		if err := r.waitToRetry(ctx, out, attempt, losses); err != nil {
			return err
		}
		checkedUpTo = out.latestID
	}
}

// waitToRetry waits before the next attempt. After the first of a run of
// lost races it does not wait: the winner's snapshot is already visible,
// and contention, not an overloaded store, made the put fail, so the
// retry can only lose again to a writer that publishes in between, and
// waiting a whole backoff would cost about one commit. From the second
// consecutive loss on it waits backoff(losses-2), so that
// commit.min-retry-wait is the first wait and commit.max-retry-wait caps
// them, as in Java. A put that did not land waits backoff(attempt-1), as
// before: the store may be failing.
func (r *run) waitToRetry(ctx context.Context, out attemptOutcome, attempt, losses int) error {
	retry := attempt - 1
	if out.status == lostRace {
		if losses == 1 {
			return nil
		}
		retry = losses - 2
	}
	if err := r.c.sleep(ctx, r.c.backoff(retry)); err != nil {
		return fmt.Errorf("commit: waiting to retry snapshot %d: %w", out.snapshotID, err)
	}
	return nil
}

// plan is Java's tryCommitOnce up to the publish, on top of latest (the
// latest snapshot, or the one an earlier attempt of the batch will publish
// before this one). checkedUpTo bounds the walk of the landed check (see
// landed). It returns the preparation to publish or, when there is
// nothing to publish, the outcome.
func (r *run) plan(ctx context.Context, p *part, n int, checkedUpTo int64, latest *spec.Snapshot) (*preparation, attemptOutcome, error) {
	if n == 1 && p.overwrite == nil {
		p.baseSnapshotID = readBase(r.req.ReadSnapshotID, idOf(latest))
	}
	landedIn, err := r.landed(ctx, p, latest, checkedUpTo)
	if err != nil || landedIn != 0 {
		return nil, attemptOutcome{status: alreadyLanded, snapshotID: landedIn}, err
	}
	checked, err := r.checkConflicts(ctx, p, latest, n)
	if err != nil {
		return nil, attemptOutcome{}, err
	}
	prep, err := r.prepare(ctx, p, latest, checked)
	return prep, attemptOutcome{}, err
}

// refreshSchema re-reads the latest schema before a retry, so that the
// snapshot records the schema current when it is published.
func (r *run) refreshSchema(ctx context.Context) error {
	table, err := r.c.loadTable(ctx)
	if err != nil {
		return err
	}
	r.table = table
	return nil
}

func idOf(s *spec.Snapshot) int64 {
	if s == nil {
		return 0
	}
	return s.ID
}

// observe sets the horizon on the first read of the table.
func (c *Committer) observe(latest *spec.Snapshot) {
	if c.horizon < 0 {
		c.horizon = idOf(latest)
	}
}

// exhausted returns why no further attempt may run, or "". As in Java,
// retries count the attempts after the first.
func (r *run) exhausted(attempts int, start time.Time) string {
	cfg := r.c.cfg
	if attempts > cfg.maxRetries {
		return fmt.Sprintf("gave up after %d retries (commit.max-retries)", cfg.maxRetries)
	}
	if elapsed := r.c.now().Sub(start); cfg.timeoutLimited && elapsed > cfg.timeout {
		return fmt.Sprintf("gave up after %s (commit.timeout %s)", elapsed, cfg.timeout)
	}
	return ""
}

// backoff is Paimon's RetryWaiter: min × 2^retry capped at max, plus a
// uniform jitter in [0, 20%) of that, so that writers that lost to each
// other do not retry in lockstep.
func (c *Committer) backoff(retry int) time.Duration {
	wait := c.cfg.minWait
	for i := 0; i < retry && wait < c.cfg.maxWait; i++ {
		if wait > c.cfg.maxWait/2 {
			wait = c.cfg.maxWait
			break
		}
		wait *= 2
	}
	wait = min(wait, c.cfg.maxWait)
	if jitter := int64(wait) / 5; jitter > 0 {
		wait += time.Duration(c.rand.Int64N(jitter))
	}
	return wait
}

// retryExhausted reports the last lost race with the facts an incident
// needs; the snapshot that won is read again to name its writer.
func (r *run) retryExhausted(ctx context.Context, p *part, out attemptOutcome, attempts int, reason string) error {
	winner := out.latestID
	if out.status == lostRace {
		winner = out.snapshotID
	}
	e := &RetryExhaustedError{
		Reason:           reason,
		CommitKind:       p.kind,
		CommitUser:       r.req.CommitUser,
		CommitIdentifier: r.req.Identifier,
		BaseSnapshotID:   p.baseSnapshotID,
		Latest:           SnapshotRef{ID: winner},
		Locations:        r.conflictInput(p, nil, attempts).locations(p.entries),
		Attempts:         attempts,
		Cause:            out.cause,
	}
	if s, found, err := r.readSnapshot(ctx, winner); err == nil && found {
		e.Latest = RefOf(s)
	}
	return e
}
