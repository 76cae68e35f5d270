package compact

import (
	"context"
	"errors"

	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// Batch reads of a first-row table skip level 0 and read the levels above
// it without merging (scan's uniqueKeys, Java's batchScanSkipLevel0 and
// its raw first-row reads), so no key may appear twice above level 0. A
// compaction that moves level-0 records up while other levels stay in
// place must therefore drop every record whose key those levels already
// hold: their record is older and the first row wins. Java finds such keys
// through LookupLevels (LookupMergeTreeCompactRewriter with
// FirstRowMergeFunction); lakesql walks the levels left in place in key
// order alongside the merged output, opening only files whose key range
// reaches the key sought, so a compaction of a few new keys reads few
// files and holds one record per level.

// Tables with deletion vectors (deduplicate, the merge engine lakesql
// compacts them with) read the levels above 0 the same way, but there the
// newest record wins: the compaction writes its record and marks the older
// one deleted in its file's deletion vector (Java's
// LookupChangelogMergeFunctionWrapper notifying the DeletionVectorsMaintainer),
// and a retraction only marks it. A record the file's vector already
// deletes is no longer there. Partial-update and aggregation tables merge
// the kept record into the key's new one, among the key's records in
// merge order (LookupChangelogMergeFunctionWrapper.calculateResult), and
// mark it deleted likewise.

// keptLevels finds keys in the sorted runs a compaction leaves in place.
type keptLevels struct {
	runs []*runCursor
	// deleted collects, by data file, the positions of kept records the
	// compaction's newer records replace (tables with deletion vectors).
	deleted map[string][]int64
}

// keptRecord is where a kept level holds a key, and the record.
type keptRecord struct {
	file string
	pos  int64
	kv   lsm.KeyValue
}

// runCursor walks one sorted run forward in key order.
type runCursor struct {
	files   lsm.SortedRun[*spec.DataFileMeta]
	next    int
	open    func(ctx context.Context, meta *spec.DataFileMeta) (*keyValues, error)
	compare lsm.RowComparator
	cur     *keyValues
	head    lsm.KeyValue
	headPos int64
	hasHead bool
}

func (r *rewriter) keptLevels(j *job) *keptLevels {
	if len(j.keptRuns) == 0 {
		return nil
	}
	open := func(ctx context.Context, meta *spec.DataFileMeta) (*keyValues, error) {
		deleted, err := r.deletionVector(ctx, &j.bucket.plan, meta.FileName)
		if err != nil {
			return nil, err
		}
		return r.reader.openKeyValues(ctx, j.bucket.plan.DataFilePath(meta), meta, deleted, nil)
	}
	k := &keptLevels{}
	for _, run := range j.keptRuns {
		k.runs = append(k.runs, &runCursor{files: run, open: open, compare: r.compareKeys})
	}
	return k
}

// find returns where a kept level holds key, if one does. Keys must be
// asked in ascending order.
func (k *keptLevels) find(ctx context.Context, key []any) (keptRecord, bool, error) {
	for _, run := range k.runs {
		found, err := run.seek(ctx, key)
		if err != nil {
			return keptRecord{}, false, err
		}
		if found {
			// The head is a record of the file opened last.
			return keptRecord{file: run.files[run.next-1].FileName, pos: run.headPos, kv: run.head}, true, nil
		}
	}
	return keptRecord{}, false, nil
}

// older finds key's kept record for a merge with it (MergeOptions.Older)
// and marks it deleted, as the merged record replaces it.
func (k *keptLevels) older(ctx context.Context, key []any) (lsm.KeyValue, bool, error) {
	rec, held, err := k.find(ctx, key)
	if err != nil || !held {
		return lsm.KeyValue{}, false, err
	}
	k.replace(rec)
	return rec.kv, true, nil
}

// replace marks a kept record deleted by a newer one.
func (k *keptLevels) replace(rec keptRecord) {
	if k.deleted == nil {
		k.deleted = map[string][]int64{}
	}
	k.deleted[rec.file] = append(k.deleted[rec.file], rec.pos)
}

func (k *keptLevels) close() error {
	var errs []error
	for _, run := range k.runs {
		errs = append(errs, run.close())
	}
	return errors.Join(errs...)
}

// seek moves the cursor to the first record whose key is not below key and
// reports whether its key is key.
func (c *runCursor) seek(ctx context.Context, key []any) (bool, error) {
	for {
		if c.hasHead {
			if cmp := c.compare(c.head.Key, key); cmp >= 0 {
				return cmp == 0, nil
			}
			if err := c.advance(); err != nil {
				return false, err
			}
			continue
		}
		opened, err := c.openNext(ctx, key)
		if err != nil || !opened {
			return false, err
		}
	}
}

// openNext opens the next file that may hold key, skipping those whose
// keys all lie below it; false when none does.
func (c *runCursor) openNext(ctx context.Context, key []any) (bool, error) {
	for c.next < len(c.files) && c.compare(c.files[c.next].MaxKey, key) < 0 {
		c.next++
	}
	if c.next == len(c.files) || c.compare(c.files[c.next].MinKey, key) > 0 {
		return false, nil
	}
	kv, err := c.open(ctx, c.files[c.next].Payload)
	if err != nil {
		return false, err
	}
	c.next++
	c.cur = kv
	return true, c.advance()
}

// advance reads the current file's next record, closing the file at its
// end.
func (c *runCursor) advance() error {
	if c.cur == nil {
		c.hasHead = false
		return nil
	}
	kv, ok, err := c.cur.Next()
	if err != nil {
		return err
	}
	c.head, c.hasHead = kv, ok
	if ok {
		c.headPos = c.cur.lastPos()
	}
	if !ok {
		err = c.cur.Close()
		c.cur = nil
	}
	return err
}

func (c *runCursor) close() error {
	if c.cur == nil {
		return nil
	}
	err := c.cur.Close()
	c.cur = nil
	return err
}
