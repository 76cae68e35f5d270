package lsm

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// MergeFunction folds the records of one key into the key's merged record.
// Mirrors org.apache.paimon.mergetree.compact.MergeFunction.
//
// Reset starts a key. Add receives the key's records in merge order (see the
// package comment) and fails when the engine refuses a record, as Java throws.
// Result returns the merged record, or ok=false when no record survives (for
// example every record was an ignored delete). A result may still change if
// Add is called again, but Reset never touches it, so the caller may keep it
// after moving to the next key.
type MergeFunction interface {
	Reset()
	Add(kv KeyValue) error
	Result() (kv KeyValue, ok bool)
}

// deduplicate keeps the last record of a key. Mirrors
// org.apache.paimon.mergetree.compact.DeduplicateMergeFunction.
type deduplicate struct {
	ignoreDelete bool
	latest       KeyValue
	has          bool
}

func (d *deduplicate) Reset() { d.latest, d.has = KeyValue{}, false }

func (d *deduplicate) Add(kv KeyValue) error {
	// Paimon 0.7 and older wrote retractions to data files even with
	// ignore-delete set, so the option is honoured here and not only on write.
	if d.ignoreDelete && kv.Kind.IsRetract() {
		return nil
	}
	d.latest, d.has = kv, true
	return nil
}

func (d *deduplicate) Result() (KeyValue, bool) { return d.latest, d.has }

// firstRow keeps the first record of a key. Mirrors
// org.apache.paimon.mergetree.compact.FirstRowMergeFunction.
type firstRow struct {
	ignoreDelete bool
	first        KeyValue
	has          bool
}

func (f *firstRow) Reset() { f.first, f.has = KeyValue{}, false }

func (f *firstRow) Add(kv KeyValue) error {
	if kv.Kind.IsRetract() {
		if f.ignoreDelete {
			return nil
		}
		return fmt.Errorf("%w: the first-row merge engine cannot accept DELETE/UPDATE_BEFORE records; "+
			"set 'ignore-delete' to ignore them", ErrRejectedRecord)
	}
	if !f.has {
		f.first, f.has = kv, true
	}
	return nil
}

func (f *firstRow) Result() (KeyValue, bool) { return f.first, f.has }

// reducer passes a key's only record through untouched and folds the records
// of a key that has several. Mirrors
// org.apache.paimon.mergetree.compact.ReducerMergeFunctionWrapper, which
// Paimon wraps around every merge function on the read path. The pass-through
// is observable: a lone -D reaches DropDelete even where the engine would
// have rejected it, and a lone aggregation row keeps its stored values.
type reducer struct {
	merge MergeFunction
	// foldLone sends a lone record through the merge function too.
	foldLone bool
	first    KeyValue
	count    int
}

func (r *reducer) Reset() {
	r.merge.Reset()
	r.first, r.count = KeyValue{}, 0
}

func (r *reducer) Add(kv KeyValue) error {
	r.count++
	if r.foldLone {
		return r.merge.Add(kv)
	}
	switch r.count {
	case 1:
		r.first = kv
		return nil
	case 2:
		if err := r.merge.Add(r.first); err != nil {
			return err
		}
	}
	return r.merge.Add(kv)
}

func (r *reducer) Result() (KeyValue, bool) {
	switch {
	case r.count == 0:
		return KeyValue{}, false
	case r.count == 1 && !r.foldLone:
		return r.first, true
	}
	return r.merge.Result()
}

// copyRow fills dst with src, refusing a null in a NOT NULL column like
// Java's initRow ("Field i can not be null").
func copyRow(dst, src []any, columns []spec.DataField) error {
	for i, v := range src {
		if v == nil && !columns[i].Type.Nullable {
			return nullFieldError(columns, i)
		}
		dst[i] = v
	}
	return nil
}

func nullFieldError(columns []spec.DataField, i int) error {
	return fmt.Errorf("%w: field %d (%s) can not be null", ErrRejectedRecord, i, columns[i].Name)
}

// checkWidth guards the engines that index into rows: a row that does not
// match the schema is a decoding bug, reported instead of panicking.
func checkWidth(value []any, columns []spec.DataField) error {
	if len(value) != len(columns) {
		return fmt.Errorf("%w: record has %d values, table has %d columns", lakeerr.ErrCorruption, len(value), len(columns))
	}
	return nil
}
