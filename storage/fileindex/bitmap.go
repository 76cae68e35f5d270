package fileindex

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Bitmap index versions and the default index block size of version 2
// (BitmapFileIndex, BitmapFileIndexMetaV2).
const (
	bitmapV1             = 1
	bitmapV2             = 2
	bitmapBlockSizeLimit = 16 << 10
)

// bitmapCodec writes and orders a column's values as BitmapFileIndexMeta's
// value writer and BitmapFileIndexMetaV2's comparator do. A key is the
// value's bytes as written, without the length prefix of a string.
type bitmapCodec struct {
	width   int // bytes of a fixed-width key; 0 for strings
	encode  func(v any) (string, bool)
	compare func(a, b string) int
}

func bitmapCodecFor(t spec.DataType) (bitmapCodec, error) {
	switch t.Root {
	case spec.Char, spec.VarChar:
		return bitmapCodec{encode: func(v any) (string, bool) { s, ok := v.(string); return s, ok }, compare: cmp.Compare[string]}, nil
	case spec.Boolean:
		return bitmapCodec{width: 1, encode: encodeBool, compare: cmp.Compare[string]}, nil
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Date, spec.Time:
		width := map[spec.TypeRoot]int{spec.TinyInt: 1, spec.SmallInt: 2, spec.BigInt: 8}[t.Root]
		if width == 0 {
			width = 4
		}
		return bitmapCodec{width: width, encode: func(v any) (string, bool) { return encodeInteger(v, width) }, compare: compareSigned}, nil
	case spec.Float:
		return bitmapCodec{width: 4, encode: encodeFloat, compare: compareFloatKeys}, nil
	case spec.Double:
		return bitmapCodec{width: 8, encode: encodeDouble, compare: compareFloatKeys}, nil
	case spec.Timestamp, spec.TimestampLTZ:
		millis := t.Precision <= 3
		return bitmapCodec{width: 8, encode: func(v any) (string, bool) { return encodeTimestamp(v, millis) }, compare: compareSigned}, nil
	}
	return bitmapCodec{}, fmt.Errorf("fileindex: a bitmap index on a %s column: %w", t, lakeerr.ErrUnsupported)
}

func encodeBool(v any) (string, bool) {
	b, ok := v.(bool)
	if b {
		return "\x01", ok
	}
	return "\x00", ok
}

func encodeInteger(v any, width int) (string, bool) {
	var x int64
	switch n := v.(type) {
	case int8:
		x = int64(n)
	case int16:
		x = int64(n)
	case int32:
		x = int64(n)
	case int64:
		x = n
	case spec.DateValue:
		x = int64(n)
	case spec.TimeValue:
		x = int64(n)
	default:
		return "", false
	}
	return bigEndian(uint64(x), width), true
}

// encodeFloat and encodeDouble write Float.floatToIntBits and
// Double.doubleToLongBits: one pattern for every NaN.
func encodeFloat(v any) (string, bool) {
	x, ok := v.(float32)
	bits := math.Float32bits(x)
	if x != x {
		bits = 0x7fc00000
	}
	return bigEndian(uint64(bits), 4), ok
}

func encodeDouble(v any) (string, bool) {
	x, ok := v.(float64)
	bits := math.Float64bits(x)
	if x != x {
		bits = 0x7ff8000000000000
	}
	return bigEndian(bits, 8), ok
}

func encodeTimestamp(v any, millis bool) (string, bool) {
	ts, ok := v.(spec.TimestampValue)
	if millis {
		return bigEndian(uint64(ts.Millis), 8), ok
	}
	return bigEndian(uint64(ts.Millis*1000+int64(ts.NanoOfMilli/1000)), 8), ok
}

func bigEndian(x uint64, width int) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], x)
	return string(b[8-width:])
}

// signedKey reads a big-endian two's-complement key.
func signedKey(k string) int64 {
	var b [8]byte
	if len(k) > 0 && k[0]&0x80 != 0 {
		b = [8]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	}
	copy(b[8-len(k):], k)
	return int64(binary.BigEndian.Uint64(b[:]))
}

func compareSigned(a, b string) int { return cmp.Compare(signedKey(a), signedKey(b)) }

