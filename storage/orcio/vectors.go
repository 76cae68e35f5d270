package orcio

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
)

// VectorIterator decodes batches of rows of top-level primitive columns
// into typed vectors, without boxing a value: the columnar twin of
// RowIterator, which the aggregates of storage/table read as they read
// Parquet's. It is not safe for concurrent use.
type VectorIterator struct {
	f      *File
	fields []spec.DataField
	// layout is the file's stripes; stripes are those left to read.
	layout   []Stripe
	stripes  []int
	open     *stripeVectors
	out      []*vector.Vector
	position int64
}

// CanVectorize reports whether NewVectorIterator reads the top-level
// column name as values of type want: a column the file lacks (all NULL),
// or one whose ORC type holds exactly that type: TINYINT, SMALLINT, INT
// and BIGINT from the integer of their width, DATE, FLOAT, DOUBLE,
// BOOLEAN, strings from strings and binaries from binaries.
func (f *File) CanVectorize(name string, want spec.DataType) bool {
	if _, ok := vector.KindOf(want); !ok {
		return false
	}
	id, ok := f.topLevelColumn(name)
	if !ok {
		return true
	}
	kind := f.footer.types[id].kind
	switch kind {
	case kindString, kindVarchar, kindChar:
		return want.IsString()
	case kindBinary:
		return want.Root == spec.Binary || want.Root == spec.VarBinary
	}
	root, ok := vectorRoots[kind]
	return ok && want.Root == root
}

// vectorRoots is the one type each other vectorized ORC kind is read as.
var vectorRoots = map[typeKind]spec.TypeRoot{
	kindByte: spec.TinyInt, kindShort: spec.SmallInt, kindInt: spec.Int, kindLong: spec.BigInt,
	kindDate: spec.Date, kindFloat: spec.Float, kindDouble: spec.Double, kindBoolean: spec.Boolean,
}

// NewVectorIterator reads the given columns, each of which must pass
// CanVectorize, from the given stripes in order; positions are file
// positions.
func (f *File) NewVectorIterator(fields []spec.DataField, stripes []int) (*VectorIterator, error) {
	for _, s := range stripes {
		if s < 0 || s >= len(f.footer.stripes) {
			return nil, f.wrap(corruptf("stripe %d of %d", s, len(f.footer.stripes)))
		}
	}
	it := &VectorIterator{f: f, fields: fields, layout: f.Stripes(), stripes: stripes, out: make([]*vector.Vector, len(fields))}
	for i, field := range fields {
		if !f.CanVectorize(field.Name, field.Type) {
			return nil, f.wrap(fmt.Errorf("column %s: cannot decode as a %s vector: %w", field.Name, field.Type, errUnsupported))
		}
		it.out[i] = vector.New(field.Type)
	}
	return it, nil
}

// Position is the file position of the first row of the last batch.
func (it *VectorIterator) Position() int64 { return it.position }

// Next decodes up to maxRows rows and returns one vector per column, valid
// until the next call; fewer rows at the end of a stripe, and 0, io.EOF
// after the last.
func (it *VectorIterator) Next(maxRows int) ([]*vector.Vector, int, error) {
	for it.open == nil || it.open.left == 0 {
		if len(it.stripes) == 0 {
			return nil, 0, io.EOF
		}
		var err error
		if it.open, err = it.f.openStripeVectors(it.stripes[0], it.fields); err != nil {
			return nil, 0, err
		}
		it.stripes = it.stripes[1:]
	}
	s := it.open
	n := min(maxRows, s.left)
	it.position = it.layout[s.index].FirstRow + int64(s.rows-s.left)
	for i, c := range s.columns {
		it.out[i].Reset(n)
		if err := c.decode(it.out[i], n); err != nil {
			return nil, 0, it.f.wrap(fmt.Errorf("stripe %d: %w", s.index, err))
		}
	}
	s.left -= n
	return it.out, n, nil
}

// Close releases the open stripe.
func (it *VectorIterator) Close() error {
	it.open, it.stripes = nil, nil
	return nil
}

// stripeVectors decodes one stripe's columns into vectors.
type stripeVectors struct {
	index, rows, left int
	columns           []vectorColumn
}

// vectorColumn decodes a column's slots: NULLs from its PRESENT bits,
// values by kind; a column the file lacks is all NULL.
type vectorColumn struct {
	id      uint32
	missing bool
	present *bools
	values  func(v *vector.Vector, slots []int) error
}

func (f *File) openStripeVectors(i int, fields []spec.DataField) (*stripeVectors, error) {
	s, err := f.readStripe(i)
	if err != nil {
		return nil, f.wrap(err)
	}
	out := &stripeVectors{index: i, rows: s.rows, left: s.rows, columns: make([]vectorColumn, len(fields))}
	for c, field := range fields {
		id, ok := f.topLevelColumn(field.Name)
		if !ok {
			out.columns[c].missing = true
			continue
		}
		if out.columns[c], err = s.vectorColumn(id); err != nil {
			return nil, f.wrap(fmt.Errorf("stripe %d column %d: %w", i, id, err))
		}
	}
	return out, nil
}

