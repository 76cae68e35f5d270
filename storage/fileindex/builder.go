package fileindex

import (
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Builder collects the indexes of one data file while its rows are
// written (DataFileIndexWriter). It builds bloom filters and bitmaps;
// other declared index types (bsi, range-bitmap, map keys) are left out
// of the file, which readers treat as an index that cannot skip.
type Builder struct {
	indexes []columnIndex
}

// columnIndex builds one index of one column.
type columnIndex interface {
	// column is the position of the indexed column in a row.
	column() int
	add(v any)
	entry() (Entry, error)
}

// bloomBuilder sizes its filter by the distinct values the file holds, at
// most the items option: each file then meets the fpp, and a small file
// gets a small filter, where Java sizes every file for items (one million
// by default, 585 KiB). It keeps the hashes until it knows their number,
// so its memory is at most 16 bytes per item.
type bloomBuilder struct {
	name     string
	position int
	hash     hasher
	fpp      float64
	maxItems int64
	hashes   []uint64
	filter   *bloomFilter
}

// NewBuilder returns a builder for rows of fields, or nil when decls holds
// no index lakesql writes. A declared column missing from fields, or of a
// type its index cannot take, is an error, as in Java.
func NewBuilder(fields []spec.DataField, decls []spec.FileIndexColumn) (*Builder, error) {
	b := &Builder{}
	for _, d := range decls {
		if isNested(d.Column) {
			continue
		}
		var ix columnIndex
		var err error
		switch d.Type {
		case spec.FileIndexBloomFilter:
			ix, err = newBloomBuilder(fields, d)
		case spec.FileIndexBitmap:
			ix, err = newBitmapBuilder(fields, d)
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		b.indexes = append(b.indexes, ix)
	}
	if len(b.indexes) == 0 {
		return nil, nil
	}
	return b, nil
}

// isNested reports a map-key column such as m[k], whose index lakesql
// does not write.
func isNested(column string) bool {
	return len(column) > 0 && column[len(column)-1] == ']' && slices.Contains([]byte(column), '[')
}

// indexedColumn is the position of the column d indexes.
func indexedColumn(fields []spec.DataField, d spec.FileIndexColumn) (int, error) {
	position := slices.IndexFunc(fields, func(f spec.DataField) bool { return f.Name == d.Column })
	if position < 0 {
		return 0, fmt.Errorf("fileindex: %s index on column %q, which the table does not have: %w", d.Type, d.Column, lakeerr.ErrUnsupported)
	}
	return position, nil
}

func newBloomBuilder(fields []spec.DataField, d spec.FileIndexColumn) (*bloomBuilder, error) {
	position, err := indexedColumn(fields, d)
	if err != nil {
		return nil, err
	}
	hash, err := hasherFor(fields[position].Type)
	if err != nil {
		return nil, err
	}
	items, err := d.FileIndexOption(bloomItemsOption, bloomDefaultItems)
	if err != nil {
		return nil, err
	}
	fpp, err := d.FileIndexOption(bloomFPPOption, bloomDefaultFPP)
	if err != nil {
		return nil, err
	}
	if !(fpp > 0 && fpp < 1) || !(items >= 1) {
		return nil, fmt.Errorf("fileindex: bloom filter on %q with items %v and fpp %v: %w", d.Column, items, fpp, lakeerr.ErrUnsupported)
	}
	return &bloomBuilder{name: d.Column, position: position, hash: hash, fpp: fpp, maxItems: int64(items)}, nil
}

// Add indexes one row, laid out as the fields NewBuilder was given.
func (b *Builder) Add(row []any) {
	for _, ix := range b.indexes {
		ix.add(row[ix.column()])
	}
}

func (b *bloomBuilder) column() int { return b.position }

func (b *bloomBuilder) add(v any) {
	if v == nil {
		return
	}
	h, ok := b.hash(v)
	if !ok {
		return
	}
	if b.filter != nil {
		b.filter.add(h)
		return
	}
	b.hashes = append(b.hashes, h)
	if int64(len(b.hashes)) < 2*b.maxItems {
		return
	}
	// Compacting only when twice the items are kept costs O(log n) per
	// value, however many repeat.
	if b.hashes = distinct(b.hashes); int64(len(b.hashes)) > b.maxItems {
		f := newBloomFilter(b.maxItems, b.fpp)
		b.filter = &f
		for _, h := range b.hashes {
			f.add(h)
		}
		b.hashes = nil
	}
}

// distinct sorts hashes and compacts them, in place, to their distinct
// values.
func distinct(hashes []uint64) []uint64 {
	slices.Sort(hashes)
	return slices.Compact(hashes)
}

// Finish returns the container of the file's indexes.
func (b *Builder) Finish() ([]byte, error) {
	entries := make([]Entry, len(b.indexes))
	for i, ix := range b.indexes {
		var err error
		if entries[i], err = ix.entry(); err != nil {
			return nil, err
		}
	}
	return Encode(entries)
}

func (b *bloomBuilder) entry() (Entry, error) {
	return Entry{Column: b.name, Type: spec.FileIndexBloomFilter, Body: b.finish().encode()}, nil
}

func (b *bloomBuilder) finish() bloomFilter {
	if b.filter != nil {
		return *b.filter
	}
	b.hashes = distinct(b.hashes)
	f := newBloomFilter(max(1, int64(len(b.hashes))), b.fpp)
	for _, h := range b.hashes {
		f.add(h)
	}
	return f
}
