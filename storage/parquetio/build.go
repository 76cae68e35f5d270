package parquetio

import (
	"github.com/lakesql/lakesql/storage/spec"
)

// readerBuilder builds the valueReaders of one iterator. Each reader gets
// its own cursors, so requesting a column twice is harmless.
type readerBuilder struct {
	file    string
	cursors []*leafCursor
	leafOf  []int // leaf column index of each cursor
}

func (b *readerBuilder) cursorFor(n *schemaNode) *leafCursor {
	c := newLeafCursor(n.maxRep == 0)
	b.cursors = append(b.cursors, c)
	b.leafOf = append(b.leafOf, n.leaf)
	return c
}

// build returns the reader of node n decoded as type t.
func (b *readerBuilder) build(n *schemaNode, t spec.DataType, path string) (valueReader, error) {
	if n.isRepeated() {
		return b.buildBareRepeated(n, t, path)
	}
	return b.buildValue(n, t, path)
}

// buildValue builds the reader of n ignoring n's own repetition, which an
// enclosing collection reader already accounts for.
func (b *readerBuilder) buildValue(n *schemaNode, t spec.DataType, path string) (valueReader, error) {
	switch t.Root {
	case spec.Array:
		return b.buildList(n, t, path)
	case spec.Map, spec.Multiset:
		return b.buildMap(n, t, path)
	case spec.Row:
		return b.buildRow(n, t, path)
	case spec.Variant:
		return nil, unsupportedf(b.file, "column %s: VARIANT", path)
	}
	if !n.isLeaf() {
		return nil, unsupportedf(b.file, "column %s: cannot read a parquet group as %s", path, typeName(t))
	}
	decode, err := b.decoderFor(n, t, path)
	if err != nil {
		return nil, err
	}
	return &primitiveReader{cursor: b.cursorFor(n), maxDef: n.maxDef, decode: decode}, nil
}

// buildBareRepeated reads a repeated field outside a LIST or MAP group,
// which the Parquet spec defines as a non-null list of required elements.
func (b *readerBuilder) buildBareRepeated(n *schemaNode, t spec.DataType, path string) (valueReader, error) {
	if t.Root != spec.Array || t.Element == nil {
		return nil, unsupportedf(b.file, "column %s: cannot read a repeated parquet field as %s", path, typeName(t))
	}
	element, err := b.buildValue(n, *t.Element, path+".element")
	if err != nil {
		return nil, err
	}
	return &repeatedReader{
		maxDef: n.maxDef - 1, entryDef: n.maxDef, entryRep: n.maxRep,
		element: element, cursors: element.leaves(),
	}, nil
}

func (b *readerBuilder) buildList(n *schemaNode, t spec.DataType, path string) (valueReader, error) {
	repeated, elementNode, ok := n.listParts()
	if !n.isList() || !ok || t.Element == nil {
		return nil, unsupportedf(b.file, "column %s: cannot read parquet %s as ARRAY", path, n.describe())
	}
	element, err := b.buildPart(repeated, elementNode, *t.Element, path+".element")
	if err != nil {
		return nil, err
	}
	return &repeatedReader{
		maxDef: n.maxDef, entryDef: repeated.maxDef, entryRep: repeated.maxRep,
		element: element, cursors: element.leaves(),
	}, nil
}

// buildPart builds the element of a list or the key or value of a map,
// which in legacy layouts is the repeated node itself.
func (b *readerBuilder) buildPart(repeated, part *schemaNode, t spec.DataType, path string) (valueReader, error) {
	if part == repeated {
		return b.buildValue(part, t, path)
	}
	return b.build(part, t, path)
}

func (b *readerBuilder) buildMap(n *schemaNode, t spec.DataType, path string) (valueReader, error) {
	repeated, keyNode, valueNode, ok := n.mapParts()
	keyType, valueType := t.Key, t.Value
	if t.Root == spec.Multiset {
		// Paimon stores a MULTISET as a map from element to its count.
		keyType, valueType = t.Element, &spec.DataType{Root: spec.Int}
	}
	if !ok || valueNode == nil || keyType == nil || valueType == nil {
		return nil, unsupportedf(b.file, "column %s: cannot read parquet %s as %s", path, n.describe(), typeName(t))
	}
	key, err := b.build(keyNode, *keyType, path+".key")
	if err != nil {
		return nil, err
	}
	value, err := b.build(valueNode, *valueType, path+".value")
	if err != nil {
		return nil, err
	}
	return &repeatedReader{
		maxDef: n.maxDef, entryDef: repeated.maxDef, entryRep: repeated.maxRep,
		element: key, value: value, cursors: append(key.leaves(), value.leaves()...),
	}, nil
}

// buildRow matches ROW fields to group children by name, as Java does.
func (b *readerBuilder) buildRow(n *schemaNode, t spec.DataType, path string) (valueReader, error) {
	if n.isLeaf() {
		return nil, unsupportedf(b.file, "column %s: cannot read parquet %s as ROW", path, n.describe())
	}
	r := &rowReader{maxDef: n.maxDef, maxRep: n.maxRep, fields: make([]valueReader, len(t.Fields))}
	for i, f := range t.Fields {
		child := n.child(f.Name)
		if child == nil {
			continue
		}
		field, err := b.build(child, f.Type, path+"."+f.Name)
		if err != nil {
			return nil, err
		}
		r.fields[i] = field
		r.cursors = append(r.cursors, field.leaves()...)
	}
	if len(r.cursors) == 0 {
		leaf := n.firstLeaf()
		if leaf == nil {
			return nil, unsupportedf(b.file, "column %s: group without leaf columns", path)
		}
		r.hidden = []*leafCursor{b.cursorFor(leaf)}
		r.cursors = r.hidden
	}
	return r, nil
}

// describe names the Parquet shape of n for error messages.
func (n *schemaNode) describe() string {
	switch {
	case n.isLeaf():
		return n.physical().String()
	case n.isList():
		return "LIST group"
	case n.isMap():
		return "MAP group"
	}
	return "group"
}
