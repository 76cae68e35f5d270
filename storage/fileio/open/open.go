// Package open opens a warehouse by its location: an s3://bucket/prefix URL
// on an S3-compatible object store, anything else a local directory.
package open

import (
	"context"
	"strings"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/s3io"
)

// Warehouse returns the FileIO of the warehouse at location and the root
// path of the warehouse in that FileIO's path form: the key prefix for
// s3://bucket/prefix (s3cfg says how to reach the store), the directory
// itself for a local path.
func Warehouse(ctx context.Context, location string, s3cfg s3io.Config) (fileio.FileIO, string, error) {
	if !strings.HasPrefix(location, s3io.Scheme) {
		return localio.New(), location, nil
	}
	bucket, prefix, err := s3io.ParseURL(location)
	if err != nil {
		return nil, "", err
	}
	fsys, err := s3io.New(ctx, bucket, s3cfg)
	if err != nil {
		return nil, "", err
	}
	return fsys, prefix, nil
}
