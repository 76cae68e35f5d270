// Package s3io is the fileio.FileIO of an S3-compatible object store, over
// aws-sdk-go-v2. An FS is bound to one bucket; its paths are object keys,
// slash-separated and cleaned (path.Clean), with a leading "/" ignored, so
// "/w/t" and "w//t" name the key "w/t".
//
// How the fileio contract maps onto S3:
//
//   - PutIfAbsent is one conditional PUT (If-None-Match: *), which S3 makes
//     atomic across every client: the loser of a race gets 412 Precondition
//     Failed, reported as fileio.ErrExist. A PUT whose outcome is unknown (the
//     connection broke or timed out after the request was sent) is never
//     re-sent blindly: the object is read back, and equal bytes mean it was
//     ours, other bytes mean another writer won, and absence means the put
//     can safely be sent again (see PutIfAbsent).
//   - Overwrite is a plain PUT: S3 replaces an object atomically.
//   - Directories do not exist in S3; a directory is implied by the keys
//     below it, as in memio. List asks for the direct children with the "/"
//     delimiter, and Stat of a path that is no object lists one key below it.
//     Writes refuse, as a disk does, an object where a directory has children
//     and an object below another object; those checks are a listing and
//     HEAD requests made before the PUT, so unlike the PUT itself they are not
//     atomic against a concurrent writer of a conflicting path. lakesql never
//     writes such paths: the checks keep an S3 warehouse storable on disk.
//   - S3 deletes are idempotent, so Delete asks HEAD first, to report a
//     missing path with fileio.ErrNotExist as the contract requires.
//
// Open fetches the last 64 KiB of the file with its first request, so that
// the reads of a Parquet footer cost no more; other reads are ranged GETs.
//
// No operation of the commit path (PutIfAbsent, Overwrite, ReadFile, Open,
// Stat, Delete) needs the s3:ListBucket permission: the listings they make
// are checks that are skipped when S3 denies them. AWS answers 403 instead
// of 404 for a missing key to credentials without s3:ListBucket;
// Config.NoListBucket tells the FS to read such a 403 as absence.
//
// Every request is retried with exponential backoff and jitter on 5xx,
// throttling and connection errors (the SDK's standard retryer, except for
// the conditional PUT, which PutIfAbsent retries itself), and a response body
// that breaks off mid-way is fetched again. Timeouts come from the caller's
// context; besides, a server that never answers a fully sent request is given
// up on after responseHeaderTimeout.
package s3io

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/lakesql/lakesql/storage/fileio"
)

// Config says how to reach the object store. The zero value uses AWS with
// the standard environment and shared-config chain (AWS_REGION,
// AWS_ACCESS_KEY_ID, AWS_PROFILE, AWS_ENDPOINT_URL_S3, ~/.aws/config, ...).
type Config struct {
	// Endpoint is the base URL of an S3-compatible server, such as
	// "http://127.0.0.1:7070". Empty means AWS (or AWS_ENDPOINT_URL_S3).
	Endpoint string `json:"endpoint"`
	// Region signs the requests. Empty means the chain's region, or
	// us-east-1 if the chain has none.
	Region string `json:"region"`
	// PathStyle addresses buckets as http://host/bucket/key rather than
	// http://bucket.host/key, as most self-hosted servers need.
	PathStyle bool `json:"path_style"`
	// AccessKeyID and SecretAccessKey (and SessionToken, for temporary
	// credentials) replace the credential chain when AccessKeyID is set.
	AccessKeyID     string `json:"access_key_id"`
	SecretAccessKey string `json:"secret_access_key"`
	SessionToken    string `json:"session_token"`
	// Profile selects a shared-config profile instead of AWS_PROFILE.
	Profile string `json:"profile"`
	// NoListBucket declares credentials without s3:ListBucket. AWS then
	// answers 403 for a missing key, which the FS reads as absence. Leave it
	// off otherwise: it would make a real permission problem look like a
	// missing file.
	NoListBucket bool `json:"no_list_bucket"`
	// MaxAttempts bounds the attempts of one operation, the first included.
	// 0 means defaultMaxAttempts.
	MaxAttempts int `json:"max_attempts"`
	// MaxBackoff caps the wait between attempts. 0 means defaultMaxBackoff.
	MaxBackoff time.Duration `json:"-"`
	// HTTPClient replaces the SDK's HTTP client; tests inject faults with
	// it. It is used as is: AWS_CA_BUNDLE and responseHeaderTimeout, which
	// configure the default client, do not apply to it.
	HTTPClient *http.Client `json:"-"`
}

