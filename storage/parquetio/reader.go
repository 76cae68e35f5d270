// Package parquetio reads and writes Paimon data files in Parquet format.
// It reads what Java Paimon (parquet-mr), parquet-cpp and parquet-go write,
// into the in-memory value representation of package spec, and writes
// files laid out as Java Paimon writes them.
//
// A Reader holds the decoded footer; RowIterators stream rows of chosen
// columns, decoding each column as the Paimon type the caller asks for,
// one column chunk in memory at a time. VectorIterators decode flat
// columns into typed vectors (package vector) without boxing values, for
// scans and aggregates. Files that cannot be decoded
// yield errors wrapping lakeerr.ErrCorruption and valid files using
// features outside Paimon's Parquet mapping yield errors wrapping
// lakeerr.ErrUnsupported; damaged or hostile input never panics and
// cannot demand unbounded memory.
package parquetio

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sync"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Source is the random-access content of a data file. fileio.File
// satisfies it, as do *bytes.Reader and *io.SectionReader.
type Source interface {
	ReadAt(p []byte, off int64) (int, error)
	Size() int64
}

// MemoryTail is implemented by a Source that holds the last bytes of its
// file in memory, such as a file whose footer is cached. Open reads
// exactly those bytes first, where it would otherwise guess the footer's
// size at tailReadSize, so that opening such a file reads nothing else.
type MemoryTail interface {
	// MemoryTail returns how many of the file's last bytes are in memory.
	MemoryTail() int64
}

// Reader is an open Parquet data file. It does not own its Source: the
// caller closes the underlying file after the last iterator is done.
// A Reader is safe for concurrent use by iterators in several goroutines.
type Reader struct {
	name      string
	src       Source
	pageCache PageCache // nil: none
	*Footer
}

// Footer is what Open reads and decodes before any page: the file's
// metadata, schema and, where they sit next to it, page indexes. It never
// changes once decoded, so Readers of the same file may share it, in
// several goroutines: Paimon never rewrites a data file under its name,
// and OpenFooter opens the file again from its Footer without reading or
// decoding anything.
type Footer struct {
	size      int64
	file      *parquet.File
	meta      *format.FileMetaData
	root      *schemaNode
	columns   []Column
	rowGroups []RowGroup
	// indexes holds the file's page indexes from indexesAt on, when the
	// bytes Open read to find the footer held them all, as they do in
	// most files (parquet-mr and lakesql write them right before the
	// footer): a lookup then reads them without a request.
	indexes   []byte
	indexesAt int64
	// decodedIndexes keeps the page indexes decoded so far, by
	// chunkIndex: a *format.ColumnIndex, or the checked
	// []format.PageLocation of an offset index.
	decodedIndexes sync.Map
	// encoded is the size of the footer as stored; encodedIndexes that of
	// all page indexes.
	encoded, encodedIndexes int64
}

// Column is one top-level column of the file.
type Column struct {
	Name string
	// FieldID is the Parquet field id, which Paimon sets to the field id of
	// the table schema. It is 0 when absent: the decoder cannot tell an
	// explicit 0 (Paimon's first field) from a missing id.
	FieldID int
	// Type is the Paimon type Java's schema converter maps to the column's
	// Parquet type; Root is 0 when there is none.
	Type spec.DataType
}

// RowGroup describes one row group of the file.
type RowGroup struct {
	// FirstRow is the file position of the group's first row.
	FirstRow int64
	NumRows  int64
}

const (
	// tailReadSize is large enough to fetch a typical Paimon footer with
	// the first read.
	tailReadSize = 64 << 10
	// maxFooterSize bounds the footer; Paimon footers take kilobytes.
	maxFooterSize = 64 << 20
)

