package lsm

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

const (
	aggCollect  = "collect"
	aggMergeMap = "merge_map"
)

// collectAgg mirrors FieldCollectAgg: ARRAY values concatenated, or with
// fields.<f>.distinct, deduplicated. Java dedups nested elements (ARRAY, MAP,
// ROW) in a list, keeping first-seen order, and the others in a HashSet,
// whose iteration order the merged array keeps; see javaHashSet. Elements
// compare as spec.CompareValues does, which, unlike the table's comparator,
// orders nested values too. BINARY elements are Java byte arrays, all
// distinct by identity (see identityHashed): distinct keeps them all.
type collectAgg struct {
	stateless
	elem     spec.DataType
	distinct bool
}

func newCollectAgg(col spec.DataField, opts tableOptions) (aggregatorFactory, error) {
	if col.Type.Root != spec.Array {
		return nil, fmt.Errorf("%w: data type for collect column %s must be ARRAY", ErrInvalidOptions, col.Name)
	}
	distinct, err := opts.boolean(fieldOption(col.Name, distinctName))
	if err != nil {
		return nil, err
	}
	elem := elementOf(col.Type)
	if distinct && !isConstructed(elem.Root) && !javaHashable(elem) && !identityHashed(elem) {
		return nil, fmt.Errorf("%w: aggregate function collect with %s over %s elements (column %s)",
			lakeerr.ErrUnsupported, fieldOption(col.Name, distinctName), elem, col.Name)
	}
	agg := collectAgg{elem: elem, distinct: distinct}
	return func() fieldAggregator { return agg }, nil
}

func elementOf(t spec.DataType) spec.DataType {
	if t.Element == nil {
		return spec.DataType{}
	}
	return *t.Element
}

// isConstructed is DataTypeFamily.CONSTRUCTED.
func isConstructed(r spec.TypeRoot) bool {
	return r == spec.Array || r == spec.Map || r == spec.Multiset || r == spec.Row
}

func (c collectAgg) agg(acc, in any) (any, error) {
	if acc == nil && in == nil {
		return nil, nil
	}
	if (acc == nil || in == nil) && !c.distinct {
		return firstNonNil(acc, in), nil
	}
	a, b, err := arrayOperands(acc, in)
	if err != nil {
		return nil, err
	}
	switch {
	case !c.distinct:
		return append(append(make([]any, 0, len(a)+len(b)), a...), b...), nil
	case identityHashed(c.elem):
		return append(append(make([]any, 0, len(a)+len(b)), a...), b...), nil
	case isConstructed(c.elem.Root):
		// The accumulator is already distinct: only the input is checked.
		out := append(make([]any, 0, len(a)+len(b)), a...)
		for _, e := range b {
			if !c.containsEqual(out, e) {
				out = append(out, e)
			}
		}
		return out, nil
	}
	return hashDistinct(a, b)
}

// aggReversed is agg itself: FieldCollectAgg.aggReversed keeps the
// accumulator first rather than folding the older input in front of it.
func (c collectAgg) aggReversed(acc, in any) (any, error) { return c.agg(acc, in) }

// hashDistinct adds the elements to a HashSet (HashSet.add is
// HashMap.put) and lists it.
func hashDistinct(lists ...[]any) (any, error) {
	set := newJavaHashMap()
	for _, list := range lists {
		for _, e := range list {
			if err := set.putValue(e, nil); err != nil {
				return nil, err
			}
		}
	}
	return set.keyList(), nil
}

func (c collectAgg) containsEqual(list []any, e any) bool {
	for _, o := range list {
		if (o == nil && e == nil) || (o != nil && e != nil && spec.CompareValues(c.elem, o, e) == 0) {
			return true
		}
	}
	return false
}

