package fileindex

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// magic and version open every index container (FileIndexFormat.MAGIC,
// Version.V_1).
const (
	magic   = 1493475289347502
	version = 1
	// emptyIndex is the start position Java writes for an index that saw
	// no value (a map key absent from every row): it can skip nothing.
	emptyIndex = -1
	// fixedHeadBytes are magic, version and head length.
	fixedHeadBytes = 8 + 4 + 4
)

var (
	errCorrupt   = fmt.Errorf("fileindex: %w", lakeerr.ErrCorruption)
	errTruncated = fmt.Errorf("%w: truncated index", errCorrupt)
)

// Entry is one index of one column in a container.
type Entry struct {
	Column string
	Type   string
	// Body is the index's bytes: nil for an index Java marked empty, and
	// for every index of a container read by ReadHead.
	Body []byte
	// Size is the index's length in bytes; Empty marks an index that saw
	// no value (Java's start position -1).
	Size  int
	Empty bool
}

// Container is a decoded index file: the indexes of one data file.
// Mirrors org.apache.paimon.fileindex.FileIndexFormat.
type Container struct {
	Entries []Entry
}

// MemorySize is about the bytes the container holds, for caches.
func (c *Container) MemorySize() int64 {
	n := int64(64)
	for _, e := range c.Entries {
		n += int64(len(e.Column)+len(e.Type)+len(e.Body)) + 64
	}
	return n
}

// Lookup returns the body of the column's index of the given type.
func (c *Container) Lookup(column, indexType string) (body []byte, ok bool) {
	for _, e := range c.Entries {
		if e.Column == column && e.Type == indexType {
			return e.Body, true
		}
	}
	return nil, false
}

// Decode parses a container. The bodies alias data.
func Decode(data []byte) (*Container, error) {
	headLength, err := fixedHead(data, int64(len(data)))
	if err != nil {
		return nil, err
	}
	return decodeHead(data, data[fixedHeadBytes:headLength], true)
}

// ReadHead reads only a container's head, as Java's metadata reader does:
// which columns have which indexes, and their sizes, without the bodies
// (Java's default bloom filter is 585 KiB).
func ReadHead(r io.ReaderAt, size int64) (*Container, error) {
	fixed := make([]byte, fixedHeadBytes)
	if _, err := r.ReadAt(fixed, 0); err != nil {
		return nil, err
	}
	headLength, err := fixedHead(fixed, size)
	if err != nil {
		return nil, err
	}
	head := make([]byte, headLength)
	if _, err := r.ReadAt(head, 0); err != nil {
		return nil, err
	}
	return decodeHead(nil, head[fixedHeadBytes:], false)
}

// fixedHead checks the magic and version at the start of a container of
// size bytes and returns its head length.
func fixedHead(b []byte, size int64) (int, error) {
	if len(b) < fixedHeadBytes || size < fixedHeadBytes+4 {
		return 0, errTruncated
	}
	if m := binary.BigEndian.Uint64(b); m != magic {
		return 0, fmt.Errorf("%w: magic %d is not a file index's", errCorrupt, m)
	}
	if v := int32(binary.BigEndian.Uint32(b[8:])); v != version {
		return 0, fmt.Errorf("fileindex: index version %d: %w", v, lakeerr.ErrUnsupported)
	}
	headLength := int64(int32(binary.BigEndian.Uint32(b[12:])))
	if headLength < fixedHeadBytes+4 || headLength > size {
		return 0, fmt.Errorf("%w: head length %d of a %d-byte index", errCorrupt, headLength, size)
	}
	return int(headLength), nil
}

func decodeHead(data, head []byte, withBodies bool) (*Container, error) {
	columns, head, err := readInt(head)
	if err != nil {
		return nil, err
	}
	c := &Container{}
	for range columns {
		var column string
		var indexes int32
		if column, head, err = readJavaUTF(head); err != nil {
			return nil, err
		}
		if indexes, head, err = readInt(head); err != nil {
			return nil, err
		}
		for range indexes {
			var e Entry
			if e, head, err = readEntry(data, head, withBodies); err != nil {
				return nil, err
			}
			e.Column = column
			c.Entries = append(c.Entries, e)
		}
	}
	return c, nil
}

