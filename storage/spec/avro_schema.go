package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// avroKind is the type of one node of an Avro schema.
type avroKind uint8

const (
	avroNull avroKind = iota
	avroBoolean
	avroInt
	avroLong
	avroFloat
	avroDouble
	avroBytes
	avroString
	avroRecord
	avroEnum
	avroArray
	avroMap
	avroUnion
	avroFixed
)

var avroKindNames = [...]string{
	avroNull: "null", avroBoolean: "boolean", avroInt: "int", avroLong: "long",
	avroFloat: "float", avroDouble: "double", avroBytes: "bytes", avroString: "string",
	avroRecord: "record", avroEnum: "enum", avroArray: "array", avroMap: "map",
	avroUnion: "union", avroFixed: "fixed",
}

var avroPrimitives = map[string]avroKind{
	"null": avroNull, "boolean": avroBoolean, "int": avroInt, "long": avroLong,
	"float": avroFloat, "double": avroDouble, "bytes": avroBytes, "string": avroString,
}

// avroMaxSchemaText and avroMaxSchemaDepth bound the cost of parsing a
// hostile schema, whose nesting is re-scanned at every level. Java's
// manifest schemas are about 2 KB and 7 levels deep.
const (
	avroMaxSchemaText  = 1 << 20
	avroMaxSchemaDepth = 64
)

// avroMaxSchemaWeight bounds the size of a schema once named references are
// expanded. A hostile file could otherwise declare a few records that each
// reference the previous one twice and make skipping a value take 2^n steps.
const avroMaxSchemaWeight = 1 << 16

// avroType is one node of a parsed writer schema. Only what decoding needs is
// kept: names matter for field mapping, not for type identity, because
// Paimon matches record fields by name and ignores record names.
type avroType struct {
	kind     avroKind
	logical  string      // logicalType of a primitive, e.g. "timestamp-millis"
	fields   []avroField // record fields in writer order
	items    *avroType   // array element or map value
	branches []*avroType // union branches
	size     int         // fixed size in bytes
	weight   int         // node count with references expanded, capped
	// empty types (null, fixed(0), records of empty types) encode every
	// value as zero bytes, so skipping an array of them must not loop per
	// item: a few bytes could otherwise claim billions of items.
	empty bool
}

type avroField struct {
	name string
	typ  *avroType
}

// avroSchemaParser resolves named types while parsing one schema.
type avroSchemaParser struct {
	named map[string]*avroType
	depth int
}

// parseAvroSchema parses the JSON text of an Avro schema. A named type is
// registered only after its definition is complete, so recursive types are
// rejected: Paimon never writes them and they would let a file recurse
// without bound.
func parseAvroSchema(text []byte) (*avroType, error) {
	if len(text) > avroMaxSchemaText {
		return nil, fmt.Errorf("avro schema: %d bytes is too long: %w", len(text), lakeerr.ErrCorruption)
	}
	p := avroSchemaParser{named: map[string]*avroType{}}
	t, err := p.parse(text, "")
	if err != nil {
		return nil, fmt.Errorf("avro schema: %w: %w", err, lakeerr.ErrCorruption)
	}
	if t.weight > avroMaxSchemaWeight {
		return nil, fmt.Errorf("avro schema: too large when expanded: %w", lakeerr.ErrCorruption)
	}
	return t, nil
}

func (p *avroSchemaParser) parse(raw []byte, namespace string) (*avroType, error) {
	if p.depth++; p.depth > avroMaxSchemaDepth {
		return nil, fmt.Errorf("nested too deeply")
	}
	defer func() { p.depth-- }()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, fmt.Errorf("empty schema")
	}
	switch raw[0] {
	case '"':
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return nil, err
		}
		return p.reference(name, namespace)
	case '[':
		var branches []json.RawMessage
		if err := json.Unmarshal(raw, &branches); err != nil {
			return nil, err
		}
		return p.union(branches, namespace)
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, err
		}
		return p.object(obj, namespace)
	}
	return nil, fmt.Errorf("invalid schema %.40q", raw)
}

// reference resolves a primitive type name or a previously defined named type.
func (p *avroSchemaParser) reference(name, namespace string) (*avroType, error) {
	if kind, ok := avroPrimitives[name]; ok {
		return &avroType{kind: kind, weight: 1, empty: kind == avroNull}, nil
	}
	if t, ok := p.named[avroFullName(name, namespace)]; ok {
		return t, nil
	}
	if t, ok := p.named[name]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("unknown type %q", name)
}

