package parquetio

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Thrift compact-protocol type ids.
const (
	thriftTrue   = 1
	thriftFalse  = 2
	thriftByte   = 3
	thriftI16    = 4
	thriftI32    = 5
	thriftI64    = 6
	thriftDouble = 7
	thriftBinary = 8
	thriftList   = 9
	thriftSet    = 10
	thriftMap    = 11
	thriftStruct = 12
)

const maxThriftDepth = 64

var errThriftShort = errors.New("thrift structure runs past its bytes")

// thriftChecker walks one compact-protocol struct without building it.
// parquet-go's decoder allocates every list at the size its header claims,
// so a single corrupt length could demand gigabytes; the walk proves each
// collection fits in the bytes that remain (every element takes at least
// one byte) before the real decoder runs.
type thriftChecker struct {
	data  []byte
	pos   int
	depth int
}

// checkThriftStruct validates the struct at the start of data and returns
// its encoded length.
func checkThriftStruct(data []byte) (int, error) {
	c := &thriftChecker{data: data}
	err := c.structure()
	return c.pos, err
}

func (c *thriftChecker) structure() error {
	if c.depth++; c.depth > maxThriftDepth {
		return fmt.Errorf("thrift structure nested deeper than %d", maxThriftDepth)
	}
	defer func() { c.depth-- }()
	for {
		header, err := c.byte()
		if err != nil || header == 0 { // 0 is the STOP field
			return err
		}
		if header>>4 == 0 { // no id delta: an explicit zigzag field id follows
			if _, err := c.uvarint(); err != nil {
				return err
			}
		}
		if err := c.value(header&0x0f, false); err != nil {
			return err
		}
	}
}

// value skips one value; inside collections booleans take a byte.
func (c *thriftChecker) value(typ byte, inCollection bool) error {
	switch typ {
	case thriftTrue, thriftFalse:
		if inCollection {
			return c.skip(1)
		}
		return nil
	case thriftByte:
		return c.skip(1)
	case thriftI16, thriftI32, thriftI64:
		_, err := c.uvarint()
		return err
	case thriftDouble:
		return c.skip(8)
	case thriftBinary:
		n, err := c.uvarint()
		if err != nil {
			return err
		}
		return c.skip(n)
	case thriftList, thriftSet:
		return c.list()
	case thriftMap:
		return c.mapping()
	case thriftStruct:
		return c.structure()
	}
	return fmt.Errorf("unknown thrift type %d", typ)
}

func (c *thriftChecker) list() error {
	header, err := c.byte()
	if err != nil {
		return err
	}
	size := uint64(header >> 4)
	if size == 15 {
		if size, err = c.uvarint(); err != nil {
			return err
		}
	}
	return c.elements(size, header&0x0f, 0)
}

func (c *thriftChecker) mapping() error {
	size, err := c.uvarint()
	if err != nil || size == 0 {
		return err
	}
	types, err := c.byte()
	if err != nil {
		return err
	}
	return c.elements(size, types>>4, types&0x0f)
}

// elements skips size entries of a list (second == 0) or map.
func (c *thriftChecker) elements(size uint64, first, second byte) error {
	if size > uint64(len(c.data)-c.pos) {
		return errThriftShort
	}
	for range size {
		if err := c.value(first, true); err != nil {
			return err
		}
		if second != 0 {
			if err := c.value(second, true); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *thriftChecker) byte() (byte, error) {
	if c.pos >= len(c.data) {
		return 0, errThriftShort
	}
	c.pos++
	return c.data[c.pos-1], nil
}

func (c *thriftChecker) skip(n uint64) error {
	if n > uint64(len(c.data)-c.pos) {
		return errThriftShort
	}
	c.pos += int(n)
	return nil
}

func (c *thriftChecker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(c.data[c.pos:])
	if n <= 0 {
		return 0, errThriftShort
	}
	c.pos += n
	return v, nil
}
