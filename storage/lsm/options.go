package lsm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// Option keys, as spelled in org.apache.paimon.CoreOptions.
const (
	optMergeEngine               = "merge-engine"
	optIgnoreDelete              = "ignore-delete"
	optSequenceField             = "sequence.field"
	optSequenceSortOrder         = "sequence.field.sort-order"
	optRemoveOnDelete            = "partial-update.remove-record-on-delete"
	optRemoveOnSequenceGroup     = "partial-update.remove-record-on-sequence-group"
	optAggregationRemoveOnDelete = "aggregation.remove-record-on-delete"
	optDefaultAggregateFunction  = "fields.default-aggregate-function"

	fieldsPrefix          = "fields"
	sequenceGroupSuffix   = "sequence-group"
	aggregateFunctionName = "aggregate-function"
	ignoreRetractName     = "ignore-retract"
	listAggDelimiterName  = "list-agg-delimiter"
	distinctName          = "distinct"
)

// ignoreDeleteFallbackKeys are the older spellings CoreOptions.IGNORE_DELETE
// still accepts, tried in this order when ignore-delete itself is absent.
var ignoreDeleteFallbackKeys = []string{
	"first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete",
}

// tableOptions reads the table options the merge engines use, with the
// parsing rules of org.apache.paimon.options.Options behind CoreOptions:
// booleans and enums are case-insensitive, strings are raw.
type tableOptions map[string]string

func (o tableOptions) boolean(key string, fallbacks ...string) (bool, error) {
	for _, k := range append([]string{key}, fallbacks...) {
		v, ok := o[k]
		if !ok {
			continue
		}
		switch {
		case strings.EqualFold(v, "true"):
			return true, nil
		case strings.EqualFold(v, "false"):
			return false, nil
		}
		return false, fmt.Errorf("%w: option %s=%q is not a boolean", ErrInvalidOptions, k, v)
	}
	return false, nil
}

func fieldOption(field, name string) string {
	return fieldsPrefix + "." + field + "." + name
}

// aggregateFunction returns fields.<f>.aggregate-function, or else
// fields.default-aggregate-function, or "" when neither is set.
func (o tableOptions) aggregateFunction(field string) string {
	if fn, ok := o[fieldOption(field, aggregateFunctionName)]; ok {
		return fn
	}
	return o[optDefaultAggregateFunction]
}

// sequenceFields returns the trimmed names listed in sequence.field.
func (o tableOptions) sequenceFields() []string {
	raw, ok := o[optSequenceField]
	if !ok {
		return nil
	}
	names := strings.Split(raw, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
	}
	return names
}

// sortedKeys returns the option keys in a fixed order, so that option
// validation reports the same error on every run (Java walks a HashMap).
func (o tableOptions) sortedKeys() []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// fieldIndexes resolves column names to positions; a missing column is an
// ErrInvalidOptions naming the option that referenced it.
func fieldIndexes(columns []spec.DataField, names []string, option string) ([]int, error) {
	idx := make([]int, len(names))
	for i, name := range names {
		idx[i] = columnIndex(columns, name)
		if idx[i] < 0 {
			return nil, fmt.Errorf("%w: field %q of %s not found in table schema", ErrInvalidOptions, name, option)
		}
	}
	return idx, nil
}

func columnIndex(columns []spec.DataField, name string) int {
	for i, c := range columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// userSequenceComparator builds the sequence.field comparator, or returns
// nil when the option is absent. Mirrors UserDefinedSeqComparator.create plus
// the sequence-field checks of SchemaValidation.
func userSequenceComparator(schema *spec.TableSchema, opts tableOptions, compare ValueComparator) (*fieldsComparator, error) {
	names := opts.sequenceFields()
	if names == nil {
		return nil, nil
	}
	fields, err := fieldIndexes(schema.Fields, names, optSequenceField)
	if err != nil {
		return nil, err
	}
	for i, f := range fields {
		if slices.Contains(fields[:i], f) {
			return nil, fmt.Errorf("%w: sequence field %q is defined repeatedly", ErrInvalidOptions, names[i])
		}
		if _, ok := opts[fieldOption(names[i], aggregateFunctionName)]; ok {
			return nil, fmt.Errorf("%w: should not define aggregation on sequence field %q", ErrInvalidOptions, names[i])
		}
	}
	descending, err := opts.descendingSequence()
	if err != nil {
		return nil, err
	}
	return newFieldsComparator(schema.Fields, fields, compare, descending), nil
}

func (o tableOptions) descendingSequence() (bool, error) {
	order, ok := o[optSequenceSortOrder]
	switch {
	case !ok || strings.EqualFold(order, "ascending"):
		return false, nil
	case strings.EqualFold(order, "descending"):
		return true, nil
	}
	return false, fmt.Errorf("%w: %s=%q (want ascending or descending)", ErrInvalidOptions, optSequenceSortOrder, order)
}
