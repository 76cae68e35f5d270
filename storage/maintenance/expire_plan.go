package maintenance

import (
	"fmt"
	"strconv"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// retention is the resolved configuration of one expiry run.
type retention struct {
	retainMin, retainMax, maxDeletes int
	// olderThanMillis: snapshots committed before it may expire.
	olderThanMillis int64
}

// resolveRetention fills what opts leaves unset from the table options,
// with Paimon's defaults (snapshot.num-retained.min 10,
// snapshot.num-retained.max Integer.MAX_VALUE, snapshot.time-retained 1 h,
// snapshot.expire.limit 50), as the expire_snapshots procedure does.
func resolveRetention(core spec.CoreOptions, opts ExpireOptions, now time.Time) (retention, error) {
	var r retention
	var err error
	if r.retainMin, err = intOr(opts.RetainMin, core.SnapshotNumRetainedMin); err != nil {
		return r, err
	}
	if r.retainMax, err = intOr(opts.RetainMax, core.SnapshotNumRetainedMax); err != nil {
		return r, err
	}
	if r.maxDeletes, err = intOr(opts.MaxDeletes, core.SnapshotExpireLimit); err != nil {
		return r, err
	}
	if opts.OlderThan != nil {
		r.olderThanMillis = opts.OlderThan.UnixMilli()
	} else {
		retained, err := core.SnapshotTimeRetained()
		if err != nil {
			return r, err
		}
		r.olderThanMillis = now.Add(-retained).UnixMilli()
	}
	return r, r.validate()
}

func intOr(v *int, option func() (int, error)) (int, error) {
	if v != nil {
		return *v, nil
	}
	return option()
}

func (r retention) validate() error {
	switch {
	case r.retainMin < 1:
		return fmt.Errorf("retain_min %d: at least 1 snapshot must be retained: %w", r.retainMin, ErrInvalidArgument)
	case r.retainMax < r.retainMin:
		return fmt.Errorf("retain_max %d is less than retain_min %d: %w", r.retainMax, r.retainMin, ErrInvalidArgument)
	case r.maxDeletes < 1:
		return fmt.Errorf("max_deletes %d: must be at least 1: %w", r.maxDeletes, ErrInvalidArgument)
	}
	return nil
}

// expiryBounds are the facts about the table the expired range depends on,
// besides snapshot commit times.
type expiryBounds struct {
	earliest, latest int64
	// minConsumerNext is the smallest next snapshot of any consumer, which
	// must not expire; 0 if there is no consumer.
	minConsumerNext int64
}

// expireEnd returns the first snapshot id to keep: snapshots below it
// expire. Mirrors ExpireSnapshotsImpl.expire: everything beyond
// retain_max expires; retain_min, the consumers and max_deletes cap the
// range; inside those caps, the first snapshot (from the retain_max bound
// up) committed at or after olderThan ends it. timeOf reports a snapshot's
// commit time, or false if it does not exist.
func expireEnd(r retention, b expiryBounds, timeOf func(id int64) (millis int64, ok bool, err error)) (int64, error) {
	minKept := max(b.latest-int64(r.retainMax)+1, b.earliest)
	end := b.latest - int64(r.retainMin) + 1
	if b.minConsumerNext > 0 {
		end = min(end, b.minConsumerNext)
	}
	end = min(end, b.earliest+int64(r.maxDeletes))
	for id := minKept; id < end; id++ {
		millis, ok, err := timeOf(id)
		if err != nil {
			return 0, err
		}
		if ok && r.olderThanMillis <= millis {
			return id, nil
		}
	}
	return end, nil
}

// expireBegin returns the first id of the range to expire: the start of
// the run of consecutive ids that ends just below end. Snapshots below a
// gap are left alone, as Java's expireUntil does (a gap means someone else
// is changing the table; the next run sees it settled).
func expireBegin(ids []int64, end int64) int64 {
	begin := end
	for i := len(ids) - 1; i >= 0; i-- {
		switch {
		case ids[i] >= begin:
			continue
		case ids[i] == begin-1:
			begin = ids[i]
		default:
			return begin
		}
	}
	return begin
}

// Changelog retention options; they default to the snapshot ones.
const (
	optionChangelogNumRetainedMin = "changelog.num-retained.min"
	optionChangelogNumRetainedMax = "changelog.num-retained.max"
	optionChangelogTimeRetained   = "changelog.time-retained"
)

// checkChangelogCoupled refuses tables whose changelog outlives their
// snapshots (CoreOptions.changelogLifecycleDecoupled): Java expiry then
// moves each expired snapshot to changelog/ instead of deleting its
// changelog files, which lakesql does not implement.
func checkChangelogCoupled(core spec.CoreOptions, r retention) error {
	decoupled := func(key string, longer func(string) (bool, error)) error {
		v, ok := core.Get(key)
		if !ok {
			return nil
		}
		yes, err := longer(v)
		if err != nil {
			return fmt.Errorf("option %s=%q: %w: %w", key, v, lakeerr.ErrCorruption, err)
		}
		if yes {
			return fmt.Errorf("option %s=%s keeps changelogs longer than snapshots (decoupled changelog): %w", key, v, lakeerr.ErrUnsupported)
		}
		return nil
	}
	moreThan := func(n int) func(string) (bool, error) {
		return func(v string) (bool, error) {
			c, err := strconv.Atoi(v)
			return c > n, err
		}
	}
	timeRetained, err := core.SnapshotTimeRetained()
	if err != nil {
		return err
	}
	if err := decoupled(optionChangelogNumRetainedMin, moreThan(r.retainMin)); err != nil {
		return err
	}
	if err := decoupled(optionChangelogNumRetainedMax, moreThan(r.retainMax)); err != nil {
		return err
	}
	return decoupled(optionChangelogTimeRetained, func(v string) (bool, error) {
		d, err := spec.ParseDuration(v)
		return d > timeRetained, err
	})
}
