package s3io

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/fileiotest"
)

// The versitygw tests run when LAKESQL_S3_ENDPOINT names a server, such as
// the one .ci/s3-server starts; credentials and region come from the
// standard AWS environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_REGION).
const (
	endpointEnv = "LAKESQL_S3_ENDPOINT"
	// bucketEnv names the bucket the tests use, created if missing.
	bucketEnv     = "LAKESQL_S3_BUCKET"
	defaultBucket = "lakesql-test"
)

// The parent test tells helper processes of the multi-process race which
// server to reach; they inherit its environment.
const (
	helperEndpointEnv = "LAKESQL_S3IO_HELPER_ENDPOINT"
	helperBucketEnv   = "LAKESQL_S3IO_HELPER_BUCKET"
	helperKeyEnv      = "LAKESQL_S3IO_HELPER_ACCESS_KEY"
)

// target is an S3 server the tests run against.
type target struct {
	endpoint, bucket string
	// accessKey is set for gofakes3, which accepts any credentials; empty
	// means the credential chain.
	accessKey string
}

func (tg target) config() Config {
	cfg := Config{Endpoint: tg.endpoint, PathStyle: true, MaxBackoff: 10 * time.Millisecond}
	if tg.accessKey != "" {
		cfg.AccessKeyID, cfg.SecretAccessKey, cfg.Region = tg.accessKey, tg.accessKey, "us-east-1"
	}
	return cfg
}

func (tg target) open(t *testing.T) *FS {
	t.Helper()
	return tg.openWith(t, tg.config())
}

func (tg target) openWith(t *testing.T, cfg Config) *FS {
	t.Helper()
	f, err := New(t.Context(), tg.bucket, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// withTransport returns tg's config sending every request through rt.
func (tg target) withTransport(rt http.RoundTripper) Config {
	cfg := tg.config()
	cfg.HTTPClient = &http.Client{Transport: rt}
	return cfg
}

// fakeServer serves an empty in-memory gofakes3 on loopback, so that the
// helper processes of the multi-process race reach it as well.
func fakeServer(t *testing.T) (target, *s3mem.Backend) {
	t.Helper()
	backend := s3mem.New()
	tg := target{bucket: "lakesql", accessKey: "fake"}
	if err := backend.CreateBucket(tg.bucket); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	tg.endpoint = srv.URL
	return tg, backend
}

// versitygwServer returns the server LAKESQL_S3_ENDPOINT names, with its
// test bucket created, or skips the test.
func versitygwServer(t *testing.T) target {
	t.Helper()
	endpoint := os.Getenv(endpointEnv)
	if endpoint == "" {
		t.Skipf("%s is not set: start a server with `eval \"$(.ci/s3-server start)\"` to run the tests against versitygw", endpointEnv)
	}
	tg := target{endpoint: endpoint, bucket: os.Getenv(bucketEnv)}
	if tg.bucket == "" {
		tg.bucket = defaultBucket
	}
	f := tg.open(t)
	_, err := f.client.CreateBucket(t.Context(), &s3.CreateBucketInput{Bucket: &tg.bucket})
	if err != nil && errorCode(err) != "BucketAlreadyOwnedByYou" {
		t.Fatalf("create bucket %s at %s: %v", tg.bucket, endpoint, err)
	}
	return tg
}

// testRoot is a key prefix of its own for each test, apart from those of
// earlier runs (-count, or earlier go test runs against the same server).
func testRoot(t *testing.T) string {
	return path.Join("s3io-test", rand.Text()[:12], t.Name())
}

// helperHarness is the harness of the helper processes; only its
// MultiProcess.Open runs in them.
var helperHarness = fileiotest.Harness{
	MultiProcess: &fileiotest.MultiProcess{
		HelperTest: "TestMultiProcessHelper",
		Open:       openHelperFS,
		Processes:  8,
		Rounds:     4,
	},
}

func TestMultiProcessHelper(t *testing.T) { fileiotest.RunHelper(t, helperHarness) }

func openHelperFS(string) (fileio.FileIO, error) {
	tg := target{
		endpoint:  os.Getenv(helperEndpointEnv),
		bucket:    os.Getenv(helperBucketEnv),
		accessKey: os.Getenv(helperKeyEnv),
	}
	if tg.endpoint == "" || tg.bucket == "" {
		return nil, errors.New("helper started without a server to reach")
	}
	return New(context.Background(), tg.bucket, tg.config())
}

// runConformance runs the whole fileio conformance suite against tg,
// including the race between OS processes.
func runConformance(t *testing.T, tg target) {
	t.Setenv(helperEndpointEnv, tg.endpoint)
	t.Setenv(helperBucketEnv, tg.bucket)
	t.Setenv(helperKeyEnv, tg.accessKey)
	fileiotest.Run(t, fileiotest.Harness{
		New:          func(t *testing.T) (fileio.FileIO, string) { return tg.open(t), testRoot(t) },
		MultiProcess: helperHarness.MultiProcess,
	})
}

func TestConformanceGofakes3(t *testing.T) {
	tg, _ := fakeServer(t)
	runConformance(t, tg)
}

func TestConformanceVersitygw(t *testing.T) {
	runConformance(t, versitygwServer(t))
}
