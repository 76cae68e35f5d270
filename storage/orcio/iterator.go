package orcio

import (
	"io"

	"github.com/lakesql/lakesql/storage/spec"
)

// Stripe is where a stripe's rows lie in the file.
type Stripe struct {
	// FirstRow is the file position of the stripe's first row.
	FirstRow int64
	NumRows  int64
}

// Stripes lists the file's stripes in order.
func (f *File) Stripes() []Stripe {
	out := make([]Stripe, len(f.footer.stripes))
	var at int64
	for i, s := range f.footer.stripes {
		out[i] = Stripe{FirstRow: at, NumRows: int64(s.numberOfRows)}
		at += int64(s.numberOfRows)
	}
	return out
}

// HasField reports whether the root struct has a top-level column name.
func (f *File) HasField(name string) bool {
	for _, n := range f.footer.types[0].fieldNames {
		if n == name {
			return true
		}
	}
	return false
}

// RowRange is rows [From, To) of stripe Stripe, counted from the stripe's
// first row.
type RowRange struct {
	Stripe   int
	From, To int64
}

// RowIterator returns the rows of some ranges of a file, decoding a batch
// at a time.
type RowIterator struct {
	f       *File
	fields  []spec.DataField
	stripes []Stripe
	ranges  []RowRange
	// open reads the stripe of ranges[0], nil before it is opened; at is
	// the stripe's row it returns next.
	open     *stripeRows
	at       int64
	position int64
	err      error
}

// NewRowIterator reads the rows of ranges, in order, as ReadRows reads
// fields. The ranges must lie within the stripes, in ascending order.
func (f *File) NewRowIterator(fields []spec.DataField, ranges []RowRange) (*RowIterator, error) {
	stripes := f.Stripes()
	for i, r := range ranges {
		if r.Stripe < 0 || r.Stripe >= len(stripes) || r.From < 0 || r.From > r.To || r.To > stripes[r.Stripe].NumRows ||
			i > 0 && (r.Stripe < ranges[i-1].Stripe || r.Stripe == ranges[i-1].Stripe && r.From < ranges[i-1].To) {
			return nil, f.wrap(corruptf("row range %+v outside the file's stripes or out of order", r))
		}
	}
	return &RowIterator{f: f, fields: fields, stripes: stripes, ranges: ranges}, nil
}

// Position is the file position of the first row of the last batch; the
// rows of a batch have consecutive positions. Deletion vectors address
// rows by it.
func (it *RowIterator) Position() int64 { return it.position }

// NextBatch fills dst with up to len(dst) rows and returns how many; 0,
// io.EOF after the last.
func (it *RowIterator) NextBatch(dst [][]any) (int, error) {
	if it.err != nil {
		return 0, it.err
	}
	n, err := it.nextBatch(dst)
	if err != nil && err != io.EOF {
		it.err = err
	}
	return n, err
}

func (it *RowIterator) nextBatch(dst [][]any) (int, error) {
	for len(it.ranges) > 0 {
		r := it.ranges[0]
		if it.open == nil || it.open.index != r.Stripe {
			var err error
			if it.open, err = it.f.openStripe(r.Stripe, it.fields); err != nil {
				return 0, err
			}
			it.at = 0
		}
		if err := it.skipTo(r.From); err != nil {
			return 0, err
		}
		if it.at < r.To {
			rows, err := it.open.next(int(min(int64(len(dst)), r.To-it.at, batchRows)))
			if err != nil {
				return 0, err
			}
			it.position = it.stripes[r.Stripe].FirstRow + it.at
			it.at += int64(len(rows))
			return copy(dst, rows), nil
		}
		it.ranges = it.ranges[1:]
	}
	return 0, io.EOF
}

// skipTo passes over the open stripe's rows before row from, decoding
// their streams without producing values (skip.go).
func (it *RowIterator) skipTo(from int64) error {
	if it.at >= from {
		return nil
	}
	if err := it.open.skip(int(from - it.at)); err != nil {
		return err
	}
	it.at = from
	return nil
}

// Close releases the open stripe.
func (it *RowIterator) Close() error {
	it.open, it.ranges = nil, nil
	return nil
}
