package lsm

import (
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/spec"
)

// aggregationSpec is the validated, shareable configuration of the
// aggregation engine. Mirrors AggregateMergeFunction.Factory.
type aggregationSpec struct {
	columns              []spec.DataField
	aggregators          []aggregatorFactory
	removeRecordOnDelete bool
}

func newAggregationSpec(schema *spec.TableSchema, opts tableOptions, compare ValueComparator) (*aggregationSpec, error) {
	s := &aggregationSpec{columns: schema.Fields, aggregators: make([]aggregatorFactory, len(schema.Fields))}
	var err error
	if s.removeRecordOnDelete, err = opts.boolean(optAggregationRemoveOnDelete); err != nil {
		return nil, err
	}
	sequenceFields := opts.sequenceFields()
	for i, col := range schema.Fields {
		name := aggregateFunctionOf(col.Name, opts, schema.PrimaryKeys, sequenceFields)
		if s.aggregators[i], err = newAggregatorFactory(col, name, opts, compare, s.removeRecordOnDelete); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// aggregateFunctionOf mirrors AggregateMergeFunction.getAggFuncName:
// sequence fields keep their last value, key columns pass through, and other
// columns use their own function, the table default, or
// last_non_null_value.
func aggregateFunctionOf(column string, opts tableOptions, primaryKeys, sequenceFields []string) string {
	switch {
	case slices.Contains(sequenceFields, column):
		return aggLastValue
	case slices.Contains(primaryKeys, column):
		return aggPrimaryKey
	}
	if name := opts.aggregateFunction(column); name != "" {
		return name
	}
	return aggLastNonNullValue
}

// aggregation folds every column of a key's records with its aggregate
// function; retractions are folded out. Mirrors
// org.apache.paimon.mergetree.compact.aggregate.AggregateMergeFunction.
type aggregation struct {
	conf        *aggregationSpec
	aggregators []fieldAggregator
	latest      KeyValue
	added       bool
	row         []any
	deleteRow   bool
}

func newAggregation(s *aggregationSpec) *aggregation {
	a := &aggregation{conf: s, aggregators: make([]fieldAggregator, len(s.aggregators))}
	for i, build := range s.aggregators {
		a.aggregators[i] = build()
	}
	return a
}

func (a *aggregation) Reset() {
	// A fresh row per key, allocated on first use: the previous key's result
	// keeps its row.
	a.latest, a.added, a.row, a.deleteRow = KeyValue{}, false, nil, false
	for _, agg := range a.aggregators {
		agg.reset()
	}
}

func (a *aggregation) Add(kv KeyValue) error {
	if err := checkWidth(kv.Value, a.conf.columns); err != nil {
		return err
	}
	if a.row == nil {
		a.row = make([]any, len(a.conf.columns))
	}
	a.latest, a.added = kv, true
	a.deleteRow = a.conf.removeRecordOnDelete && kv.Kind == spec.RowKindDelete
	if a.deleteRow {
		return copyRow(a.row, kv.Value, a.conf.columns)
	}
	retract := kv.Kind.IsRetract()
	for i, agg := range a.aggregators {
		fold := agg.agg
		if retract {
			fold = agg.retract
		}
		v, err := fold(a.row[i], kv.Value[i])
		if err != nil {
			return fmt.Errorf("column %s: %w", a.conf.columns[i].Name, err)
		}
		a.row[i] = v
	}
	return nil
}

// Result carries the latest record's key and sequence number, as Java does.
func (a *aggregation) Result() (KeyValue, bool) {
	kind := spec.RowKindInsert
	if a.deleteRow {
		kind = spec.RowKindDelete
	}
	return KeyValue{Key: a.latest.Key, Seq: a.latest.Seq, Kind: kind, Value: a.row}, a.added
}
