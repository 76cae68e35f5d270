package s3io

import (
	"fmt"
	"path"
	"strings"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Scheme is the URL scheme of an S3 warehouse: s3://bucket/prefix.
const Scheme = "s3://"

// ParseURL splits an s3://bucket/prefix warehouse URL into the bucket and
// the key prefix, the root path of the warehouse in the bucket's FS. The
// prefix is cleaned and has no leading or trailing "/"; it is "" for a
// warehouse at the bucket's root.
func ParseURL(url string) (bucket, prefix string, err error) {
	rest, ok := strings.CutPrefix(url, Scheme)
	if !ok {
		return "", "", fmt.Errorf("%w: warehouse %q is not an %sbucket/prefix URL", lakeerr.ErrUnsupported, url, Scheme)
	}
	bucket, prefix, _ = strings.Cut(rest, "/")
	if bucket == "" || strings.ContainsAny(bucket, "?#") || strings.ContainsAny(prefix, "?#") {
		return "", "", fmt.Errorf("%w: warehouse %q is not an %sbucket/prefix URL", lakeerr.ErrUnsupported, url, Scheme)
	}
	return bucket, objectKey(path.Clean("/" + prefix)), nil
}
