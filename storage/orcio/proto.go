package orcio

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// The ORC file tail and stripe footers are protobuf messages
// (orc_proto.proto of Apache ORC, https://orc.apache.org/specification/ORCv1/).
// Only the fields a reader needs are decoded, straight from the wire with
// protowire: unknown fields (encryption, statistics lakesql does not use
// yet, later additions) are skipped, as protobuf readers must.

// errProto marks a message that does not parse as protobuf.
var errProto = errors.New("malformed protobuf")

// protoField is one field of a message: a varint or a length-delimited
// payload (fixed-width fields, such as the double statistics, are skipped).
type protoField struct {
	num    protowire.Number
	typ    protowire.Type
	varint uint64
	bytes  []byte
}

// sint64 is a zigzag-encoded varint field (protobuf sint32, sint64).
func (f protoField) sint64() int64 { return protowire.DecodeZigZag(f.varint) }

// eachField calls fn on every field of message b in wire order.
func eachField(b []byte, fn func(protoField) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return errProto
		}
		b = b[n:]
		f := protoField{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.varint, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			f.bytes, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return errProto
		}
		b = b[n:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// appendUint32s appends a repeated uint32 field, packed or not.
func appendUint32s(dst []uint32, f protoField) ([]uint32, error) {
	if f.typ == protowire.VarintType {
		return append(dst, uint32(f.varint)), nil
	}
	for b := f.bytes; len(b) > 0; {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, errProto
		}
		dst = append(dst, uint32(v))
		b = b[n:]
	}
	return dst, nil
}

// CompressionKind mirrors orc.proto's CompressionKind.
type CompressionKind uint64

const (
	CompressionNone CompressionKind = iota
	CompressionZlib
	CompressionSnappy
	CompressionLZO
	CompressionLZ4
	CompressionZstd
)

