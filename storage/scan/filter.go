package scan

import (
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// Filter is a predicate over the rows of a read schema, split into the
// parts the pruning steps use. The zero Filter (from CompileFilter with a
// nil predicate) selects every row.
type Filter struct {
	// Full is the whole predicate, Constant(True) without a filter.
	Full predicate.Predicate
	// Partition reads only partition keys and is TRUE for every row that
	// makes Full TRUE; a partition where it is not TRUE holds no match.
	Partition predicate.Predicate
	// Residual is the conjuncts of Full that the partition value does not
	// decide. And(partition conjuncts, Residual) is Full, so a row of a
	// kept partition matches exactly when Residual is TRUE for it.
	Residual predicate.Predicate
	// Key reads only the trimmed primary keys and is TRUE for every row
	// that makes Full TRUE: records whose key fails it can be dropped
	// before a merge. TRUE for append tables.
	Key predicate.Predicate
	// partitionColumns are the read-row positions of the partition keys.
	partitionColumns []int
}

// CompileFilter binds p to the read schema s and splits it. p's columns
// are matched to s by field id, so a predicate built against another
// schema version still works as long as every column it reads exists in s
// with the same type; otherwise the error wraps ErrFilterSchema. A nil p
// selects every row.
func CompileFilter(s *spec.TableSchema, p predicate.Predicate) (*Filter, error) {
	partCols, err := positions(s, s.PartitionKeys)
	if err != nil {
		return nil, err
	}
	f := &Filter{Full: predicate.Constant(predicate.True), partitionColumns: partCols}
	if p != nil {
		if f.Full, err = bind(p, s.Fields); err != nil {
			return nil, err
		}
	}
	f.Partition, _ = predicate.Extract(f.Full, partCols)
	keyCols, err := positions(s, s.TrimmedPrimaryKeys())
	if err != nil {
		return nil, err
	}
	f.Key, _ = predicate.Extract(f.Full, keyCols)
	if len(keyCols) == 0 {
		f.Key = predicate.Constant(predicate.True)
	}
	var rest []predicate.Predicate
	for _, c := range predicate.Conjuncts(f.Full) {
		if !readsOnly(c, partCols) {
			rest = append(rest, c)
		}
	}
	f.Residual = predicate.And(rest...)
	return f, nil
}

// ErrFilterSchema marks a filter that reads a column the read schema lacks
// or has with another type.
var ErrFilterSchema = fmt.Errorf("scan: filter does not fit the read schema: %w", lakeerr.ErrUnsupported)

// IsTrue reports whether p is the constant TRUE.
func IsTrue(p predicate.Predicate) bool {
	c, ok := p.(predicate.Constant)
	return ok && predicate.Tri(c) == predicate.True
}

func readsOnly(p predicate.Predicate, columns []int) bool {
	for _, c := range predicate.Columns(p) {
		if !slices.Contains(columns, c) {
			return false
		}
	}
	return true
}

// positions returns the read-row positions of the named fields.
func positions(s *spec.TableSchema, names []string) ([]int, error) {
	out := make([]int, len(names))
	for i, name := range names {
		if out[i] = s.FieldIndex(name); out[i] < 0 {
			return nil, fmt.Errorf("schema %d: key %q is not a column: %w", s.ID, name, lakeerr.ErrCorruption)
		}
	}
	return out, nil
}

// bind moves p onto the positions of fields by field id.
func bind(p predicate.Predicate, fields []spec.DataField) (predicate.Predicate, error) {
	var to []int
	for _, col := range leafColumns(p, nil) {
		j := slices.IndexFunc(fields, func(f spec.DataField) bool { return f.ID == col.ID })
		if j < 0 || !sameType(fields[j].Type, col.Type) {
			return nil, fmt.Errorf("%w: column %s (field id %d, %s)", ErrFilterSchema, col.Name, col.ID, col.Type)
		}
		for len(to) <= col.Index {
			to = append(to, -1)
		}
		to[col.Index] = j
	}
	bound, ok := predicate.Remap(p, to)
	if !ok {
		return nil, ErrFilterSchema
	}
	return bound, nil
}

// leafColumns appends the columns of p's leaves.
func leafColumns(p predicate.Predicate, dst []predicate.Column) []predicate.Column {
	switch x := p.(type) {
	case *predicate.LeafPredicate:
		return append(dst, x.Column())
	case *predicate.Compound:
		for _, c := range x.Children() {
			dst = leafColumns(c, dst)
		}
	}
	return dst
}

// sameType compares types ignoring nullability, which does not change
// values or their order.
func sameType(a, b spec.DataType) bool {
	return a.WithNullable(true).String() == b.WithNullable(true).String()
}
