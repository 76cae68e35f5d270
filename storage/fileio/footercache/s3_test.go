package footercache

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/s3io"
)

// countingTransport counts the GET requests sent to the store.
type countingTransport struct{ gets atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet {
		c.gets.Add(1)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestRequestsToS3 counts the GETs that reading a data file larger than
// s3io's prefetched tail costs through the cache, on gofakes3: the first
// open fetches the tail, which holds the footer; a later open serves the
// footer with no request, and a page read then costs the open's GET and
// its own ranged one, as without the cache.
func TestRequestsToS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("lakesql"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	transport := &countingTransport{}
	store, err := s3io.New(t.Context(), "lakesql", s3io.Config{Endpoint: srv.URL, PathStyle: true,
		AccessKeyID: "fake", SecretAccessKey: "fake", Region: "us-east-1", MaxBackoff: 10 * time.Millisecond,
		HTTPClient: &http.Client{Transport: transport}})
	if err != nil {
		t.Fatal(err)
	}
	fsys := New(store, 1<<20)
	const p = "w/db.db/t/bucket-0/data-0.parquet"
	data := parquetShaped(200_000, 2000, 1)
	size := int64(len(data))
	put(t, fsys, p, data)

	gets := func(do func()) int64 {
		before := transport.gets.Load()
		do()
		return transport.gets.Load() - before
	}
	if n := gets(func() {
		f, _ := openAndReadFooter(t, fsys, p, size)
		f.Close()
	}); n != 1 {
		t.Errorf("first open and footer read: %d GETs, want 1", n)
	}
	var f fileio.File
	if n := gets(func() { f, _ = openAndReadFooter(t, fsys, p, size) }); n != 0 {
		t.Errorf("second open and footer read: %d GETs, want none", n)
	}
	defer f.Close()
	page := make([]byte, 4096)
	if n := gets(func() {
		if _, err := f.ReadAt(page, 1000); err != nil {
			t.Fatal(err)
		}
	}); n != 2 {
		t.Errorf("page read of the cached file: %d GETs, want 2 (the deferred open's and the page's)", n)
	}
	if !bytes.Equal(page, data[1000:1000+len(page)]) {
		t.Error("page read back wrong")
	}
	if st := fsys.Stats(); st.Hits != 1 || st.Misses != 1 {
		t.Errorf("%+v, want 1 hit and 1 miss", st)
	}
}
