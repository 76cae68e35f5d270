package s3io

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

var (
	errIsDir  = errors.New("is a directory")
	errNotDir = errors.New("not a directory")
)

// PutIfAbsent creates p holding data with a conditional PUT, or fails with
// an error wrapping fileio.ErrExist if p exists.
//
// When an attempt may have been applied without its response arriving
// (a transport error, a timeout, a 5xx), and whenever a later attempt is
// refused with 412, the object is read back: the bytes of data mean the
// earlier attempt landed and the put succeeded, other bytes mean another
// writer won (ErrExist), and absence means the put is sent again, still
// conditional, so a late landing of the earlier attempt cannot be
// overwritten. A caller that writes the same bytes as a concurrent writer
// cannot tell their puts apart, and needs not: the file holds its content.
//
// If the attempts or the context run out while an attempt may have landed,
// the error wraps lakeerr.ErrUnknownOutcome: the file may yet appear.
func (f *FS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	const op = "put-if-absent"
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: op, Path: p, Err: err}
	}
	key := objectKey(p)
	if err := f.checkWritable(ctx, key, fileio.ErrExist); err != nil {
		return &fs.PathError{Op: op, Path: p, Err: err}
	}
	if err := f.putIfAbsent(ctx, key, data); err != nil {
		return &fs.PathError{Op: op, Path: p, Err: err}
	}
	f.rememberDirs(key)
	return nil
}

// readBackOutcome is what reading back an uncertain put found.
type readBackOutcome int

const (
	absent readBackOutcome = iota
	landed
	lost
	unreadable
)

func (f *FS) putIfAbsent(ctx context.Context, key string, data []byte) error {
	// uncertain is set once an attempt may have landed unseen; from then on
	// a 412 may be that attempt's doing and is checked by reading back.
	uncertain := false
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return outcomeError(uncertain, err)
		}
		err := f.put(ctx, key, data, true)
		switch {
		case err == nil:
			return nil
		case isPreconditionFailed(err) && !uncertain:
			return fileio.ErrExist
		case isPreconditionFailed(err) || mayHaveLanded(err):
			uncertain = true
			outcome, readErr := f.readBack(ctx, key, data)
			switch outcome {
			case landed:
				return nil
			case lost:
				return fileio.ErrExist
			case unreadable:
				err = fmt.Errorf("%w; reading the object back: %w", err, readErr)
			}
		case isConditionalConflict(err):
			// Not applied; the next attempt settles it.
		default:
			return outcomeError(uncertain, err)
		}
		if attempt >= f.maxAttempts {
			return outcomeError(uncertain, err)
		}
		if err := sleep(ctx, f.backoff(attempt)); err != nil {
			return outcomeError(uncertain, err)
		}
	}
}

// outcomeError is err, marked as an unknown outcome if an attempt may have
// landed.
func outcomeError(uncertain bool, err error) error {
	if uncertain {
		return fmt.Errorf("%w: an earlier attempt may yet land: %w", lakeerr.ErrUnknownOutcome, err)
	}
	return err
}

// readBack tells whether key holds data, other bytes, or nothing.
func (f *FS) readBack(ctx context.Context, key string, data []byte) (readBackOutcome, error) {
	obj, err := f.get(ctx, key, "", nil)
	switch {
	case err == nil && bytes.Equal(obj.data, data):
		return landed, nil
	case err == nil:
		return lost, nil
	case f.isMissing(err):
		return absent, nil
	default:
		return unreadable, err
	}
}

// Overwrite replaces the content of p with one plain PUT, which S3 applies
// atomically, creating p if needed.
func (f *FS) Overwrite(ctx context.Context, p string, data []byte) error {
	const op = "overwrite"
	if err := ctx.Err(); err != nil {
		return &fs.PathError{Op: op, Path: p, Err: err}
	}
	key := objectKey(p)
	if err := f.checkWritable(ctx, key, errIsDir); err != nil {
		return &fs.PathError{Op: op, Path: p, Err: err}
	}
	if err := f.overwrite(ctx, key, data); err != nil {
		return f.pathError(op, p, err)
	}
	f.rememberDirs(key)
	return nil
}

// overwrite sends a plain PUT, again after a 409: the store refused it
// because of a concurrent operation on the key or its prefix (AWS's
// OperationAborted; a gateway over a file system whose directory another
// request was removing), so it was not applied. A plain PUT is idempotent,
// so sending it again is safe; the SDK's retryer does not retry 409s.
func (f *FS) overwrite(ctx context.Context, key string, data []byte) error {
	for attempt := 1; ; attempt++ {
		err := f.put(ctx, key, data, false)
		if err == nil || statusOf(err) != http.StatusConflict || attempt >= f.maxAttempts {
			return err
		}
		if err := sleep(ctx, f.backoff(attempt)); err != nil {
			return err
		}
	}
}

// put sends one PUT. An exclusive put is conditional and not retried by
// the SDK: a blind retry of a put that landed unseen would be refused with
// 412 and taken for a lost race. putIfAbsent retries it instead.
func (f *FS) put(ctx context.Context, key string, data []byte, exclusive bool) error {
	in := &s3.PutObjectInput{
		Bucket:        &f.bucket,
		Key:           &key,
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
	}
	var optFns []func(*s3.Options)
	if exclusive {
		in.IfNoneMatch = aws.String("*")
		optFns = append(optFns, func(o *s3.Options) { o.Retryer = aws.NopRetryer{} })
	}
	_, err := f.client.PutObject(ctx, in, optFns...)
	return err
}

// checkWritable refuses the writes a disk refuses: an object at key while
// keys lie below it (dirErr: ErrExist for a create, errIsDir for a
// replace), and an object below another object. The checks run
// concurrently, one listing and a HEAD per ancestor not known to be a
// directory.
func (f *FS) checkWritable(ctx context.Context, key string, dirErr error) error {
	if key == "" {
		return dirErr
	}
	dirs := ancestors(key)
	errs := make([]error, 1+len(dirs))
	var wg sync.WaitGroup
	wg.Go(func() {
		isDir, err := f.hasChildren(ctx, key)
		if err == nil && isDir {
			err = dirErr
		}
		errs[0] = err
	})
	for i, dir := range dirs {
		if f.isKnownDir(dir) {
			continue
		}
		wg.Go(func() { errs[1+i] = f.checkNotFile(ctx, dir) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkNotFile fails with errNotDir if dir is an object. A HEAD that S3
// denies checks nothing: without s3:ListBucket, AWS denies it for every
// missing key.
func (f *FS) checkNotFile(ctx context.Context, dir string) error {
	_, err := f.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &f.bucket, Key: &dir})
	switch {
	case err == nil:
		return fmt.Errorf("%s: %w", dir, errNotDir)
	case f.isMissing(err) || isAccessDenied(err):
		return nil
	default:
		return err
	}
}
