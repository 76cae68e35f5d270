package s3io

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/lakesql/lakesql/storage/fileio"
)

// deleteBatchSize is the most keys one DeleteObjects request may name.
const deleteBatchSize = 1000

// List returns the direct children of dir in lexical order: the objects
// whose key continues dir's by one element, and as directories the
// elements more keys continue with. A dir with no key below it lists as
// empty. All pages of the listing are read.
func (f *FS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "list", Path: dir, Err: err}
	}
	prefix := dirPrefix(objectKey(dir))
	pages := s3.NewListObjectsV2Paginator(f.client, &s3.ListObjectsV2Input{
		Bucket:    &f.bucket,
		Prefix:    &prefix,
		Delimiter: aws.String("/"),
		MaxKeys:   aws.Int32(f.pageSize),
	})
	var infos []fileio.FileInfo
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, &fs.PathError{Op: "list", Path: dir, Err: err}
		}
		infos = appendChildren(infos, dir, prefix, page)
	}
	slices.SortFunc(infos, func(a, b fileio.FileInfo) int { return strings.Compare(a.Path, b.Path) })
	// A server may repeat a directory on the page after the one it ended
	// (gofakes3 resumes after the last key below it, not after the prefix).
	return slices.CompactFunc(infos, func(a, b fileio.FileInfo) bool { return a.Path == b.Path && a.IsDir && b.IsDir }), nil
}

func appendChildren(infos []fileio.FileInfo, dir, prefix string, page *s3.ListObjectsV2Output) []fileio.FileInfo {
	for _, obj := range page.Contents {
		name := strings.TrimPrefix(aws.ToString(obj.Key), prefix)
		// A key equal to the prefix is a directory marker some tools
		// create; the directory itself is not its own child.
		if name == "" {
			continue
		}
		infos = append(infos, fileio.FileInfo{
			Path:    path.Join(dir, name),
			Size:    aws.ToInt64(obj.Size),
			ModTime: aws.ToTime(obj.LastModified),
		})
	}
	for _, common := range page.CommonPrefixes {
		name := strings.TrimSuffix(strings.TrimPrefix(aws.ToString(common.Prefix), prefix), "/")
		if name == "" {
			continue
		}
		infos = append(infos, fileio.FileInfo{Path: path.Join(dir, name), IsDir: true})
	}
	return infos
}

// dirPrefix is the key prefix of the keys below the directory key.
func dirPrefix(key string) string {
	if key == "" {
		return ""
	}
	return key + "/"
}

// hasChildren reports whether some key lies below key, which makes key a
// directory. A listing S3 denies (credentials without s3:ListBucket) finds
// nothing, so that Stat and the write checks need no such permission.
func (f *FS) hasChildren(ctx context.Context, key string) (bool, error) {
	prefix := dirPrefix(key)
	// Two keys, so that a directory marker (the prefix itself) alone does
	// not hide a real child.
	out, err := f.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{
		Bucket:  &f.bucket,
		Prefix:  &prefix,
		MaxKeys: aws.Int32(2),
	})
	if isAccessDenied(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, obj := range out.Contents {
		if aws.ToString(obj.Key) != prefix {
			return true, nil
		}
	}
	return false, nil
}

// DeleteFiles removes the objects at paths with DeleteObjects requests of
// up to 1000 keys, for removing many files (expired snapshots, orphans) in
// a few requests rather than a Delete each. Unlike Delete, and like S3, it
// treats a missing path as deleted. The error joins one *fs.PathError per
// path S3 failed to delete.
func (f *FS) DeleteFiles(ctx context.Context, paths []string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete files: %w", err)
	}
	pathOf := make(map[string]string, len(paths))
	ids := make([]types.ObjectIdentifier, 0, len(paths))
	for _, p := range paths {
		key := objectKey(p)
		if _, dup := pathOf[key]; dup {
			continue
		}
		pathOf[key] = p
		ids = append(ids, types.ObjectIdentifier{Key: aws.String(key)})
	}
	var errs []error
	for batch := range slices.Chunk(ids, f.deleteBatch) {
		out, err := f.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: &f.bucket,
			Delete: &types.Delete{Objects: batch, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return errors.Join(append(errs, fmt.Errorf("delete files: %w", err))...)
		}
		for _, failed := range out.Errors {
			key := aws.ToString(failed.Key)
			errs = append(errs, &fs.PathError{Op: "delete", Path: pathOf[key],
				Err: fmt.Errorf("%s: %s", aws.ToString(failed.Code), aws.ToString(failed.Message))})
		}
	}
	return errors.Join(errs...)
}