// Open reads the footer of a Parquet file; name identifies the file in
// errors.
func Open(src Source, name string) (r *Reader, err error) {
	defer recoverCorruption(name, &err)
	size := src.Size()
	tracked := &trackedSource{src: src, size: size}
	tail, footer, err := readFooter(tracked, name, size, firstTailRead(src, size))
	if err != nil {
		return nil, err
	}
	meta := new(format.FileMetaData)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), footer, meta); err != nil {
		return nil, corruptionf(name, "footer: %v", err)
	}
	if meta.EncryptionAlgorithm.Value != nil {
		return nil, unsupportedf(name, "encrypted parquet file")
	}
	view, err := decodingView(*meta)
	if err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(bytes.NewReader(view), int64(len(view)), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, corruptionf(name, "footer: %v", err)
	}
	r = &Reader{name: name, src: src, Footer: &Footer{size: size, file: f, meta: meta, encoded: int64(len(footer))}}
	if err := r.index(); err != nil {
		return nil, err
	}
	r.keepIndexes(tail, len(footer))
	return r, nil
}

// OpenFooter opens src, named name, with the Footer a Reader of the same
// file decoded, reading nothing. A src of another size is another file:
// it is refused.
func OpenFooter(src Source, name string, f *Footer) (*Reader, error) {
	if size := src.Size(); size != f.size {
		return nil, corruptionf(name, "file of %d bytes, its footer was decoded from %d", size, f.size)
	}
	return &Reader{name: name, src: src, Footer: f}, nil
}

// footerMemoryFactor is about how many bytes of memory a decoded footer
// holds per byte stored, for the thrift structures, parquet-go's schema
// and ours: 19 to 25 on files Java Paimon and lakesql wrote, of 5 to 14
// columns, measured as heap growth per Reader open.
const footerMemoryFactor = 25

// FileSize is the size of the file the footer was decoded from.
func (f *Footer) FileSize() int64 { return f.size }

// indexMemoryFactor bounds the memory of a decoded page index per byte
// stored: a page's location takes 24 bytes where the offset index stores
// it in about 8, and column index bounds are kept as stored.
const indexMemoryFactor = 3

// MemorySize approximates the memory the footer holds, for a cache that
// bounds it.
func (f *Footer) MemorySize() int64 {
	return f.encoded*footerMemoryFactor + int64(len(f.indexes)) + f.encodedIndexes*indexMemoryFactor
}

// keepIndexes keeps the page indexes from the tail Open read (ending in
// a footer of footerSize bytes and the trailer) when it holds them all,
// and sums their sizes.
func (r *Reader) keepIndexes(tail []byte, footerSize int) {
	first := r.size
	for _, g := range r.meta.RowGroups {
		for _, c := range g.Columns {
			if c.ColumnIndexLength > 0 {
				first = min(first, c.ColumnIndexOffset)
				r.encodedIndexes += int64(c.ColumnIndexLength)
			}
			if c.OffsetIndexLength > 0 {
				first = min(first, c.OffsetIndexOffset)
				r.encodedIndexes += int64(c.OffsetIndexLength)
			}
		}
	}
	tailAt := r.size - int64(len(tail))
	end := len(tail) - footerSize - 8
	if first < tailAt || int(first-tailAt) > end {
		return
	}
	r.indexes = bytes.Clone(tail[first-tailAt : end])
	r.indexesAt = first
}

// firstTailRead is how many of the last bytes of src Open reads first,
// hoping they hold the footer: the tail src holds in memory if it says so,
// else tailReadSize.
func firstTailRead(src Source, size int64) int64 {
	n := int64(tailReadSize)
	if m, ok := src.(MemoryTail); ok && m.MemoryTail() >= 8 {
		n = m.MemoryTail()
	}
	return min(size, n)
}

// readFooter reads the footer, starting with the file's last first bytes,
// and checks its magic, length and thrift structure, so that decoding it
// cannot demand unbounded memory. It returns the bytes read from the end
// of the file too, which end in the footer.
func readFooter(src *trackedSource, name string, size, first int64) (tail, footer []byte, err error) {
	if size < 12 {
		return nil, nil, corruptionf(name, "%d bytes is too short for a parquet file", size)
	}
	tail, err = readAtEnd(src, name, size, first)
	if err != nil {
		return nil, nil, err
	}
	switch string(tail[len(tail)-4:]) {
	case "PAR1":
	case "PARE":
		return nil, nil, unsupportedf(name, "encrypted parquet file")
	default:
		return nil, nil, corruptionf(name, "bad footer magic %q", tail[len(tail)-4:])
	}
	footerSize := int64(binary.LittleEndian.Uint32(tail[len(tail)-8:]))
	switch {
	case footerSize > size-12:
		return nil, nil, corruptionf(name, "footer of %d bytes in a file of %d", footerSize, size)
	case footerSize > maxFooterSize:
		return nil, nil, unsupportedf(name, "footer of %d bytes exceeds %d", footerSize, maxFooterSize)
	case footerSize+8 > int64(len(tail)):
		if tail, err = readAtEnd(src, name, size, footerSize+8); err != nil {
			return nil, nil, err
		}
	}
	footer = tail[int64(len(tail))-8-footerSize : len(tail)-8]
	if n, err := checkThriftStruct(footer); err != nil || n != len(footer) {
		return nil, nil, corruptionf(name, "malformed footer (%d of %d bytes parsed): %v", n, len(footer), err)
	}
	return tail, footer, nil
}

