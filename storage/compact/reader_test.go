package compact

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestNonParquetFilesRefused: compaction reads Parquet only, so a job that
// would read avro or orc files (file.format changed, or per level) is
// refused naming the file before anything is written, and so is opening
// one. The inline compactor writes such buckets without compaction.
func TestNonParquetFilesRefused(t *testing.T) {
	for _, name := range []string{"data-1.avro", "data-2.orc"} {
		check := func(what string, err error) {
			if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "cannot compact") || !strings.Contains(err.Error(), name) {
				t.Errorf("%s %s: got %v, want unsupported naming the file", what, name, err)
			}
		}
		files := []*spec.DataFileMeta{{FileName: "data-0.parquet"}, {FileName: name}}
		_, err := newRewriter(&Options{}, nil, &tableConfig{}, []*job{{groups: [][]*spec.DataFileMeta{files}}})
		check("rewrite", err)
		_, err = (&fileReader{io: memio.New()}).open(context.Background(), "t/bucket-0/"+name)
		check("open", err)
	}
}

// TestNonParquetTablesRefused: a table whose file.format is not parquet
// is refused naming the option, before its files are looked at.
func TestNonParquetTablesRefused(t *testing.T) {
	for _, format := range []string{"avro", "orc"} {
		s := &spec.TableSchema{Options: map[string]string{spec.OptionFileFormat: format}}
		err := checkCompactable(s.CoreOptions(), false)
		if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "file.format "+format) {
			t.Errorf("%s: got %v, want unsupported naming file.format", format, err)
		}
	}
}
