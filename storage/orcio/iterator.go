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

// RowIterator returns the rows of some ranges of a file, decoding one
// stripe at a time.
type RowIterator struct {
	f       *File
	fields  []spec.DataField
	stripes []Stripe
	ranges  []RowRange
	// rows is the decoded stripe of ranges[0], nil before it is read.
	rows     [][]any
	at       int64 // next row of ranges[0] within its stripe
	position int64
	err      error
}

// NewRowIterator reads the rows of ranges, in order, as ReadRows reads
// fields. The ranges must lie within the stripes.
func (f *File) NewRowIterator(fields []spec.DataField, ranges []RowRange) (*RowIterator, error) {
	stripes := f.Stripes()
	for _, r := range ranges {
		if r.Stripe < 0 || r.Stripe >= len(stripes) || r.From < 0 || r.From > r.To || r.To > stripes[r.Stripe].NumRows {
			return nil, f.wrap(corruptf("row range %+v outside the file's stripes", r))
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
	for len(it.ranges) > 0 {
		r := it.ranges[0]
		if it.rows == nil {
			if it.rows, it.err = it.f.ReadStripe(r.Stripe, it.fields); it.err != nil {
				return 0, it.err
			}
			it.at = r.From
		}
		if it.at < r.To {
			n := copy(dst, it.rows[it.at:r.To])
			it.position = it.stripes[r.Stripe].FirstRow + it.at
			it.at += int64(n)
			return n, nil
		}
		it.ranges = it.ranges[1:]
		if len(it.ranges) == 0 || it.ranges[0].Stripe != r.Stripe {
			it.rows = nil
		} else {
			it.at = it.ranges[0].From
		}
	}
	return 0, io.EOF
}

// Close releases the decoded stripe.
func (it *RowIterator) Close() error {
	it.rows, it.ranges = nil, nil
	return nil
}
