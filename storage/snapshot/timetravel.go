package snapshot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// TimeTravel selects the snapshot a read pins. The zero value means the
// latest snapshot; otherwise exactly one field is set.
type TimeTravel struct {
	// SnapshotID pins snapshot-<SnapshotID>.
	SnapshotID int64
	// Tag pins the snapshot recorded in tag-<Tag>, which stays readable after
	// the snapshot itself has expired.
	Tag string
	// TimestampMillis pins the latest snapshot committed at or before it.
	TimestampMillis *int64
	// Version is Paimon's scan.version: a tag name if such a tag exists,
	// otherwise a snapshot id in decimal.
	Version string
}

// IsLatest reports whether tt selects the latest snapshot.
func (tt TimeTravel) IsLatest() bool {
	return tt.SnapshotID == 0 && tt.Tag == "" && tt.TimestampMillis == nil && tt.Version == ""
}

func (tt TimeTravel) count() int {
	n := 0
	for _, set := range []bool{tt.SnapshotID != 0, tt.Tag != "", tt.TimestampMillis != nil, tt.Version != ""} {
		if set {
			n++
		}
	}
	return n
}

// Resolve returns the snapshot tt selects. For the latest snapshot of a table
// that has none it returns (nil, nil): the table is empty.
func (m *Manager) Resolve(ctx context.Context, tt TimeTravel) (*spec.Snapshot, error) {
	if tt.count() > 1 {
		return nil, errors.New("time travel: set only one of snapshot id, tag, timestamp and version")
	}
	switch {
	case tt.SnapshotID < 0:
		return nil, fmt.Errorf("time travel: snapshot id %d: %w", tt.SnapshotID, lakeerr.ErrNotFound)
	case tt.SnapshotID > 0:
		return m.Snapshot(ctx, tt.SnapshotID)
	case tt.Tag != "":
		return m.tagSnapshot(ctx, tt.Tag)
	case tt.TimestampMillis != nil:
		return m.AtOrBefore(ctx, *tt.TimestampMillis)
	case tt.Version != "":
		return m.resolveVersion(ctx, tt.Version)
	}
	return m.Latest(ctx)
}

func (m *Manager) tagSnapshot(ctx context.Context, name string) (*spec.Snapshot, error) {
	tag, err := m.Tag(ctx, name)
	if err != nil {
		return nil, err
	}
	return &tag.Snapshot, nil
}

// resolveVersion mirrors TimeTravelUtil.adaptScanVersion: a tag wins over a
// snapshot id of the same spelling.
func (m *Manager) resolveVersion(ctx context.Context, version string) (*spec.Snapshot, error) {
	tag, err := m.Tag(ctx, version)
	if err == nil {
		return &tag.Snapshot, nil
	}
	if !errors.Is(err, lakeerr.ErrNotFound) {
		return nil, err
	}
	id, perr := strconv.ParseInt(version, 10, 64)
	if perr != nil || id <= 0 {
		return nil, fmt.Errorf("time travel version %q is neither a tag nor a snapshot id: %w", version, lakeerr.ErrNotFound)
	}
	return m.Snapshot(ctx, id)
}

// AtOrBefore returns the latest snapshot whose commit time is at or before
// millis (SnapshotManager.earlierOrEqualTimeMills).
func (m *Manager) AtOrBefore(ctx context.Context, millis int64) (*spec.Snapshot, error) {
	earliest, ok, err := m.EarliestID(ctx)
	if err != nil {
		return nil, err
	}
	latest, _, err := m.LatestID(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("time travel to %s: %w: the table has no snapshots", formatMillis(millis), lakeerr.ErrNotFound)
	}
	load := func(id int64) (*spec.Snapshot, error) { return m.loadIfPresent(ctx, id) }
	found, err := searchAtOrBefore(earliest, latest, millis, load)
	if err != nil || found != nil {
		return found, err
	}
	first, _ := m.Snapshot(ctx, earliest)
	detail := ""
	if first != nil {
		detail = fmt.Sprintf(" (committed at %s)", formatMillis(first.TimeMillis))
	}
	return nil, fmt.Errorf("time travel to %s: %w: no snapshot at or before that time; the earliest available snapshot is %d%s",
		formatMillis(millis), lakeerr.ErrNotFound, earliest, detail)
}

// loadIfPresent reads a snapshot, mapping a concurrently expired one to nil.
func (m *Manager) loadIfPresent(ctx context.Context, id int64) (*spec.Snapshot, error) {
	s, err := m.Snapshot(ctx, id)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return nil, nil
	}
	return s, err
}

// searchAtOrBefore binary-searches ids [lo, hi] for the largest id whose
// snapshot has TimeMillis <= millis, relying on commit times increasing with
// ids. load returns nil for an id that no longer exists; such ids are
// treated as too old, since expiry removes the oldest snapshots first.
func searchAtOrBefore(lo, hi, millis int64, load func(int64) (*spec.Snapshot, error)) (*spec.Snapshot, error) {
	var best *spec.Snapshot
	for lo <= hi {
		mid := lo + (hi-lo)/2
		s, err := load(mid)
		if err != nil {
			return nil, err
		}
		if s == nil || s.TimeMillis <= millis {
			if s != nil {
				best = s
			}
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	return best, nil
}

func formatMillis(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000 UTC")
}