const (
	defaultMaxAttempts = 5
	defaultMaxBackoff  = 20 * time.Second
	// baseBackoff is the first retry's wait before jitter; it doubles with
	// each attempt up to MaxBackoff.
	baseBackoff = 50 * time.Millisecond
	// responseHeaderTimeout bounds the wait for a response once a request
	// is fully sent. It starts after the body is written, so it holds for
	// uploads of any size; a server that swallowed the request fails the
	// attempt instead of hanging a caller whose context has no deadline.
	responseHeaderTimeout = time.Minute
	// listPageSize is the ListObjectsV2 page size, S3's maximum.
	listPageSize = 1000
	// knownDirsLimit bounds the cache of directories written into.
	knownDirsLimit = 4096
)

// FS is the FileIO of one bucket. Create it with New.
type FS struct {
	client       *s3.Client
	bucket       string
	noListBucket bool
	maxAttempts  int
	maxBackoff   time.Duration
	// pageSize and deleteBatch are listPageSize and deleteBatchSize,
	// smaller in tests of pagination and batching.
	pageSize    int32
	deleteBatch int

	// knownDirs holds directories this FS has written a file into. A write
	// below one skips the HEAD that checks it is no file: while the file
	// written into it exists, a file of its name cannot be created (the
	// directory check of PutIfAbsent and Overwrite refuses it), and only a
	// file named like a directory once emptied, which lakesql's layout
	// never creates, could make the entry wrong.
	mu        sync.Mutex
	knownDirs map[string]bool
}

var (
	_ fileio.FileIO       = (*FS)(nil)
	_ fileio.FilesDeleter = (*FS)(nil)
)

// New returns the FileIO of bucket. It sends no request: a wrong bucket or
// credentials show up at the first operation.
func New(ctx context.Context, bucket string, cfg Config) (*FS, error) {
	if bucket == "" {
		return nil, errors.New("s3io: empty bucket name")
	}
	maxAttempts := orDefault(cfg.MaxAttempts, defaultMaxAttempts)
	maxBackoff := orDefault(cfg.MaxBackoff, defaultMaxBackoff)
	awsCfg, err := config.LoadDefaultConfig(ctx, loadOptions(cfg, maxAttempts, maxBackoff)...)
	if err != nil {
		return nil, fmt.Errorf("s3io: load AWS config: %w", err)
	}
	if awsCfg.Region == "" {
		awsCfg.Region = "us-east-1"
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		o.UsePathStyle = cfg.PathStyle
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		if cfg.HTTPClient != nil {
			o.HTTPClient = cfg.HTTPClient
		}
	})
	return &FS{
		client:       client,
		bucket:       bucket,
		noListBucket: cfg.NoListBucket,
		maxAttempts:  maxAttempts,
		maxBackoff:   maxBackoff,
		pageSize:     listPageSize,
		deleteBatch:  deleteBatchSize,
		knownDirs:    map[string]bool{},
	}, nil
}