// compareFloatKeys is Float.compare and Double.compare: by value, then
// by the (canonical) bit patterns as signed integers, which puts -0.0
// before 0.0 and NaN after everything.
func compareFloatKeys(a, b string) int {
	x, y := floatKey(a), floatKey(b)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return compareSigned(a, b)
}

func floatKey(k string) float64 {
	if len(k) == 4 {
		return float64(math.Float32frombits(uint32(signedKey(k))))
	}
	return math.Float64frombits(uint64(signedKey(k)))
}

// bitmapIndex is a bitmap index read for a scan: whether a value, or
// NULL, occurs in the file, and in which rows. Version 2 is searched as
// Java's reader searches it, by its sorted index blocks, so a lookup
// parses one block rather than every value; version 1 lists its values
// unsorted and is scanned.
type bitmapIndex struct {
	hasNull bool
	codec   bitmapCodec
	values  int32
	// nullOffset and nullLength locate the NULL bitmap as an entry does
	// (nullLength is -1 in version 1, whose bitmaps say their length).
	nullOffset, nullLength int32
	// v1 are version 1's (value, offset) pairs, then its bitmaps.
	v1 []byte
	// blocks are version 2's index blocks: each first value, and the bytes
	// of its entries; bitmaps follows them.
	blocks  []bitmapBlock
	bitmaps []byte
}

type bitmapBlock struct {
	first   string
	entries []byte // entry count, then (value, offset, length) each
}

// bitmapEntry is one value of the index: where its bitmap is in the body,
// or, for a value of one row, -1 - that row and length -1.
type bitmapEntry struct {
	key            string
	offset, length int32
}

// find returns key's entry.
func (b *bitmapIndex) find(key string) (bitmapEntry, bool, error) {
	if b.blocks == nil {
		e, found, _, err := scanEntries(&keyReader{b: b.v1, codec: b.codec}, b.values, false, &key)
		return e, found, err
	}
	// The last block whose first value is not above key.
	i, _ := slices.BinarySearchFunc(b.blocks, key, func(bl bitmapBlock, k string) int {
		if c := b.codec.compare(bl.first, k); c > 0 {
			return 1
		}
		return -1
	})
	if i == 0 {
		return bitmapEntry{}, false, nil
	}
	r := &keyReader{b: b.blocks[i-1].entries, codec: b.codec}
	e, found, _, err := scanEntries(r, r.int(), true, &key)
	return e, found, err
}

// scanEntries reads n entries (value, offset and, withLength, length)
// until key's. Without a key (nil), it reads them all and returns what
// follows them.
func scanEntries(r *keyReader, n int32, withLength bool, key *string) (bitmapEntry, bool, []byte, error) {
	for range n {
		e := bitmapEntry{key: r.key(), offset: r.int(), length: -1}
		if withLength {
			e.length = r.int()
		}
		if r.err != nil {
			return bitmapEntry{}, false, nil, fmt.Errorf("%w: bitmap index: %v", errCorrupt, r.err)
		}
		if key != nil && e.key == *key {
			return e, true, nil, nil
		}
	}
	return bitmapEntry{}, false, r.b, nil
}

// rows returns the rows an entry's bitmap holds.
func (b *bitmapIndex) rows(e bitmapEntry) (*roaring.Bitmap, error) {
	if e.offset < 0 {
		return roaring.BitmapOf(uint32(-1 - e.offset)), nil
	}
	body, err := b.body()
	if err != nil {
		return nil, err
	}
	if int(e.offset) > len(body) || (e.length >= 0 && int(e.offset)+int(e.length) > len(body)) {
		return nil, fmt.Errorf("%w: bitmap at %d+%d outside %d bytes", errCorrupt, e.offset, e.length, len(body))
	}
	data := body[e.offset:]
	if e.length >= 0 {
		data = data[:e.length]
	}
	bm := roaring.New()
	if _, err := bm.ReadFrom(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("%w: bitmap at %d: %v", errCorrupt, e.offset, err)
	}
	return bm, nil
}

// nullRows returns the rows holding NULL.
func (b *bitmapIndex) nullRows() (*roaring.Bitmap, error) {
	if !b.hasNull {
		return roaring.New(), nil
	}
	return b.rows(bitmapEntry{offset: b.nullOffset, length: b.nullLength})
}

