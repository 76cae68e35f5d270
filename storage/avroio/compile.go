package avroio

import (
	"fmt"
	"slices"

	"github.com/hamba/avro/v2"
	"github.com/lakesql/lakesql/storage/spec"
)

// Decoding is compiled once per iterator from the writer schema and the
// requested Paimon types, as Java's FieldReaderFactory builds FieldReaders:
// a readFunc per requested value, a skipFunc per value nobody asked for.
// Both consume exactly one value of their writer type from the block.

// state is what decoders share while reading a block: hamba's reader over
// the block's decompressed bytes, and the block's length, which bounds the
// item count an array or map may claim.
type state struct {
	r     *avro.Reader
	limit int64
}

type (
	readFunc func(s *state) any
	skipFunc func(s *state)
)

// fail records a decoding error; the record being read is then corrupt.
func (s *state) fail(what string) { s.r.ReportError("avroio", what) }

// items calls item once for each item of an array or map, block by block.
// It stops at the first error: every item the compiler allows takes at
// least one byte, so a claimed count larger than what is left fails within
// the block's bytes.
func (s *state) items(item func()) {
	for s.r.Error == nil {
		n, _ := s.r.ReadBlockHeader()
		switch {
		case s.r.Error != nil || n == 0:
			return
		case n < 0 || n > s.limit:
			s.fail(fmt.Sprintf("item count %d out of range", n))
			return
		}
		for ; n > 0 && s.r.Error == nil; n-- {
			item()
		}
	}
}

// maxNodes bounds the writer schema nodes one compilation visits: named
// types referenced repeatedly would otherwise expand exponentially. A
// table of a thousand nested columns takes a few thousand.
const maxNodes = 1 << 16

// compiler builds the decoders of one writer schema.
type compiler struct {
	file  string
	nodes int
	// records are the records being compiled, to refuse recursive types,
	// which Java never writes and which would not terminate.
	records []*avro.RecordSchema
}

// recordDecoder reads a record into a row: each writer field in writer
// order, into the position of the column that requested it, or skipped.
type recordDecoder struct {
	steps []fieldStep
	width int
}

type fieldStep struct {
	out  int // -1 to skip
	read readFunc
	skip skipFunc
}

// read decodes one record into row, as wide as the decoder; columns the
// writer lacks are set to nil.
func (d *recordDecoder) read(s *state, row []any) {
	clear(row)
	for _, f := range d.steps {
		if f.out < 0 {
			f.skip(s)
		} else {
			row[f.out] = f.read(s)
		}
	}
}

// record compiles the decoder of the requested fields of a writer record,
// matched by name (Java's RowReader).
func (c *compiler) record(w *avro.RecordSchema, fields []spec.DataField, path string) (*recordDecoder, error) {
	if err := c.enter(w); err != nil {
		return nil, err
	}
	defer c.leave()
	d := &recordDecoder{width: len(fields)}
	for _, wf := range w.Fields() {
		step, err := c.field(wf, fields, path)
		if err != nil {
			return nil, err
		}
		d.steps = append(d.steps, step)
	}
	return d, nil
}

// field compiles the step of one writer field: the reader of the field
// requested by its name, or its skipper.
func (c *compiler) field(wf *avro.Field, fields []spec.DataField, path string) (fieldStep, error) {
	i := slices.IndexFunc(fields, func(f spec.DataField) bool { return f.Name == wf.Name() })
	if i < 0 {
		skip, err := c.skipper(wf.Type())
		return fieldStep{out: -1, skip: skip}, err
	}
	if slices.ContainsFunc(fields[i+1:], func(f spec.DataField) bool { return f.Name == wf.Name() }) {
		return fieldStep{}, fmt.Errorf("avroio: column %s%s requested twice", path, wf.Name())
	}
	read, err := c.value(wf.Type(), fields[i].Type, path+wf.Name())
	return fieldStep{out: i, read: read}, err
}

func (c *compiler) enter(w *avro.RecordSchema) error {
	if slices.Contains(c.records, w) {
		return unsupportedf(c.file, "recursive avro type %s", w.FullName())
	}
	c.records = append(c.records, w)
	return nil
}

func (c *compiler) leave() { c.records = c.records[:len(c.records)-1] }

// visit counts a schema node against maxNodes.
func (c *compiler) visit() error {
	if c.nodes++; c.nodes > maxNodes {
		return unsupportedf(c.file, "writer schema has more than %d nodes", maxNodes)
	}
	return nil
}

// value compiles the reader of a value of writer type w as Paimon type t.
func (c *compiler) value(w avro.Schema, t spec.DataType, path string) (readFunc, error) {
	if err := c.visit(); err != nil {
		return nil, err
	}
	w = deref(w)
	if u, ok := w.(*avro.UnionSchema); ok {
		return c.union(u, t, path)
	}
	read, err := c.nonNull(w, t, path)
	if err == nil && read == nil {
		err = unsupportedf(c.file, "column %s: cannot read avro %s as %s", path, describe(w), t.String())
	}
	return read, err
}