func loadOptions(cfg Config, maxAttempts int, maxBackoff time.Duration) []func(*config.LoadOptions) error {
	httpClient := awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
		tr.ResponseHeaderTimeout = responseHeaderTimeout
	})
	opts := []func(*config.LoadOptions) error{
		config.WithHTTPClient(httpClient),
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = maxAttempts
				o.MaxBackoff = maxBackoff
				// The client-wide retry budget would turn a burst of
				// failures into refused retries; MaxAttempts bounds each
				// operation already.
				o.RateLimiter = ratelimit.None
			})
		}),
	}
	if cfg.Region != "" {
		opts = append(opts, config.WithRegion(cfg.Region))
	}
	if cfg.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(cfg.Profile))
	}
	if cfg.AccessKeyID != "" {
		opts = append(opts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, cfg.SessionToken)))
	}
	return opts
}

// orDefault returns v, or def if v is the zero value.
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Bucket returns the bucket the FS is bound to.
func (f *FS) Bucket() string { return f.bucket }

// ReadFile returns the whole content of p.
func (f *FS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "read", Path: p, Err: err}
	}
	obj, err := f.get(ctx, objectKey(p), "", nil)
	if err != nil {
		return nil, f.pathError("read", p, err)
	}
	return obj.data, nil
}

// Stat describes p: the object of that key, else the directory its key
// prefixes.
func (f *FS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return fileio.FileInfo{}, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	key := objectKey(p)
	if key == "" {
		return fileio.FileInfo{Path: p, IsDir: true}, nil
	}
	out, err := f.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &f.bucket, Key: &key})
	if err == nil {
		return fileio.FileInfo{Path: p, Size: aws.ToInt64(out.ContentLength), ModTime: aws.ToTime(out.LastModified)}, nil
	}
	if !f.isMissing(err) {
		return fileio.FileInfo{}, f.pathError("stat", p, err)
	}
	isDir, err := f.hasChildren(ctx, key)
	if err != nil {
		return fileio.FileInfo{}, f.pathError("stat", p, err)
	}
	if !isDir {
		return fileio.FileInfo{}, &fs.PathError{Op: "stat", Path: p, Err: fileio.ErrNotExist}
	}
	return fileio.FileInfo{Path: p, IsDir: true}, nil
}

// Delete removes the object p. S3 reports success for a missing key, so a
// HEAD first tells a missing p (fileio.ErrNotExist) from a deleted one. Two
// concurrent deleters of one path may therefore both succeed, and a delete
// whose response was lost and that the SDK re-sent reports ErrNotExist.
func (f *FS) Delete(ctx context.Context, p string) error {
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: "delete", Path: p, Err: err}
	}
	key := objectKey(p)
	if _, err := f.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &f.bucket, Key: &key}); err != nil {
		return f.pathError("delete", p, err)
	}
	if _, err := f.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &f.bucket, Key: &key}); err != nil {
		return f.pathError("delete", p, err)
	}
	return nil
}

// objectKey maps a path to its object key: cleaned, without a leading "/",
// and "" for the bucket root.
func objectKey(p string) string {
	key := strings.TrimLeft(path.Clean(p), "/")
	if key == "." {
		return ""
	}
	return key
}

// ancestors returns the directories above key, nearest last.
func ancestors(key string) []string {
	var dirs []string
	for i := range len(key) {
		if key[i] == '/' {
			dirs = append(dirs, key[:i])
		}
	}
	return dirs
}

func (f *FS) isKnownDir(dir string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.knownDirs[dir]
}

// rememberDirs records the ancestors of a key just written. The cache is
// cleared when full rather than evicted piecemeal: it only saves requests.
func (f *FS) rememberDirs(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dirs := ancestors(key)
	if len(f.knownDirs)+len(dirs) > knownDirsLimit {
		clear(f.knownDirs)
	}
	for _, dir := range dirs {
		f.knownDirs[dir] = true
	}
}

// backoff returns the wait before retry number attempt (1 for the first
// retry): exponential, capped, with full jitter so that racing writers that
// failed together do not retry together.
func (f *FS) backoff(attempt int) time.Duration {
	limit := f.maxBackoff
	if attempt <= 30 {
		limit = min(limit, baseBackoff<<(attempt-1))
	}
	if limit <= 0 {
		return 0
	}
	return rand.N(limit)
}

// sleep waits d or until ctx ends, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
