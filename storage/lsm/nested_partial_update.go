package lsm

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

const aggNestedPartialUpdate = "nested_partial_update"

// nestedPartialUpdateAgg mirrors FieldNestedPartialUpdateAgg (Paimon 1.4):
// an ARRAY<ROW> column taken as a nested table keyed by
// fields.<f>.nested-key, which is required. The accumulated and the input
// rows (null elements dropped) go through a HashMap from the key's
// BinaryRow to a row that each of them updates with its non-null fields
// (HashMap.computeIfAbsent, which links new keys at the head of their
// chain), so the merged array is in that map's iteration order and a field
// no row set stays null. Retraction is refused, as FieldAggregator's
// default does.
type nestedPartialUpdateAgg struct {
	retractRefusal
	stateless
	nestedTable
}

func newNestedPartialUpdateAgg(col spec.DataField, opts tableOptions, refuse retractRefusal) (aggregatorFactory, error) {
	table, err := newNestedTable(col, opts)
	if err != nil {
		return nil, err
	}
	if len(table.keyFields) == 0 {
		return nil, fmt.Errorf("%w: aggregate function %s needs %s", ErrInvalidOptions,
			aggNestedPartialUpdate, fieldOption(col.Name, nestedKeyName))
	}
	agg := nestedPartialUpdateAgg{retractRefusal: refuse, nestedTable: table}
	return func() fieldAggregator { return agg }, nil
}

func (n nestedPartialUpdateAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	a, b, err := arrayOperands(acc, in)
	if err != nil {
		return nil, err
	}
	rows := appendNonNull(make([]any, 0, len(a)+len(b)), a, len(a))
	rows = appendNonNull(rows, b, len(b))
	m := newJavaHashMap()
	for _, r := range rows {
		key, err := n.key(r)
		if err != nil {
			return nil, err
		}
		at, err := m.computeIfAbsent(spec.BucketHash(key), string(key), string(key))
		if err != nil {
			return nil, err
		}
		merged, _ := m.values[at].([]any)
		if merged == nil {
			merged = make([]any, len(n.row.Fields))
			m.values[at] = merged
		}
		for i, f := range r.([]any) {
			if f != nil {
				merged[i] = f
			}
		}
	}
	return listRows(m, nil), nil
}