// nonNull compiles the reader of a value that is not a union; nil when
// the writer type cannot hold t.
func (c *compiler) nonNull(w avro.Schema, t spec.DataType, path string) (readFunc, error) {
	switch t.Root {
	case spec.Array:
		return c.array(w, t, path)
	case spec.Map, spec.Multiset:
		return c.mapValue(w, t, path)
	case spec.Row:
		r, ok := w.(*avro.RecordSchema)
		if !ok {
			return nil, nil
		}
		return c.row(r, t, path)
	case spec.Decimal:
		return c.decimal(w, t, path)
	}
	return scalar(w, t), nil
}

// union reads Paimon's nullable values: a union of null and one type, in
// either order (Java writes ["null", T]).
func (c *compiler) union(u *avro.UnionSchema, t spec.DataType, path string) (readFunc, error) {
	if !u.Nullable() {
		return nil, unsupportedf(c.file, "column %s: avro union %s", path, u.String())
	}
	nullIndex, valueIndex := u.Indices()
	read, err := c.value(u.Types()[valueIndex], t, path)
	if err != nil {
		return nil, err
	}
	null, value := int64(nullIndex), int64(valueIndex)
	return func(s *state) any {
		switch s.r.ReadLong() {
		case value:
			return read(s)
		case null:
			return nil
		}
		s.fail("union index out of range")
		return nil
	}, nil
}

func (c *compiler) array(w avro.Schema, t spec.DataType, path string) (readFunc, error) {
	a, ok := w.(*avro.ArraySchema)
	if !ok {
		return nil, nil
	}
	if err := c.nonEmpty(a.Items(), path); err != nil {
		return nil, err
	}
	elem, err := c.value(a.Items(), *t.Element, path+"[]")
	if err != nil {
		return nil, err
	}
	return func(s *state) any {
		out := []any{}
		s.items(func() { out = append(out, elem(s)) })
		return out
	}, nil
}

// nonEmpty refuses array items that can encode to no bytes, where a few
// bytes could claim billions of items. Java never writes them.
func (c *compiler) nonEmpty(items avro.Schema, path string) error {
	empty, err := c.empty(items, nil)
	if err == nil && empty {
		err = unsupportedf(c.file, "column %s: array of avro %s, which encodes to no bytes", path, describe(deref(items)))
	}
	return err
}

// mapValue reads a MAP or MULTISET: an Avro map when the keys are strings,
// else an array of {key, value} records (AvroSchemaConverter). A
// MULTISET maps each element to its INT count.
func (c *compiler) mapValue(w avro.Schema, t spec.DataType, path string) (readFunc, error) {
	key, value := mapTypes(t)
	switch w := w.(type) {
	case *avro.MapSchema:
		if !key.IsString() {
			return nil, nil
		}
		return c.stringMap(w, value, path)
	case *avro.ArraySchema:
		entry, ok := deref(w.Items()).(*avro.RecordSchema)
		if !ok {
			return nil, nil
		}
		return c.entryArray(entry, key, value, path)
	}
	return nil, nil
}

func mapTypes(t spec.DataType) (key, value spec.DataType) {
	if t.Root == spec.Multiset {
		return *t.Element, spec.DataType{Root: spec.Int}
	}
	return *t.Key, *t.Value
}

func (c *compiler) stringMap(w *avro.MapSchema, value spec.DataType, path string) (readFunc, error) {
	val, err := c.value(w.Values(), value, path+"{}")
	if err != nil {
		return nil, err
	}
	return func(s *state) any {
		m := spec.MapValue{Keys: []any{}, Values: []any{}}
		s.items(func() {
			m.Keys = append(m.Keys, s.r.ReadString())
			m.Values = append(m.Values, val(s))
		})
		return m
	}, nil
}

func (c *compiler) entryArray(entry *avro.RecordSchema, key, value spec.DataType, path string) (readFunc, error) {
	if err := c.nonEmpty(entry, path); err != nil {
		return nil, err
	}
	fields := []spec.DataField{{Name: "key", Type: key}, {Name: "value", Type: value}}
	d, err := c.record(entry, fields, path+".")
	if err != nil {
		return nil, err
	}
	return func(s *state) any {
		m := spec.MapValue{Keys: []any{}, Values: []any{}}
		kv := make([]any, 2)
		s.items(func() {
			d.read(s, kv)
			m.Keys, m.Values = append(m.Keys, kv[0]), append(m.Values, kv[1])
		})
		return m
	}, nil
}

func (c *compiler) row(w *avro.RecordSchema, t spec.DataType, path string) (readFunc, error) {
	d, err := c.record(w, t.Fields, path+".")
	if err != nil {
		return nil, err
	}
	return func(s *state) any {
		row := make([]any, d.width)
		d.read(s, row)
		return row
	}, nil
}

