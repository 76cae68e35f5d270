package lsm

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Aggregate function names, as registered by Paimon's FieldAggregatorFactory
// implementations.
const (
	aggSum                  = "sum"
	aggProduct              = "product"
	aggCount                = "count"
	aggMin                  = "min"
	aggMax                  = "max"
	aggLastValue            = "last_value"
	aggLastNonNullValue     = "last_non_null_value"
	aggFirstValue           = "first_value"
	aggFirstNonNullValue    = "first_non_null_value"
	aggFirstNotNullLegacy   = "first_not_null_value"
	aggListAgg              = "listagg"
	aggBoolAnd              = "bool_and"
	aggBoolOr               = "bool_or"
	aggPrimaryKey           = "primary-key"
	defaultListAggDelimiter = ","
)

// fieldAggregator folds one column of a key's records. Mirrors
// org.apache.paimon.mergetree.compact.aggregate.FieldAggregator: agg folds an
// addition into the accumulator, retract folds a retraction out of it, and
// reset clears per-key state. Folding an older record in front of the
// accumulator (Java's aggReversed) is agg with the arguments swapped unless
// the aggregator is a reversedAggregator.
type fieldAggregator interface {
	agg(acc, in any) (any, error)
	retract(acc, in any) (any, error)
	reset()
}

// reversedAggregator is implemented by the aggregators whose aggReversed is
// not agg with its arguments swapped (Java's default).
type reversedAggregator interface {
	aggReversed(acc, in any) (any, error)
}

// aggReversed folds an input older than the accumulator in front of it, as
// FieldAggregator.aggReversed does.
func aggReversed(a fieldAggregator, acc, in any) (any, error) {
	if r, ok := a.(reversedAggregator); ok {
		return r.aggReversed(acc, in)
	}
	return a.agg(in, acc)
}

// aggregatorFactory makes a column's aggregator; stateful aggregators
// (first_value) need one instance per merge function.
type aggregatorFactory func() fieldAggregator

// newAggregatorFactory mirrors FieldAggregatorFactory.create: look the
// function up, check the column type, and wrap it to ignore retractions when
// fields.<f>.ignore-retract is set.
func newAggregatorFactory(col spec.DataField, name string, opts tableOptions, compare ValueComparator, removeRecordOnDelete bool) (aggregatorFactory, error) {
	build, err := lookupAggregator(col, name, opts, compare)
	if err != nil {
		return nil, err
	}
	ignoreRetract, err := opts.boolean(fieldOption(col.Name, ignoreRetractName))
	if err != nil {
		return nil, err
	}
	if ignoreRetract && removeRecordOnDelete {
		return nil, fmt.Errorf("%w: %s and %s have conflicting behavior so should not be enabled at the same time",
			ErrInvalidOptions, optAggregationRemoveOnDelete, fieldOption(col.Name, ignoreRetractName))
	}
	if ignoreRetract {
		return func() fieldAggregator { return ignoreRetractAgg{build()} }, nil
	}
	return build, nil
}

func lookupAggregator(col spec.DataField, name string, opts tableOptions, compare ValueComparator) (aggregatorFactory, error) {
	t := col.Type
	refuse := retractRefusal{function: name, column: col.Name}
	var agg fieldAggregator
	switch name {
	case aggSum:
		agg = sumAgg{t: t}
	case aggProduct:
		agg = productAgg{t: t}
	case aggCount:
		agg = countAgg{t: t}
	case aggMin, aggMax:
		agg = extremumAgg{retractRefusal: refuse, t: t, compare: compare, keepMax: name == aggMax}
	case aggLastValue:
		agg = lastValueAgg{}
	case aggLastNonNullValue:
		agg = lastNonNullValueAgg{}
	case aggFirstValue:
		return func() fieldAggregator { return &firstValueAgg{retractRefusal: refuse} }, nil
	case aggFirstNonNullValue, aggFirstNotNullLegacy:
		return func() fieldAggregator { return &firstValueAgg{retractRefusal: refuse, skipNulls: true} }, nil
	case aggListAgg:
		return newListAgg(col, opts, refuse)
	case aggBoolAnd, aggBoolOr:
		agg = boolAgg{retractRefusal: refuse, or: name == aggBoolOr}
	case aggPrimaryKey:
		agg = primaryKeyAgg{}
	case aggRBM64:
		return newRBM64Agg(col, refuse)
	case aggMergeMapKeyTime:
		return newMergeMapKeyTimeAgg(col, opts, refuse)
	case aggNestedPartialUpdate:
		return newNestedPartialUpdateAgg(col, opts, refuse)
	case aggCollect:
		return newCollectAgg(col, opts)
	case aggMergeMap:
		return newMergeMapAgg(col)
	case aggRBM32:
		return newRBM32Agg(col, refuse)
	case aggNestedUpdate:
		return newNestedUpdateAgg(col, opts)
	case aggHLLSketch, aggThetaSketch:
		return newSketchAgg(col, name, refuse)
	default:
		return nil, fmt.Errorf("%w: aggregate function %s", lakeerr.ErrUnsupported, name)
	}
	if err := checkAggregateType(col, name); err != nil {
		return nil, err
	}
	return func() fieldAggregator { return agg }, nil
}

