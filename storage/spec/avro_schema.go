package spec

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hamba/avro/v2"
)

// avroFormat is one of Java's writer schemas: the verbatim text our headers
// carry, and its parse, which is also what files of that kind are read
// against.
type avroFormat struct {
	text   string
	schema avro.Schema
}

func newAvroFormat(avsc string) *avroFormat {
	text := strings.TrimSpace(avsc)
	// A private cache: hamba's default one would register Java's record
	// names for every later parse in the process.
	schema, err := avro.ParseWithCache(text, "", &avro.SchemaCache{})
	if err != nil {
		panic(fmt.Sprintf("spec: embedded Avro schema: %v", err))
	}
	return &avroFormat{text: text, schema: schema}
}

// avroMaxSchemaWeight bounds the size of a writer schema with named
// references expanded. Without it a few records that each reference the
// previous one twice would make every record cost 2^n steps. Java's
// manifest schemas have about 70 nodes.
const avroMaxSchemaWeight = 1 << 12

// avroCheckSchema rejects what hamba cannot decode safely: recursive types,
// which hamba follows without a depth bound, schemas too large when
// expanded, and arrays of values that encode to no bytes, where a few bytes
// can claim billions of items. Java's manifests have none of these.
func avroCheckSchema(s avro.Schema) error {
	var c avroChecker
	_, err := c.check(s)
	return err
}

type avroChecker struct {
	weight int
	path   []*avro.RecordSchema // records being walked
}

// check reports whether every value of s encodes to no bytes.
func (c *avroChecker) check(s avro.Schema) (empty bool, err error) {
	if c.weight++; c.weight > avroMaxSchemaWeight {
		return false, errors.New("too large with named types expanded")
	}
	switch s := avroDeref(s).(type) {
	case *avro.NullSchema:
		return true, nil
	case *avro.FixedSchema:
		return s.Size() == 0, nil
	case *avro.RecordSchema:
		return c.record(s)
	case *avro.ArraySchema:
		empty, err := c.check(s.Items())
		if err == nil && empty {
			err = errors.New("array of values that encode to no bytes")
		}
		return false, err
	case *avro.MapSchema:
		_, err := c.check(s.Values())
		return false, err
	case *avro.UnionSchema:
		for _, t := range s.Types() {
			if _, err := c.check(t); err != nil {
				return false, err
			}
		}
	}
	return false, nil
}

func (c *avroChecker) record(s *avro.RecordSchema) (bool, error) {
	if slices.Contains(c.path, s) {
		return false, fmt.Errorf("recursive type %s", s.FullName())
	}
	c.path = append(c.path, s)
	defer func() { c.path = c.path[:len(c.path)-1] }()
	empty := true
	for _, f := range s.Fields() {
		e, err := c.check(f.Type())
		if err != nil {
			return false, err
		}
		empty = empty && e
	}
	return empty, nil
}

// avroFitter matches a writer schema to Java's schema field by field name,
// as Java's FieldReaderFactory does: fields Java does not know are ignored,
// optional ones the writer lacks stay nil, required ones must be there, and
// types must be Java's, except that optional values may be written without
// the ["null", T] union and required records within one (Paimon <= 0.8
// wrote nested records that way).
//
// It returns the schema the wire structs are decoded with: the writer's
// without the fields Java does not know, and with optional scalars written
// without a union wrapped in one, because hamba decodes a nullable Go
// pointer only from a union. changed reports that it differs from the
// writer's, so that records must be transcoded to it (see avroReadRecord).
type avroFitter struct {
	changed bool
}

func (f *avroFitter) fit(w, r avro.Schema) (avro.Schema, error) {
	w, r = avroDeref(w), avroDeref(r)
	if value, ok := avroOptionalValue(r); ok {
		return f.optional(w, value)
	}
	if wu, ok := w.(*avro.UnionSchema); ok {
		// A null in it is rejected when the record is converted.
		if _, ok := r.(*avro.RecordSchema); !ok {
			return nil, fmt.Errorf("nullable writer type where %s is required", r.Type())
		}
		return f.union(wu, r)
	}
	return f.value(w, r)
}

