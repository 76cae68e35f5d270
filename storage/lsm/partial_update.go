package lsm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// errPartialUpdateDelete is Java's message for a retraction the
// partial-update engine has no option to apply.
var errPartialUpdateDelete = fmt.Errorf("%w: by default, partial-update can not accept delete records; "+
	"configure 'ignore-delete', 'partial-update.remove-record-on-delete', "+
	"or sequence groups (optionally with 'partial-update.remove-record-on-sequence-group')", ErrRejectedRecord)

// partialUpdateSpec is the validated, shareable configuration of the
// partial-update engine. Mirrors PartialUpdateMergeFunction.Factory.
type partialUpdateSpec struct {
	columns              []spec.DataField
	ignoreDelete         bool
	removeRecordOnDelete bool
	// groupOf[i] orders column i: the sequence group that protects it or
	// whose sequence field it is; nil for columns outside every group.
	groupOf []*fieldsComparator
	// aggregators[i] builds column i's aggregator; nil when it has none.
	aggregators []aggregatorFactory
	// deleteOnGroup[i] marks the sequence fields listed in
	// partial-update.remove-record-on-sequence-group.
	deleteOnGroup []bool
	hasGroups     bool
}

// sequenceGroupSetup collects what parsing the fields.<seq>.sequence-group
// options yields besides groupOf.
type sequenceGroupSetup struct {
	sequenceFields map[string]int  // every group's sequence fields
	protected      map[string]bool // every group's protected fields
}

func newPartialUpdateSpec(schema *spec.TableSchema, opts tableOptions, compare ValueComparator, ignoreDelete bool) (*partialUpdateSpec, error) {
	s := &partialUpdateSpec{columns: schema.Fields, ignoreDelete: ignoreDelete}
	var err error
	if s.removeRecordOnDelete, err = opts.boolean(optRemoveOnDelete); err != nil {
		return nil, err
	}
	setup, err := s.parseSequenceGroups(schema, opts, compare)
	if err != nil {
		return nil, err
	}
	if err := s.buildAggregators(schema, opts, compare, setup); err != nil {
		return nil, err
	}
	if err := s.checkDeleteOptions(opts, setup); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *partialUpdateSpec) parseSequenceGroups(schema *spec.TableSchema, opts tableOptions, compare ValueComparator) (sequenceGroupSetup, error) {
	setup := sequenceGroupSetup{sequenceFields: map[string]int{}, protected: map[string]bool{}}
	s.groupOf = make([]*fieldsComparator, len(s.columns))
	for _, key := range opts.sortedKeys() {
		if !strings.HasPrefix(key, fieldsPrefix) || !strings.HasSuffix(key, sequenceGroupSuffix) {
			continue
		}
		if err := s.addSequenceGroup(schema, key, opts[key], compare, setup); err != nil {
			return setup, err
		}
		s.hasGroups = true
	}
	return setup, nil
}

// addSequenceGroup registers one fields.<seq1,seq2>.sequence-group=<f1,f2>
// option. Primary keys may not take part: Paimon forbids it because the
// group could null them out (apache/paimon#7052).
func (s *partialUpdateSpec) addSequenceGroup(schema *spec.TableSchema, key, value string, compare ValueComparator, setup sequenceGroupSetup) error {
	head, tail := fieldsPrefix+".", "."+sequenceGroupSuffix
	if !strings.HasPrefix(key, head) || !strings.HasSuffix(key, tail) || len(key) <= len(head)+len(tail) {
		return fmt.Errorf("%w: invalid sequence-group option %s", ErrInvalidOptions, key)
	}
	seqNames := strings.Split(key[len(head):len(key)-len(tail)], ",")
	seqFields, err := fieldIndexes(s.columns, seqNames, key)
	if err != nil {
		return err
	}
	protected, err := fieldIndexes(s.columns, strings.Split(value, ","), key)
	if err != nil {
		return err
	}
	group := newFieldsComparator(s.columns, seqFields, compare, false)
	for _, f := range protected {
		name := s.columns[f].Name
		if err := rejectPrimaryKey(schema, key, name); err != nil {
			return err
		}
		if s.groupOf[f] != nil {
			return fmt.Errorf("%w: field %s is defined repeatedly by multiple groups: %s", ErrInvalidOptions, name, key)
		}
		s.groupOf[f], setup.protected[name] = group, true
	}
	for _, f := range seqFields {
		name := s.columns[f].Name
		if err := rejectPrimaryKey(schema, key, name); err != nil {
			return err
		}
		s.groupOf[f], setup.sequenceFields[name] = group, f
	}
	return nil
}

