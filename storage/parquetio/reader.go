// Package parquetio reads Paimon data files in Parquet format, as Java
// Paimon (parquet-mr) and parquet-go write them, into the in-memory value
// representation of package spec.
//
// A Reader holds the decoded footer; RowIterators stream rows of chosen
// columns, decoding each column as the Paimon type the caller asks for.
// Files that cannot be decoded yield errors wrapping lakeerr.ErrCorruption
// and valid files using features outside Paimon's Parquet mapping yield
// errors wrapping lakeerr.ErrUnsupported; hostile input never panics.
package parquetio

import (
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Source is the random-access content of a data file. fileio.File
// satisfies it, as do *bytes.Reader and *io.SectionReader.
type Source interface {
	ReadAt(p []byte, off int64) (int, error)
	Size() int64
}

// Reader is an open Parquet data file. It does not own its Source: the
// caller closes the underlying file after the last iterator is done.
// A Reader is safe for concurrent use by iterators in several goroutines.
type Reader struct {
	name      string
	src       Source
	size      int64
	file      *parquet.File
	meta      *format.FileMetaData
	root      *schemaNode
	columns   []Column
	rowGroups []RowGroup
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

// readBufferSize is large enough to fetch a typical Paimon footer in one
// request.
const readBufferSize = 64 << 10

// Open reads the footer of a Parquet file; name identifies the file in
// errors.
func Open(src Source, name string) (r *Reader, err error) {
	defer recoverCorruption(name, &err)
	size := src.Size()
	tracked := &trackedSource{src: src, size: size}
	if err := checkMagic(tracked, name, size); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(tracked, size,
		parquet.SkipMagicBytes(true),
		parquet.SkipPageIndex(true),
		parquet.SkipBloomFilters(true),
		parquet.OptimisticRead(true),
		parquet.ReadBufferSize(readBufferSize))
	if err != nil {
		return nil, tracked.classify(name, err)
	}
	r = &Reader{name: name, src: src, size: size, file: f, meta: f.Metadata()}
	if err := r.index(); err != nil {
		return nil, err
	}
	return r, nil
}

func checkMagic(src *trackedSource, name string, size int64) error {
	if size < 12 {
		return corruptionf(name, "%d bytes is too short for a parquet file", size)
	}
	var magic [4]byte
	if _, err := src.ReadAt(magic[:], 0); err != nil {
		return src.classify(name, err)
	}
	switch string(magic[:]) {
	case "PAR1":
		return nil
	case "PARE":
		return unsupportedf(name, "encrypted parquet file")
	}
	return corruptionf(name, "bad magic %q", magic[:])
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