// checkAggregateType mirrors the type checks of the Field*AggFactory classes.
func checkAggregateType(col spec.DataField, name string) error {
	var ok bool
	switch name {
	case aggSum, aggProduct:
		ok = isNumeric(col.Type.Root)
	case aggCount:
		ok = isInteger(col.Type.Root)
	case aggMin, aggMax:
		ok = isComparable(col.Type.Root)
	case aggBoolAnd, aggBoolOr:
		ok = col.Type.Root == spec.Boolean
	default:
		ok = true
	}
	if !ok {
		return fmt.Errorf("%w: aggregate function %s does not accept the type of column %s",
			ErrInvalidOptions, name, col.Name)
	}
	return nil
}

func isInteger(r spec.TypeRoot) bool {
	return r == spec.TinyInt || r == spec.SmallInt || r == spec.Int || r == spec.BigInt
}

func isNumeric(r spec.TypeRoot) bool {
	return isInteger(r) || r == spec.Float || r == spec.Double || r == spec.Decimal
}

// isComparable mirrors TypeCheckUtils.isComparable: every type but the
// nested, variant and blob ones.
func isComparable(r spec.TypeRoot) bool {
	switch r {
	case spec.Array, spec.Map, spec.Multiset, spec.Row, spec.Variant, spec.Blob:
		return false
	}
	return true
}

// retractRefusal is the retract of the functions that cannot undo a value
// (Java's FieldAggregator default).
type retractRefusal struct {
	function, column string
}

func (r retractRefusal) retract(any, any) (any, error) {
	return nil, fmt.Errorf("%w: aggregate function '%s' does not support retraction; "+
		"set '%s'='true' to ignore retraction messages",
		ErrRejectedRecord, r.function, fieldOption(r.column, ignoreRetractName))
}

// stateless provides the no-op reset of aggregators without per-key state.
type stateless struct{}

func (stateless) reset() {}

// ignoreRetractAgg mirrors FieldIgnoreRetractAgg: retractions leave the
// accumulator as it is.
type ignoreRetractAgg struct {
	fieldAggregator
}

func (ignoreRetractAgg) retract(acc, _ any) (any, error) { return acc, nil }

func (i ignoreRetractAgg) aggReversed(acc, in any) (any, error) {
	return aggReversed(i.fieldAggregator, acc, in)
}

// lastValueAgg mirrors FieldLastValueAgg.
type lastValueAgg struct{ stateless }

func (lastValueAgg) agg(_, in any) (any, error)    { return in, nil }
func (lastValueAgg) retract(_, _ any) (any, error) { return nil, nil }

// lastNonNullValueAgg mirrors FieldLastNonNullValueAgg, the default function.
type lastNonNullValueAgg struct{ stateless }

func (lastNonNullValueAgg) agg(acc, in any) (any, error) {
	if in == nil {
		return acc, nil
	}
	return in, nil
}

func (lastNonNullValueAgg) retract(acc, in any) (any, error) {
	if in != nil {
		return nil, nil
	}
	return acc, nil
}

// primaryKeyAgg mirrors FieldPrimaryKeyAgg: key columns take the record's
// value, whatever the row kind.
type primaryKeyAgg struct{ stateless }

func (primaryKeyAgg) agg(_, in any) (any, error)     { return in, nil }
func (primaryKeyAgg) retract(_, in any) (any, error) { return in, nil }

// firstValueAgg mirrors FieldFirstValueAgg and, with skipNulls,
// FieldFirstNonNullValueAgg: the first (non-null) value of the key sticks.
type firstValueAgg struct {
	retractRefusal
	skipNulls   bool
	initialized bool
}

func (f *firstValueAgg) agg(acc, in any) (any, error) {
	if f.initialized || (f.skipNulls && in == nil) {
		return acc, nil
	}
	f.initialized = true
	return in, nil
}

func (f *firstValueAgg) reset() { f.initialized = false }

// extremumAgg mirrors FieldMinAgg and FieldMaxAgg; null never wins.
type extremumAgg struct {
	retractRefusal
	stateless
	t       spec.DataType
	compare ValueComparator
	keepMax bool
}

func (e extremumAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	accFirst := e.compare(e.t, acc, in) < 0
	if accFirst == e.keepMax {
		return in, nil
	}
	return acc, nil
}

// boolAgg mirrors FieldBoolAndAgg and FieldBoolOrAgg.
type boolAgg struct {
	retractRefusal
	stateless
	or bool
}

func (b boolAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	x, y, err := operands[bool](acc, in)
	if err != nil {
		return nil, err
	}
	if b.or {
		return x || y, nil
	}
	return x && y, nil
}

func firstNonNil(acc, in any) any {
	if acc == nil {
		return in
	}
	return acc
}

// operands asserts both values to the Go type the column's type maps to;
// anything else means the decoder and the schema disagree.
func operands[T any](a, b any) (T, T, error) {
	x, okA := a.(T)
	y, okB := b.(T)
	if !okA || !okB {
		var zero T
		return zero, zero, fmt.Errorf("%w: aggregate expected %T values, got %T and %T",
			lakeerr.ErrCorruption, zero, a, b)
	}
	return x, y, nil
}
