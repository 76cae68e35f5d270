package s3io

import (
	"errors"
	"io/fs"
	"net/http"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"github.com/lakesql/lakesql/storage/fileio"
)

// The request outcomes are told apart by HTTP status, which every
// S3-compatible server sets, rather than by error code, which some vary.

// statusOf returns the HTTP status of the response err came with, or 0 if
// there was none: the request failed in transport, or was not sent.
func statusOf(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

func errorCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// isMissing reports whether err says the key does not exist. A missing
// bucket is a configuration error, not an empty directory.
func (f *FS) isMissing(err error) bool {
	switch statusOf(err) {
	case http.StatusNotFound:
		return errorCode(err) != "NoSuchBucket"
	case http.StatusForbidden:
		return f.noListBucket
	}
	return false
}

// isPreconditionFailed reports a conditional PUT refused because the key
// exists.
func isPreconditionFailed(err error) bool {
	return statusOf(err) == http.StatusPreconditionFailed
}

// isConditionalConflict reports AWS's 409 ConditionalRequestConflict: a
// concurrent operation on the key interfered with a conditional PUT, which
// was not applied and should be sent again. The retry gets 412 if the key
// now exists.
func isConditionalConflict(err error) bool {
	return statusOf(err) == http.StatusConflict && errorCode(err) == "ConditionalRequestConflict"
}

func isAccessDenied(err error) bool {
	return statusOf(err) == http.StatusForbidden
}

func isInvalidRange(err error) bool {
	return statusOf(err) == http.StatusRequestedRangeNotSatisfiable
}

// mayHaveLanded reports whether a failed write may nonetheless have been
// applied: no response came back (the request may have reached the server
// before the connection broke or timed out), or a 5xx, after which S3 does
// not promise the write was not applied.
func mayHaveLanded(err error) bool {
	status := statusOf(err)
	return status == 0 || status >= http.StatusInternalServerError
}

// pathError wraps err for op on p, as fileio.ErrNotExist if it says the
// key is missing.
func (f *FS) pathError(op, p string, err error) error {
	if f.isMissing(err) {
		return &fs.PathError{Op: op, Path: p, Err: fileio.ErrNotExist}
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}
