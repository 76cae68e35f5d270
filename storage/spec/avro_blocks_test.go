package spec

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// TestAvroBlocksStreams: a file of several blocks streams block by block
// with the writer schema and every record, and a truncated file is
// corruption.
func TestAvroBlocksStreams(t *testing.T) {
	data, err := EncodeManifestEntries(mfSyntheticEntries(2000))
	if err != nil {
		t.Fatal(err)
	}
	var records int64
	blocks := 0
	b, err := NewAvroBlocks(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !bytes.Equal(b.Schema(), []byte(manifestFormat.text)) {
		t.Errorf("schema %.80s…", b.Schema())
	}
	for {
		count, _, err := b.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		records += count
		blocks++
	}
	if records != 2000 || blocks < 2 {
		t.Errorf("%d records in %d blocks, want 2000 in several", records, blocks)
	}
	for _, n := range []int{len(data) - 1, len(data) - 17, len(data) / 2, 10} {
		if err := drain(data[:n], int64(len(data))); !errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("truncated to %d: got %v, want corruption", n, err)
		}
	}
}

// drain reads every block of a stream that claims to be size bytes.
func drain(data []byte, size int64) error {
	b, err := NewAvroBlocks(bytes.NewReader(data), size)
	if err != nil {
		return err
	}
	defer b.Close()
	for {
		if _, _, err := b.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}
