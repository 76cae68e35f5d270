package integration

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio/s3io"
)

// fate is what the proxy does with one request.
type fate int

const (
	forward fate = iota
	// applyThenDrop forwards the request, so the server applies it, and
	// closes the client's connection instead of answering.
	applyThenDrop
	// applyThenDelay forwards the request and answers only after the
	// client stopped waiting.
	applyThenDelay
	// dropUnsent closes the connection without forwarding: the request
	// never reached the server.
	dropUnsent
)

// faultProxy is an HTTP proxy in front of the S3 server that, for every
// period-th PUT of a snapshot file, in turn loses the response of an
// applied request, answers it too late, or loses the request itself.
type faultProxy struct {
	proxy  *httputil.ReverseProxy
	period int
	delay  time.Duration

	mu     sync.Mutex
	puts   int
	counts map[fate]int
}

func newFaultProxy(t *testing.T, endpoint string, period int, delay time.Duration) (*faultProxy, string) {
	t.Helper()
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{period: period, delay: delay, counts: map[fate]int{}}
	p.proxy = &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		// The client signed the Host it sent, the proxy's.
		r.Out.Host = r.In.Host
	}}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL
}

func (p *faultProxy) fateOf(req *http.Request) fate {
	if req.Method != http.MethodPut || !strings.Contains(req.URL.Path, "/snapshot/snapshot-") {
		return forward
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.puts++
	if p.puts%p.period != 0 {
		return forward
	}
	f := fate(1 + (p.puts/p.period)%3)
	p.counts[f]++
	return f
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	switch p.fateOf(req) {
	case forward:
		p.proxy.ServeHTTP(w, req)
	case applyThenDrop:
		p.proxy.ServeHTTP(httptest.NewRecorder(), req)
		hangUp(w)
	case applyThenDelay:
		rec := httptest.NewRecorder()
		p.proxy.ServeHTTP(rec, req)
		time.Sleep(p.delay)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	case dropUnsent:
		hangUp(w)
	}
}

// hangUp closes the client's connection without a response.
func hangUp(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
	}
}

func (p *faultProxy) injected() map[fate]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[fate]int{}
	for f, n := range p.counts {
		out[f] = n
	}
	return out
}

// TestLostSnapshotResponsesOnS3: writers commit through a proxy that loses
// the response of every third snapshot PUT after the server applied it,
// answers some too late, and loses some requests unsent. The commits that
// landed without the writer knowing are found by reading back, the ones
// that never arrived are sent again: every batch lands exactly once, in
// contiguous snapshots, and the table holds exactly the batches' rows.
func TestLostSnapshotResponsesOnS3(t *testing.T) {
	location := createTableIn(t, newS3Warehouse(t))
	// The client gives up on a response after responseTimeout; a delayed
	// answer comes after twice that.
	const responseTimeout = 300 * time.Millisecond
	proxy, proxyURL := newFaultProxy(t, os.Getenv(s3EndpointEnv), 3, 2*responseTimeout)
	cfg := testS3Config()
	cfg.Endpoint = proxyURL
	cfg.HTTPClient = &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: responseTimeout}}
	bucket, prefix, err := s3io.ParseURL(location)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := s3io.New(t.Context(), bucket, cfg)
	if err != nil {
		t.Fatal(err)
	}

	jobs := makeJobs(3, 15, 4)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			p := &writerProcess{job: j, tableDir: prefix, spillDir: t.TempDir()}
			p.fs.FileIO = fsys
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := p.run(ctx); err != nil {
				t.Errorf("%s: %v", j.user(), err)
			}
		})
	}
	wg.Wait()
	verify(t, location, jobs)
	injected := proxy.injected()
	if injected[applyThenDrop] == 0 || injected[applyThenDelay] == 0 || injected[dropUnsent] == 0 {
		t.Errorf("faults injected %v: every kind should have happened", injected)
	}
	t.Logf("lost responses %d, late responses %d, lost requests %d", injected[applyThenDrop], injected[applyThenDelay], injected[dropUnsent])
}