func readEntry(data, head []byte, withBody bool) (Entry, []byte, error) {
	indexType, head, err := readJavaUTF(head)
	if err != nil {
		return Entry{}, nil, err
	}
	start, head, err := readInt(head)
	if err != nil {
		return Entry{}, nil, err
	}
	length, head, err := readInt(head)
	if err != nil {
		return Entry{}, nil, err
	}
	e := Entry{Type: indexType, Size: int(length), Empty: start == emptyIndex}
	switch {
	case e.Empty:
		return e, head, nil
	case start < 0 || length < 0:
		return Entry{}, nil, fmt.Errorf("%w: index %s at %d+%d", errCorrupt, indexType, start, length)
	case !withBody:
		return e, head, nil
	case int64(start)+int64(length) > int64(len(data)):
		return Entry{}, nil, fmt.Errorf("%w: index %s at %d+%d outside %d bytes", errCorrupt, indexType, start, length, len(data))
	}
	e.Body = data[start : start+length : start+length]
	return e, head, nil
}

func readInt(b []byte) (int32, []byte, error) {
	if len(b) < 4 {
		return 0, nil, errTruncated
	}
	return int32(binary.BigEndian.Uint32(b)), b[4:], nil
}

// Encode writes a container as FileIndexFormat.Writer does: the head with
// every (column, type, start, length), the columns in the order of their
// first entry, then the bodies in entry order.
func Encode(entries []Entry) ([]byte, error) {
	columns, err := encodeNames(entries)
	if err != nil {
		return nil, err
	}
	headLength := fixedHeadBytes + 4 + 4
	for _, c := range columns {
		headLength += len(c.name) + 4
		for _, t := range c.types {
			headLength += len(t) + 8
		}
	}
	out := binary.BigEndian.AppendUint64(nil, magic)
	out = binary.BigEndian.AppendUint32(out, version)
	out = binary.BigEndian.AppendUint32(out, uint32(headLength))
	out = binary.BigEndian.AppendUint32(out, uint32(len(columns)))
	var body []byte
	for _, c := range columns {
		out = append(out, c.name...)
		out = binary.BigEndian.AppendUint32(out, uint32(len(c.entries)))
		for i, e := range c.entries {
			out = append(out, c.types[i]...)
			start, length := int32(emptyIndex), 0
			if e.Body != nil {
				start, length = int32(headLength+len(body)), len(e.Body)
				body = append(body, e.Body...)
			}
			out = binary.BigEndian.AppendUint32(out, uint32(start))
			out = binary.BigEndian.AppendUint32(out, uint32(length))
		}
	}
	out = binary.BigEndian.AppendUint32(out, 0) // redundant length: none in version 1
	return append(out, body...), nil
}

// encodedColumn is one column of a container's head, its name and its
// index types written as writeUTF writes them.
type encodedColumn struct {
	name    []byte
	entries []Entry
	types   [][]byte
}

// encodeNames groups entries by column, in the order of their first
// entry, with their names encoded.
func encodeNames(entries []Entry) ([]*encodedColumn, error) {
	var columns []*encodedColumn
	byName := map[string]*encodedColumn{}
	for _, e := range entries {
		c := byName[e.Column]
		if c == nil {
			name, err := appendJavaUTF(nil, e.Column)
			if err != nil {
				return nil, err
			}
			c = &encodedColumn{name: name}
			byName[e.Column] = c
			columns = append(columns, c)
		}
		t, err := appendJavaUTF(nil, e.Type)
		if err != nil {
			return nil, err
		}
		c.entries = append(c.entries, e)
		c.types = append(c.types, t)
	}
	return columns, nil
}
