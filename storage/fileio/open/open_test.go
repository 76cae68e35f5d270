package open

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/s3io"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestLocalDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "warehouse")
	fsys, root, err := Warehouse(t.Context(), dir, s3io.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fsys.(*localio.FS); !ok || root != dir {
		t.Errorf("Warehouse(%s) = %T, %q; want localio and the directory", dir, fsys, root)
	}
}

func TestS3URL(t *testing.T) {
	cfg := s3io.Config{Endpoint: "http://127.0.0.1:1", Region: "us-east-1", AccessKeyID: "k", SecretAccessKey: "s"}
	fsys, root, err := Warehouse(t.Context(), "s3://lake/prod/warehouse", cfg)
	if err != nil {
		t.Fatal(err)
	}
	s3fs, ok := fsys.(*s3io.FS)
	if !ok || s3fs.Bucket() != "lake" || root != "prod/warehouse" {
		t.Errorf("Warehouse = %T, %q; want the s3io FS of bucket lake and root prod/warehouse", fsys, root)
	}
}

func TestMalformedS3URL(t *testing.T) {
	if _, _, err := Warehouse(t.Context(), "s3:///warehouse", s3io.Config{}); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("Warehouse of a URL without a bucket = %v, want ErrUnsupported", err)
	}
}
