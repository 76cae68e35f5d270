package lsm

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

const (
	aggNestedUpdate = "nested_update"
	nestedKeyName   = "nested-key"
	countLimitName  = "count-limit"
)

// nestedUpdateAgg mirrors FieldNestedUpdateAgg: an ARRAY<ROW> column taken
// as a nested table. Without fields.<f>.nested-key the input's rows are
// appended; with it, a row replaces the accumulated row of the same key.
// Keyed rows go through a HashMap keyed by the key's BinaryRow, so the
// merged array is in that map's iteration order. Null elements are dropped,
// and fields.<f>.count-limit stops appending once the accumulator holds that
// many elements.
type nestedUpdateAgg struct {
	stateless
	nestedTable
	countLimit int
}

// nestedTable is an ARRAY<ROW> column and its fields.<f>.nested-key fields.
type nestedTable struct {
	row       spec.DataType
	keyFields []int
	keyTypes  []spec.DataType
}

func newNestedTable(col spec.DataField, opts tableOptions) (nestedTable, error) {
	if col.Type.Root != spec.Array || col.Type.Element == nil || col.Type.Element.Root != spec.Row {
		return nestedTable{}, fmt.Errorf("%w: data type for nested table column %s must be ARRAY<ROW>", ErrInvalidOptions, col.Name)
	}
	n := nestedTable{row: *col.Type.Element}
	if keys, ok := opts[fieldOption(col.Name, nestedKeyName)]; ok {
		for _, name := range strings.Split(keys, ",") {
			i := slices.IndexFunc(n.row.Fields, func(f spec.DataField) bool { return f.Name == strings.TrimSpace(name) })
			if i < 0 {
				return nestedTable{}, fmt.Errorf("%w: %s names %q, not a field of %s",
					ErrInvalidOptions, fieldOption(col.Name, nestedKeyName), name, col.Name)
			}
			n.keyFields = append(n.keyFields, i)
			n.keyTypes = append(n.keyTypes, n.row.Fields[i].Type)
		}
	}
	return n, nil
}

func newNestedUpdateAgg(col spec.DataField, opts tableOptions) (aggregatorFactory, error) {
	table, err := newNestedTable(col, opts)
	if err != nil {
		return nil, err
	}
	agg := nestedUpdateAgg{nestedTable: table, countLimit: math.MaxInt32}
	if limit, ok := opts[fieldOption(col.Name, countLimitName)]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(limit), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrInvalidOptions, fieldOption(col.Name, countLimitName), err)
		}
		agg.countLimit = int(n)
	}
	return func() fieldAggregator { return agg }, nil
}

func (n nestedUpdateAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	a, b, err := arrayOperands(acc, in)
	if err != nil {
		return nil, err
	}
	if len(a) >= n.countLimit {
		return acc, nil
	}
	rows := appendNonNull(make([]any, 0, len(a)+len(b)), a, len(a))
	rows = appendNonNull(rows, b, n.countLimit-len(a))
	if n.keyFields == nil {
		return rows, nil
	}
	m, err := n.keyed(rows)
	if err != nil {
		return nil, err
	}
	return listRows(m, nil), nil
}

func (n nestedUpdateAgg) retract(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return acc, nil
	}
	a, b, err := arrayOperands(acc, in)
	if err != nil {
		return nil, err
	}
	if n.keyFields == nil {
		return n.removeEqual(appendNonNull(nil, a, len(a)), b), nil
	}
	m, err := n.keyed(appendNonNull(nil, a, len(a)))
	if err != nil {
		return nil, err
	}
	removed := map[string]bool{}
	for _, r := range b {
		if r == nil {
			continue
		}
		key, err := n.key(r)
		if err != nil {
			return nil, err
		}
		removed[string(key)] = true
	}
	return listRows(m, removed), nil
}

// removeEqual drops every row equal to a retracted one, as Java's removeIf
// with the row's RecordEqualiser does; the result may be empty, not null.
func (n nestedUpdateAgg) removeEqual(rows, retracted []any) []any {
	out := append([]any{}, rows...)
	for _, r := range retracted {
		if r == nil {
			continue
		}
		out = slices.DeleteFunc(out, func(e any) bool { return spec.CompareValues(n.row, e, r) == 0 })
	}
	return out
}

// appendNonNull appends at most limit non-null elements of src.
func appendNonNull(dst, src []any, limit int) []any {
	count := 0
	for _, e := range src {
		if count >= limit {
			break
		}
		if e != nil {
			dst = append(dst, e)
			count++
		}
	}
	return dst
}

// keyed puts rows into the HashMap<BinaryRow, InternalRow> of
// FieldNestedUpdateAgg by key, later rows replacing earlier ones. The map's
// keys are the key BinaryRows' bytes, as strings.
func (n nestedUpdateAgg) keyed(rows []any) (*javaHashMap, error) {
	m := newJavaHashMap()
	for _, r := range rows {
		key, err := n.key(r)
		if err != nil {
			return nil, err
		}
		if err := m.put(spec.BucketHash(key), string(key), string(key), r); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// listRows lists the map's rows in iteration order, leaving out removed
// keys (HashMap.remove leaves the others' order and the table's size as
// they are).
func listRows(m *javaHashMap, removed map[string]bool) []any {
	out := []any{}
	for _, at := range m.order() {
		if !removed[m.keys[at].(string)] {
			out = append(out, m.values[at])
		}
	}
	return out
}

// key is the BinaryRow of the row's nested-key fields (Java's projection
// keeps the default +I row kind), whose bytes BinaryRow.equals compares
// and whose murmur hash is its hashCode.
func (n nestedTable) key(r any) ([]byte, error) {
	row, ok := r.([]any)
	if !ok || len(row) != len(n.row.Fields) {
		return nil, fmt.Errorf("%w: nested_update expected ROW elements, got %T", lakeerr.ErrCorruption, r)
	}
	vals := make([]any, len(n.keyFields))
	for i, f := range n.keyFields {
		vals[i] = row[f]
	}
	return spec.EncodeBinaryRow(n.keyTypes, vals, spec.RowKindInsert)
}
