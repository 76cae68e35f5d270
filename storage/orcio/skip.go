package orcio

import "fmt"

// Skipping. A read narrowed to some row groups (RowGroupStats) passes
// over the rows between them. ORC's row index could seek each stream to
// a group's first row; instead the streams are read through, as their
// decoders keep their place, but the skipped values are never converted
// or boxed, which is where a read spends its time.

// skipper is a valueReader that can pass over values without producing
// them; readers without it produce them and drop them.
type skipper interface {
	skip(count int) error
}

// skip passes over the column's next n slots.
func (c *nullable) skip(n int) error {
	count := n
	if c.present != nil {
		bits := c.present.next(n)
		if err := c.present.bytes.s.err; err != nil {
			return fmt.Errorf("column %d present: %w", c.id, err)
		}
		if len(bits) != n {
			return corruptf("column %d: %d present bits for %d slots", c.id, len(bits), n)
		}
		count = 0
		for _, p := range bits {
			if p {
				count++
			}
		}
	}
	if s, ok := c.inner.(skipper); ok {
		if err := s.skip(count); err != nil {
			return fmt.Errorf("column %d: %w", c.id, err)
		}
		return nil
	}
	_, err := c.checked(count)
	return err
}

// skipInts passes over count integers of r, checking they were there.
func skipInts(r *runs[int64], count int) error {
	v, err := nextInts(r, count)
	if err == nil && len(v) != count {
		err = corruptf("%d integers for %d values", len(v), count)
	}
	return err
}

func (v boolValues) skip(count int) error {
	if got := len(v.r.next(count)); got != count && v.r.bytes.s.err == nil {
		return corruptf("%d booleans for %d values", got, count)
	}
	return v.r.bytes.s.err
}

func (v byteValues) skip(count int) error {
	if got := len(v.r.next(count)); got != count && v.r.s.err == nil {
		return corruptf("%d bytes for %d values", got, count)
	}
	return v.r.s.err
}

func (v intValues) skip(count int) error  { return skipInts(v.r, count) }
func (v dateValues) skip(count int) error { return skipInts(v.r, count) }

func (v floatValues) skip(count int) error {
	width := 8
	if v.single {
		width = 4
	}
	v.s.bytes(count * width)
	return v.s.err
}

func (v directBytes) skip(count int) error {
	lengths, err := nextInts(v.lengths, count)
	if err != nil {
		return err
	}
	if len(lengths) != count {
		return corruptf("%d lengths for %d values", len(lengths), count)
	}
	for _, n := range lengths {
		if n < 0 || n > int64(len(v.data.b)) {
			return corruptf("value of %d bytes", n)
		}
		v.data.bytes(int(n))
	}
	return v.data.err
}

func (v dictionaryBytes) skip(count int) error { return skipInts(v.index, count) }

func (v timestampValues) skip(count int) error {
	if err := skipInts(v.secs, count); err != nil {
		return err
	}
	return skipInts(v.nanos, count)
}

// skip passes over count structs: each field's reader over count slots.
func (v structValues) skip(count int) error {
	for i, c := range v.children {
		if c == nil {
			continue
		}
		if err := c.skip(count); err != nil {
			return fmt.Errorf("field %s: %w", v.fields[i].Name, err)
		}
	}
	return nil
}

// skip passes over the stripe's next n rows.
func (r *stripeRows) skip(n int) error {
	n = min(n, r.left)
	if err := r.root.skip(n); err != nil {
		return r.f.wrap(fmt.Errorf("stripe %d: %w", r.index, err))
	}
	r.left -= n
	return nil
}
