package commit

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/spec"
)

// maxAttributionWalk bounds the snapshots a DeletedFileNotLive report
// reads to name its cause: beyond it the report names the latest snapshot,
// as it would without the walk.
const maxAttributionWalk = 256

// readBase is the base a part's conflict reports name: the snapshot the
// writer read, when it says so and it precedes the latest snapshot of the
// first attempt. A compaction planned at the writer's read, committed after
// its data part, would otherwise report its own APPEND as its base.
func readBase(read, latest int64) int64 {
	if read > 0 && read < latest {
		return read
	}
	return latest
}

// attributeDeletion names, in a DeletedFileNotLive conflict, the snapshot
// after base that deleted one of the files instead of the latest one: an
// operator reading "conflicts with snapshot N (kind=APPEND)" would look for
// the cause in the wrong job. A failure to read the history leaves the
// report as it was; err is returned either way.
func (r *run) attributeDeletion(ctx context.Context, err error, base int64, latest *spec.Snapshot) error {
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Kind != DeletedFileNotLive || base <= 0 || idOf(latest)-base > maxAttributionWalk {
		return err
	}
	since, readErr := r.deltasSince(ctx, base, latest)
	if readErr == nil {
		attributeDeletedFiles(ce, since, int64(len(since)) == idOf(latest)-base)
	}
	return err
}

// attributeDeletedFiles points ce at the first snapshot of since that
// deleted one of its named files. When since is the whole history after
// the writer's read (complete) and none did, it says so: the files were
// never committed, or were gone before the read.
func attributeDeletedFiles(ce *ConflictError, since []SnapshotDelta, complete bool) {
	for _, s := range since {
		for _, e := range s.Entries {
			if e.Kind == spec.FileKindDelete && slices.Contains(ce.Files, e.File.FileName) {
				ce.Conflicting = s.Snapshot
				return
			}
		}
	}
	if !complete {
		return
	}
	note := fmt.Sprintf("no snapshot after %s deleted the named files: they were never committed, or not live when the writer read", baseName(ce.BaseSnapshotID))
	if ce.Detail != "" {
		note = ce.Detail + "; " + note
	}
	ce.Detail = note
}
