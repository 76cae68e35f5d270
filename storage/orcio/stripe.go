package orcio

import (
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// stripe is one stripe read into memory: its footer parsed and its
// streams located. Streams are inflated when a column asks for them.
type stripe struct {
	f         *File
	rows      int
	streams   map[streamKey][]byte
	encodings []columnEncoding
	clock     wallClock
}

type streamKey struct {
	column uint32
	kind   streamKind
}

// readStripe reads stripe i: its index and data streams lie from the
// stripe's offset in the order the footer lists them, index streams
// first.
func (f *File) readStripe(i int) (*stripe, error) {
	info := f.footer.stripes[i]
	body := info.indexLength + info.dataLength
	buf := make([]byte, body+info.footerLength)
	if _, err := f.r.ReadAt(buf, int64(info.offset)); err != nil {
		return nil, fmt.Errorf("orc: read stripe %d: %w", i, err)
	}
	raw, err := f.inflat.inflate(buf[body:], maxTailSize)
	if err != nil {
		return nil, fmt.Errorf("stripe %d footer: %w", i, err)
	}
	sf, err := parseStripeFooter(raw)
	if err != nil {
		return nil, corruptf("stripe %d footer: %v", i, err)
	}
	if len(sf.encodings) < len(f.footer.types) {
		return nil, corruptf("stripe %d: %d column encodings for %d columns", i, len(sf.encodings), len(f.footer.types))
	}
	clock, err := newWallClock(sf.writerTimezone)
	if err != nil {
		return nil, err
	}
	s := &stripe{f: f, rows: int(info.numberOfRows), streams: map[streamKey][]byte{}, encodings: sf.encodings, clock: clock}
	var at uint64
	for _, st := range sf.streams {
		if st.length > body-at {
			return nil, corruptf("stripe %d: streams overrun the stripe", i)
		}
		s.streams[streamKey{st.column, st.kind}] = buf[at : at+st.length]
		at += st.length
	}
	return s, nil
}

// stream returns the inflated stream of a column; a stream the writer
// left out (an all-null column's DATA, say) reads as empty.
func (s *stripe) stream(column uint32, kind streamKind) (*stream, error) {
	b, err := s.f.inflat.inflate(s.streams[streamKey{column, kind}], maxStreamSize)
	return &stream{b: b}, err
}

// batchRows is how many rows ReadRows and ReadStripe decode at a time.
const batchRows = 1024

// ReadRows reads every row of the file as the fields of a struct with the
// given fields: each is matched by name with a top-level column, and a
// field the file lacks reads as NULL.
func (f *File) ReadRows(fields []spec.DataField) ([][]any, error) {
	out := make([][]any, 0, min(f.NumRows(), 1<<14))
	for i := range f.footer.stripes {
		rows, err := f.ReadStripe(i, fields)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// ReadStripe reads the rows of stripe i as ReadRows does.
func (f *File) ReadStripe(i int, fields []spec.DataField) ([][]any, error) {
	r, err := f.openStripe(i, fields)
	if err != nil {
		return nil, err
	}
	out := make([][]any, 0, min(r.left, 1<<14))
	for r.left > 0 {
		rows, err := r.next(batchRows)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// stripeRows reads the rows of one stripe a batch at a time.
type stripeRows struct {
	f     *File
	index int
	root  columnReader
	left  int
}

func (f *File) openStripe(i int, fields []spec.DataField) (*stripeRows, error) {
	s, err := f.readStripe(i)
	if err != nil {
		return nil, f.wrap(err)
	}
	root, err := s.newReader(0, spec.DataType{Root: spec.Row, Fields: fields})
	if err != nil {
		return nil, f.wrap(fmt.Errorf("stripe %d: %w", i, err))
	}
	return &stripeRows{f: f, index: i, root: root, left: s.rows}, nil
}

// next decodes the next rows of the stripe, at most n.
func (r *stripeRows) next(n int) ([][]any, error) {
	n = min(n, r.left)
	values, err := r.root.next(n)
	if err != nil {
		return nil, r.f.wrap(fmt.Errorf("stripe %d: %w", r.index, err))
	}
	rows := make([][]any, len(values))
	for j, v := range values {
		row, ok := v.([]any)
		if !ok {
			return nil, r.f.wrap(corruptf("stripe %d: a row is null", r.index))
		}
		rows[j] = row
	}
	r.left -= n
	return rows, nil
}
