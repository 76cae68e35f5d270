package maintenance

import (
	"context"
	"errors"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// ExpireTagsOptions configures ExpireTags.
type ExpireTagsOptions struct {
	// OlderThan, if set, also expires tags created before it, with or
	// without a retention time (the expire_tags procedure's older_than).
	OlderThan *time.Time
	// Now is the clock; its location is the zone of the tags' creation
	// times, which Java writes as local wall-clock times. Default time.Now.
	Now func() time.Time
}

// ExpireTagsResult says what ExpireTags did.
type ExpireTagsResult struct {
	// Expired names the deleted tags, in name order.
	Expired []string
	// Deleted counts the files deleted with tags of expired snapshots.
	Deleted map[FileKind]int
}

// ExpireTags deletes the tags whose retention time has passed, as
// TagTimeExpire does, each through DeleteTag. A tag that cannot be deleted
// (DeleteTag refuses while another tag is damaged) does not keep the
// others from expiring: the call goes on, and returns every failure. A tag
// deleted meanwhile is skipped, as Java skips it.
func ExpireTags(ctx context.Context, fio fileio.FileIO, tableDir string, opts ExpireTagsOptions) (ExpireTagsResult, error) {
	res := ExpireTagsResult{Deleted: map[FileKind]int{}}
	t, err := openTable(ctx, fio, tableDir)
	if err != nil {
		return res, err
	}
	now := nowOrDefault(opts.Now)()
	tags, err := readTags(ctx, t.snapshots)
	if err != nil {
		return res, err
	}
	var failed []error
	for _, tag := range tags {
		age := tagAge{created: tag.CreateTime, retained: tag.TimeRetained}
		if tag.CreateTime == nil && opts.OlderThan != nil {
			info, err := fio.Stat(ctx, t.snapshots.TagPath(tag.name))
			if err != nil {
				continue // deleted meanwhile, as Java skips it
			}
			modified := wallClock(info.ModTime, now.Location())
			age.created = &modified
		}
		if !age.expired(wallClock(now, now.Location()), opts.OlderThan, now.Location()) {
			continue
		}
		r, err := DeleteTag(ctx, fio, tableDir, tag.name)
		for k, n := range r.Deleted {
			res.Deleted[k] += n
		}
		switch {
		case errors.Is(err, lakeerr.ErrNotFound):
		case err != nil:
			failed = append(failed, err)
		default:
			res.Expired = append(res.Expired, tag.name)
		}
	}
	return res, errors.Join(failed...)
}

// tagAge is what decides whether a tag expires. Times are wall-clock
// readings stored as UTC, as Java's LocalDateTime and spec.Tag hold them.
type tagAge struct {
	created  *time.Time
	retained *time.Duration
}

// expired mirrors TagTimeExpire.expire: a tag expires once its retention
// time has passed since its creation, or when it was created before
// olderThan. A tag without a creation time never expires by retention.
func (a tagAge) expired(nowWall time.Time, olderThan *time.Time, loc *time.Location) bool {
	if a.created == nil {
		return false
	}
	if a.retained != nil && nowWall.After(a.created.Add(*a.retained)) {
		return true
	}
	return olderThan != nil && wallClock(*olderThan, loc).After(*a.created)
}

// wallClock is the reading of t on a wall clock in loc, stored as UTC.
func wallClock(t time.Time, loc *time.Location) time.Time {
	return spec.LocalWallClockAsUTC(t.In(loc))
}
