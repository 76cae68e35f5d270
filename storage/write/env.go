package write

import (
	"context"
	"errors"
	"path"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
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

// deleteFiles deletes data files of a bucket directory with their extra
// files (indexes); files already gone are not an error.
func (e *writerEnv) deleteFiles(ctx context.Context, dir string, files []spec.DataFileMeta) error {
	var errs []error
	for _, f := range files {
		errs = append(errs, e.deleteFile(ctx, path.Join(dir, f.FileName)), e.deleteExtraFiles(ctx, dir, f))
	}
	return errors.Join(errs...)
}

// deleteIndexFiles deletes index files of the bucket in dir.
func (e *writerEnv) deleteIndexFiles(ctx context.Context, t *table.Table, schema *spec.TableSchema, dir string, files []spec.IndexFileMeta) error {
	var errs []error
	for i := range files {
		errs = append(errs, e.deleteFile(ctx, t.BucketIndexFilePath(schema, dir, &files[i])))
	}
	return errors.Join(errs...)
}

// deleteExtraFiles deletes the extra files of a data file.
func (e *writerEnv) deleteExtraFiles(ctx context.Context, dir string, f spec.DataFileMeta) error {
	var errs []error
	for _, extra := range f.ExtraFiles {
		errs = append(errs, e.deleteFile(ctx, path.Join(dir, extra)))
	}
	return errors.Join(errs...)
}

func (e *writerEnv) deleteFile(ctx context.Context, p string) error {
	if err := e.io.Delete(ctx, p); err != nil && !errors.Is(err, fileio.ErrNotExist) {
		return err
	}
	return nil
}
