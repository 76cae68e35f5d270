package lsm

import (
	"cmp"
	"errors"
)

// MergeOptions configures a MergeReader.
type MergeOptions struct {
	// CompareKeys orders record keys; required.
	CompareKeys RowComparator
	// CompareUserSequence orders the records of one key by their
	// sequence.field columns before the sequence number; nil when the table
	// has none (Engine.UserSequenceComparator).
	CompareUserSequence RowComparator
	// KeepDelete keeps merged -U/-D records, as compaction into a level that
	// is not the last must; reads drop them (Java's DropDeleteReader).
	KeepDelete bool
	// Older, when set, is asked once per key, in ascending key order, for
	// the record levels outside the merge hold; one it returns is merged
	// among the key's records in merge order, and every key's records go
	// through the merge function, a lone one too (a lookup compaction,
	// Java's LookupChangelogMergeFunctionWrapper.calculateResult, which
	// does not pass a lone record through as ReducerMergeFunctionWrapper
	// does).
	Older func(key []any) (older KeyValue, found bool, err error)
}

// MergeReader merges sorted runs into one stream with one record per key.
// It mirrors SortMergeReaderWithLoserTree wrapped in DropDeleteReader, with
// the merge function wrapped in ReducerMergeFunctionWrapper as Paimon's
// MergeTreeReaders does.
//
// Each run must be sorted by key. A run may hold a key more than once (a
// write buffer does) if those records are already in merge order. Records
// are consumed one at a time, so only the head of each run is in memory, and
// the merge itself allocates nothing per record.
type MergeReader struct {
	runs  []RecordIterator
	heads []KeyValue
	live  []bool // live[i]: heads[i] holds run i's next record
	// tree is a loser tree over the runs: tree[0] is the run holding the
	// smallest head, tree[1:] the losers of the internal matches; leaf i
	// plays at node (i+len(runs))/2.
	tree        []int
	merge       reducer
	opts        MergeOptions
	initialized bool
	err         error
}

// NewMergeReader merges runs through mf. The records of each key are fed to
// mf in order of user sequence, sequence number, then retraction before
// addition; ties left after that keep run order.
func NewMergeReader(runs []RecordIterator, mf MergeFunction, opts MergeOptions) (*MergeReader, error) {
	if opts.CompareKeys == nil || mf == nil {
		return nil, errors.New("lsm: NewMergeReader needs a key comparator and a merge function")
	}
	return &MergeReader{
		runs:  runs,
		heads: make([]KeyValue, len(runs)),
		live:  make([]bool, len(runs)),
		tree:  make([]int, len(runs)),
		merge: reducer{merge: mf, foldLone: opts.Older != nil},
		opts:  opts,
	}, nil
}

// Next returns the next merged record in key order. After an error every
// call returns the same error.
func (r *MergeReader) Next() (KeyValue, bool, error) {
	if r.err == nil && !r.initialized {
		r.err = r.init()
		r.initialized = true
	}
	for r.err == nil {
		kv, ok, err := r.mergeNextKey()
		if err != nil {
			r.err = err
			break
		}
		if !ok || r.opts.KeepDelete || !kv.Kind.IsRetract() {
			return kv, ok, nil
		}
	}
	return KeyValue{}, false, r.err
}

// init reads every run's first record and plays the initial tournament.
// Internal nodes start empty (-1); an empty node counts as a winner, so each
// leaf settles at the first empty node on its path, and a node only passes a
// run on once both its subtrees have reported.
func (r *MergeReader) init() error {
	for i := range r.runs {
		if err := r.advance(i); err != nil {
			return err
		}
		r.tree[i] = -1
	}
	for i := len(r.runs) - 1; i >= 0; i-- {
		r.replay(i)
	}
	return nil
}

// mergeNextKey folds the records of the smallest key; ok is false once every
// run is exhausted.
func (r *MergeReader) mergeNextKey() (KeyValue, bool, error) {
	for len(r.tree) > 0 && r.live[r.tree[0]] {
		key := r.heads[r.tree[0]].Key
		r.merge.Reset()
		older, hasOlder, err := r.older(key)
		if err != nil {
			return KeyValue{}, false, err
		}
		for {
			if hasOlder && r.compareRecords(&older, &r.heads[r.tree[0]]) < 0 {
				if err := r.merge.Add(older); err != nil {
					return KeyValue{}, false, err
				}
				hasOlder = false
			}
			if err := r.consumeWinner(); err != nil {
				return KeyValue{}, false, err
			}
			w := r.tree[0]
			if !r.live[w] || r.opts.CompareKeys(r.heads[w].Key, key) != 0 {
				break
			}
		}
		if hasOlder {
			if err := r.merge.Add(older); err != nil {
				return KeyValue{}, false, err
			}
		}
		if kv, ok := r.merge.Result(); ok {
			return kv, true, nil
		}
	}
	return KeyValue{}, false, nil
}

// older asks MergeOptions.Older for key's record outside the merge.
func (r *MergeReader) older(key []any) (KeyValue, bool, error) {
	if r.opts.Older == nil {
		return KeyValue{}, false, nil
	}
	return r.opts.Older(key)
}

// consumeWinner feeds the winning head to the merge function and replaces it
// with its run's next record.
func (r *MergeReader) consumeWinner() error {
	w := r.tree[0]
	if err := r.merge.Add(r.heads[w]); err != nil {
		return err
	}
	if err := r.advance(w); err != nil {
		return err
	}
	r.replay(w)
	return nil
}

func (r *MergeReader) advance(run int) error {
	kv, ok, err := r.runs[run].Next()
	if err != nil {
		return err
	}
	r.heads[run], r.live[run] = kv, ok
	return nil
}

// replay walks run's leaf up to the root after its head changed, swapping
// with every stored loser that now beats it.
func (r *MergeReader) replay(run int) {
	winner := run
	for node := (run + len(r.tree)) / 2; node > 0; node /= 2 {
		if r.beats(r.tree[node], winner) {
			r.tree[node], winner = winner, r.tree[node]
		}
	}
	r.tree[0] = winner
}

// beats reports whether run a's head sorts before run b's. The empty marker
// -1 beats everything (tournament set-up); an exhausted run beats nothing.
func (r *MergeReader) beats(a, b int) bool {
	switch {
	case a < 0 || b < 0:
		return a < 0 && b >= 0
	case !r.live[a]:
		return false
	case !r.live[b]:
		return true
	}
	if c := r.compareRecords(&r.heads[a], &r.heads[b]); c != 0 {
		return c < 0
	}
	return a < b
}

func (r *MergeReader) compareRecords(a, b *KeyValue) int {
	if c := r.opts.CompareKeys(a.Key, b.Key); c != 0 {
		return c
	}
	if r.opts.CompareUserSequence != nil {
		if c := r.opts.CompareUserSequence(a.Value, b.Value); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.Seq, b.Seq); c != 0 {
		return c
	}
	return compareRetractFirst(a.Kind.IsRetract(), b.Kind.IsRetract())
}

// compareRetractFirst orders a retraction before an addition with the same
// sequence number (Java compares isAdd with false first).
func compareRetractFirst(aRetract, bRetract bool) int {
	switch {
	case aRetract == bRetract:
		return 0
	case aRetract:
		return -1
	}
	return 1
}
