package parquetio

import (
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// maxSchemaDepth bounds nesting so a hostile schema cannot exhaust the stack.
const maxSchemaDepth = 64

// schemaNode is one element of a file's Parquet schema plus the levels
// needed to reassemble nested values from its leaf columns.
type schemaNode struct {
	elem     *format.SchemaElement
	children []*schemaNode
	// maxDef is the definition level at which the node is present: the
	// number of optional or repeated nodes from the root down to it.
	maxDef int
	// maxRep is the number of repeated nodes from the root down to it.
	maxRep int
	// leaf is the column-chunk index of a primitive node, -1 for groups.
	leaf int
}

// schemaTreeBuilder turns the flattened depth-first element list of the
// footer into a tree.
type schemaTreeBuilder struct {
	elems  []format.SchemaElement
	next   int
	leaves int
}

func buildSchemaTree(name string, elems []format.SchemaElement) (*schemaNode, int, error) {
	if len(elems) == 0 {
		return nil, 0, corruptionf(name, "empty schema")
	}
	b := &schemaTreeBuilder{elems: elems}
	root, err := b.node(name, nil, 0)
	if err != nil {
		return nil, 0, err
	}
	if b.next != len(elems) {
		return nil, 0, corruptionf(name, "schema has %d trailing elements", len(elems)-b.next)
	}
	return root, b.leaves, nil
}

func (b *schemaTreeBuilder) node(name string, parent *schemaNode, depth int) (*schemaNode, error) {
	if depth > maxSchemaDepth {
		return nil, unsupportedf(name, "schema nested deeper than %d levels", maxSchemaDepth)
	}
	if b.next >= len(b.elems) {
		return nil, corruptionf(name, "schema children exceed its %d elements", len(b.elems))
	}
	n := newSchemaNode(&b.elems[b.next], parent)
	b.next++
	count := int(n.elem.NumChildren.V)
	if parent != nil && n.elem.Type.Valid {
		if count > 0 {
			return nil, corruptionf(name, "primitive schema element %q has children", n.elem.Name)
		}
		n.leaf = b.leaves
		b.leaves++
		return n, nil
	}
	if count < 0 || count > len(b.elems)-b.next {
		return nil, corruptionf(name, "schema element %q has %d children", n.elem.Name, count)
	}
	for range count {
		child, err := b.node(name, n, depth+1)
		if err != nil {
			return nil, err
		}
		n.children = append(n.children, child)
	}
	return n, nil
}

// newSchemaNode derives the levels of elem below parent (nil for the root).
func newSchemaNode(elem *format.SchemaElement, parent *schemaNode) *schemaNode {
	n := &schemaNode{elem: elem, leaf: -1}
	if parent == nil {
		return n
	}
	n.maxDef, n.maxRep = parent.maxDef, parent.maxRep
	switch n.repetition() {
	case format.Optional:
		n.maxDef++
	case format.Repeated:
		n.maxDef++
		n.maxRep++
	}
	return n
}

func (n *schemaNode) name() string { return n.elem.Name }

func (n *schemaNode) fieldID() int { return int(n.elem.FieldID) }

func (n *schemaNode) isLeaf() bool { return n.leaf >= 0 }

func (n *schemaNode) physical() format.Type { return n.elem.Type.V }

func (n *schemaNode) repetition() format.FieldRepetitionType {
	if n.elem.RepetitionType.Valid {
		return n.elem.RepetitionType.V
	}
	return format.Required
}

func (n *schemaNode) isRepeated() bool { return n.repetition() == format.Repeated }

func (n *schemaNode) child(name string) *schemaNode {
	for _, c := range n.children {
		if c.name() == name {
			return c
		}
	}
	return nil
}

// firstLeaf returns a leaf under n, or nil for a group without leaves.
func (n *schemaNode) firstLeaf() *schemaNode {
	if n.isLeaf() {
		return n
	}
	for _, c := range n.children {
		if l := c.firstLeaf(); l != nil {
			return l
		}
	}
	return nil
}

func (n *schemaNode) convertedType() (deprecated.ConvertedType, bool) {
	return n.elem.ConvertedType.V, n.elem.ConvertedType.Valid
}

func (n *schemaNode) isList() bool {
	if _, ok := n.elem.LogicalType.Value.(*format.ListType); ok {
		return true
	}
	ct, ok := n.convertedType()
	return ok && ct == deprecated.List
}

func (n *schemaNode) isMap() bool {
	if _, ok := n.elem.LogicalType.Value.(*format.MapType); ok {
		return true
	}
	ct, ok := n.convertedType()
	return ok && (ct == deprecated.Map || ct == deprecated.MapKeyValue)
}

// listParts returns the repeated node and the element node of a LIST
// group, following the backward-compatibility rules of the Parquet spec:
// in legacy two-level lists the repeated node is itself the element.
func (n *schemaNode) listParts() (repeated, element *schemaNode, ok bool) {
	if len(n.children) != 1 || !n.children[0].isRepeated() {
		return nil, nil, false
	}
	r := n.children[0]
	if r.isLeaf() || len(r.children) != 1 || r.name() == "array" || r.name() == n.name()+"_tuple" {
		return r, r, true
	}
	return r, r.children[0], true
}

// mapParts returns the repeated key_value group and its key and value
// nodes; value is nil for a key-only (set-like) map.
func (n *schemaNode) mapParts() (repeated, key, value *schemaNode, ok bool) {
	if len(n.children) != 1 {
		return nil, nil, nil, false
	}
	r := n.children[0]
	if !r.isRepeated() || r.isLeaf() || len(r.children) < 1 || len(r.children) > 2 {
		return nil, nil, nil, false
	}
	if len(r.children) == 2 {
		value = r.children[1]
	}
	return r, r.children[0], value, true
}