// body is where the bitmaps are: after version 2's blocks, after version
// 1's entries (found by reading them all).
func (b *bitmapIndex) body() ([]byte, error) {
	if b.blocks != nil {
		return b.bitmaps, nil
	}
	_, _, rest, err := scanEntries(&keyReader{b: b.v1, codec: b.codec}, b.values, false, nil)
	return rest, err
}

// decodeBitmap reads the head of a version 1 or 2 bitmap index
// (BitmapFileIndexMeta, BitmapFileIndexMetaV2); the bitmaps themselves
// are not needed to skip a file.
func decodeBitmap(body []byte, c bitmapCodec) (*bitmapIndex, error) {
	r := &keyReader{b: body, codec: c}
	version := r.byte()
	r.int() // row count
	ix := &bitmapIndex{codec: c, values: r.int(), hasNull: r.byte() != 0, nullLength: -1}
	if ix.hasNull {
		ix.nullOffset = r.int()
		if version == bitmapV2 {
			ix.nullLength = r.int()
		}
	}
	switch version {
	case bitmapV1:
		ix.v1 = r.b
	case bitmapV2:
		ix.blocks, ix.bitmaps = decodeBitmapBlocks(r)
	default:
		return nil, fmt.Errorf("fileindex: bitmap index version %d: %w", version, lakeerr.ErrUnsupported)
	}
	if r.err != nil || ix.values < 0 {
		return nil, fmt.Errorf("%w: bitmap index head (%v)", errCorrupt, r.err)
	}
	return ix, nil
}

// decodeBitmapBlocks reads version 2's block directory: each block's
// first value and offset from the end of the directory, where the blocks
// follow back to back, and then the bitmaps.
func decodeBitmapBlocks(r *keyReader) ([]bitmapBlock, []byte) {
	n := r.int()
	if r.err != nil || n < 0 || int(n) > len(r.b) {
		r.err = errTruncated
		return nil, nil
	}
	blocks := make([]bitmapBlock, n)
	offsets := make([]int32, n)
	for i := range blocks {
		blocks[i].first = r.key()
		offsets[i] = r.int()
	}
	size := r.int()
	if r.err != nil || size < 0 || int(size) > len(r.b) {
		r.err = errTruncated
		return nil, nil
	}
	region := r.b[:size]
	for i := range blocks {
		end := size
		if i+1 < len(blocks) {
			end = offsets[i+1]
		}
		if offsets[i] < 0 || offsets[i] > end || end > size {
			r.err = errTruncated
			return nil, nil
		}
		blocks[i].entries = region[offsets[i]:end]
	}
	return blocks, r.b[size:]
}

// keyReader reads big-endian fields, remembering the first overrun.
type keyReader struct {
	b     []byte
	codec bitmapCodec
	err   error
}

func (r *keyReader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errTruncated
		return make([]byte, max(n, 0))
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *keyReader) byte() byte { return r.take(1)[0] }
func (r *keyReader) int() int32 { return int32(binary.BigEndian.Uint32(r.take(4))) }
func (r *keyReader) key() string {
	if r.codec.width > 0 {
		return string(r.take(r.codec.width))
	}
	n := r.int()
	if r.err != nil {
		return ""
	}
	return string(r.take(int(n)))
}

// bitmapBuilder builds a version 2 bitmap index of one column.
type bitmapBuilder struct {
	name     string
	position int
	codec    bitmapCodec
	rows     uint32
	nulls    *roaring.Bitmap
	values   map[string]*valueRows
}

// valueRows are the rows holding one value: a value of one row, as every
// value of a unique column is, keeps no bitmap.
type valueRows struct {
	first uint32
	more  *roaring.Bitmap // nil until a second row
}

func (v *valueRows) add(row uint32) {
	if v.more == nil {
		v.more = roaring.BitmapOf(v.first)
	}
	v.more.Add(row)
}

func newBitmapBuilder(fields []spec.DataField, d spec.FileIndexColumn) (*bitmapBuilder, error) {
	position, err := indexedColumn(fields, d)
	if err != nil {
		return nil, err
	}
	if v, ok := d.Options["version"]; ok && v != "2" {
		return nil, fmt.Errorf("fileindex: bitmap index version %s on %q (lakesql writes version 2): %w", v, d.Column, lakeerr.ErrUnsupported)
	}
	c, err := bitmapCodecFor(fields[position].Type)
	if err != nil {
		return nil, err
	}
	return &bitmapBuilder{name: d.Column, position: position, codec: c, nulls: roaring.New(), values: map[string]*valueRows{}}, nil
}