func readAtEnd(src *trackedSource, name string, size, n int64) ([]byte, error) {
	buf := make([]byte, n)
	if _, err := src.ReadAt(buf, size-n); err != nil {
		return nil, src.classify(name, err)
	}
	return buf, nil
}

// unboundedChunk stands in for the stored chunk sizes in the decoding
// view: chunks grow when openChunk decompresses them, and a chunk reader
// ends at its data anyway.
const unboundedChunk = 1 << 50

// decodingView encodes a minimal Parquet file, just the footer, from which
// parquet-go builds its column decoders. It declares every chunk
// uncompressed because openChunk hands parquet-go pages it already
// decompressed, with bounds parquet-go's own codecs lack.
func decodingView(meta format.FileMetaData) ([]byte, error) {
	meta.RowGroups = slices.Clone(meta.RowGroups)
	for i := range meta.RowGroups {
		columns := slices.Clone(meta.RowGroups[i].Columns)
		for j := range columns {
			columns[j].MetaData.Codec = format.Uncompressed
			columns[j].MetaData.TotalCompressedSize = unboundedChunk
		}
		meta.RowGroups[i].Columns = columns
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &meta)
	if err != nil {
		return nil, err
	}
	view := append([]byte("PAR1"), footer...)
	view = binary.LittleEndian.AppendUint32(view, uint32(len(footer)))
	return append(view, "PAR1"...), nil
}

// index builds the schema tree and the row-group positions, checking that
// the footer is self-consistent.
func (r *Reader) index() error {
	root, leaves, err := buildSchemaTree(r.name, r.meta.Schema)
	if err != nil {
		return err
	}
	r.root = root
	var first int64
	for i := range r.meta.RowGroups {
		g := &r.meta.RowGroups[i]
		if len(g.Columns) != leaves || g.NumRows < 0 {
			return corruptionf(r.name, "row group %d has %d columns and %d rows for %d leaf columns", i, len(g.Columns), g.NumRows, leaves)
		}
		r.rowGroups = append(r.rowGroups, RowGroup{FirstRow: first, NumRows: g.NumRows})
		first += g.NumRows
	}
	if first != r.meta.NumRows {
		return corruptionf(r.name, "row groups hold %d rows, footer claims %d", first, r.meta.NumRows)
	}
	for _, c := range root.children {
		t, ok := inferType(c)
		if !ok {
			t = spec.DataType{}
		}
		r.columns = append(r.columns, Column{Name: c.name(), FieldID: c.fieldID(), Type: t})
	}
	return nil
}

// Name returns the name the file was opened with.
func (r *Reader) Name() string { return r.name }

// Schema lists the top-level columns in file order.
func (r *Reader) Schema() []Column { return r.columns }

// NumRows returns the number of rows in the file.
func (r *Reader) NumRows() int64 { return r.meta.NumRows }

// RowGroups describes the row groups in file order.
func (r *Reader) RowGroups() []RowGroup { return r.rowGroups }

// findColumn returns the top-level node a request selects, or nil.
func (r *Reader) findColumn(req ColumnRequest) *schemaNode {
	if req.MatchFieldID {
		for _, c := range r.root.children {
			if c.elem.FieldID != 0 && c.fieldID() == req.FieldID {
				return c
			}
		}
	}
	return r.root.child(req.Name)
}
