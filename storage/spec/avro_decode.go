package spec

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Decoding follows Java's FieldReaderFactory: each file is read with the
// writer schema stored in it, and record fields are matched to Go fields by
// name. Unknown fields are skipped, missing optional fields stay nil, and a
// value the writer wrapped in a union with null is accepted wherever a plain
// value is (Paimon <= 0.8 wrapped every nested record that way).
//
// The writer schema is compiled once into a tree of closures that decode
// straight into the Go structs, so no generic map is built per record.

// avroDecodeFn decodes one value written with a particular writer type into
// *dst. Decoding in place keeps large structs from being copied or moved to
// the heap per record.
type avroDecodeFn[V any] func(r *avroReader, dst *V) error

// avroCompiler builds the decoder of a Go value for a writer type, or fails
// when that writer type cannot hold the value.
type avroCompiler[V any] func(t *avroType) (avroDecodeFn[V], error)

// avroFieldSpec maps the record field called name onto the Go struct T.
type avroFieldSpec[T any] struct {
	name     string
	required bool
	compile  func(t *avroType) (avroDecodeFn[T], error)
}

var errAvroNull = fmt.Errorf("avro: null in a required field: %w", lakeerr.ErrCorruption)

func avroTypeError(t *avroType, want string) error {
	return fmt.Errorf("writer type %s where %s is expected", avroKindNames[t.kind], want)
}

func avroIntValue(t *avroType) (avroDecodeFn[int32], error) {
	if t.kind != avroInt {
		return nil, avroTypeError(t, "int")
	}
	return func(r *avroReader, dst *int32) (err error) {
		*dst, err = r.int()
		return err
	}, nil
}

// avroLongValue also reads int, which Avro promotes to long.
func avroLongValue(t *avroType) (avroDecodeFn[int64], error) {
	switch t.kind {
	case avroLong:
		return func(r *avroReader, dst *int64) (err error) {
			*dst, err = r.long()
			return err
		}, nil
	case avroInt:
		return func(r *avroReader, dst *int64) error {
			v, err := r.int()
			*dst = int64(v)
			return err
		}, nil
	}
	return nil, avroTypeError(t, "long")
}

// avroStringValue also reads bytes, which Avro promotes to string.
func avroStringValue(t *avroType) (avroDecodeFn[string], error) {
	if t.kind != avroString && t.kind != avroBytes {
		return nil, avroTypeError(t, "string")
	}
	return func(r *avroReader, dst *string) (err error) {
		*dst, err = r.string()
		return err
	}, nil
}

// avroBytesValue returns slices of the decompressed block; an empty value is
// a non-nil empty slice so that it stays distinct from null.
func avroBytesValue(t *avroType) (avroDecodeFn[[]byte], error) {
	if t.kind != avroBytes && t.kind != avroString {
		return nil, avroTypeError(t, "bytes")
	}
	return func(r *avroReader, dst *[]byte) (err error) {
		*dst, err = r.bytes()
		return err
	}, nil
}

// avroTimestampValue reads a timestamp-millis long (Java's TIMESTAMP(3)) as
// a UTC time.Time.
func avroTimestampValue(t *avroType) (avroDecodeFn[time.Time], error) {
	if t.kind != avroLong || t.logical != "timestamp-millis" {
		return nil, avroTypeError(t, "timestamp-millis")
	}
	return func(r *avroReader, dst *time.Time) error {
		v, err := r.long()
		*dst = time.UnixMilli(v).UTC()
		return err
	}, nil
}

// avroArrayValue decodes an array; an empty array is a non-nil empty slice
// so that it stays distinct from null.
func avroArrayValue[V any](elem avroCompiler[V]) avroCompiler[[]V] {
	return func(t *avroType) (avroDecodeFn[[]V], error) {
		if t.kind != avroArray {
			return nil, avroTypeError(t, "array")
		}
		dec, err := elem(t.items)
		if err != nil {
			return nil, err
		}
		return func(r *avroReader, dst *[]V) error {
			out := []V{}
			for {
				n, err := r.blockCount()
				if err != nil || n == 0 {
					*dst = out
					return err
				}
				out = slices.Grow(out, n)
				for range n {
					out = out[:len(out)+1]
					if err := dec(r, &out[len(out)-1]); err != nil {
						return err
					}
				}
			}
		}, nil
	}
}

