package parquetio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// smallFixture is a Java-written file with nested columns, dictionary
// pages and INT96 values: many code paths in 1.8 KB.
func smallFixture(t testing.TB) []byte {
	t.Helper()
	path := filepath.Join(fixtures.TableDir("paimon-java/append_complex_build_in_fieldid"),
		"bucket-0/data-3570e113-9ede-4c86-bf5d-040085424886-0.parquet")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// decodeBytes opens data and decodes every column with its inferred type.
func decodeBytes(data []byte) error {
	r, err := Open(bytes.NewReader(data), "test.parquet")
	if err != nil {
		return err
	}
	var requests []ColumnRequest
	for _, c := range r.Schema() {
		if c.Type.Root != 0 {
			requests = append(requests, ColumnRequest{Name: c.Name, Type: c.Type})
		}
	}
	it, err := r.NewRowIterator(requests)
	if err != nil {
		return err
	}
	defer it.Close()
	rows := make([][]any, 7)
	for {
		if _, err := it.NextBatch(rows); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func requireCorruption(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("%s: got %v, want ErrCorruption", what, err)
	}
}

func TestTruncatedFilesAreCorrupt(t *testing.T) {
	data := smallFixture(t)
	for n := 0; n < len(data); n++ {
		err := decodeBytes(data[:n])
		requireCorruption(t, "truncated", err)
	}
}

func TestGarbageIsCorrupt(t *testing.T) {
	cases := map[string][]byte{
		"empty":         {},
		"text":          []byte("this is not a parquet file at all"),
		"magic only":    []byte("PAR1PAR1PAR1"),
		"huge footer":   append([]byte("PAR1garbage"), 0xff, 0xff, 0xff, 0x7f, 'P', 'A', 'R', '1'),
		"garbage body":  append(append([]byte("PAR1"), bytes.Repeat([]byte{0x55}, 200)...), 100, 0, 0, 0, 'P', 'A', 'R', '1'),
		"no footer tag": append([]byte("PAR1"), bytes.Repeat([]byte{0}, 64)...),
	}
	for name, data := range cases {
		requireCorruption(t, name, decodeBytes(data))
	}
}

func TestEncryptedFileIsUnsupported(t *testing.T) {
	data := append(append([]byte("PAR1"), bytes.Repeat([]byte{0}, 20)...), "PARE"...)
	if err := decodeBytes(data); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Fatalf("got %v, want ErrUnsupported", err)
	}
}

// corruptionSeeds are the files the corruption tests damage: a Java file,
// whose page checksums stop most damage early, and a file of this
// package's writer, which has none, so damage reaches the decoders.
func corruptionSeeds(t testing.TB) map[string][]byte {
	return map[string][]byte{
		"java":   smallFixture(t),
		"writer": writeFile(t, allTypesFields(), allTypesRows(), WriterOptions{}),
	}
}

func requireClassified(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, lakeerr.ErrCorruption) && !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Fatalf("%s: unclassified error %v", what, err)
	}
}

// Flipping any single byte must give either a decodable file or a
// classified error, never a panic, a runaway allocation or an
// unclassified failure.
func TestFlippedBytesNeverPanic(t *testing.T) {
	for name, data := range corruptionSeeds(t) {
		for i := range data {
			for _, mask := range []byte{0x01, 0xff} {
				corrupt := bytes.Clone(data)
				corrupt[i] ^= mask
				requireClassified(t, fmt.Sprintf("%s: byte %d ^ %#x", name, i, mask), decodeBytes(corrupt))
			}
		}
	}
}

func TestRandomDamageNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, data := range corruptionSeeds(t) {
		for i := range 2000 {
			corrupt := bytes.Clone(data)
			for range 1 + rng.IntN(4) {
				corrupt[rng.IntN(len(corrupt))] = byte(rng.IntN(256))
			}
			requireClassified(t, fmt.Sprintf("%s: mutation %d", name, i), decodeBytes(corrupt))
		}
	}
}

type failingSource struct {
	*bytes.Reader
	failAt int64
}

var errStorage = errors.New("storage unavailable")

func (s failingSource) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > s.failAt {
		return 0, errStorage
	}
	return s.Reader.ReadAt(p, off)
}

// A storage failure is reported as itself, not as corruption, so callers
// may retry it.
func TestStorageErrorsAreNotCorruption(t *testing.T) {
	data := smallFixture(t)
	for _, failAt := range []int64{0, 100, int64(len(data)) - 10} {
		src := failingSource{Reader: bytes.NewReader(data), failAt: failAt}
		r, err := Open(src, "test.parquet")
		if err == nil {
			_, _, err = readAll(t, r, []ColumnRequest{{Name: "f5", Type: r.Schema()[4].Type}})
		}
		if !errors.Is(err, errStorage) || errors.Is(err, lakeerr.ErrCorruption) {
			t.Errorf("fail at %d: got %v, want the storage error", failAt, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, data := range corruptionSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		requireClassified(t, "fuzz", decodeBytes(data))
	})
}