func (p *avroSchemaParser) union(raw []json.RawMessage, namespace string) (*avroType, error) {
	t := &avroType{kind: avroUnion, weight: 1}
	for _, b := range raw {
		branch, err := p.parse(b, namespace)
		if err != nil {
			return nil, err
		}
		t.branches = append(t.branches, branch)
		t.weight = avroAddWeight(t.weight, branch.weight)
	}
	if len(t.branches) == 0 {
		return nil, fmt.Errorf("empty union")
	}
	return t, nil
}

func (p *avroSchemaParser) object(obj map[string]json.RawMessage, namespace string) (*avroType, error) {
	var typeName string
	if err := json.Unmarshal(obj["type"], &typeName); err != nil {
		// {"type": <schema>} wraps another schema.
		return p.parse(obj["type"], namespace)
	}
	switch typeName {
	case "record", "error":
		return p.record(obj, namespace)
	case "enum":
		return p.register(obj, namespace, &avroType{kind: avroEnum, weight: 1})
	case "fixed":
		return p.fixed(obj, namespace)
	case "array":
		return p.container(avroArray, obj["items"], namespace)
	case "map":
		return p.container(avroMap, obj["values"], namespace)
	}
	kind, ok := avroPrimitives[typeName]
	if !ok {
		return p.reference(typeName, namespace)
	}
	t := &avroType{kind: kind, weight: 1, empty: kind == avroNull}
	if lt, ok := obj["logicalType"]; ok {
		if err := json.Unmarshal(lt, &t.logical); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (p *avroSchemaParser) container(kind avroKind, items json.RawMessage, namespace string) (*avroType, error) {
	if items == nil {
		return nil, fmt.Errorf("array or map without element type")
	}
	elem, err := p.parse(items, namespace)
	if err != nil {
		return nil, err
	}
	return &avroType{kind: kind, items: elem, weight: avroAddWeight(1, elem.weight)}, nil
}

func (p *avroSchemaParser) fixed(obj map[string]json.RawMessage, namespace string) (*avroType, error) {
	t := &avroType{kind: avroFixed, weight: 1}
	if err := json.Unmarshal(obj["size"], &t.size); err != nil || t.size < 0 {
		return nil, fmt.Errorf("fixed without valid size")
	}
	t.empty = t.size == 0
	return p.register(obj, namespace, t)
}

func (p *avroSchemaParser) record(obj map[string]json.RawMessage, namespace string) (*avroType, error) {
	ns := avroNamespace(obj, namespace)
	var rawFields []struct {
		Name string          `json:"name"`
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(obj["fields"], &rawFields); err != nil {
		return nil, fmt.Errorf("record fields: %w", err)
	}
	t := &avroType{kind: avroRecord, weight: 1, empty: true}
	for _, f := range rawFields {
		ft, err := p.parse(f.Type, ns)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		t.fields = append(t.fields, avroField{name: f.Name, typ: ft})
		t.weight = avroAddWeight(t.weight, ft.weight)
		t.empty = t.empty && ft.empty
	}
	return p.register(obj, namespace, t)
}

// register records a named type under its full name so that later parts of
// the schema can reference it.
func (p *avroSchemaParser) register(obj map[string]json.RawMessage, namespace string, t *avroType) (*avroType, error) {
	var name string
	if err := json.Unmarshal(obj["name"], &name); err != nil || name == "" {
		return nil, fmt.Errorf("named type without name")
	}
	p.named[avroFullName(name, avroNamespace(obj, namespace))] = t
	return t, nil
}

func avroNamespace(obj map[string]json.RawMessage, enclosing string) string {
	var ns string
	if json.Unmarshal(obj["namespace"], &ns) == nil {
		return ns
	}
	var name string
	if json.Unmarshal(obj["name"], &name) == nil {
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			return name[:i]
		}
	}
	return enclosing
}

func avroFullName(name, namespace string) string {
	if strings.Contains(name, ".") || namespace == "" {
		return name
	}
	return namespace + "." + name
}

func avroAddWeight(a, b int) int {
	return min(a+b, avroMaxSchemaWeight+1)
}
