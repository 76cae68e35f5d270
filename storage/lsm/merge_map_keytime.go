package lsm

import (
	"fmt"
	"slices"
	"unicode/utf16"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

const (
	aggMergeMapKeyTime = "merge_map_with_keytime"
	tsFieldName        = "ts-field"
)

// mergeMapKeyTimeAgg mirrors FieldMergeMapWithKeyTimeAgg (Paimon 1.4): a
// MAP<K, ROW<..., ts>> column whose entries each carry a timestamp, the
// ROW field named by fields.<f>.ts-field or else its last field. The
// accumulated entries go into a HashMap as they are; then each input entry
// with a null value removes its key, one with a null timestamp is skipped,
// and any other replaces the entry whose value or timestamp is null or
// whose timestamp it passes. Timestamps compare as Java strings
// (String.compareTo, by UTF-16 code unit), so the timestamp field must be
// CHAR or VARCHAR: Java reads any other type through getString, which
// takes the field's bits for a string pointer, and lakesql refuses it.
// The merged map is in the HashMap's iteration order; BINARY keys are
// byte arrays, equal to no other (see identityHashed). Retraction is
// refused, as FieldAggregator's default does.
type mergeMapKeyTimeAgg struct {
	retractRefusal
	stateless
	ts           int
	identityKeys bool
}

func newMergeMapKeyTimeAgg(col spec.DataField, opts tableOptions, refuse retractRefusal) (aggregatorFactory, error) {
	t := col.Type
	if t.Root != spec.Map || t.Key == nil || t.Value == nil {
		return nil, fmt.Errorf("%w: data type for field %s must be MAP", ErrInvalidOptions, col.Name)
	}
	if t.Value.Root != spec.Row || len(t.Value.Fields) < 2 {
		return nil, fmt.Errorf("%w: value type of MAP for field %s must be ROW of at least 2 fields",
			ErrInvalidOptions, col.Name)
	}
	fields := t.Value.Fields
	ts := len(fields) - 1
	if name, ok := opts[fieldOption(col.Name, tsFieldName)]; ok {
		ts = slices.IndexFunc(fields, func(f spec.DataField) bool { return f.Name == name })
		if ts < 0 {
			return nil, fmt.Errorf("%w: timestamp field %q not found in ROW type for field %s",
				ErrInvalidOptions, name, col.Name)
		}
	}
	if r := fields[ts].Type.Root; r != spec.Char && r != spec.VarChar {
		return nil, fmt.Errorf("%w: aggregate function %s over a %s timestamp field (column %s): Java compares it as a string",
			lakeerr.ErrUnsupported, aggMergeMapKeyTime, fields[ts].Type, col.Name)
	}
	if err := checkMapKey(col, aggMergeMapKeyTime); err != nil {
		return nil, err
	}
	agg := mergeMapKeyTimeAgg{retractRefusal: refuse, ts: ts, identityKeys: identityHashed(*t.Key)}
	return func() fieldAggregator { return agg }, nil
}

func (g mergeMapKeyTimeAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	a, b, err := mapOperands(acc, in)
	if err != nil {
		return nil, err
	}
	if g.identityKeys {
		return g.appendIdentityKeyed(a, b)
	}
	m := newJavaHashMap()
	if err := m.putAll(a, nil); err != nil {
		return nil, err
	}
	for i, k := range b.Keys {
		h, eq, err := javaHashKey(k)
		if err != nil {
			return nil, err
		}
		if b.Values[i] == nil {
			m.remove(h, eq)
			continue
		}
		row, ts, err := g.timestamp(b.Values[i])
		if err != nil || ts == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		if at, ok := m.get(eq); ok && m.values[at] != nil {
			_, old, err := g.timestamp(m.values[at])
			if err != nil {
				return nil, err
			}
			if old != nil && compareJavaStrings(*ts, *old) <= 0 {
				continue
			}
		}
		if err := m.put(h, eq, k, row); err != nil {
			return nil, err
		}
	}
	return m.mapValue(), nil
}

// appendIdentityKeyed is agg over byte-array keys: no input key finds an
// accumulated one, so every accumulated entry stays and every input entry
// with a value and a timestamp is added.
func (g mergeMapKeyTimeAgg) appendIdentityKeyed(a, b spec.MapValue) (any, error) {
	out := spec.MapValue{Keys: append([]any{}, a.Keys...), Values: append([]any{}, a.Values...)}
	for i, k := range b.Keys {
		if b.Values[i] == nil {
			continue
		}
		row, ts, err := g.timestamp(b.Values[i])
		if err != nil {
			return nil, err
		}
		if ts != nil {
			out.Keys = append(out.Keys, k)
			out.Values = append(out.Values, row)
		}
	}
	return out, nil
}

// timestamp returns an entry's ROW and its timestamp, nil when null.
func (g mergeMapKeyTimeAgg) timestamp(v any) ([]any, *string, error) {
	row, ok := v.([]any)
	if !ok || g.ts >= len(row) {
		return nil, nil, fmt.Errorf("%w: %s expected ROW values, got %T", lakeerr.ErrCorruption, aggMergeMapKeyTime, v)
	}
	if row[g.ts] == nil {
		return row, nil, nil
	}
	s, ok := row[g.ts].(string)
	if !ok {
		return nil, nil, fmt.Errorf("%w: %s expected a string timestamp, got %T", lakeerr.ErrCorruption, aggMergeMapKeyTime, row[g.ts])
	}
	return row, &s, nil
}

// compareJavaStrings is String.compareTo: UTF-16 code units compared in
// order, then lengths. It differs from Go's byte order where a character
// above U+FFFF meets one in U+E000..U+FFFF.
func compareJavaStrings(a, b string) int {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	return slices.Compare(x, y)
}
