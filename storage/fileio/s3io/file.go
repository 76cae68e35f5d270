package s3io

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/lakesql/lakesql/storage/fileio"
)

// tailSize is how much of a file's end Open fetches: a Parquet footer and
// the 8 bytes locating it are read before anything else, and usually fit,
// so they cost no request beyond Open's.
const tailSize = 64 << 10

// object is the part of an object one GET returned.
type object struct {
	data []byte
	// start is the offset of data in the object, and size the object's
	// size, both from Content-Range for a range request.
	start, size int64
	etag        string
}

// get fetches key, or the byte range rng ("bytes=a-b", "bytes=-n") of it,
// if its ETag still is ifMatch when that is set. The SDK retries the
// request until the headers arrive; a body that breaks off after that is
// fetched again here.
func (f *FS) get(ctx context.Context, key, rng string, ifMatch *string) (object, error) {
	in := &s3.GetObjectInput{Bucket: &f.bucket, Key: &key, IfMatch: ifMatch}
	var optFns []func(*s3.Options)
	if rng != "" {
		in.Range = &rng
		// A stored checksum covers the whole object, so S3 sends none with
		// a range; some servers (gofakes3) do, which fails a partial body.
		optFns = append(optFns, func(o *s3.Options) {
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		})
	}
	for attempt := 1; ; attempt++ {
		out, err := f.client.GetObject(ctx, in, optFns...)
		if err != nil {
			return object{}, err
		}
		obj, err := readObject(out)
		if err == nil {
			return obj, nil
		}
		if attempt >= f.maxAttempts || ctx.Err() != nil {
			return object{}, err
		}
		if err := sleep(ctx, f.backoff(attempt)); err != nil {
			return object{}, err
		}
	}
}

func readObject(out *s3.GetObjectOutput) (object, error) {
	defer out.Body.Close()
	var buf bytes.Buffer
	length := aws.ToInt64(out.ContentLength)
	buf.Grow(int(length))
	if _, err := buf.ReadFrom(out.Body); err != nil {
		return object{}, fmt.Errorf("reading the response body: %w", err)
	}
	obj := object{data: buf.Bytes(), size: int64(buf.Len()), etag: aws.ToString(out.ETag)}
	if out.ContentLength != nil && length != obj.size {
		return object{}, fmt.Errorf("response body of %d bytes, want %d: %w", obj.size, length, io.ErrUnexpectedEOF)
	}
	if out.ContentRange != nil {
		var err error
		if obj.start, obj.size, err = parseContentRange(*out.ContentRange); err != nil {
			return object{}, err
		}
	}
	return obj, nil
}

// parseContentRange reads "bytes first-last/size" into the offset of the
// body and the object's size.
func parseContentRange(header string) (start, size int64, err error) {
	spec, ok := strings.CutPrefix(header, "bytes ")
	rng, total, ok2 := strings.Cut(spec, "/")
	first, _, ok3 := strings.Cut(rng, "-")
	if ok && ok2 && ok3 {
		start, err = strconv.ParseInt(first, 10, 64)
		if err == nil {
			size, err = strconv.ParseInt(total, 10, 64)
		}
		if err == nil {
			return start, size, nil
		}
	}
	return 0, 0, fmt.Errorf("unreadable Content-Range %q", header)
}

// Open opens p for random access with one GET of its last tailSize bytes
// (all of it, if it is smaller), which tells its size and serves the reads
// of the footer. Other reads are ranged GETs on the version Open saw (If-Match
// its ETag): a file replaced meanwhile fails them rather than mixing two
// versions. The reads run under ctx, so cancelling it stops them.
func (f *FS) Open(ctx context.Context, p string) (fileio.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	key := objectKey(p)
	tail, err := f.get(ctx, key, "bytes=-"+strconv.Itoa(tailSize), nil)
	if isInvalidRange(err) {
		// An empty object has no last bytes; some servers also refuse a
		// suffix longer than the object, which S3 serves whole.
		tail, err = f.get(ctx, key, "", nil)
	}
	if err != nil {
		return nil, f.pathError("open", p, err)
	}
	return &file{ctx: ctx, fs: f, key: key, path: p, tail: tail}, nil
}

// file is an open object. tail holds its last bytes, fetched by Open.
type file struct {
	ctx  context.Context
	fs   *FS
	key  string
	path string
	tail object
}

func (f *file) Size() int64  { return f.tail.size }
func (f *file) Close() error { return nil }

// ReadAt reads len(p) bytes at off, from the tail Open fetched when they
// lie in it, else with one ranged GET. Like any io.ReaderAt it returns
// io.EOF with the bytes that exist when the range runs past the end.
func (f *file) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.path, Err: errors.New("negative offset")}
	}
	if off >= f.tail.size {
		return 0, io.EOF
	}
	n := min(int64(len(p)), f.tail.size-off)
	if err := f.fill(p[:n], off); err != nil {
		return 0, err
	}
	if n < int64(len(p)) {
		return int(n), io.EOF
	}
	return int(n), nil
}

// fill fills p with the bytes at off, all of which exist.
func (f *file) fill(p []byte, off int64) error {
	if off >= f.tail.start {
		copy(p, f.tail.data[off-f.tail.start:])
		return nil
	}
	if len(p) == 0 {
		return nil
	}
	rng := fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1)
	var ifMatch *string
	if f.tail.etag != "" {
		ifMatch = &f.tail.etag
	}
	obj, err := f.fs.get(f.ctx, f.key, rng, ifMatch)
	if err != nil {
		if isPreconditionFailed(err) {
			err = fmt.Errorf("replaced since it was opened: %w", err)
		}
		return f.fs.pathError("read", f.path, err)
	}
	if obj.start != off || len(obj.data) != len(p) {
		return &fs.PathError{Op: "read", Path: f.path,
			Err: fmt.Errorf("asked for %s, got %d bytes at %d", rng, len(obj.data), obj.start)}
	}
	copy(p, obj.data)
	return nil
}