// skipper compiles the skipping of a value of writer type w.
func (c *compiler) skipper(w avro.Schema) (skipFunc, error) {
	if err := c.visit(); err != nil {
		return nil, err
	}
	switch w := deref(w).(type) {
	case *avro.NullSchema:
		return func(*state) {}, nil
	case *avro.PrimitiveSchema:
		if skip := skipPrimitive(w.Type()); skip != nil {
			return skip, nil
		}
	case *avro.FixedSchema:
		size := w.Size()
		return func(s *state) { s.r.SkipNBytes(size) }, nil
	case *avro.EnumSchema:
		return func(s *state) { s.r.SkipInt() }, nil
	case *avro.RecordSchema:
		return c.skipRecord(w)
	case *avro.ArraySchema:
		return c.skipArray(w)
	case *avro.MapSchema:
		return c.skipMap(w)
	case *avro.UnionSchema:
		return c.skipUnion(w)
	}
	return nil, unsupportedf(c.file, "avro type %s", w.Type())
}

func skipPrimitive(t avro.Type) skipFunc {
	switch t {
	case avro.Boolean:
		return func(s *state) { s.r.SkipBool() }
	case avro.Int:
		return func(s *state) { s.r.SkipInt() }
	case avro.Long:
		return func(s *state) { s.r.SkipLong() }
	case avro.Float:
		return func(s *state) { s.r.SkipFloat() }
	case avro.Double:
		return func(s *state) { s.r.SkipDouble() }
	case avro.String, avro.Bytes:
		return skipBytes
	}
	return nil
}

// skipBytes skips a string or bytes value; unlike hamba's SkipBytes it
// fails on a negative length rather than reading on from there.
func skipBytes(s *state) {
	switch n := s.r.ReadLong(); {
	case n < 0 || n > s.limit:
		s.fail("invalid length")
	case n > 0:
		s.r.SkipNBytes(int(n))
	}
}

func (c *compiler) skipRecord(w *avro.RecordSchema) (skipFunc, error) {
	if err := c.enter(w); err != nil {
		return nil, err
	}
	defer c.leave()
	skips := make([]skipFunc, len(w.Fields()))
	for i, f := range w.Fields() {
		var err error
		if skips[i], err = c.skipper(f.Type()); err != nil {
			return nil, err
		}
	}
	return func(s *state) {
		for _, skip := range skips {
			skip(s)
		}
	}, nil
}

func (c *compiler) skipArray(w *avro.ArraySchema) (skipFunc, error) {
	if err := c.nonEmpty(w.Items(), "(skipped)"); err != nil {
		return nil, err
	}
	item, err := c.skipper(w.Items())
	if err != nil {
		return nil, err
	}
	return func(s *state) { s.items(func() { item(s) }) }, nil
}

func (c *compiler) skipMap(w *avro.MapSchema) (skipFunc, error) {
	value, err := c.skipper(w.Values())
	if err != nil {
		return nil, err
	}
	return func(s *state) {
		s.items(func() {
			skipBytes(s)
			value(s)
		})
	}, nil
}

func (c *compiler) skipUnion(w *avro.UnionSchema) (skipFunc, error) {
	skips := make([]skipFunc, len(w.Types()))
	for i, t := range w.Types() {
		var err error
		if skips[i], err = c.skipper(t); err != nil {
			return nil, err
		}
	}
	return func(s *state) {
		i := s.r.ReadLong()
		if i < 0 || i >= int64(len(skips)) {
			s.fail("union index out of range")
			return
		}
		skips[i](s)
	}, nil
}

// empty reports whether a value of w can encode to no bytes: only null,
// empty fixed and records of such fields can. records guards against
// recursive types.
func (c *compiler) empty(w avro.Schema, records []*avro.RecordSchema) (bool, error) {
	if err := c.visit(); err != nil {
		return false, err
	}
	switch w := deref(w).(type) {
	case *avro.NullSchema:
		return true, nil
	case *avro.FixedSchema:
		return w.Size() == 0, nil
	case *avro.RecordSchema:
		if slices.Contains(records, w) {
			return false, nil
		}
		for _, f := range w.Fields() {
			if e, err := c.empty(f.Type(), append(records, w)); !e || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	return false, nil
}

func deref(s avro.Schema) avro.Schema {
	if ref, ok := s.(*avro.RefSchema); ok {
		return ref.Schema()
	}
	return s
}

// describe names a writer type in errors: its type and logical type.
func describe(w avro.Schema) string {
	if l, ok := w.(avro.LogicalTypeSchema); ok && l.Logical() != nil {
		return fmt.Sprintf("%s (%s)", w.Type(), l.Logical().Type())
	}
	return string(w.Type())
}