func (k CompressionKind) String() string {
	names := [...]string{"none", "zlib", "snappy", "lzo", "lz4", "zstd"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("compression(%d)", uint64(k))
}

// postScript mirrors orc.proto's PostScript.
type postScript struct {
	footerLength   uint64
	compression    CompressionKind
	blockSize      uint64
	metadataLength uint64
	magic          string
}

func parsePostScript(b []byte) (postScript, error) {
	ps := postScript{blockSize: defaultBlockSize}
	err := eachField(b, func(f protoField) error {
		switch f.num {
		case 1:
			ps.footerLength = f.varint
		case 2:
			ps.compression = CompressionKind(f.varint)
		case 3:
			ps.blockSize = f.varint
		case 5:
			ps.metadataLength = f.varint
		case 8000:
			ps.magic = string(f.bytes)
		}
		return nil
	})
	return ps, err
}

// footer mirrors orc.proto's Footer.
type footer struct {
	stripes        []stripeInfo
	types          []orcType
	numberOfRows   uint64
	rowIndexStride uint32
}

func parseFooter(b []byte) (footer, error) {
	var ft footer
	err := eachField(b, func(f protoField) error {
		switch f.num {
		case 3:
			s, err := parseStripeInfo(f.bytes)
			ft.stripes = append(ft.stripes, s)
			return err
		case 4:
			t, err := parseType(f.bytes)
			ft.types = append(ft.types, t)
			return err
		case 6:
			ft.numberOfRows = f.varint
		case 8:
			ft.rowIndexStride = uint32(f.varint)
		}
		return nil
	})
	return ft, err
}

// stripeInfo mirrors orc.proto's StripeInformation.
type stripeInfo struct {
	offset, indexLength, dataLength, footerLength, numberOfRows uint64
}

func parseStripeInfo(b []byte) (stripeInfo, error) {
	var s stripeInfo
	err := eachField(b, func(f protoField) error {
		switch f.num {
		case 1:
			s.offset = f.varint
		case 2:
			s.indexLength = f.varint
		case 3:
			s.dataLength = f.varint
		case 4:
			s.footerLength = f.varint
		case 5:
			s.numberOfRows = f.varint
		}
		return nil
	})
	return s, err
}

// typeKind mirrors orc.proto's Type.Kind.
type typeKind uint64

const (
	kindBoolean typeKind = iota
	kindByte
	kindShort
	kindInt
	kindLong
	kindFloat
	kindDouble
	kindString
	kindBinary
	kindTimestamp
	kindList
	kindMap
	kindStruct
	kindUnion
	kindDecimal
	kindDate
	kindVarchar
	kindChar
	kindTimestampInstant
)

func (k typeKind) String() string {
	names := [...]string{"boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
		"string", "binary", "timestamp", "array", "map", "struct", "uniontype", "decimal",
		"date", "varchar", "char", "timestamp with local time zone"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("kind(%d)", uint64(k))
}

// orcType mirrors orc.proto's Type: one node of the flattened type tree,
// whose children are named by column id in subtypes.
type orcType struct {
	kind       typeKind
	subtypes   []uint32
	fieldNames []string
	maxLength  uint32
	precision  uint32
	scale      uint32
}

func parseType(b []byte) (orcType, error) {
	var t orcType
	err := eachField(b, func(f protoField) error {
		var err error
		switch f.num {
		case 1:
			t.kind = typeKind(f.varint)
		case 2:
			t.subtypes, err = appendUint32s(t.subtypes, f)
		case 3:
			t.fieldNames = append(t.fieldNames, string(f.bytes))
		case 4:
			t.maxLength = uint32(f.varint)
		case 5:
			t.precision = uint32(f.varint)
		case 6:
			t.scale = uint32(f.varint)
		}
		return err
	})
	return t, err
}

// stripeFooter mirrors orc.proto's StripeFooter.
type stripeFooter struct {
	streams        []streamInfo
	encodings      []columnEncoding
	writerTimezone string
}

func parseStripeFooter(b []byte) (stripeFooter, error) {
	var sf stripeFooter
	err := eachField(b, func(f protoField) error {
		switch f.num {
		case 1:
			s, err := parseStream(f.bytes)
			sf.streams = append(sf.streams, s)
			return err
		case 2:
			e, err := parseEncoding(f.bytes)
			sf.encodings = append(sf.encodings, e)
			return err
		case 3:
			sf.writerTimezone = string(f.bytes)
		}
		return nil
	})
	return sf, err
}

// streamKind mirrors orc.proto's Stream.Kind.
type streamKind uint64

const (
	streamPresent streamKind = iota
	streamData
	streamLength
	streamDictionaryData
	streamDictionaryCount
	streamSecondary
	streamRowIndex
	streamBloomFilter
	streamBloomFilterUTF8
)

// streamInfo mirrors orc.proto's Stream.
type streamInfo struct {
	kind   streamKind
	column uint32
	length uint64
}

func parseStream(b []byte) (streamInfo, error) {
	var s streamInfo
	err := eachField(b, func(f protoField) error {
		switch f.num {
		case 1:
			s.kind = streamKind(f.varint)
		case 2:
			s.column = uint32(f.varint)
		case 3:
			s.length = f.varint
		}
		return nil
	})
	return s, err
}

// encodingKind mirrors orc.proto's ColumnEncoding.Kind.
type encodingKind uint64

const (
	encodingDirect encodingKind = iota
	encodingDictionary
	encodingDirectV2
	encodingDictionaryV2
)

// columnEncoding mirrors orc.proto's ColumnEncoding.
type columnEncoding struct {
	kind           encodingKind
	dictionarySize uint32
}

// rleV2 reports whether the column's integers use run-length encoding
// version 2 (the _V2 encodings) rather than version 1.
func (e columnEncoding) rleV2() bool {
	return e.kind == encodingDirectV2 || e.kind == encodingDictionaryV2
}

func (e columnEncoding) dictionary() bool {
	return e.kind == encodingDictionary || e.kind == encodingDictionaryV2
}

func parseEncoding(b []byte) (columnEncoding, error) {
	var e columnEncoding
	err := eachField(b, func(f protoField) error {
		switch f.num {
		case 1:
			e.kind = encodingKind(f.varint)
		case 2:
			e.dictionarySize = uint32(f.varint)
		}
		return nil
	})
	return e, err
}
