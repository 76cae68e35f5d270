// Package blobio reads Paimon's blob files (.blob), where tables with BLOB
// columns (which require row tracking and data evolution) keep one blob
// column's values, apart from the row's other columns. Mirrors
// org.apache.paimon.format.blob.BlobFormatWriter (version 1):
//
//	record*  index  index length (int32 LE)  version (1 byte)
//
// A record is the magic 0x584E11CF (LE), the blob's bytes, the record's
// length (int64 LE, all four parts) and the CRC-32 of the first three.
// The index holds one length per row, delta- and zigzag-varint encoded
// (DeltaVarintCompressor): a record's length, -1 for NULL (no record), -2
// for a placeholder (the value lives in an older file).
package blobio

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

const (
	version     = 1
	magic       = 0x584E11CF
	nullLength  = -1
	placeholder = -2
	// recordOverhead is the magic, length and CRC around a blob's bytes.
	recordOverhead = 16
	// maxIndexSize bounds the index a damaged trailer can declare.
	maxIndexSize = 256 << 20
)

// File is an opened blob file: its index is read, its records on demand.
type File struct {
	name    string
	r       io.ReaderAt
	lengths []int64
	offsets []int64
}

func corruptf(name, format string, args ...any) error {
	return fmt.Errorf("blob file %s: %s: %w", name, fmt.Sprintf(format, args...), lakeerr.ErrCorruption)
}

// Open reads the index of the blob file of size bytes behind r.
func Open(r io.ReaderAt, size int64, name string) (*File, error) {
	if size < 5 {
		return nil, corruptf(name, "%d bytes", size)
	}
	var trailer [5]byte
	if _, err := r.ReadAt(trailer[:], size-5); err != nil {
		return nil, fmt.Errorf("blob file %s: %w", name, err)
	}
	if trailer[4] != version {
		return nil, fmt.Errorf("blob file %s: version %d: %w", name, trailer[4], lakeerr.ErrUnsupported)
	}
	n := int64(binary.LittleEndian.Uint32(trailer[:4]))
	if n > maxIndexSize || n > size-5 {
		return nil, corruptf(name, "index of %d bytes", n)
	}
	index := make([]byte, n)
	if _, err := r.ReadAt(index, size-5-n); err != nil {
		return nil, fmt.Errorf("blob file %s: %w", name, err)
	}
	f := &File{name: name, r: r}
	if err := f.decodeIndex(index, size-5-n); err != nil {
		return nil, err
	}
	return f, nil
}

// decodeIndex decodes the lengths and checks the records fill the file up
// to the index, which starts at end.
func (f *File) decodeIndex(index []byte, end int64) error {
	var prev, at int64
	for len(index) > 0 {
		v, k := binary.Uvarint(index)
		if k <= 0 {
			return corruptf(f.name, "bad index varint")
		}
		index = index[k:]
		length := prev + (int64(v>>1) ^ -int64(v&1))
		prev = length
		f.lengths = append(f.lengths, length)
		f.offsets = append(f.offsets, at)
		switch {
		case length == nullLength || length == placeholder:
		case length < recordOverhead:
			return corruptf(f.name, "record of %d bytes", length)
		default:
			at += length
		}
		if at > end || at < 0 {
			return corruptf(f.name, "records run past the index")
		}
	}
	if at != end {
		return corruptf(f.name, "records end at %d, the index starts at %d", at, end)
	}
	return nil
}

// NumRows is the number of rows the file holds a value for.
func (f *File) NumRows() int64 { return int64(len(f.lengths)) }

// Name is the name the file was opened with.
func (f *File) Name() string { return f.name }

// Value returns row i's blob, nil for NULL. A placeholder, which a reader
// must resolve from an older file, is refused.
func (f *File) Value(i int64) ([]byte, error) {
	switch length := f.lengths[i]; length {
	case nullLength:
		return nil, nil
	case placeholder:
		return nil, fmt.Errorf("blob file %s: row %d is a placeholder for an older file's value: %w", f.name, i, lakeerr.ErrUnsupported)
	}
	record := make([]byte, f.lengths[i])
	if _, err := f.r.ReadAt(record, f.offsets[i]); err != nil {
		return nil, fmt.Errorf("blob file %s: %w", f.name, err)
	}
	body := record[:len(record)-4]
	if binary.LittleEndian.Uint32(record) != magic {
		return nil, corruptf(f.name, "row %d: bad magic", i)
	}
	if int64(binary.LittleEndian.Uint64(body[len(body)-8:])) != f.lengths[i] {
		return nil, corruptf(f.name, "row %d: length mismatch", i)
	}
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(record[len(record)-4:]) {
		return nil, corruptf(f.name, "row %d: checksum mismatch", i)
	}
	return record[4 : len(record)-12], nil
}
