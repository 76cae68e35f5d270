// Package avroio reads Paimon data files in Avro format (file.format =
// avro) as Java Paimon writes them, into the in-memory values of package
// spec.
//
// Java writes a data file as an Avro object container file whose writer
// schema AvroSchemaConverter derives from the file's row type: one record
// field per column, named as the column, nullable types as ["null", T]
// unions, TINYINT and SMALLINT as int, DECIMAL as bytes with the decimal
// logical type, DATE as date, TIME as time-millis, TIMESTAMP(p) and
// TIMESTAMP(p) WITH LOCAL TIME ZONE as (local-)timestamp-millis for p <= 3
// and -micros for p <= 6 (Java refuses higher precisions in Avro), ROW as
// a record, ARRAY as an array, a MAP with string keys as an Avro map and
// any other MAP (or MULTISET) as an array of {key, value} records. A
// primary-key file carries the _KEY_ columns, _SEQUENCE_NUMBER and
// _VALUE_KIND as fields of the same record.
//
// As Java's AvroRowDatumReader does, a Reader finds the requested columns
// by name among the writer schema's fields (columns the file lacks read as
// nil), decodes each as the Paimon type the caller asks for (the type of
// the column in the schema the file was written with) and skips the rest.
// The container framing and codecs are package spec's (AvroBlocks), the
// schema parsing and binary decoding hamba/avro's. Files that cannot be
// decoded yield errors wrapping lakeerr.ErrCorruption; valid files using
// what Java's Avro mapping never writes yield errors wrapping
// lakeerr.ErrUnsupported; damaged or hostile input never panics and cannot
// demand unbounded memory.
package avroio

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/hamba/avro/v2"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Source is the random-access content of a data file. fileio.File
// satisfies it, as does *bytes.Reader.
type Source interface {
	io.ReaderAt
	Size() int64
}

// Column selects a field of the file's record by name, and the Paimon type
// to decode it as: the type of the column in the table schema the file was
// written with.
type Column struct {
	Name string
	Type spec.DataType
}

// Reader is an open Avro data file. It does not own its Source: the
// caller closes the underlying file after the last iterator is done. A
// Reader is safe for concurrent use by iterators in several goroutines.
type Reader struct {
	name   string
	src    Source
	size   int64
	record *avro.RecordSchema
	// nullable is set when the writer schema is a ["null", record] union,
	// as Paimon <= 0.8 wrote: each record then starts with the index of
	// the record's branch, valueIndex.
	nullable   bool
	valueIndex int64

	mu sync.Mutex
	// first is the stream Open read the header from, handed to the first
	// iterator so that it does not read the header again; nil once taken.
	first *spec.AvroBlocks
}

// Open reads the header of an Avro data file and parses its writer
// schema; name identifies the file in errors.
func Open(src Source, name string) (r *Reader, err error) {
	defer recoverCorruption(name, &err)
	blocks, err := openBlocks(src, name)
	if err != nil {
		return nil, err
	}
	r = &Reader{name: name, src: src, size: src.Size(), first: blocks}
	if err := r.parseWriterSchema(blocks.Schema()); err != nil {
		blocks.Close()
		return nil, err
	}
	return r, nil
}

func openBlocks(src Source, name string) (*spec.AvroBlocks, error) {
	blocks, err := spec.NewAvroBlocks(io.NewSectionReader(src, 0, src.Size()), src.Size())
	if err != nil {
		return nil, fmt.Errorf("avroio: %s: %w", name, err)
	}
	return blocks, nil
}

// Name returns the name the file was opened with.
func (r *Reader) Name() string { return r.name }

// HasField reports whether the file's record has a field of that name.
func (r *Reader) HasField(name string) bool {
	for _, f := range r.record.Fields() {
		if f.Name() == name {
			return true
		}
	}
	return false
}

// blocks returns a stream of the file's blocks, positioned at the first.
func (r *Reader) blocks() (*spec.AvroBlocks, error) {
	r.mu.Lock()
	first := r.first
	r.first = nil
	r.mu.Unlock()
	if first != nil {
		return first, nil
	}
	return openBlocks(r.src, r.name)
}

// Close releases what Open holds when no iterator took it.
func (r *Reader) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.first != nil {
		r.first.Close()
		r.first = nil
	}
}

// parseWriterSchema parses a writer schema: a record, or a ["null",
// record] union as Paimon <= 0.8 wrote (AvroRowDatumReader.setSchema).
func (r *Reader) parseWriterSchema(text []byte) error {
	s, err := parseSchema(text)
	if err != nil {
		// hamba's parse errors can quote the whole schema.
		return corruptionf(r.name, "writer schema: %.300s", err)
	}
	if u, ok := s.(*avro.UnionSchema); ok && u.Nullable() {
		_, value := u.Indices()
		s, r.nullable, r.valueIndex = u.Types()[value], true, int64(value)
	}
	record, ok := deref(s).(*avro.RecordSchema)
	if !ok {
		return unsupportedf(r.name, "writer schema is a %s, not a record", s.Type())
	}
	r.record = record
	return nil
}

// maxSchemas bounds the parsed writer schemas kept; a table has one per
// schema version and file kind. The cache is dropped whole when full, so
// that hostile files cannot grow it without bound.
const maxSchemas = 256

var schemaCache struct {
	sync.Mutex
	parsed map[string]avro.Schema
}

// parseSchema parses a writer schema text, once per distinct text.
func parseSchema(text []byte) (avro.Schema, error) {
	schemaCache.Lock()
	defer schemaCache.Unlock()
	if s, ok := schemaCache.parsed[string(text)]; ok {
		return s, nil
	}
	// A private cache: hamba's default one would register Java's record
	// names for every later parse in the process.
	s, err := avro.ParseBytesWithCache(bytes.TrimSpace(text), "", &avro.SchemaCache{})
	if err != nil {
		return nil, err
	}
	if schemaCache.parsed == nil || len(schemaCache.parsed) >= maxSchemas {
		schemaCache.parsed = map[string]avro.Schema{}
	}
	schemaCache.parsed[string(text)] = s
	return s, nil
}

// corruptionf reports undecodable content of the named file.
func corruptionf(name, format string, args ...any) error {
	return fmt.Errorf("avroio: %s: %w: %s", name, lakeerr.ErrCorruption, fmt.Sprintf(format, args...))
}

// unsupportedf reports a valid file using a feature this package does not
// read.
func unsupportedf(name, format string, args ...any) error {
	return fmt.Errorf("avroio: %s: %w: %s", name, lakeerr.ErrUnsupported, fmt.Sprintf(format, args...))
}

// recoverCorruption converts a panic while decoding, which hostile input
// might trigger in hamba, into a corruption error stored in *err.
func recoverCorruption(name string, err *error) {
	if p := recover(); p != nil {
		*err = corruptionf(name, "%v", p)
	}
}