func rejectPrimaryKey(schema *spec.TableSchema, option, field string) error {
	if slices.Contains(schema.PrimaryKeys, field) {
		return fmt.Errorf("%w: the sequence-group '%s' contains primary key field '%s'; "+
			"primary key columns cannot be put in a sequence-group", ErrInvalidOptions, option, field)
	}
	return nil
}

// buildAggregators mirrors PartialUpdateMergeFunction.getAggFuncName: no
// aggregation for sequence fields, the primary-key pass-through for keys, and
// any function other than last_non_null_value only inside a sequence group.
func (s *partialUpdateSpec) buildAggregators(schema *spec.TableSchema, opts tableOptions, compare ValueComparator, setup sequenceGroupSetup) error {
	s.aggregators = make([]aggregatorFactory, len(s.columns))
	// FieldAggregatorFactory.create checks ignore-retract against the
	// aggregation engine's remove-record-on-delete even here.
	removeOnDelete, err := opts.boolean(optAggregationRemoveOnDelete)
	if err != nil {
		return err
	}
	for i, col := range s.columns {
		if _, isSeq := setup.sequenceFields[col.Name]; isSeq {
			continue
		}
		name := opts.aggregateFunction(col.Name)
		if slices.Contains(schema.PrimaryKeys, col.Name) {
			name = aggPrimaryKey
		} else if name == "" {
			continue
		} else if name != aggLastNonNullValue && !setup.protected[col.Name] {
			return fmt.Errorf("%w: must use sequence group for aggregation functions but not found for field %s",
				ErrInvalidOptions, col.Name)
		}
		factory, err := newAggregatorFactory(col, name, opts, compare, removeOnDelete)
		if err != nil {
			return err
		}
		s.aggregators[i] = factory
	}
	return nil
}

func (s *partialUpdateSpec) checkDeleteOptions(opts tableOptions, setup sequenceGroupSetup) error {
	onGroup, hasOnGroup := opts[optRemoveOnSequenceGroup]
	conflict := func(a, b string) error {
		return fmt.Errorf("%w: %s and %s have conflicting behavior so should not be enabled at the same time",
			ErrInvalidOptions, a, b)
	}
	switch {
	case s.removeRecordOnDelete && s.ignoreDelete:
		return conflict(optIgnoreDelete, optRemoveOnDelete)
	case hasOnGroup && s.ignoreDelete:
		return conflict(optIgnoreDelete, optRemoveOnSequenceGroup)
	case s.removeRecordOnDelete && s.hasGroups:
		return conflict(sequenceGroupSuffix, optRemoveOnDelete)
	case !hasOnGroup:
		return nil
	}
	s.deleteOnGroup = make([]bool, len(s.columns))
	for _, name := range strings.Split(onGroup, ",") {
		f, ok := setup.sequenceFields[name]
		if !ok {
			return fmt.Errorf("%w: field '%s' defined in '%s' option must be part of sequence groups",
				ErrInvalidOptions, onGroup, optRemoveOnSequenceGroup)
		}
		s.deleteOnGroup[f] = true
	}
	return nil
}