func (s *stripe) vectorColumn(id uint32) (vectorColumn, error) {
	c := vectorColumn{id: id}
	if _, ok := s.streams[streamKey{id, streamPresent}]; ok {
		st, err := s.stream(id, streamPresent)
		if err != nil {
			return c, err
		}
		c.present = &bools{bytes: byteRuns(st)}
	}
	var err error
	switch kind := s.f.footer.types[id].kind; kind {
	case kindByte:
		st, err := s.stream(id, streamData)
		r := byteRuns(st)
		c.values = func(v *vector.Vector, slots []int) error {
			b := r.next(len(slots))
			for i, slot := range slots {
				v.Int32[slot] = int32(int8(b[i]))
			}
			return countOf(len(b), len(slots), r.s.err)
		}
		return c, err
	case kindShort, kindInt, kindLong, kindDate:
		r, err := s.ints(id, streamData, true)
		c.values = func(v *vector.Vector, slots []int) error { return putInts(v, slots, r, kind) }
		return c, err
	case kindFloat, kindDouble:
		st, err := s.stream(id, streamData)
		c.values = func(v *vector.Vector, slots []int) error { return putFloats(v, slots, st, kind == kindFloat) }
		return c, err
	case kindBoolean:
		st, err := s.stream(id, streamData)
		r := &bools{bytes: byteRuns(st)}
		c.values = func(v *vector.Vector, slots []int) error {
			b := r.next(len(slots))
			for i, slot := range slots {
				v.Bool[slot] = b[i]
			}
			return countOf(len(b), len(slots), r.bytes.s.err)
		}
		return c, err
	}
	c.values, err = s.bytesColumn(id)
	return c, err
}

// decode fills v's n slots.
func (c *vectorColumn) decode(v *vector.Vector, n int) error {
	if c.missing {
		for j := range n {
			v.SetNull(j)
		}
		fillOffsets(v, n)
		return nil
	}
	slots := make([]int, 0, n)
	if c.present == nil {
		for j := range n {
			slots = append(slots, j)
		}
	} else {
		bits := c.present.next(n)
		if err := c.present.bytes.s.err; err != nil {
			return fmt.Errorf("column %d present: %w", c.id, err)
		}
		if len(bits) != n {
			return corruptf("column %d: %d present bits for %d slots", c.id, len(bits), n)
		}
		for j, p := range bits {
			if p {
				slots = append(slots, j)
			} else {
				v.SetNull(j)
			}
		}
	}
	if err := c.values(v, slots); err != nil {
		return fmt.Errorf("column %d: %w", c.id, err)
	}
	fillOffsets(v, n)
	return nil
}

// fillOffsets gives the NULL slots of a Bytes vector an empty value, in
// slot order: the value decoders set the end offsets of the slots they
// fill only.
func fillOffsets(v *vector.Vector, n int) {
	if v.Kind != vector.Bytes {
		return
	}
	for j := range n {
		if v.IsNull(j) {
			v.Offsets[j+1] = v.Offsets[j]
		}
	}
}

func countOf(got, want int, err error) error {
	if err == nil && got != want {
		err = corruptf("%d values for %d present slots", got, want)
	}
	return err
}

// putInts reads the values of an integer or DATE column into its slots.
func putInts(v *vector.Vector, slots []int, r *runs[int64], kind typeKind) error {
	ints, err := nextInts(r, len(slots))
	if err := countOf(len(ints), len(slots), err); err != nil {
		return err
	}
	for i, slot := range slots {
		x := ints[i]
		switch {
		case kind == kindLong:
			v.Int64[slot] = x
		case kind == kindDate && (x < math.MinInt32 || x > math.MaxInt32):
			return corruptf("date of %d days", x)
		default:
			v.Int32[slot] = int32(x)
		}
	}
	return nil
}

// putFloats reads little-endian IEEE 754 values into their slots.
func putFloats(v *vector.Vector, slots []int, st *stream, single bool) error {
	width := 8
	if single {
		width = 4
	}
	raw := st.bytes(len(slots) * width)
	if st.err != nil {
		return st.err
	}
	for i, slot := range slots {
		b := raw[i*width:]
		if single {
			v.Float32[slot] = math.Float32frombits(binary.LittleEndian.Uint32(b))
		} else {
			v.Float64[slot] = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
	}
	return nil
}

// bytesColumn reads strings and binaries, direct or by dictionary (see
// bytesReader), into the slots of a Bytes vector, in slot order.
func (s *stripe) bytesColumn(id uint32) (func(*vector.Vector, []int) error, error) {
	r, err := s.bytesReader(id, true)
	if err != nil {
		return nil, err
	}
	switch r := r.(type) {
	case directBytes:
		return func(v *vector.Vector, slots []int) error {
			n, err := nextInts(r.lengths, len(slots))
			if err := countOf(len(n), len(slots), err); err != nil {
				return err
			}
			for i, slot := range slots {
				if n[i] < 0 || n[i] > int64(len(r.data.b)) {
					return corruptf("value of %d bytes", n[i])
				}
				putBytes(v, slot, r.data.bytes(int(n[i])))
			}
			return r.data.err
		}, nil
	case dictionaryBytes:
		return func(v *vector.Vector, slots []int) error {
			x, err := nextInts(r.index, len(slots))
			if err := countOf(len(x), len(slots), err); err != nil {
				return err
			}
			for i, slot := range slots {
				if x[i] < 0 || x[i] >= int64(len(r.entries)) {
					return corruptf("dictionary index %d of %d entries", x[i], len(r.entries))
				}
				putBytes(v, slot, r.entries[x[i]].([]byte))
			}
			return nil
		}, nil
	}
	return nil, fmt.Errorf("column %d: a %T: %w", id, r, errUnsupported)
}

// putBytes appends value b for slot; fillOffsets then closes the NULL
// slots between the filled ones.
func putBytes(v *vector.Vector, slot int, b []byte) {
	v.Data = append(v.Data, b...)
	v.Offsets[slot+1] = uint32(len(v.Data))
}
