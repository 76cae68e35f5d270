package fileindex

import (
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// Evaluator answers filters over one data file from its indexes
// (FileIndexPredicate). Indexes are keyed by the column names of the
// schema the file was written with; filters name columns by field id, so
// a renamed column still finds its index.
type Evaluator struct {
	container *Container
	fields    []spec.DataField
}

// NewEvaluator evaluates over a file written with fields.
func NewEvaluator(c *Container, fields []spec.DataField) *Evaluator {
	return &Evaluator{container: c, fields: fields}
}

// Cannot reports whether the indexes prove that no row of the file makes
// p TRUE. Only equality and IN on a column with a bloom filter can prove
// it; AND needs one such conjunct, OR needs every disjunct. A bloom filter
// whose bytes are malformed is an error, not a reason to skip.
func (e *Evaluator) Cannot(p predicate.Predicate) (bool, error) {
	switch x := p.(type) {
	case predicate.Constant:
		return predicate.Tri(x) != predicate.True, nil
	case *predicate.Compound:
		return e.compoundCannot(x)
	case *predicate.LeafPredicate:
		return e.leafCannot(x)
	}
	return false, nil
}

func (e *Evaluator) compoundCannot(c *predicate.Compound) (bool, error) {
	for _, child := range c.Children() {
		cannot, err := e.Cannot(child)
		if err != nil || cannot == c.IsAnd() {
			return cannot, err
		}
	}
	return !c.IsAnd(), nil
}

func (e *Evaluator) leafCannot(l *predicate.LeafPredicate) (bool, error) {
	if l.Op() != predicate.OpEq && l.Op() != predicate.OpIn {
		return false, nil
	}
	filter, hash, ok, err := e.bloomOf(l.Column())
	if !ok || err != nil {
		return false, err
	}
	for _, lit := range l.Literals() {
		if lit == nil {
			continue // never equal to anything
		}
		h, known := hash(lit)
		if !known || filter.mightContain(h) {
			return false, nil
		}
	}
	return true, nil
}

// bloomOf returns the bloom filter of col in this file, when the file has
// one on a column of col's type.
func (e *Evaluator) bloomOf(col predicate.Column) (bloomFilter, hasher, bool, error) {
	for _, f := range e.fields {
		if f.ID != col.ID {
			continue
		}
		if f.Type.WithNullable(true).String() != col.Type.WithNullable(true).String() {
			return bloomFilter{}, nil, false, nil
		}
		body, ok := e.container.Lookup(f.Name, spec.FileIndexBloomFilter)
		if !ok || body == nil {
			return bloomFilter{}, nil, false, nil
		}
		hash, err := hasherFor(f.Type)
		if err != nil {
			return bloomFilter{}, nil, false, nil
		}
		filter, err := decodeBloom(body)
		return filter, hash, err == nil, err
	}
	return bloomFilter{}, nil, false, nil
}