// partialUpdate merges a key's records field by field: later non-null
// values overwrite, and sequence groups update only when their sequence
// fields are not older. Mirrors
// org.apache.paimon.mergetree.compact.PartialUpdateMergeFunction.
type partialUpdate struct {
	conf        *partialUpdateSpec
	aggregators []fieldAggregator
	key         []any
	seq         int64
	row         []any
	added       bool
	deleteRow   bool
	// meetInsert records whether any addition arrived: a key seen only
	// through retractions merges to a -D.
	meetInsert bool
	// rowFilled records whether row holds a record yet; the first
	// retraction of a key fills it so that NOT NULL columns stay set.
	rowFilled bool
	// processed and retracted are per-record scratch space, kept to avoid
	// allocating on every record.
	processed []bool
	retracted []bool
}

func newPartialUpdate(s *partialUpdateSpec) *partialUpdate {
	p := &partialUpdate{
		conf:        s,
		aggregators: make([]fieldAggregator, len(s.columns)),
		processed:   make([]bool, len(s.columns)),
		retracted:   make([]bool, len(s.columns)),
	}
	for i, build := range s.aggregators {
		if build != nil {
			p.aggregators[i] = build()
		}
	}
	return p
}

func (p *partialUpdate) Reset() {
	// A fresh row per key, allocated on first use: the previous key's result
	// keeps its row.
	p.key, p.row, p.seq = nil, nil, 0
	p.added, p.deleteRow, p.meetInsert, p.rowFilled = false, false, false, false
	for _, a := range p.aggregators {
		if a != nil {
			a.reset()
		}
	}
}

func (p *partialUpdate) Result() (KeyValue, bool) {
	kind := spec.RowKindInsert
	if p.deleteRow || !p.meetInsert {
		kind = spec.RowKindDelete
	}
	return KeyValue{Key: p.key, Seq: p.seq, Kind: kind, Value: p.row}, p.added
}

func (p *partialUpdate) Add(kv KeyValue) error {
	if err := checkWidth(kv.Value, p.conf.columns); err != nil {
		return err
	}
	if p.row == nil {
		p.row = make([]any, len(p.conf.columns))
	}
	p.key, p.added, p.deleteRow = kv.Key, true, false
	if kv.Kind.IsRetract() {
		return p.retract(kv)
	}
	p.seq = kv.Seq
	var err error
	if p.conf.hasGroups {
		err = p.updateWithSequenceGroups(kv.Value)
	} else {
		err = p.updateNonNullFields(kv.Value)
	}
	p.meetInsert, p.rowFilled = true, true
	return err
}

func (p *partialUpdate) updateNonNullFields(value []any) error {
	for i, v := range value {
		if v != nil {
			p.row[i] = v
		} else if !p.conf.columns[i].Type.Nullable {
			return nullFieldError(p.conf.columns, i)
		}
	}
	return nil
}

// updateWithSequenceGroups applies one addition column by column. A group
// whose sequence fields are all null in the record is skipped; otherwise its
// columns take the record's values when the record is not older, and
// aggregate in reverse when it is older.
func (p *partialUpdate) updateWithSequenceGroups(value []any) error {
	clear(p.processed)
	for i := range p.conf.columns {
		group, agg := p.conf.groupOf[i], p.aggregators[i]
		if group == nil {
			if err := p.updateUngrouped(i, agg, value[i]); err != nil {
				return err
			}
			continue
		}
		if p.processed[i] || p.emptyGroup(value, group) {
			continue
		}
		if err := p.updateGrouped(i, group, agg, value); err != nil {
			return err
		}
	}
	return nil
}

func (p *partialUpdate) updateUngrouped(i int, agg fieldAggregator, in any) error {
	if agg != nil {
		return p.aggregateInto(i, agg.agg, p.row[i], in)
	}
	if in != nil {
		p.row[i] = in
	}
	return nil
}

