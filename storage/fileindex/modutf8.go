package fileindex

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// appendJavaUTF appends s as java.io.DataOutput.writeUTF does: a 2-byte
// big-endian length, then modified UTF-8 of the UTF-16 code units (NUL as
// two bytes, a supplementary character as two 3-byte surrogates).
func appendJavaUTF(dst []byte, s string) ([]byte, error) {
	units := utf16.Encode([]rune(s))
	var body []byte
	for _, u := range units {
		switch {
		case u >= 0x0001 && u <= 0x007F:
			body = append(body, byte(u))
		case u <= 0x07FF:
			body = append(body, byte(0xC0|u>>6), byte(0x80|u&0x3F))
		default:
			body = append(body, byte(0xE0|u>>12), byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
		}
	}
	if len(body) > 0xFFFF {
		return nil, fmt.Errorf("fileindex: name of %d bytes exceeds Java's writeUTF limit", len(body))
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(body)))
	return append(dst, body...), nil
}

// readJavaUTF decodes what appendJavaUTF writes, returning the rest of b.
func readJavaUTF(b []byte) (string, []byte, error) {
	if len(b) < 2 {
		return "", nil, errTruncated
	}
	n := int(binary.BigEndian.Uint16(b))
	if len(b) < 2+n {
		return "", nil, errTruncated
	}
	body, rest := b[2:2+n], b[2+n:]
	units := make([]uint16, 0, n)
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c&0x80 == 0:
			units = append(units, uint16(c))
			i++
		case c&0xE0 == 0xC0 && i+1 < len(body):
			units = append(units, uint16(c&0x1F)<<6|uint16(body[i+1]&0x3F))
			i += 2
		case c&0xF0 == 0xE0 && i+2 < len(body):
			units = append(units, uint16(c&0x0F)<<12|uint16(body[i+1]&0x3F)<<6|uint16(body[i+2]&0x3F))
			i += 3
		default:
			return "", nil, fmt.Errorf("%w: malformed modified UTF-8 name", errCorrupt)
		}
	}
	return string(utf16.Decode(units)), rest, nil
}
