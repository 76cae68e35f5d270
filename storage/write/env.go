package write

import (
	"context"
	"errors"
	"path"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// writerEnv is what every bucket writer of a TableWriter shares.
type writerEnv struct {
	io       fileio.FileIO
	tableDir string
	settings *tableSettings
	now      func() time.Time
	newUUID  func() string
	spills   *spillDir
}

// deleteFiles deletes data files of a bucket directory; files already gone
// are not an error.
func (e *writerEnv) deleteFiles(ctx context.Context, dir string, files []spec.DataFileMeta) error {
	var errs []error
	for _, f := range files {
		err := e.io.Delete(ctx, path.Join(dir, f.FileName))
		if err != nil && !errors.Is(err, fileio.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