// avroNullable decodes a value the writer may have wrapped in a union with
// null; null leaves the zero V (nil for pointers and slices).
func avroNullable[V any](c avroCompiler[V]) avroCompiler[V] { return avroUnwrap(c, true) }

// avroRequired decodes a value the writer may have wrapped in a union with
// null, and rejects null.
func avroRequired[V any](c avroCompiler[V]) avroCompiler[V] { return avroUnwrap(c, false) }

func avroUnwrap[V any](c avroCompiler[V], allowNull bool) avroCompiler[V] {
	return func(t *avroType) (avroDecodeFn[V], error) {
		shape, err := avroOptionalShapeOf(t)
		if err != nil {
			return nil, err
		}
		dec, err := c(shape.value)
		if err != nil || !shape.union {
			return dec, err
		}
		return func(r *avroReader, dst *V) error {
			isNull, err := shape.readIsNull(r)
			switch {
			case err != nil:
				return err
			case !isNull:
				return dec(r, dst)
			case !allowNull:
				return errAvroNull
			}
			var zero V
			*dst = zero
			return nil
		}, nil
	}
}

// avroPointer turns a decoder of V into one of *V, for optional scalars and
// records.
func avroPointer[V any](c avroCompiler[V]) avroCompiler[*V] {
	return func(t *avroType) (avroDecodeFn[*V], error) {
		dec, err := c(t)
		if err != nil {
			return nil, err
		}
		return func(r *avroReader, dst **V) error {
			*dst = new(V)
			return dec(r, *dst)
		}, nil
	}
}

// avroOptionalShape is how a writer type holds a possibly-null value: either
// directly, or as a union of null and exactly one value type.
type avroOptionalShape struct {
	value      *avroType
	union      bool
	nullIndex  int64 // -1 if the union has no null branch
	valueIndex int64
}

func avroOptionalShapeOf(t *avroType) (avroOptionalShape, error) {
	if t.kind != avroUnion {
		return avroOptionalShape{value: t}, nil
	}
	shape := avroOptionalShape{union: true, nullIndex: -1, valueIndex: -1}
	for i, b := range t.branches {
		switch {
		case b.kind == avroNull && shape.nullIndex < 0:
			shape.nullIndex = int64(i)
		case b.kind != avroNull && shape.value == nil:
			shape.value, shape.valueIndex = b, int64(i)
		default:
			return shape, fmt.Errorf("unsupported union of %d branches", len(t.branches))
		}
	}
	if shape.value == nil {
		return shape, fmt.Errorf("union without a value branch")
	}
	return shape, nil
}

// readIsNull reads a union branch index and reports whether it is null.
func (s avroOptionalShape) readIsNull(r *avroReader) (bool, error) {
	idx, err := r.long()
	switch {
	case err != nil:
		return false, err
	case idx == s.valueIndex:
		return false, nil
	case idx == s.nullIndex:
		return true, nil
	}
	return false, fmt.Errorf("avro: union branch %d out of range: %w", idx, lakeerr.ErrCorruption)
}

// readPresent reads the branch index if the writer type is a union, and
// reports whether a value follows.
func (s avroOptionalShape) readPresent(r *avroReader) (bool, error) {
	if !s.union {
		return true, nil
	}
	isNull, err := s.readIsNull(r)
	return !isNull, err
}

// avroRequiredField maps a field that must be present in the writer schema
// and must not be null; field returns where in T the value goes.
func avroRequiredField[T, V any](name string, c avroCompiler[V], field func(*T) *V) avroFieldSpec[T] {
	return avroFieldSpec[T]{name: name, required: true, compile: avroFieldDecoder(name, avroRequired(c), field)}
}

// avroOptionalField maps a field that older writers omit or write as null.
func avroOptionalField[T, V any](name string, c avroCompiler[V], field func(*T) *V) avroFieldSpec[T] {
	return avroFieldSpec[T]{name: name, compile: avroFieldDecoder(name, avroNullable(c), field)}
}

