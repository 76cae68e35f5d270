package metamorphic

import (
	"errors"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// checkError checks that an error is of a documented class, and of a kind
// the request can meet.
func (c *checker) checkError(b *batch, cl *call) {
	err := cl.err
	if err == nil {
		return
	}
	where := fmt.Sprintf("op %d %s", cl.op.index, cl.op)
	if !errors.Is(err, lakeerr.ErrRetryableConflict) && !errors.Is(err, lakeerr.ErrTerminalConflict) && !errors.Is(err, lakeerr.ErrUnknownOutcome) {
		c.fail("%s: error of no documented class: %v", where, err)
		return
	}
	var ce *commit.ConflictError
	var re *commit.RetryExhaustedError
	switch {
	case errors.Is(err, lakeerr.ErrUnknownOutcome):
		if !cl.faulted {
			c.fail("%s: unknown outcome without an injected fault: %v", where, err)
		}
	case errors.As(err, &re):
		if !c.concurrent && re.Cause == nil {
			c.fail("%s: lost a race with no concurrent writer: %v", where, err)
		}
	case errors.As(err, &ce):
		c.checkConflict(b, cl, ce)
	default:
		c.fail("%s: unexpected error: %v", where, err)
	}
}

// checkConflict accepts the conflicts the workload can cause, each for a
// reason the log must show.
func (c *checker) checkConflict(b *batch, cl *call, ce *commit.ConflictError) {
	where := fmt.Sprintf("op %d %s", cl.op.index, cl.op)
	switch {
	case ce.CommitKind == spec.CommitKindCompact:
		c.checkCompactConflict(b, where, ce)
	case ce.Kind == commit.WriteWriteConflict && b.readModifyWrite():
		c.checkWriteConflict(b, where, ce)
	case !b.overwrite:
		c.fail("%s: an append conflicted: %v", where, ce)
	case ce.Kind != commit.OverwriteTargetChanged:
		c.fail("%s: overwrite failed with %s: %v", where, ce.Kind, ce)
	default:
		c.checkTargetChanged(b, where, ce)
	}
}

// checkTargetChanged requires an OverwriteTargetChanged to name a snapshot
// after the base that did touch the target: no false alarms.
func (c *checker) checkTargetChanged(b *batch, where string, ce *commit.ConflictError) {
	id := ce.Conflicting.ID
	if id <= b.base || c.snapshot(id) == nil {
		c.fail("%s: target changed by snapshot %d, not after base %d: %v", where, id, b.base, ce)
		return
	}
	if !intersects(c.touched[id-1], b.target()) {
		c.fail("%s: snapshot %d touched %v, not the target %v: %v", where, id, keys(c.touched[id-1]), keys(b.target()), ce)
	}
}

// checkWriteConflict requires a WriteWriteConflict to name another
// request's snapshot after the base that wrote one of b's keys (an APPEND)
// or changed one of its partitions (an OVERWRITE): no false alarms, and
// never a COMPACT snapshot, which changes no row. The bucket an overwrite
// touched is not checked: the delta partitions are what the checker reads.
func (c *checker) checkWriteConflict(b *batch, where string, ce *commit.ConflictError) {
	id := ce.Conflicting.ID
	s := c.snapshot(id)
	if id <= b.base || s == nil {
		c.fail("%s: write-write conflict with snapshot %d, not after base %d: %v", where, id, b.base, ce)
		return
	}
	other := c.batches[batchKey{s.CommitUser, s.CommitIdentifier}]
	if other == nil || other == b || !c.wroteKeyOf(s, other, b) {
		c.fail("%s: write-write conflict with snapshot %d (%s), which wrote none of its keys: %v", where, id, describe(s), ce)
	}
}

// wroteKeyOf reports whether snapshot s, of request other, wrote one of
// b's keys: as a row, or by replacing a partition b writes.
func (c *checker) wroteKeyOf(s *spec.Snapshot, other, b *batch) bool {
	switch s.CommitKind {
	case spec.CommitKindAppend:
		return slices.ContainsFunc(other.records, func(r record) bool {
			return slices.ContainsFunc(b.records, func(mine record) bool { return mine.dt == r.dt && mine.pk == r.pk })
		})
	case spec.CommitKindOverwrite:
		return intersects(c.touched[s.ID-1], b.partitions())
	}
	return false
}

// checkCompactConflict requires the upgrade's conflict to be real: its
// file no longer live in the snapshot it lost to (DeletedFileNotLive), or
// a file of the target level there overlapping its key range
// (KeyRangeOverlap).
func (c *checker) checkCompactConflict(b *batch, where string, ce *commit.ConflictError) {
	f := b.upgraded
	live, err := c.liveAt(ce.Conflicting.ID)
	if err != nil || f == nil {
		c.fail("%s: %v (upgrade %v): %v", where, ce, f != nil, err)
		return
	}
	level := b.request.Messages[len(b.request.Messages)-1].CompactAfter[0].Level
	switch ce.Kind {
	case commit.DeletedFileNotLive:
		if slices.ContainsFunc(live, func(e spec.ManifestEntry) bool { return sameFile(e, f, 0) }) {
			c.fail("%s: %s is live at level 0 in snapshot %d: %v", where, f.meta.FileName, ce.Conflicting.ID, ce)
		}
	case commit.KeyRangeOverlap:
		overlaps := slices.ContainsFunc(live, func(e spec.ManifestEntry) bool {
			return e.File.Level == level && e.Bucket == f.bucket && decodeDT(e.Partition) == f.dt &&
				e.File.FileName != f.meta.FileName && keysOverlap(e.File, f.meta)
		})
		if !overlaps {
			c.fail("%s: no file of level %d in snapshot %d overlaps %s: %v", where, level, ce.Conflicting.ID, f.meta.FileName, ce)
		}
	default:
		c.fail("%s: COMPACT part failed with %s: %v", where, ce.Kind, ce)
	}
}

func (c *checker) liveAt(id int64) ([]spec.ManifestEntry, error) {
	s := c.snapshot(id)
	if s == nil {
		return nil, fmt.Errorf("snapshot %d not in the log", id)
	}
	return manifest.NewReader(c.env.mem, c.env.dir).LiveEntries(c.ctx, s)
}

func sameFile(e spec.ManifestEntry, f *liveFile, level int32) bool {
	return e.File.FileName == f.meta.FileName && e.File.Level == level && e.Bucket == f.bucket && decodeDT(e.Partition) == f.dt
}

// keysOverlap compares the key ranges of two files of the test table,
// whose trimmed primary key is pk alone. A key that does not decode
// counts as overlapping: the conflict is then not called false.
func keysOverlap(a, b spec.DataFileMeta) bool {
	minA, okMinA := pkOf(a.MinKey)
	maxA, okMaxA := pkOf(a.MaxKey)
	minB, okMinB := pkOf(b.MinKey)
	maxB, okMaxB := pkOf(b.MaxKey)
	if !okMinA || !okMaxA || !okMinB || !okMaxB {
		return true
	}
	return minA <= maxB && minB <= maxA
}

func pkOf(key []byte) (int64, bool) {
	values, err := spec.DeserializeBinaryRow([]spec.DataType{{Root: spec.BigInt}}, key)
	if err != nil || len(values) != 1 {
		return 0, false
	}
	pk, ok := values[0].(int64)
	return pk, ok
}