// optional fits a writer type to Java's ["null", value].
func (f *avroFitter) optional(w, value avro.Schema) (avro.Schema, error) {
	if wu, ok := w.(*avro.UnionSchema); ok {
		return f.union(wu, value)
	}
	t, err := f.value(w, value)
	if err != nil {
		return nil, err
	}
	// hamba decodes a plain record, array or bytes into the Go pointer or
	// slice that holds the optional value, but not a plain scalar.
	if p, ok := t.(*avro.PrimitiveSchema); !ok || p.Type() == avro.Bytes {
		return t, nil
	}
	f.changed = true
	return avro.NewUnionSchema([]avro.Schema{avro.NewNullSchema(), t})
}

// union fits a writer union, which must be a value and null in either
// order, to Java's value type r.
func (f *avroFitter) union(w *avro.UnionSchema, r avro.Schema) (avro.Schema, error) {
	types := w.Types()
	if len(types) != 2 || !w.Nullable() || types[0].Type() == types[1].Type() {
		return nil, fmt.Errorf("union %s is not of null and one value type", w)
	}
	_, i := w.Indices()
	t, err := f.value(avroDeref(types[i]), r)
	if err != nil {
		return nil, err
	}
	fitted := slices.Clone(types)
	fitted[i] = t
	return avro.NewUnionSchema(fitted)
}

func (f *avroFitter) value(w, r avro.Schema) (avro.Schema, error) {
	switch r := r.(type) {
	case *avro.RecordSchema:
		if w, ok := w.(*avro.RecordSchema); ok {
			return f.record(w, r)
		}
	case *avro.ArraySchema:
		if w, ok := w.(*avro.ArraySchema); ok {
			items, err := f.fit(w.Items(), r.Items())
			if err != nil {
				return nil, err
			}
			return avro.NewArraySchema(items), nil
		}
	case *avro.PrimitiveSchema:
		if w, ok := w.(*avro.PrimitiveSchema); ok && w.Type() == r.Type() && avroLogicalType(w) == avroLogicalType(r) {
			return w, nil
		}
	}
	return nil, fmt.Errorf("writer type %s where %s is expected", avroTypeName(w), avroTypeName(r))
}

func (f *avroFitter) record(w, r *avro.RecordSchema) (avro.Schema, error) {
	fields := make([]*avro.Field, 0, len(w.Fields()))
	for _, wf := range w.Fields() {
		i := slices.IndexFunc(r.Fields(), func(rf *avro.Field) bool { return rf.Name() == wf.Name() })
		if i < 0 {
			f.changed = true
			continue
		}
		t, err := f.fit(wf.Type(), r.Fields()[i].Type())
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", wf.Name(), err)
		}
		field, err := avro.NewField(wf.Name(), t)
		if err != nil {
			return nil, err
		}
		fields = append(fields, field)
	}
	for _, rf := range r.Fields() {
		_, optional := avroOptionalValue(rf.Type())
		if !optional && !slices.ContainsFunc(fields, func(f *avro.Field) bool { return f.Name() == rf.Name() }) {
			return nil, fmt.Errorf("required field %s is missing", rf.Name())
		}
	}
	return avro.NewRecordSchema(w.Name(), w.Namespace(), fields)
}

// avroOptionalValue returns T if s is Java's ["null", T].
func avroOptionalValue(s avro.Schema) (avro.Schema, bool) {
	u, ok := s.(*avro.UnionSchema)
	if !ok || !u.Nullable() {
		return nil, false
	}
	_, i := u.Indices()
	return avroDeref(u.Types()[i]), true
}

func avroDeref(s avro.Schema) avro.Schema {
	if ref, ok := s.(*avro.RefSchema); ok {
		return ref.Schema()
	}
	return s
}

func avroLogicalType(s *avro.PrimitiveSchema) avro.LogicalType {
	if l := s.Logical(); l != nil {
		return l.Type()
	}
	return ""
}

func avroTypeName(s avro.Schema) string {
	if p, ok := s.(*avro.PrimitiveSchema); ok && p.Logical() != nil {
		return string(p.Logical().Type())
	}
	return string(s.Type())
}
