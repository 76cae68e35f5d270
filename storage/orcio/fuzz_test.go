package orcio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// orcSeeds are every ORC file of the bundled fixtures (Java's manifests)
// and of the pyarrow corpus.
func orcSeeds(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, root := range []string{fixtures.Root(), filepath.Join("testdata", "pyarrow")} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err == nil && bytes.HasPrefix(data, []byte(magic)) {
				out[p] = data
			}
			return err
		})
		if err != nil && !os.IsNotExist(err) {
			tb.Fatal(err)
		}
	}
	if len(out) == 0 {
		tb.Fatal("no ORC seed files")
	}
	return out
}

// FuzzRead opens arbitrary bytes as an ORC file and reads every stripe's
// statistics, its row groups' statistics, every row as the file's own
// schema, and the second half of each stripe, skipping the first: it must
// never panic, and every failure is a corruption or unsupported error
// naming the file.
func FuzzRead(f *testing.F) {
	for _, data := range orcSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := readWhole(data)
		if err == nil {
			return
		}
		if !errors.Is(err, lakeerr.ErrCorruption) && !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Fatalf("unclassified error: %v", err)
		}
		if !strings.Contains(err.Error(), "fuzz.orc") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

func readWhole(data []byte) error {
	file, err := Open(bytes.NewReader(data), int64(len(data)), "fuzz.orc")
	if err != nil {
		return err
	}
	if file.NumRows() > fuzzMaxRows {
		return nil
	}
	fields, err := file.Fields()
	if err != nil {
		return err
	}
	var halves []RowRange
	for i, s := range file.Stripes() {
		for _, f := range fields {
			if _, _, err := file.StripeStats(i, f.Name, f.Type); err != nil {
				return err
			}
			if _, _, err := file.RowGroupStats(i, f.Name, f.Type); err != nil {
				return err
			}
		}
		halves = append(halves, RowRange{Stripe: i, From: s.NumRows / 2, To: s.NumRows})
	}
	if _, err = file.ReadRows(fields); err != nil {
		return err
	}
	// The second half of each stripe, the first skipped.
	it, err := file.NewRowIterator(fields, halves)
	if err != nil {
		return err
	}
	batch := make([][]any, batchRows)
	for {
		if _, err := it.NextBatch(batch); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// fuzzMaxRows skips files declaring more rows than the corpus has: a few
// bytes can declare millions of rows of nothing, which read correctly but
// slowly, and leave the fuzzer no time for the decoders.
const fuzzMaxRows = 1 << 16

// TestSeedsRead checks the seeds themselves read without error.
func TestSeedsRead(t *testing.T) {
	for name, data := range orcSeeds(t) {
		if err := readWhole(data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
