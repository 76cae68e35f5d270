// Package open opens a warehouse by its location: an s3://bucket/prefix URL
// on an S3-compatible object store, anything else a local directory.
package open

import (
	"context"
	"strings"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/cacheio"
	"github.com/lakesql/lakesql/storage/fileio/footercache"
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

// manifestCacheBytes bounds the manifests a long-running process keeps in
// memory for an object-store warehouse: every commit and every plan reads
// the manifests of its snapshot, each a round trip to the store otherwise.
const manifestCacheBytes = 64 << 20

// footerCacheBytes bounds the Parquet footers it keeps (a few KB a data
// file): a read whose filter every row group of a file fails then makes no
// request to the store for the file.
const footerCacheBytes = 32 << 20

// CachedWarehouse is Warehouse for a long-running process (a server, a
// compaction service): on an object store, manifests and data file footers,
// which are never rewritten under the same name, are cached in memory
// within fixed bounds. A local warehouse is not cached: the operating
// system's page cache already serves it.
func CachedWarehouse(ctx context.Context, location string, s3cfg s3io.Config) (fileio.FileIO, string, error) {
	fsys, root, err := Warehouse(ctx, location, s3cfg)
	if err != nil || !strings.HasPrefix(location, s3io.Scheme) {
		return fsys, root, err
	}
	return footercache.New(cacheio.New(fsys, manifestCacheBytes), footerCacheBytes), root, nil
}
