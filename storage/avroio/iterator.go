package avroio

import (
	"errors"
	"fmt"
	"io"

	"github.com/hamba/avro/v2"
	"github.com/lakesql/lakesql/storage/spec"
)

// api is how hamba reads our blocks: a string or bytes value may be as
// large as a block, where hamba's default stops at 1 MiB.
var api = avro.Config{MaxByteSliceSize: spec.AvroMaxBlockSize}.Freeze()

// RowIterator streams rows of the requested columns in file order. It is
// not safe for concurrent use; Close releases its buffers.
type RowIterator struct {
	name   string
	blocks *spec.AvroBlocks
	record *recordDecoder
	// nullable and valueIndex are the Reader's.
	nullable   bool
	valueIndex int64
	state      state
	// left is how many records of the current block are still to decode.
	left int64
	// position is the file position of the first row of the last batch,
	// next that of the next row.
	position, next int64
	err            error // sticky: the iterator is unusable after an error
}

// NewRowIterator reads the requested columns from every record.
func (r *Reader) NewRowIterator(columns []Column) (it *RowIterator, err error) {
	defer recoverCorruption(r.name, &err)
	fields := make([]spec.DataField, len(columns))
	for i, c := range columns {
		fields[i] = spec.DataField{Name: c.Name, Type: c.Type}
	}
	c := &compiler{file: r.name}
	d, err := c.record(r.record, fields, "")
	if err != nil {
		return nil, err
	}
	empty, err := c.empty(r.record, nil)
	if err == nil && empty {
		err = unsupportedf(r.name, "records that encode to no bytes")
	}
	if err != nil {
		return nil, err
	}
	blocks, err := r.blocks()
	if err != nil {
		return nil, err
	}
	return &RowIterator{
		name: r.name, blocks: blocks, record: d, nullable: r.nullable, valueIndex: r.valueIndex,
		state: state{r: avro.NewReader(nil, 0, avro.WithReaderConfig(api))},
	}, nil
}

// Position returns the file position (record index within the file) of
// the row last returned by Next, or of the first row of the last batch.
// The rows of a batch have consecutive positions. Deletion vectors address
// rows by this position.
func (it *RowIterator) Position() int64 { return it.position }

// Next returns the next row, a new slice with one value per requested
// column, or io.EOF after the last row.
func (it *RowIterator) Next() ([]any, error) {
	var one [1][]any
	if _, err := it.NextBatch(one[:]); err != nil {
		return nil, err
	}
	return one[0], nil
}

// NextBatch decodes up to len(dst) rows into dst, reusing each dst[i] when
// its capacity suffices, and returns how many it filled; 0, io.EOF after
// the last row.
func (it *RowIterator) NextBatch(dst [][]any) (n int, err error) {
	if it.err != nil {
		return 0, it.err
	}
	defer func() {
		if p := recover(); p != nil {
			err = corruptionf(it.name, "%v", p)
		}
		if err != nil && err != io.EOF {
			it.err = err
		}
	}()
	it.position = it.next
	for n < len(dst) {
		if it.left == 0 {
			if err := it.nextBlock(); err == io.EOF && n > 0 {
				return n, nil
			} else if err != nil {
				return n, err
			}
		}
		if err := it.decode(&dst[n]); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// decode reads the next record into *row.
func (it *RowIterator) decode(row *[]any) error {
	width := it.record.width
	if cap(*row) < width {
		*row = make([]any, width)
	}
	*row = (*row)[:width]
	s := &it.state
	if it.nullable && s.r.ReadLong() != it.valueIndex {
		s.fail("null record") // Java: "Cannot read a null row."
	}
	it.record.read(s, *row)
	if s.r.Error != nil {
		// Any error, even io.EOF, means the record ran past its block.
		return corruptionf(it.name, "record %d: %v", it.next, s.r.Error)
	}
	it.left--
	it.next++
	if it.left == 0 {
		return it.checkBlockEnd()
	}
	return nil
}

// nextBlock loads the next block, or returns io.EOF after the last.
func (it *RowIterator) nextBlock() error {
	count, data, err := it.blocks.Next()
	if err == io.EOF {
		return io.EOF
	}
	if err != nil {
		return fmt.Errorf("avroio: %s: %w", it.name, err)
	}
	if count > int64(len(data)) {
		// Every record takes a byte at least (NewRowIterator).
		return corruptionf(it.name, "block of %d bytes claims %d records", len(data), count)
	}
	it.state.r.Reset(data)
	it.state.r.Error = nil
	it.state.limit = int64(len(data))
	it.left = count
	return nil
}

// checkBlockEnd requires a block's records to use up its bytes exactly,
// as Java's DataFileReader does.
func (it *RowIterator) checkBlockEnd() error {
	s := &it.state
	if s.r.Peek(); !errors.Is(s.r.Error, io.EOF) {
		return corruptionf(it.name, "bytes after the records of the block ending at record %d", it.next)
	}
	return nil
}

// Close releases the iterator's buffers. It is safe to call twice.
func (it *RowIterator) Close() error {
	it.blocks.Close()
	return nil
}