// retract removes one accumulated element per retracted element, as
// FieldCollectAgg.retract does; an empty result stays an empty array.
func (c collectAgg) retract(acc, in any) (any, error) {
	if acc == nil {
		return nil, nil
	}
	if in == nil {
		return acc, nil
	}
	a, b, err := arrayOperands(acc, in)
	if err != nil || len(b) == 0 {
		return acc, err
	}
	pending := append([]any(nil), b...)
	out := make([]any, 0, len(a))
	for _, e := range a {
		if i := c.indexEqual(pending, e); i >= 0 {
			pending = append(pending[:i], pending[i+1:]...)
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// indexEqual finds e by Java's Object.equals: byte arrays compare by
// identity there, and a retracted BINARY element is never the accumulated
// one, so they never match.
func (c collectAgg) indexEqual(list []any, e any) int {
	if _, isBytes := e.([]byte); isBytes {
		return -1
	}
	for i, o := range list {
		if (o == nil && e == nil) || (o != nil && e != nil && spec.CompareValues(c.elem, o, e) == 0) {
			return i
		}
	}
	return -1
}

func arrayOperands(acc, in any) ([]any, []any, error) {
	a, okA := acc.([]any)
	b, okB := in.([]any)
	if (acc != nil && !okA) || (in != nil && !okB) {
		return nil, nil, fmt.Errorf("%w: aggregate expected ARRAY values, got %T and %T",
			lakeerr.ErrCorruption, acc, in)
	}
	return a, b, nil
}

// mergeMapAgg mirrors FieldMergeMapAgg: the input's entries override the
// accumulator's; a retraction removes its keys, whatever their values. Java
// builds a HashMap each time, so the merged map is in its iteration order.
// BINARY keys are byte arrays, equal to no other (see identityHashed): their
// entries are all kept, in the order they came, and no retraction matches
// them.
type mergeMapAgg struct {
	stateless
	identityKeys bool
}

func newMergeMapAgg(col spec.DataField) (aggregatorFactory, error) {
	if col.Type.Root != spec.Map {
		return nil, fmt.Errorf("%w: data type for merge map column %s must be MAP", ErrInvalidOptions, col.Name)
	}
	if err := checkMapKey(col, aggMergeMap); err != nil {
		return nil, err
	}
	agg := mergeMapAgg{identityKeys: identityHashed(*col.Type.Key)}
	return func() fieldAggregator { return agg }, nil
}

func (g mergeMapAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	a, b, err := mapOperands(acc, in)
	if err != nil {
		return nil, err
	}
	if g.identityKeys {
		return spec.MapValue{Keys: append(append([]any{}, a.Keys...), b.Keys...),
			Values: append(append([]any{}, a.Values...), b.Values...)}, nil
	}
	m := newJavaHashMap()
	if err := m.putAll(a, nil); err != nil {
		return nil, err
	}
	if err := m.putAll(b, nil); err != nil {
		return nil, err
	}
	return m.mapValue(), nil
}

func (g mergeMapAgg) retract(acc, in any) (any, error) {
	if acc == nil {
		return nil, nil
	}
	if in == nil {
		return acc, nil
	}
	a, b, err := mapOperands(acc, in)
	if err != nil || len(b.Keys) == 0 || g.identityKeys {
		return acc, err
	}
	removed := newJavaHashMap()
	for _, k := range b.Keys {
		if err := removed.putValue(k, nil); err != nil {
			return nil, err
		}
	}
	m := newJavaHashMap()
	if err := m.putAll(a, removed); err != nil {
		return nil, err
	}
	return m.mapValue(), nil
}

// checkMapKey refuses MAP keys whose Java order lakesql does not
// reproduce.
func checkMapKey(col spec.DataField, function string) error {
	if col.Type.Key == nil || (!javaHashable(*col.Type.Key) && !identityHashed(*col.Type.Key)) {
		return fmt.Errorf("%w: aggregate function %s over MAP keys of this type (column %s)",
			lakeerr.ErrUnsupported, function, col.Name)
	}
	return nil
}

// putAll puts each entry of src whose key is not in skip; a key already
// present keeps its place and takes the new value.
func (m *javaHashMap) putAll(src spec.MapValue, skip *javaHashMap) error {
	for i, k := range src.Keys {
		if skipped, err := skip.has(k); err != nil || skipped {
			if err != nil {
				return err
			}
			continue
		}
		if err := m.putValue(k, src.Values[i]); err != nil {
			return err
		}
	}
	return nil
}

func mapOperands(acc, in any) (spec.MapValue, spec.MapValue, error) {
	a, okA := acc.(spec.MapValue)
	b, okB := in.(spec.MapValue)
	if !okA || !okB || len(a.Keys) != len(a.Values) || len(b.Keys) != len(b.Values) {
		return spec.MapValue{}, spec.MapValue{}, fmt.Errorf("%w: aggregate expected MAP values, got %T and %T",
			lakeerr.ErrCorruption, acc, in)
	}
	return a, b, nil
}
