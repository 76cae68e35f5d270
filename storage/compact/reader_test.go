package compact

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// TestNonParquetFilesRefused: compaction reads Parquet only, so a table
// holding avro or orc files (file.format changed, or per level) is refused
// naming the file, before anything is read.
func TestNonParquetFilesRefused(t *testing.T) {
	r := &fileReader{io: memio.New()}
	for _, name := range []string{"data-1.avro", "data-2.orc"} {
		_, err := r.open(context.Background(), "t/bucket-0/"+name)
		if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "cannot compact") || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v, want unsupported naming the file", name, err)
		}
	}
}
