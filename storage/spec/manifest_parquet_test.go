package spec

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// TestParquetManifestsUnsupported: Java writes manifests and manifest lists
// as Parquet with manifest.format = parquet. The Avro codec of this package
// refuses them as unsupported, naming the option, rather than reporting
// them as corrupt (interop finding F12); package manifest decodes them.
func TestParquetManifestsUnsupported(t *testing.T) {
	list, err := os.ReadFile("testdata/manifest-parquet/manifest-list-delta")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadFile("testdata/manifest-parquet/manifest")
	if err != nil {
		t.Fatal(err)
	}
	for name, decode := range map[string]func() error{
		"manifest list":  func() error { _, err := DecodeManifestList(list); return err },
		"manifest":       func() error { _, err := DecodeManifestEntries(entries); return err },
		"index manifest": func() error { _, err := DecodeIndexManifest(entries); return err },
	} {
		err := decode()
		if !errors.Is(err, lakeerr.ErrUnsupported) || errors.Is(err, lakeerr.ErrCorruption) ||
			!strings.Contains(err.Error(), "unsupported: Parquet manifests (manifest.format=parquet)") {
			t.Errorf("%s: got %v", name, err)
		}
	}
}
