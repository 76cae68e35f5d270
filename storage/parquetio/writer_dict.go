package parquetio

import (
	"encoding/binary"
	"math/bits"

	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/format"
)

// maxDictionaryBytes is the size of a chunk's dictionary past which its
// later pages are PLAIN (parquet.dictionary.page.size, 1 MiB).
const maxDictionaryBytes = 1 << 20

// columnDictionary dictionary-encodes the pages of one column chunk as
// parquet-mr's v1 writer does (DictionaryValuesWriter behind a
// FallbackValuesWriter), which is how Java Paimon writes: the chunk's
// distinct values in a PLAIN_DICTIONARY dictionary page ahead of its data
// pages, each page's values as ids into it. A chunk whose first page the
// dictionary does not make smaller than PLAIN (unique keys, amounts) is
// PLAIN throughout, and one whose dictionary outgrows
// maxDictionaryBytes goes on in PLAIN pages from the open page on.
// Low-cardinality columns (status, channel, a partition's date) shrink
// to a few bits a value, and readers scan them without decoding or
// decompressing each value's bytes.
type columnDictionary struct {
	byteArray bool
	ids       map[string]int32
	// entries is the dictionary page's body: the distinct values, PLAIN,
	// in id order.
	entries []byte
	pageIDs []int32 // the ids of the open page's values
	used    bool    // a data page of the chunk refers to the dictionary
	plain   bool    // the chunk's pages from the open one on are PLAIN
}

// newColumnDictionary is the dictionary of a column of physical type, nil
// for the types parquet-mr's v1 writer keeps PLAIN (BOOLEAN,
// FIXED_LEN_BYTE_ARRAY) or that lakesql does not dictionary-encode
// (INT96).
func newColumnDictionary(physical format.Type) *columnDictionary {
	switch physical {
	case format.Int32, format.Int64, format.Float, format.Double, format.ByteArray:
		return &columnDictionary{byteArray: physical == format.ByteArray, ids: map[string]int32{}}
	}
	return nil
}

// add records a value of the open page, given PLAIN without its length
// prefix.
func (d *columnDictionary) add(value []byte) {
	if d.plain {
		return
	}
	id, ok := d.ids[string(value)]
	if !ok {
		id = int32(len(d.ids))
		d.ids[string(value)] = id
		if d.byteArray {
			d.entries = binary.LittleEndian.AppendUint32(d.entries, uint32(len(value)))
		}
		d.entries = append(d.entries, value...)
		if len(d.entries) > maxDictionaryBytes {
			d.plain = true
			return
		}
	}
	d.pageIDs = append(d.pageIDs, id)
}

// pageValues returns the open page's values dictionary-encoded, a byte of
// bit width then the ids RLE/bit-packed, or ok false when the page is to
// be PLAIN, given the size of its PLAIN values; it starts the next page.
func (d *columnDictionary) pageValues(plainSize int) (encoded []byte, ok bool, err error) {
	defer func() { d.pageIDs = d.pageIDs[:0] }()
	if d.plain {
		return nil, false, nil
	}
	width := 0
	if len(d.ids) > 1 {
		width = bits.Len32(uint32(len(d.ids) - 1))
	}
	enc := rle.Encoding{BitWidth: width}
	ids, err := enc.EncodeInt32(nil, d.pageIDs)
	if err != nil {
		return nil, false, err
	}
	encoded = append([]byte{byte(width)}, ids...)
	// parquet-mr's isCompressionSatisfying, judged on the chunk's first
	// page only.
	if !d.used && len(encoded)+len(d.entries) >= plainSize {
		d.plain = true
		return nil, false, nil
	}
	d.used = true
	return encoded, true, nil
}

// reset prepares the dictionary for the next chunk.
func (d *columnDictionary) reset() {
	clear(d.ids)
	d.entries, d.pageIDs = d.entries[:0], d.pageIDs[:0]
	d.used, d.plain = false, false
}