func avroFieldDecoder[T, V any](name string, c avroCompiler[V], field func(*T) *V) func(*avroType) (avroDecodeFn[T], error) {
	return func(t *avroType) (avroDecodeFn[T], error) {
		dec, err := c(t)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", name, err)
		}
		return func(r *avroReader, dst *T) error {
			if err := dec(r, field(dst)); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		}, nil
	}
}

// avroRecordValue decodes a record into T by field name.
func avroRecordValue[T any](specs []avroFieldSpec[T]) avroCompiler[T] {
	return func(t *avroType) (avroDecodeFn[T], error) {
		steps, err := avroRecordSteps(t, specs)
		if err != nil {
			return nil, err
		}
		return func(r *avroReader, dst *T) error {
			for _, step := range steps {
				if err := step(r, dst); err != nil {
					return err
				}
			}
			return nil
		}, nil
	}
}

// avroRecordSteps compiles one step per writer field, in writer order.
func avroRecordSteps[T any](t *avroType, specs []avroFieldSpec[T]) ([]avroDecodeFn[T], error) {
	if t.kind != avroRecord {
		return nil, avroTypeError(t, "record")
	}
	steps := make([]avroDecodeFn[T], 0, len(t.fields))
	found := make([]bool, len(specs))
	for _, f := range t.fields {
		i := slices.IndexFunc(specs, func(s avroFieldSpec[T]) bool { return s.name == f.name })
		if i < 0 {
			skip := avroSkipper(f.typ)
			steps = append(steps, func(r *avroReader, _ *T) error { return skip(r) })
			continue
		}
		step, err := specs[i].compile(f.typ)
		if err != nil {
			return nil, err
		}
		found[i] = true
		steps = append(steps, step)
	}
	for i, s := range specs {
		if s.required && !found[i] {
			return nil, fmt.Errorf("required field %s is missing", s.name)
		}
	}
	return steps, nil
}

// avroSkipper returns a function that reads past one value of type t.
func avroSkipper(t *avroType) func(r *avroReader) error {
	switch t.kind {
	case avroBoolean:
		return avroSkipFixed(1)
	case avroFloat:
		return avroSkipFixed(4)
	case avroDouble:
		return avroSkipFixed(8)
	case avroFixed:
		return avroSkipFixed(t.size)
	case avroInt, avroLong, avroEnum:
		return func(r *avroReader) error { _, err := r.long(); return err }
	case avroBytes, avroString:
		return func(r *avroReader) error { _, err := r.bytes(); return err }
	case avroRecord:
		return avroSkipRecord(t)
	case avroArray, avroMap:
		return avroSkipItems(t)
	case avroUnion:
		return avroSkipUnion(t)
	}
	return func(*avroReader) error { return nil } // null
}

func avroSkipFixed(n int) func(r *avroReader) error {
	return func(r *avroReader) error { _, err := r.take(int64(n)); return err }
}

func avroSkipRecord(t *avroType) func(r *avroReader) error {
	fields := make([]func(*avroReader) error, len(t.fields))
	for i, f := range t.fields {
		fields[i] = avroSkipper(f.typ)
	}
	return func(r *avroReader) error {
		for _, skip := range fields {
			if err := skip(r); err != nil {
				return err
			}
		}
		return nil
	}
}

func avroSkipItems(t *avroType) func(r *avroReader) error {
	if t.kind == avroArray && t.items.empty {
		return (*avroReader).skipBlockCounts
	}
	value := avroSkipper(t.items)
	isMap := t.kind == avroMap
	return func(r *avroReader) error {
		return r.items(func() error {
			if isMap {
				if _, err := r.bytes(); err != nil {
					return err
				}
			}
			return value(r)
		})
	}
}

func avroSkipUnion(t *avroType) func(r *avroReader) error {
	branches := make([]func(*avroReader) error, len(t.branches))
	for i, b := range t.branches {
		branches[i] = avroSkipper(b)
	}
	return func(r *avroReader) error {
		idx, err := r.long()
		if err != nil {
			return err
		}
		if idx < 0 || idx >= int64(len(branches)) {
			return fmt.Errorf("avro: union branch %d out of range: %w", idx, lakeerr.ErrCorruption)
		}
		return branches[idx](r)
	}
}

