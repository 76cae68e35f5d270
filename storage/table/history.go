package table

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// Change is one change a snapshot committed to a row of a primary-key
// table: a record it wrote, or a row its overwrite removed.
type Change struct {
	Snapshot *spec.Snapshot
	// Kind is the record's row kind; a row an overwrite removed is a
	// DELETE.
	Kind spec.RowKind
	// Row is in the latest schema.
	Row []any
}

// History iterates over the changes the retained snapshots of a
// primary-key table committed to the rows a filter selects, snapshot by
// snapshot in commit order: what answers "which commit wrote, changed or
// deleted this key". Each APPEND snapshot contributes the records it wrote
// (a DELETE statement writes a -D record); each OVERWRITE snapshot the
// live rows of the files it removed, as -D, then the records of the files
// it added. Compactions change no row and contribute nothing. Only files
// whose partition and key statistics can hold a match are read, so a
// filter that pins the key reads the few files whose key ranges contain
// it.
type History struct {
	t      *Table
	ctx    context.Context
	schema *spec.TableSchema
	filter predicate.Predicate
	next   int64 // the next snapshot to read
	last   int64
	// snapshot is the one whose changes rows yields.
	snapshot *spec.Snapshot
	// reads are the reads of snapshot's changes not yet started, rows the
	// one being iterated; removed makes its rows DELETEs.
	reads   []historyRead
	rows    *Rows
	removed bool
}

// historyRead is a read of files one snapshot added or removed.
type historyRead struct {
	plan    *Plan
	removed bool
}

// History returns the changes of the retained snapshots to the rows
// filter selects (nil for every row). Close it when done.
func (t *Table) History(ctx context.Context, filter predicate.Predicate) (*History, error) {
	s, err := t.schemas.Latest(ctx)
	if err != nil {
		return nil, err
	}
	if len(s.PrimaryKeys) == 0 {
		return nil, unsupported("key history of a table without a primary key")
	}
	if err := checkIncrementalSupported(s); err != nil {
		return nil, err
	}
	h := &History{t: t, ctx: ctx, schema: s, filter: filter}
	earliest, ok, err := t.snapshots.EarliestID(ctx)
	if err != nil || !ok {
		return h, err
	}
	latest, _, err := t.snapshots.LatestID(ctx)
	if err != nil {
		return nil, err
	}
	h.next, h.last = earliest, latest
	return h, nil
}

// Next returns the next change, or io.EOF after the last.
func (h *History) Next() (Change, error) {
	for {
		if h.rows != nil {
			row, err := h.rows.Next()
			if err == nil {
				c, live, err := h.change(row)
				if live || err != nil {
					return c, err
				}
				continue
			}
			if err != io.EOF {
				return Change{}, err
			}
			err = h.rows.Close()
			h.rows = nil
			if err != nil {
				return Change{}, err
			}
		}
		if len(h.reads) > 0 {
			if err := h.startRead(); err != nil {
				return Change{}, err
			}
			continue
		}
		if h.next > h.last {
			return Change{}, io.EOF
		}
		if err := h.planSnapshot(h.next); err != nil {
			return Change{}, err
		}
		h.next++
	}
}

// change is a row of the current read, which leads with its row kind.
// Of the rows of removed files only those that were live are changes: a
// key whose merge there ends in a retraction was deleted before.
func (h *History) change(row []any) (c Change, live bool, err error) {
	kind, err := spec.ParseRowKind(row[0].(string))
	if err != nil {
		return Change{}, false, err
	}
	if h.removed {
		if kind.IsRetract() {
			return Change{}, false, nil
		}
		kind = spec.RowKindDelete
	}
	return Change{Snapshot: h.snapshot, Kind: kind, Row: row[1:]}, true, nil
}

func (h *History) startRead() error {
	r := h.reads[0]
	h.reads = h.reads[1:]
	rows, err := h.t.ExecutePlan(h.ctx, r.plan, ReadOptions{WithRowKind: true, Parallelism: 1})
	if err != nil {
		return err
	}
	h.rows, h.removed = rows, r.removed
	return nil
}

// planSnapshot plans the reads of snapshot id's changes. A snapshot that
// expired while the history was read has no changes left to show.
func (h *History) planSnapshot(id int64) error {
	snap, err := h.t.snapshots.Snapshot(h.ctx, id)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if snap.CommitKind != spec.CommitKindAppend && snap.CommitKind != spec.CommitKindOverwrite {
		return nil
	}
	in := h.t.changesInput(h.ctx, snap, h.schema, h.filter)
	entries, err := h.t.planner.ListedEntries(h.ctx, in, snap.DeltaManifestList)
	if err != nil {
		return fmt.Errorf("history of snapshot %d: %w", id, err)
	}
	added, removed := splitByKind(entries)
	h.snapshot, h.reads = snap, nil
	if len(removed) > 0 {
		plan, err := h.t.planFiles(h.ctx, in, removed)
		if err != nil {
			return err
		}
		// Merged: the rows that were live in the removed files.
		h.reads = append(h.reads, historyRead{plan: plan, removed: true})
	}
	if len(added) > 0 {
		plan, err := h.t.planFiles(h.ctx, in, added)
		if err != nil {
			return err
		}
		plan.readUnmerged(commitOrder(added))
		h.reads = append(h.reads, historyRead{plan: plan})
	}
	return nil
}

func splitByKind(entries []spec.ManifestEntry) (added, removed []spec.ManifestEntry) {
	for _, e := range entries {
		if e.Kind == spec.FileKindAdd {
			added = append(added, e)
		} else {
			removed = append(removed, e)
		}
	}
	return added, removed
}

// planFiles plans a read of exactly files.
func (t *Table) planFiles(ctx context.Context, in scan.Input, files []spec.ManifestEntry) (*Plan, error) {
	sp, err := scan.PlanFiles(in, files)
	if err != nil {
		return nil, err
	}
	return t.fromScan(ctx, sp)
}

// Close stops the read in progress.
func (h *History) Close() error {
	h.reads = nil
	if h.rows == nil {
		return nil
	}
	err := h.rows.Close()
	h.rows = nil
	return err
}
