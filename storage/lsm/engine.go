package lsm

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Merge engine names, the values of the merge-engine option.
// Mirrors org.apache.paimon.CoreOptions.MergeEngine.
const (
	EngineDeduplicate   = "deduplicate"
	EnginePartialUpdate = "partial-update"
	EngineAggregation   = "aggregation"
	EngineFirstRow      = "first-row"
)

// Engine is a table's merge engine, validated once from its schema. It is
// immutable and safe to share; each reader takes its own MergeFunction.
// Mirrors org.apache.paimon.mergetree.compact.MergeFunctionFactory as chosen
// by PrimaryKeyTableUtils.createMergeFunctionFactory.
type Engine struct {
	name          string
	ignoreDelete  bool
	userSequence  *fieldsComparator // nil without sequence.field
	partialUpdate *partialUpdateSpec
	aggregation   *aggregationSpec
}

// NewEngine builds the merge engine of schema from its options: merge-engine,
// ignore-delete, sequence.field and the engine-specific fields.* options.
// compare orders column values (sequence fields, sequence groups, min/max).
// Options lakesql does not implement (another engine, another aggregate
// function) are errors wrapping lakeerr.ErrUnsupported; options Paimon would
// reject are errors wrapping ErrInvalidOptions.
func NewEngine(schema *spec.TableSchema, compare ValueComparator) (*Engine, error) {
	if schema == nil || compare == nil {
		return nil, errors.New("lsm: NewEngine needs a schema and a value comparator")
	}
	opts := tableOptions(schema.Options)
	e := &Engine{name: EngineDeduplicate}
	if name, ok := opts[optMergeEngine]; ok {
		e.name = strings.ToLower(name)
	}
	var err error
	if e.ignoreDelete, err = opts.boolean(optIgnoreDelete, ignoreDeleteFallbackKeys...); err != nil {
		return nil, err
	}
	if e.userSequence, err = userSequenceComparator(schema, opts, compare); err != nil {
		return nil, err
	}
	if err := e.buildSpec(schema, opts, compare); err != nil {
		return nil, fmt.Errorf("merge-engine %s: %w", e.name, err)
	}
	return e, nil
}

func (e *Engine) buildSpec(schema *spec.TableSchema, opts tableOptions, compare ValueComparator) error {
	var err error
	switch e.name {
	case EngineDeduplicate:
	case EngineFirstRow:
		if e.userSequence != nil {
			return fmt.Errorf("%w: sequence.field is not supported by the first-row merge engine", ErrInvalidOptions)
		}
	case EnginePartialUpdate:
		e.partialUpdate, err = newPartialUpdateSpec(schema, opts, compare, e.ignoreDelete)
	case EngineAggregation:
		e.aggregation, err = newAggregationSpec(schema, opts, compare)
	default:
		err = fmt.Errorf("%w: merge-engine %s", lakeerr.ErrUnsupported, e.name)
	}
	return err
}

// Name returns the merge-engine option value the engine implements.
func (e *Engine) Name() string { return e.name }

// NewMergeFunction returns a fresh merge function; merge functions hold the
// state of the key being merged, so each concurrent merge needs its own.
func (e *Engine) NewMergeFunction() MergeFunction {
	switch e.name {
	case EngineFirstRow:
		return &firstRow{ignoreDelete: e.ignoreDelete}
	case EnginePartialUpdate:
		return newPartialUpdate(e.partialUpdate)
	case EngineAggregation:
		return newAggregation(e.aggregation)
	}
	return &deduplicate{ignoreDelete: e.ignoreDelete}
}

// UserSequenceComparator orders full rows by the sequence.field columns, or
// is nil when the table has none. Records of one key are ordered by it before
// their sequence numbers.
func (e *Engine) UserSequenceComparator() RowComparator {
	if e.userSequence == nil {
		return nil
	}
	return e.userSequence.compareRows
}

// NewMergeReader merges sorted runs of this table's records; see
// NewMergeReader (the function) for the contract.
func (e *Engine) NewMergeReader(runs []RecordIterator, compareKeys RowComparator, keepDelete bool) (*MergeReader, error) {
	return e.NewLookupMergeReader(runs, compareKeys, keepDelete, nil)
}

// NewLookupMergeReader is NewMergeReader merging each key's records with
// the one older levels hold, which older returns (MergeOptions.Older);
// nil older merges the runs alone.
func (e *Engine) NewLookupMergeReader(runs []RecordIterator, compareKeys RowComparator, keepDelete bool, older func([]any) (KeyValue, bool, error)) (*MergeReader, error) {
	return NewMergeReader(runs, e.NewMergeFunction(), MergeOptions{
		CompareKeys:         compareKeys,
		CompareUserSequence: e.UserSequenceComparator(),
		KeepDelete:          keepDelete,
		Older:               older,
	})
}
