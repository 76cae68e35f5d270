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

// TestUnreadableFilesRefused: a job that would read a file of a format
// lakesql does not read, or a blob file (data-evolution tables keep them
// beside their data files), is refused naming the file before anything
// is written, and so is opening one.
func TestUnreadableFilesRefused(t *testing.T) {
	for _, name := range []string{"data-1.lance", "data-2.blob"} {
		check := func(what string, err error) {
			if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), name) {
				t.Errorf("%s %s: got %v, want unsupported naming the file", what, name, err)
			}
		}
		files := []*spec.DataFileMeta{{FileName: "data-0.parquet"}, {FileName: name}}
		_, err := newRewriter(&Options{}, nil, &tableConfig{}, []*job{{groups: [][]*spec.DataFileMeta{files}}})
		check("rewrite", err)
		_, err = (&fileReader{io: memio.New()}).open(context.Background(), "t/bucket-0/"+name, files[1])
		check("open", err)
	}
}
