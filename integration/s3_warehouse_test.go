package integration

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/open"
	"github.com/lakesql/lakesql/storage/fileio/s3io"
)

// The tests of this package run on an S3 warehouse when
// LAKESQL_IT_WAREHOUSE=s3 and LAKESQL_S3_ENDPOINT names an S3-compatible
// server, such as the versitygw .ci/s3-server starts (.ci/s3-tests does
// both). Credentials and region come from the standard AWS environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION). The tests that
// exist only for S3 (several servers on one bucket, lost responses) run
// whenever LAKESQL_S3_ENDPOINT is set.
const (
	warehouseEnv  = "LAKESQL_IT_WAREHOUSE"
	s3EndpointEnv = "LAKESQL_S3_ENDPOINT"
	// s3BucketEnv names the bucket the tests use, created if missing.
	s3BucketEnv     = "LAKESQL_S3_BUCKET"
	defaultS3Bucket = "lakesql-it"
)

// warehousesOnS3 reports whether the tests' warehouses are on S3.
func warehousesOnS3() bool { return os.Getenv(warehouseEnv) == "s3" }

// newWarehouse is where a test's warehouse lives: a directory of its own,
// or, with LAKESQL_IT_WAREHOUSE=s3, a key prefix of its own in the test
// bucket. Either way it is the value of --warehouse.
func newWarehouse(t testing.TB) string {
	t.Helper()
	if !warehousesOnS3() {
		return path.Join(t.TempDir(), "warehouse")
	}
	if os.Getenv(s3EndpointEnv) == "" {
		t.Fatalf("%s=s3 needs %s: start a server with `eval \"$(.ci/s3-server start)\"`", warehouseEnv, s3EndpointEnv)
	}
	return newS3Warehouse(t)
}

// newS3Warehouse returns s3://bucket/prefix/warehouse, with a prefix apart
// from every other test and earlier run, or skips the test when no S3
// server is configured.
func newS3Warehouse(t testing.TB) string {
	t.Helper()
	if os.Getenv(s3EndpointEnv) == "" {
		t.Skipf("%s is not set: start a server with `eval \"$(.ci/s3-server start)\"` to run the S3 tests against versitygw", s3EndpointEnv)
	}
	bucket := os.Getenv(s3BucketEnv)
	if bucket == "" {
		bucket = defaultS3Bucket
	}
	createBucket(t, bucket)
	return s3io.Scheme + path.Join(bucket, "it", rand.Text()[:12], t.Name(), "warehouse")
}

// testS3Config is how the tests and the processes they start reach the
// S3 server: its endpoint, path-style, and the AWS environment's
// credentials.
func testS3Config() s3io.Config {
	return s3io.Config{Endpoint: os.Getenv(s3EndpointEnv), PathStyle: true}
}

// createBucket makes the test bucket if it does not exist yet. Only tests
// do that: a server expects its bucket.
func createBucket(t testing.TB, bucket string) {
	t.Helper()
	ctx := context.Background()
	cfg, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		t.Fatal(err)
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = aws.String(os.Getenv(s3EndpointEnv))
		o.UsePathStyle = true
		if o.Region == "" {
			o.Region = "us-east-1"
		}
	})
	_, err = client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)})
	var apiErr smithy.APIError
	if err != nil && !(errors.As(err, &apiErr) && apiErr.ErrorCode() == "BucketAlreadyOwnedByYou") {
		t.Fatalf("create bucket %s: %v", bucket, err)
	}
}

// openWarehouse returns the FileIO of a warehouse location and the
// warehouse's root path in it.
func openWarehouse(t testing.TB, location string) (fileio.FileIO, string) {
	t.Helper()
	fsys, root, err := openLocation(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	return fsys, root
}

// openLocation opens a warehouse or table location, a directory or an
// s3:// URL, as the server and the helper processes do.
func openLocation(ctx context.Context, location string) (fileio.FileIO, string, error) {
	return open.Warehouse(ctx, location, testS3Config())
}

// parentLocation is the location holding location: its directory, or its
// key prefix one level up.
func parentLocation(location string) string {
	if rest, ok := strings.CutPrefix(location, s3io.Scheme); ok {
		return s3io.Scheme + path.Dir(rest)
	}
	return path.Dir(location)
}

// listTree lists every file and directory under location.
func listTree(t *testing.T, location string) []string {
	t.Helper()
	fsys, root := openWarehouse(t, location)
	var paths []string
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fsys.List(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			paths = append(paths, e.Path)
			if e.IsDir {
				walk(e.Path)
			}
		}
	}
	walk(root)
	return paths
}
