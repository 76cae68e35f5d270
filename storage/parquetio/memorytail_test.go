package parquetio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// recordingSource records the ranges read from a file, and may claim that
// its last tail bytes are in memory.
type recordingSource struct {
	*bytes.Reader
	tail  int64
	reads []string
}

func (s *recordingSource) ReadAt(p []byte, off int64) (int, error) {
	s.reads = append(s.reads, fmt.Sprintf("%d+%d", off, len(p)))
	return s.Reader.ReadAt(p, off)
}

type memoryTailSource struct{ *recordingSource }

func (s memoryTailSource) MemoryTail() int64 { return s.tail }

// TestOpenReadsOnlyTheMemoryTail checks that Open of a Source holding the
// footer in memory reads exactly those bytes, and that a claimed tail too
// short for the footer still opens the file correctly.
func TestOpenReadsOnlyTheMemoryTail(t *testing.T) {
	fields, rows := allTypesFields(), allTypesRows()
	data := writeFile(t, fields, rows, WriterOptions{})
	size := int64(len(data))
	footerTail := int64(binary.LittleEndian.Uint32(data[size-8:])) + 8
	for _, tc := range []struct {
		name  string
		src   Source
		reads []string
	}{
		{"no memory tail", &recordingSource{Reader: bytes.NewReader(data)},
			[]string{fmt.Sprintf("0+%d", size)}},
		{"footer in memory", memoryTailSource{&recordingSource{Reader: bytes.NewReader(data), tail: footerTail}},
			[]string{fmt.Sprintf("%d+%d", size-footerTail, footerTail)}},
		{"part of the footer in memory", memoryTailSource{&recordingSource{Reader: bytes.NewReader(data), tail: 16}},
			[]string{fmt.Sprintf("%d+16", size-16), fmt.Sprintf("%d+%d", size-footerTail, footerTail)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Open(tc.src, "memorytail.parquet")
			if err != nil {
				t.Fatal(err)
			}
			var reads []string
			switch s := tc.src.(type) {
			case *recordingSource:
				reads = s.reads
			case memoryTailSource:
				reads = s.reads
			}
			if fmt.Sprint(reads) != fmt.Sprint(tc.reads) {
				t.Errorf("Open read %v, want %v", reads, tc.reads)
			}
			got, _, err := readAll(t, r, requestsOf(fields))
			if err != nil {
				t.Fatal(err)
			}
			checkRows(t, got, rows)
		})
	}
}
