package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// mfKind is which of the three Avro manifest formats a file holds,
// known from its name prefix.
type mfKind int

const (
	mfKindList mfKind = iota
	mfKindEntries
	mfKindIndex
)

type mfFixture struct {
	path string
	kind mfKind
	data []byte
}

func (f mfFixture) name() string {
	rel, err := filepath.Rel(fixtures.Root(), f.path)
	if err != nil {
		return f.path
	}
	return rel
}

func (f mfFixture) isORC() bool { return bytes.HasPrefix(f.data, []byte("ORC")) }

// mfFixtures returns every manifest list, manifest and index manifest
// of the bundled Java-written tables (branches included) and of the legacy
// test data.
func mfFixtures(t testing.TB) []mfFixture {
	t.Helper()
	var out []mfFixture
	for _, root := range []string{fixtures.Root(), "testdata/manifest-legacy"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			kind, ok := mfKindOf(d.Name())
			if !ok {
				return nil
			}
			data, err := os.ReadFile(path)
			out = append(out, mfFixture{path: path, kind: kind, data: data})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 300 {
		t.Fatalf("found only %d manifest fixtures", len(out))
	}
	return out
}

func mfKindOf(name string) (mfKind, bool) {
	switch {
	case strings.HasPrefix(name, "manifest-list-"):
		return mfKindList, true
	case strings.HasPrefix(name, "index-manifest-"):
		return mfKindIndex, true
	case strings.HasPrefix(name, "manifest-"):
		return mfKindEntries, true
	}
	return 0, false
}

// mfRoundTrip decodes data, re-encodes and decodes again, and returns the
// first decoding, the re-encoded file and the second decoding.
func mfRoundTrip(t *testing.T, kind mfKind, data []byte) (first any, encoded []byte, second any) {
	t.Helper()
	var err error
	switch kind {
	case mfKindList:
		first, encoded, second, err = mfRoundTripWith(data, DecodeManifestList, EncodeManifestList)
	case mfKindEntries:
		first, encoded, second, err = mfRoundTripWith(data, DecodeManifestEntries, EncodeManifestEntries)
	case mfKindIndex:
		first, encoded, second, err = mfRoundTripWith(data, DecodeIndexManifest, EncodeIndexManifest)
	}
	if err != nil {
		t.Fatal(err)
	}
	return first, encoded, second
}

func mfRoundTripWith[T any](data []byte, decode func([]byte) ([]T, error), encode func([]T) ([]byte, error)) (any, []byte, any, error) {
	first, err := decode(data)
	if err != nil {
		return nil, nil, nil, err
	}
	encoded, err := encode(first)
	if err != nil {
		return nil, nil, nil, err
	}
	second, err := decode(encoded)
	return first, encoded, second, err
}

// mfWriterSchema returns the avro.schema header of a container file.
func mfWriterSchema(t testing.TB, data []byte) []byte {
	t.Helper()
	dec, err := ocf.NewDecoder(bytes.NewReader(data), ocf.WithDecoderSchemaCache(&avro.SchemaCache{}))
	if err != nil {
		t.Fatal(err)
	}
	return dec.Metadata()["avro.schema"]
}

// mfCanonicalJSON re-serializes JSON with sorted keys and no spaces.
func mfCanonicalJSON(t testing.TB, text []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// mfCurrentJavaSchemas are the writer schemas of the newest Java writer, which
// our encoder must reproduce exactly.
func mfCurrentJavaSchemas() map[mfKind]string {
	return map[mfKind]string{
		mfKindList:    manifestListSchemaText,
		mfKindEntries: manifestSchemaText,
		mfKindIndex:   indexManifestSchemaText,
	}
}

func TestManifestFixturesRoundTrip(t *testing.T) {
	counts := map[string]int{}
	for _, f := range mfFixtures(t) {
		t.Run(f.name(), func(t *testing.T) {
			if f.isORC() {
				mfAssertORCUnsupported(t, f)
				counts["orc"]++
				return
			}
			first, encoded, second := mfRoundTrip(t, f.kind, f.data)
			if !reflect.DeepEqual(first, second) {
				t.Fatalf("round trip changed the records:\nfirst:  %+v\nsecond: %+v", first, second)
			}
			original, ours := mfWriterSchema(t, f.data), mfWriterSchema(t, encoded)
			if string(ours) != mfCurrentJavaSchemas()[f.kind] {
				t.Fatalf("encoder wrote schema %s", ours)
			}
			if mfCanonicalJSON(t, original) == mfCanonicalJSON(t, ours) {
				if !bytes.Equal(original, ours) {
					t.Fatalf("same schema, different text:\njava: %s\nours: %s", original, ours)
				}
				counts["current-shape"]++
			}
			counts["avro"]++
		})
	}
	t.Logf("fixtures: %v", counts)
	if counts["current-shape"] < 90 {
		t.Errorf("only %d fixtures have the current Java schema", counts["current-shape"])
	}
}

func mfAssertORCUnsupported(t *testing.T, f mfFixture) {
	t.Helper()
	var err error
	switch f.kind {
	case mfKindList:
		_, err = DecodeManifestList(f.data)
	case mfKindEntries:
		_, err = DecodeManifestEntries(f.data)
	case mfKindIndex:
		_, err = DecodeIndexManifest(f.data)
	}
	if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "unsupported: ORC manifests") {
		t.Fatalf("ORC manifest: got %v", err)
	}
}