// avroVersionField checks the _VERSION every Paimon manifest record starts
// with (VersionedObjectSerializer / ManifestSchemaUtils). Every Paimon
// version wrote it as a plain int.
func avroVersionField[T any](want int32) avroFieldSpec[T] {
	compile := func(t *avroType) (avroDecodeFn[T], error) {
		if t.kind != avroInt {
			return nil, fmt.Errorf("field _VERSION: %w", avroTypeError(t, "int"))
		}
		return func(r *avroReader, _ *T) error {
			v, err := r.int()
			if err == nil && v != want {
				err = fmt.Errorf("unsupported _VERSION %d (want %d): %w", v, want, lakeerr.ErrCorruption)
			}
			return err
		}, nil
	}
	return avroFieldSpec[T]{name: "_VERSION", required: true, compile: compile}
}

// avroMaxCachedPlans bounds the plan cache; real tables have a handful of
// writer schemas, and hostile files must not grow memory without bound.
const avroMaxCachedPlans = 64

// avroFileDecoder decodes container files of records of type T, caching the
// compiled decoder per writer schema text.
type avroFileDecoder[T any] struct {
	top   avroCompiler[T]
	mu    sync.Mutex
	plans map[string]avroDecodeFn[T]
}

func newAvroFileDecoder[T any](specs []avroFieldSpec[T]) *avroFileDecoder[T] {
	// Paimon <= 0.8 wrote the top-level schema as ["null", record].
	return &avroFileDecoder[T]{top: avroRequired(avroRecordValue(specs)), plans: map[string]avroDecodeFn[T]{}}
}

func (d *avroFileDecoder[T]) plan(schema []byte) (avroDecodeFn[T], error) {
	d.mu.Lock()
	dec, ok := d.plans[string(schema)]
	d.mu.Unlock()
	if ok {
		return dec, nil
	}
	t, err := parseAvroSchema(schema)
	if err != nil {
		return nil, err
	}
	if dec, err = d.top(t); err != nil {
		return nil, fmt.Errorf("writer schema: %w: %w", err, lakeerr.ErrCorruption)
	}
	d.mu.Lock()
	if len(d.plans) < avroMaxCachedPlans {
		d.plans[string(schema)] = dec
	}
	d.mu.Unlock()
	return dec, nil
}

// avroMinRecordInput caps the records allocated ahead of decoding at one
// per this many input bytes. Real manifests compress to tens of bytes per
// record (every file name is a UUID), and the cap keeps a forged block count
// from making the decoder allocate far more than the input justifies; past
// it the result simply grows.
const avroMinRecordInput = 8

// decode returns every record of the container file data, decoded in place
// into a result sized once from the block headers.
func (d *avroFileDecoder[T]) decode(data []byte) ([]T, error) {
	c, err := avroOpenContainer(data)
	if err != nil {
		return nil, err
	}
	dec, err := d.plan(c.schema)
	if err != nil {
		return nil, err
	}
	var out []T
	if n := min(c.recordCount(), len(data)/avroMinRecordInput); n > 0 {
		out = make([]T, 0, n)
	}
	for {
		count, block, err := c.nextBlock()
		if err != nil {
			return nil, err
		}
		if count == 0 {
			return out, nil
		}
		if out, err = avroDecodeBlock(dec, out, count, block); err != nil {
			return nil, err
		}
	}
}

// avroDecodeBlock appends the count records of one block to out.
func avroDecodeBlock[T any](dec avroDecodeFn[T], out []T, count int, block []byte) ([]T, error) {
	r := avroReader{buf: block}
	var zero T
	for range count {
		out = append(out, zero)
		if err := dec(&r, &out[len(out)-1]); err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out)-1, err)
		}
	}
	if r.remaining() != 0 {
		return nil, fmt.Errorf("avro: %d trailing bytes in block: %w", r.remaining(), lakeerr.ErrCorruption)
	}
	return out, nil
}
