package orcio

import (
	"fmt"
	"sync"

	"github.com/lakesql/lakesql/storage/spec"
)

// RowGroupStats are a column's statistics over one row group of a stripe:
// the rows between two entries of ORC's row index (the writer's
// rowIndexStride rows, 10,000 by default).
type RowGroupStats struct {
	// FirstRow is the group's first row in its stripe.
	FirstRow int64
	// OnlyNulls marks a group whose values are all NULL.
	OnlyNulls bool
	// Min and Max bound the group's values, nil when unknown.
	Min, Max any
}

// RowGroupStats returns the statistics of a top-level column, by name, in
// each row group of stripe i, read as values of type want, from the
// stripe's ROW_INDEX stream (orc.proto's RowIndex). ok is false when the
// file has no row index, the column is missing or nested, or the stripe
// has one row group only. Bounds are read for the types StripeStats
// reads them for; a group without them is unknown.
func (f *File) RowGroupStats(i int, name string, want spec.DataType) (groups []RowGroupStats, ok bool, err error) {
	id, ok := f.topLevelColumn(name)
	stride := int64(f.footer.rowIndexStride)
	if !ok || stride == 0 || i < 0 || i >= len(f.footer.stripes) || int64(f.footer.stripes[i].numberOfRows) <= stride {
		return nil, false, nil
	}
	raw, err := f.rowIndex(i, id)
	if err != nil || raw == nil {
		return nil, false, f.wrap(err)
	}
	rows := int64(f.footer.stripes[i].numberOfRows)
	err = eachField(raw, func(entry protoField) error {
		if entry.num != 1 {
			return nil
		}
		g, err := rowGroupOf(entry.bytes, f.footer.types[id].kind, want)
		g.FirstRow = int64(len(groups)) * stride
		groups = append(groups, g)
		return err
	})
	if err != nil {
		return nil, false, f.wrap(corruptf("stripe %d row index of column %d: %v", i, id, err))
	}
	if want := (rows + stride - 1) / stride; int64(len(groups)) != want {
		return nil, false, f.wrap(corruptf("stripe %d: %d row index entries of column %d for %d rows", i, len(groups), id, rows))
	}
	return groups, true, nil
}

// rowGroupOf reads a RowIndexEntry's statistics (field 2).
func rowGroupOf(entry []byte, k typeKind, want spec.DataType) (RowGroupStats, error) {
	var g RowGroupStats
	err := eachField(entry, func(f protoField) error {
		if f.num != 2 {
			return nil
		}
		cs, err := parseColumnStatistics(f.bytes)
		if err != nil {
			return err
		}
		if cs.hasValues && cs.numberOfValues == 0 {
			g.OnlyNulls = true
			return nil
		}
		if lo, hi, ok := bounds(k, want, cs); ok {
			g.Min, g.Max = lo, hi
		}
		return nil
	})
	return g, err
}

// stripeIndex is a stripe's index section and the index streams in it.
type stripeIndex struct {
	section []byte
	streams map[streamKey][2]uint64 // offset and length in section
}

// rowIndexes caches each stripe's index section, read on the first
// request for one of its row indexes.
type rowIndexes struct {
	mu      sync.Mutex
	stripes map[int]*stripeIndex
}

// rowIndex is the inflated ROW_INDEX stream of column id in stripe i, nil
// when the stripe has none.
func (f *File) rowIndex(i int, id uint32) ([]byte, error) {
	f.indexes.mu.Lock()
	si, ok := f.indexes.stripes[i]
	f.indexes.mu.Unlock()
	if !ok {
		var err error
		if si, err = f.readStripeIndex(i); err != nil {
			return nil, err
		}
		f.indexes.mu.Lock()
		if f.indexes.stripes == nil {
			f.indexes.stripes = map[int]*stripeIndex{}
		}
		f.indexes.stripes[i] = si
		f.indexes.mu.Unlock()
	}
	at, ok := si.streams[streamKey{id, streamRowIndex}]
	if !ok {
		return nil, nil
	}
	return f.inflat.inflate(si.section[at[0]:at[0]+at[1]], maxStreamSize)
}

// readStripeIndex reads stripe i's index section and footer only: the
// index streams come first in the footer's list, laid out from the
// stripe's offset.
func (f *File) readStripeIndex(i int) (*stripeIndex, error) {
	info := f.footer.stripes[i]
	section := make([]byte, info.indexLength)
	if _, err := f.r.ReadAt(section, int64(info.offset)); err != nil {
		return nil, fmt.Errorf("orc: read stripe %d index: %w", i, err)
	}
	footer := make([]byte, info.footerLength)
	if _, err := f.r.ReadAt(footer, int64(info.offset+info.indexLength+info.dataLength)); err != nil {
		return nil, fmt.Errorf("orc: read stripe %d footer: %w", i, err)
	}
	raw, err := f.inflat.inflate(footer, maxTailSize)
	if err != nil {
		return nil, fmt.Errorf("stripe %d footer: %w", i, err)
	}
	sf, err := parseStripeFooter(raw)
	if err != nil {
		return nil, corruptf("stripe %d footer: %v", i, err)
	}
	si := &stripeIndex{section: section, streams: map[streamKey][2]uint64{}}
	var at uint64
	for _, st := range sf.streams {
		if st.length > info.indexLength-at {
			break
		}
		si.streams[streamKey{st.column, st.kind}] = [2]uint64{at, st.length}
		at += st.length
	}
	return si, nil
}
