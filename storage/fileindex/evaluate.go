package fileindex

import (
	"math"

	"github.com/RoaringBitmap/roaring/v2"

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
// p TRUE: equality and IN on a column with a bloom filter or a bitmap, IS
// NULL on a column with a bitmap; AND needs one such conjunct, OR needs
// every disjunct. An index whose bytes are malformed is an error, not a
// reason to skip.
func (e *Evaluator) Cannot(p predicate.Predicate) (bool, error) {
	return predicate.Refuted(p, e.leafCannot)
}

func (e *Evaluator) leafCannot(l *predicate.LeafPredicate) (bool, error) {
	switch l.Op() {
	case predicate.OpEq, predicate.OpIn:
		if cannot, err := e.bloomRefutes(l); cannot || err != nil {
			return cannot, err
		}
		return e.bitmapRefutes(l)
	case predicate.OpIsNull:
		bitmap, ok, err := e.bitmapOf(l.Column())
		return ok && !bitmap.hasNull, err
	}
	return false, nil
}

// bloomRefutes: the column's bloom filter holds none of the literals.
func (e *Evaluator) bloomRefutes(l *predicate.LeafPredicate) (bool, error) {
	body, t, ok := e.indexOf(l.Column(), spec.FileIndexBloomFilter)
	if !ok {
		return false, nil
	}
	hash, err := hasherFor(t)
	if err != nil {
		return false, nil
	}
	filter, err := decodeBloom(body)
	if err != nil {
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

// bitmapRefutes: the column's bitmap index has none of the literals.
func (e *Evaluator) bitmapRefutes(l *predicate.LeafPredicate) (bool, error) {
	bitmap, ok, err := e.bitmapOf(l.Column())
	if !ok || err != nil {
		return false, err
	}
	entries, ok, err := bitmap.entriesOf(l.Literals())
	return ok && len(entries) == 0, err
}

// entriesOf returns the entries of the values equal to one of the
// literals (NULLs equal nothing), or false when one has no key of the
// column's type. A zero finds -0.0 and 0.0 alike, which SQL holds equal
// and Java's bitmap keys apart.
func (b *bitmapIndex) entriesOf(literals []any) ([]bitmapEntry, bool, error) {
	var out []bitmapEntry
	for _, lit := range literals {
		if lit == nil {
			continue
		}
		for _, v := range equalValues(lit) {
			key, known := b.codec.encode(v)
			if !known {
				return nil, false, nil
			}
			entry, found, err := b.find(key)
			if err != nil {
				return nil, false, err
			}
			if found {
				out = append(out, entry)
			}
		}
	}
	return out, true, nil
}

// equalValues are the values SQL equality cannot tell from v.
func equalValues(v any) []any {
	switch x := v.(type) {
	case float32:
		if x == 0 {
			return []any{float32(0), float32(math.Copysign(0, -1))}
		}
	case float64:
		if x == 0 {
			return []any{0.0, math.Copysign(0, -1)}
		}
	}
	return []any{v}
}

func (e *Evaluator) bitmapOf(col predicate.Column) (*bitmapIndex, bool, error) {
	body, t, ok := e.indexOf(col, spec.FileIndexBitmap)
	if !ok {
		return nil, false, nil
	}
	codec, err := bitmapCodecFor(t)
	if err != nil {
		return nil, false, nil
	}
	ix, err := decodeBitmap(body, codec)
	if err != nil {
		return nil, false, err
	}
	return ix, true, nil
}

// indexOf returns the body of col's index of the given type in this file,
// and the column's type there, when the file has one on a column of col's
// type.
func (e *Evaluator) indexOf(col predicate.Column, indexType string) ([]byte, spec.DataType, bool) {
	for _, f := range e.fields {
		if f.ID != col.ID {
			continue
		}
		if f.Type.WithNullable(true).String() != col.Type.WithNullable(true).String() {
			return nil, spec.DataType{}, false
		}
		body, ok := e.container.Lookup(f.Name, indexType)
		return body, f.Type, ok && body != nil
	}
	return nil, spec.DataType{}, false
}

// Rows returns the rows of the file that may make p TRUE, when its bitmap
// indexes narrow them (ok false when they cannot): = and IN on a column
// with a bitmap, IS NULL on one; AND intersects what its conjuncts narrow,
// OR unites when every disjunct narrows. Row numbers are positions in the
// file, as deletion vectors number them.
func (e *Evaluator) Rows(p predicate.Predicate) (rows *roaring.Bitmap, ok bool, err error) {
	switch x := p.(type) {
	case predicate.Constant:
		return roaring.New(), predicate.Tri(x) != predicate.True, nil
	case *predicate.Compound:
		if x.IsAnd() {
			return e.andRows(x.Children())
		}
		return e.orRows(x.Children())
	case *predicate.LeafPredicate:
		return e.leafRows(x)
	}
	return nil, false, nil
}

func (e *Evaluator) andRows(children []predicate.Predicate) (*roaring.Bitmap, bool, error) {
	var out *roaring.Bitmap
	for _, c := range children {
		rows, ok, err := e.Rows(c)
		switch {
		case err != nil:
			return nil, false, err
		case !ok:
		case out == nil:
			out = rows
		default:
			out.And(rows)
		}
	}
	return out, out != nil, nil
}

func (e *Evaluator) orRows(children []predicate.Predicate) (*roaring.Bitmap, bool, error) {
	out := roaring.New()
	for _, c := range children {
		rows, ok, err := e.Rows(c)
		if err != nil || !ok {
			return nil, false, err
		}
		out.Or(rows)
	}
	return out, true, nil
}

func (e *Evaluator) leafRows(l *predicate.LeafPredicate) (*roaring.Bitmap, bool, error) {
	op := l.Op()
	if op != predicate.OpEq && op != predicate.OpIn && op != predicate.OpIsNull {
		return nil, false, nil
	}
	bitmap, ok, err := e.bitmapOf(l.Column())
	if !ok || err != nil {
		return nil, false, err
	}
	if op == predicate.OpIsNull {
		rows, err := bitmap.nullRows()
		return rows, err == nil, err
	}
	entries, ok, err := bitmap.entriesOf(l.Literals())
	if !ok || err != nil {
		return nil, false, err
	}
	out := roaring.New()
	for _, entry := range entries {
		rows, err := bitmap.rows(entry)
		if err != nil {
			return nil, false, err
		}
		out.Or(rows)
	}
	return out, true, nil
}
