package table

import (
	"errors"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// A panic on a worker goroutine would end the process; reading a split
// must turn it into an error naming the split's files.
func TestPanicReadingSplitIsAnError(t *testing.T) {
	tk := &task{split: &Split{Files: []spec.DataFileMeta{{FileName: "data-1.parquet"}}}}
	err := func() (err error) {
		defer recoverSplit(tk, &err)
		var values []int
		return errors.New(string(rune(values[3]))) // index out of range
	}()
	if !errors.Is(err, lakeerr.ErrCorruption) || !strings.Contains(err.Error(), "data-1.parquet") {
		t.Fatalf("got %v, want a corruption error naming data-1.parquet", err)
	}
}
