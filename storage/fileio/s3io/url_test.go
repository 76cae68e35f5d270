package s3io

import (
	"errors"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct{ url, bucket, prefix string }{
		{"s3://lake", "lake", ""},
		{"s3://lake/", "lake", ""},
		{"s3://lake/warehouse", "lake", "warehouse"},
		{"s3://lake/prod/warehouse/", "lake", "prod/warehouse"},
		{"s3://lake//prod/./warehouse", "lake", "prod/warehouse"},
	} {
		bucket, prefix, err := ParseURL(tc.url)
		if err != nil || bucket != tc.bucket || prefix != tc.prefix {
			t.Errorf("ParseURL(%q) = %q, %q, %v; want %q, %q", tc.url, bucket, prefix, err, tc.bucket, tc.prefix)
		}
	}
	for _, url := range []string{"/data/warehouse", "s3:/lake", "s3:///warehouse", "gs://lake/w", "s3://lake/w?versionId=1"} {
		if _, _, err := ParseURL(url); !errors.Is(err, lakeerr.ErrUnsupported) {
			t.Errorf("ParseURL(%q) = %v, want ErrUnsupported", url, err)
		}
	}
}

func TestObjectKey(t *testing.T) {
	for p, want := range map[string]string{
		"":               "",
		".":              "",
		"/":              "",
		"w/t/snapshot-1": "w/t/snapshot-1",
		"/w//t/./x":      "w/t/x",
		"w/t/":           "w/t",
	} {
		if got := objectKey(p); got != want {
			t.Errorf("objectKey(%q) = %q, want %q", p, got, want)
		}
	}
}