func (b *bitmapBuilder) column() int { return b.position }

func (b *bitmapBuilder) entry() (Entry, error) {
	body, err := b.finish()
	return Entry{Column: b.name, Type: spec.FileIndexBitmap, Body: body}, err
}

func (b *bitmapBuilder) add(v any) {
	row := b.rows
	b.rows++
	key, ok := "", v != nil
	if ok {
		key, ok = b.codec.encode(v)
	}
	if !ok {
		b.nulls.Add(row)
		return
	}
	if rows := b.values[key]; rows != nil {
		rows.add(row)
	} else {
		b.values[key] = &valueRows{first: row}
	}
}

// finish serializes the index as BitmapFileIndex.Writer does with
// version 2: the head, the index blocks of the sorted values, then the
// NULL bitmap and the other bitmaps of more than one row.
func (b *bitmapBuilder) finish() ([]byte, error) {
	var body bytes.Buffer
	nullBytes, err := b.nulls.ToBytes()
	if err != nil {
		return nil, err
	}
	nullOffset := int32(0)
	switch b.nulls.GetCardinality() {
	case 0:
	case 1:
		nullOffset = -1 - int32(b.nulls.Minimum())
	default:
		body.Write(nullBytes)
	}
	entries := make([]bitmapEntry, 0, len(b.values))
	for key, rows := range b.values {
		if rows.more == nil {
			entries = append(entries, bitmapEntry{key: key, offset: -1 - int32(rows.first), length: -1})
			continue
		}
		data, err := rows.more.ToBytes()
		if err != nil {
			return nil, err
		}
		entries = append(entries, bitmapEntry{key: key, offset: int32(body.Len()), length: int32(len(data))})
		body.Write(data)
	}
	slices.SortFunc(entries, func(x, y bitmapEntry) int { return b.codec.compare(x.key, y.key) })
	var out []byte
	out = append(out, bitmapV2)
	out = binary.BigEndian.AppendUint32(out, b.rows)
	out = binary.BigEndian.AppendUint32(out, uint32(len(b.values)))
	if b.nulls.IsEmpty() {
		out = append(out, 0)
	} else {
		out = append(out, 1)
		out = binary.BigEndian.AppendUint32(out, uint32(nullOffset))
		out = binary.BigEndian.AppendUint32(out, uint32(len(nullBytes)))
	}
	out = b.appendBlocks(out, entries)
	return append(out, body.Bytes()...), nil
}

// appendBlocks writes the block directory and the blocks: entries in value
// order, a new block whenever one would pass the 16 KiB block size.
func (b *bitmapBuilder) appendBlocks(out []byte, entries []bitmapEntry) []byte {
	type block struct {
		first   string
		offset  int32
		size    int32
		entries []bitmapEntry
	}
	var blocks []block
	for _, e := range entries {
		size := int32(8 + len(b.keyBytes(nil, e.key)))
		if n := len(blocks); n == 0 || blocks[n-1].size+size > bitmapBlockSizeLimit {
			offset := int32(0)
			if n > 0 {
				offset = blocks[n-1].offset + blocks[n-1].size
			}
			blocks = append(blocks, block{first: e.key, offset: offset, size: 4})
		}
		last := &blocks[len(blocks)-1]
		last.size += size
		last.entries = append(last.entries, e)
	}
	out = binary.BigEndian.AppendUint32(out, uint32(len(blocks)))
	var total int32
	for _, bl := range blocks {
		out = b.keyBytes(out, bl.first)
		out = binary.BigEndian.AppendUint32(out, uint32(bl.offset))
		total += bl.size
	}
	out = binary.BigEndian.AppendUint32(out, uint32(total))
	for _, bl := range blocks {
		out = binary.BigEndian.AppendUint32(out, uint32(len(bl.entries)))
		for _, e := range bl.entries {
			out = b.keyBytes(out, e.key)
			out = binary.BigEndian.AppendUint32(out, uint32(e.offset))
			out = binary.BigEndian.AppendUint32(out, uint32(e.length))
		}
	}
	return out
}

// keyBytes appends a key as the value writer writes it.
func (b *bitmapBuilder) keyBytes(dst []byte, key string) []byte {
	if b.codec.width == 0 {
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(key)))
	}
	return append(dst, key...)
}