func (p *partialUpdate) updateGrouped(i int, group *fieldsComparator, agg fieldAggregator, value []any) error {
	if group.compareRows(value, p.row) < 0 {
		if agg != nil {
			// The record is older than the group: it folds in before the
			// accumulated value (Java's aggReversed).
			return p.aggregateInto(i, func(acc, in any) (any, error) { return aggReversed(agg, acc, in) }, p.row[i], value[i])
		}
		return nil
	}
	if group.contains(i) {
		// All sequence fields of a group move together.
		for _, f := range group.fields {
			p.row[f], p.processed[f] = value[f], true
		}
		return nil
	}
	if agg == nil {
		p.row[i] = value[i]
		return nil
	}
	return p.aggregateInto(i, agg.agg, p.row[i], value[i])
}

// emptyGroup reports whether every sequence field of group is null in value,
// marking those fields done so the group is skipped once.
func (p *partialUpdate) emptyGroup(value []any, group *fieldsComparator) bool {
	for _, f := range group.fields {
		if value[f] != nil {
			return false
		}
	}
	for _, f := range group.fields {
		p.processed[f] = true
	}
	return true
}

func (p *partialUpdate) aggregateInto(i int, fold func(acc, in any) (any, error), acc, in any) error {
	v, err := fold(acc, in)
	if err != nil {
		return fmt.Errorf("column %s: %w", p.conf.columns[i].Name, err)
	}
	p.row[i] = v
	return nil
}

func (p *partialUpdate) retract(kv KeyValue) error {
	if !p.rowFilled {
		if err := copyRow(p.row, kv.Value, p.conf.columns); err != nil {
			return err
		}
		p.rowFilled = true
	}
	if p.conf.ignoreDelete {
		return nil
	}
	p.seq = kv.Seq
	switch {
	case p.conf.hasGroups:
		return p.retractWithSequenceGroups(kv)
	case p.conf.removeRecordOnDelete:
		if kv.Kind == spec.RowKindDelete {
			p.deleteRow = true
			return copyRow(p.row, kv.Value, p.conf.columns)
		}
		return nil
	}
	return errPartialUpdateDelete
}

// retractWithSequenceGroups applies one retraction to the grouped columns:
// a group the record is not older than has its columns nulled (or retracted
// from their aggregate) and its sequence fields set from the record; an older
// record still retracts from aggregates. A -D on a sequence field listed in
// remove-record-on-sequence-group removes the whole row instead.
func (p *partialUpdate) retractWithSequenceGroups(kv KeyValue) error {
	clear(p.processed)
	clear(p.retracted)
	for i := range p.conf.columns {
		group := p.conf.groupOf[i]
		if group == nil || p.processed[i] || p.emptyGroup(kv.Value, group) {
			continue
		}
		removed, err := p.retractGrouped(i, group, kv)
		if removed || err != nil {
			return err
		}
	}
	return nil
}

// retractGrouped retracts column i; removed reports that the retraction
// removed the whole row, which ends the record.
func (p *partialUpdate) retractGrouped(i int, group *fieldsComparator, kv KeyValue) (removed bool, err error) {
	agg := p.aggregators[i]
	if group.compareRows(kv.Value, p.row) < 0 {
		if agg != nil {
			return false, p.aggregateInto(i, agg.retract, p.row[i], kv.Value[i])
		}
		return false, nil
	}
	if group.contains(i) {
		return p.retractSequenceFields(group, kv)
	}
	if agg == nil {
		p.row[i] = nil
		return false, nil
	}
	return false, p.aggregateInto(i, agg.retract, p.row[i], kv.Value[i])
}

func (p *partialUpdate) retractSequenceFields(group *fieldsComparator, kv KeyValue) (removed bool, err error) {
	for _, f := range group.fields {
		if !p.retracted[f] {
			if kv.Kind == spec.RowKindDelete && p.conf.deleteOnGroup != nil && p.conf.deleteOnGroup[f] {
				p.deleteRow = true
				return true, copyRow(p.row, kv.Value, p.conf.columns)
			}
			p.row[f], p.retracted[f] = kv.Value[f], true
		}
		p.processed[f] = true
	}
	return false, nil
}
