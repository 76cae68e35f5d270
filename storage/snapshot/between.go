package snapshot

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// ErrReversedRange classes an incremental range whose start is after its
// end: the caller's argument is wrong.
var ErrReversedRange = errors.New("incremental range starts after its end")

// Between selects the changes of an incremental read: those committed after
// Start's snapshot, up to and including End's. Each end is a snapshot id
// or tag, as Paimon's incremental-between option takes them, or a
// timestamp, as incremental-between-timestamp does. A zero Start is the
// table's beginning, before its first snapshot (id 0), and a zero End its
// latest snapshot.
type Between struct {
	Start, End TimeTravel
}

// ResolveBetween returns the snapshot ids (from, to] that b selects, checked
// against the snapshots the table still has: every snapshot in the range
// must be retained, because its delta is what an incremental read reads.
//
// A timestamp end stands for the latest snapshot committed at or before it,
// as IncrementalDeltaStartingScanner.betweenTimestamps resolves it; a start
// before the earliest retained snapshot's commit means the snapshot before
// it, so that the earliest snapshot's changes are included. An end before
// every retained snapshot selects nothing, where Java would read up to the
// latest snapshot.
func (m *Manager) ResolveBetween(ctx context.Context, b Between) (from, to int64, err error) {
	earliest, ok, err := m.EarliestID(ctx)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		return 0, 0, fmt.Errorf("incremental read: %w: the table has no snapshots", lakeerr.ErrNotFound)
	}
	latest, _, err := m.LatestID(ctx)
	if err != nil {
		return 0, 0, err
	}
	if !b.Start.IsLatest() {
		if from, err = m.betweenEnd(ctx, b.Start, earliest); err != nil {
			return 0, 0, err
		}
	}
	if to, err = m.betweenEnd(ctx, b.End, earliest); err != nil {
		return 0, 0, err
	}
	return from, to, CheckBetween(from, to, earliest, latest)
}

// betweenEnd is the snapshot id one end of a Between names.
func (m *Manager) betweenEnd(ctx context.Context, tt TimeTravel, earliest int64) (int64, error) {
	if tt.SnapshotID > 0 {
		// Not read: a range may start at the snapshot before the earliest,
		// which has expired (CheckBetween).
		return tt.SnapshotID, nil
	}
	if tt.TimestampMillis == nil {
		s, err := m.Resolve(ctx, tt)
		if err != nil {
			return 0, err
		}
		return s.ID, nil
	}
	first, err := m.Snapshot(ctx, earliest)
	if err != nil {
		return 0, err
	}
	if first.TimeMillis > *tt.TimestampMillis {
		return earliest - 1, nil
	}
	s, err := m.AtOrBefore(ctx, *tt.TimestampMillis)
	if err != nil {
		return 0, err
	}
	return s.ID, nil
}

// CheckBetween checks an incremental range (from, to] against the table's
// retained snapshots earliest..latest: the range may start at the snapshot
// just before the earliest, whose delta it does not read, and must not end
// after the latest or before its start.
func CheckBetween(from, to, earliest, latest int64) error {
	switch {
	case from > to:
		return fmt.Errorf("incremental read from snapshot %d to %d: %w", from, to, ErrReversedRange)
	case from < earliest-1:
		return fmt.Errorf("incremental read from snapshot %d: %w: snapshots %d..%d have expired; "+
			"the earliest retained snapshot is %d, so a range can start at %d at the earliest",
			from, lakeerr.ErrNotFound, from+1, earliest-1, earliest, earliest-1)
	case to > latest:
		return fmt.Errorf("incremental read to snapshot %d: %w: the latest snapshot is %d", to, lakeerr.ErrNotFound, latest)
	}
	return nil
}
