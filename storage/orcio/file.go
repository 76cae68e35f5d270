// Package orcio reads Apache ORC files
// (https://orc.apache.org/specification/ORCv1/), the format Paimon's
// manifest.format = orc writes manifests in and Paimon's file.format = orc
// (its default before Parquet) writes data files in.
//
// A file is a header "ORC", stripes of column streams, a footer and a
// PostScript; the PostScript's length is the last byte. Rows come out in
// the in-memory form of package spec (see spec/values.go), so they pass to
// the rest of storage like rows of the Parquet and Avro readers.
package orcio

import (
	"errors"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// errUnsupported wraps lakeerr.ErrUnsupported for valid files using a
// feature the reader lacks (LZO compression, union types).
var errUnsupported = fmt.Errorf("orc: %w", lakeerr.ErrUnsupported)

func corruptf(format string, args ...any) error {
	return fmt.Errorf("orc: %s: %w", fmt.Sprintf(format, args...), lakeerr.ErrCorruption)
}

const (
	magic = "ORC"
	// maxTailSize bounds the PostScript's footer and metadata lengths;
	// footers of thousands of columns and stripes are a few MiB.
	maxTailSize = 64 << 20
	// maxStreamSize bounds one uncompressed stream of a stripe, so that a
	// hostile file cannot expand into gigabytes: Java's stripes are about
	// 64 MiB (orc.stripe.size) before compression.
	maxStreamSize = 256 << 20
	// maxStripeValues bounds the rows of a stripe and the elements of the
	// lists or maps of one batch, which run-length encoding lets a few
	// bytes declare.
	maxStripeValues = 1 << 24
	// maxNesting bounds how deep types nest, and so the readers'
	// recursion.
	maxNesting = 64
)

// File is an opened ORC file: its tail is parsed and checked, its stripes
// are read on demand.
type File struct {
	name   string
	r      io.ReaderAt
	size   int64
	inflat decompressor
	footer footer
	// metadata locates the Metadata section (the stripes' statistics),
	// read on the first request for them.
	metadataOffset, metadataLength int64
	stats                          stripeStatistics
	indexes                        rowIndexes
}

// Open reads and checks the tail of the ORC file of size bytes behind r;
// name labels its errors.
func Open(r io.ReaderAt, size int64, name string) (*File, error) {
	f, err := open(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f.name = name
	return f, nil
}

func open(r io.ReaderAt, size int64) (*File, error) {
	if size < int64(len(magic))+1 {
		return nil, corruptf("file of %d bytes", size)
	}
	tailSize := min(size, 16<<10)
	tail := make([]byte, tailSize)
	if _, err := r.ReadAt(tail, size-tailSize); err != nil {
		return nil, fmt.Errorf("orc: read tail: %w", err)
	}
	psLen := int64(tail[len(tail)-1])
	if psLen+1 > tailSize {
		return nil, corruptf("postscript of %d bytes", psLen)
	}
	ps, err := parsePostScript(tail[tailSize-1-psLen : tailSize-1])
	if err != nil || ps.magic != magic {
		return nil, corruptf("not an ORC postscript")
	}
	if ps.footerLength > maxTailSize || int64(ps.footerLength)+psLen+1 > size {
		return nil, corruptf("footer of %d bytes in a file of %d", ps.footerLength, size)
	}
	inflat, err := newDecompressor(ps)
	if err != nil {
		return nil, err
	}
	raw, err := readRange(r, tail, size, size-1-psLen-int64(ps.footerLength), int64(ps.footerLength))
	if err != nil {
		return nil, err
	}
	body, err := inflat.inflate(raw, maxTailSize)
	if err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	ft, err := parseFooter(body)
	if err != nil {
		return nil, corruptf("footer: %v", err)
	}
	f := &File{r: r, size: size, inflat: inflat, footer: ft}
	f.metadataLength = int64(min(ps.metadataLength, maxTailSize))
	f.metadataOffset = size - 1 - psLen - int64(ps.footerLength) - f.metadataLength
	return f, f.check()
}

// readRange returns n bytes at off, from tail (the file's last bytes) when
// it holds them.
func readRange(r io.ReaderAt, tail []byte, size, off, n int64) ([]byte, error) {
	if tailStart := size - int64(len(tail)); off >= tailStart {
		return tail[off-tailStart : off-tailStart+n], nil
	}
	b := make([]byte, n)
	if _, err := r.ReadAt(b, off); err != nil {
		return nil, fmt.Errorf("orc: read at %d: %w", off, err)
	}
	return b, nil
}

// check verifies the type tree and stripe layout the readers rely on:
// column 0 is a struct, every subtype id points forward and has one
// parent (so the types form a tree, decoded once per column), nesting is
// bounded, struct field names match its subtypes, and stripes lie inside
// the file.
func (f *File) check() error {
	types := f.footer.types
	if len(types) == 0 || types[0].kind != kindStruct {
		return corruptf("the root type is not a struct")
	}
	depth := make([]int, len(types))
	parented := make([]bool, len(types))
	for id, t := range types {
		for _, sub := range t.subtypes {
			if int(sub) <= id || int(sub) >= len(types) || parented[sub] {
				return corruptf("type %d has subtype %d", id, sub)
			}
			parented[sub] = true
			if depth[sub] = depth[id] + 1; depth[sub] > maxNesting {
				return corruptf("types nested deeper than %d", maxNesting)
			}
		}
		if t.kind == kindStruct && len(t.fieldNames) != len(t.subtypes) {
			return corruptf("struct type %d: %d names for %d fields", id, len(t.fieldNames), len(t.subtypes))
		}
		if want := childCount(t.kind); want >= 0 && len(t.subtypes) != want {
			return corruptf("%s type %d with %d subtypes", t.kind, id, len(t.subtypes))
		}
	}
	var rows uint64
	for i, s := range f.footer.stripes {
		end := s.offset + s.indexLength + s.dataLength + s.footerLength
		if end < s.offset || end > uint64(f.size) || s.footerLength > maxTailSize {
			return corruptf("stripe %d lies outside the file", i)
		}
		if s.numberOfRows > maxStripeValues {
			return fmt.Errorf("stripe %d of %d rows, more than %d: %w", i, s.numberOfRows, maxStripeValues, errUnsupported)
		}
		rows += s.numberOfRows
	}
	if rows != f.footer.numberOfRows {
		return corruptf("stripes hold %d rows, the footer says %d", rows, f.footer.numberOfRows)
	}
	return nil
}

// childCount is the number of subtypes a kind has, -1 for structs and
// unions, whose count varies.
func childCount(k typeKind) int {
	switch k {
	case kindList:
		return 1
	case kindMap:
		return 2
	case kindStruct, kindUnion:
		return -1
	}
	return 0
}

// NumRows is the file's row count.
func (f *File) NumRows() int64 { return int64(f.footer.numberOfRows) }

// NumStripes is the file's stripe count.
func (f *File) NumStripes() int { return len(f.footer.stripes) }

// wrap names the file in an error.
func (f *File) wrap(err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		return err
	}
	return fmt.Errorf("%s: %w", f.name, err)
}

// Name is the name the file was opened with.
func (f *File) Name() string { return f.name }
