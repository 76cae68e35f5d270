package s3io

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// faultTransport passes every request on to the server, except that a
// test's intercept decides the fate of the requests it cares about. It
// counts the requests of each kind that reached it.
type faultTransport struct {
	mu        sync.Mutex
	counts    map[string]int
	intercept func(kind string, req *http.Request) (*http.Response, error)
}

// Request kinds, as counted.
const (
	conditionalPut = "conditional PUT"
	plainPut       = "PUT"
	getObject      = "GET"
	headObject     = "HEAD"
	listObjects    = "LIST"
	deleteObjects  = "DELETE objects"
	deleteObject   = "DELETE"
)

func newFaultTransport() *faultTransport { return &faultTransport{counts: map[string]int{}} }

func (ft *faultTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	kind := requestKind(req)
	ft.mu.Lock()
	ft.counts[kind]++
	intercept := ft.intercept
	ft.mu.Unlock()
	if intercept != nil {
		return intercept(kind, req)
	}
	return pass(req)
}

func (ft *faultTransport) count(kind string) int {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return ft.counts[kind]
}

func (ft *faultTransport) setIntercept(intercept func(kind string, req *http.Request) (*http.Response, error)) {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	ft.intercept = intercept
	clear(ft.counts)
}

func requestKind(req *http.Request) string {
	query := req.URL.Query()
	switch {
	case req.Method == http.MethodPut && req.Header.Get("If-None-Match") != "":
		return conditionalPut
	case req.Method == http.MethodPut:
		return plainPut
	case req.Method == http.MethodGet && query.Get("list-type") == "2":
		return listObjects
	case req.Method == http.MethodPost && query.Has("delete"):
		return deleteObjects
	}
	return req.Method
}

// pass sends req to the server.
func pass(req *http.Request) (*http.Response, error) {
	return http.DefaultTransport.RoundTrip(req)
}

// errReset is what a client sees when the server's connection breaks.
var errReset = &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}

// applyAndDrop sends req, so the server applies it, and loses the response.
func applyAndDrop(req *http.Request) (*http.Response, error) {
	resp, err := pass(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return nil, errReset
}

// s3Error is a response carrying an S3 error.
func s3Error(req *http.Request, status int, code string) *http.Response {
	body := fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>injected</Message></Error>`, code)
	if req.Method == http.MethodHead {
		body = ""
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(status)),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/xml"}},
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// faultyFS returns an FS of tg whose requests go through the returned
// transport, a second FS of the same server without faults, standing for
// other writers and for checking what the server holds, and a path of the
// test's own.
func faultyFS(t *testing.T, tg target) (*FS, *faultTransport, *FS, string) {
	ft := newFaultTransport()
	return tg.openWith(t, tg.withTransport(ft)), ft, tg.open(t), path.Join(testRoot(t), "snapshot-1")
}

func expectStored(t *testing.T, f *FS, p string, want []byte) {
	t.Helper()
	got, err := f.ReadFile(t.Context(), p)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s holds %q, %v; want %q", p, got, err, want)
	}
}

func expectCount(t *testing.T, ft *faultTransport, kind string, want int) {
	t.Helper()
	if got := ft.count(kind); got != want {
		t.Errorf("%d %s requests, want %d", got, kind, want)
	}
}

func TestPutIfAbsentWhoseResponseIsLostSucceeds(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind == conditionalPut && ft.count(conditionalPut) == 1 {
				return applyAndDrop(req)
			}
			return pass(req)
		})
		if err := f.PutIfAbsent(t.Context(), p, []byte("ours")); err != nil {
			t.Fatalf("PutIfAbsent whose put landed unseen: %v, want success", err)
		}
		expectStored(t, server, p, []byte("ours"))
		// Resolved by reading back, not by a second put that 412 would
		// refuse.
		expectCount(t, ft, conditionalPut, 1)
		expectCount(t, ft, getObject, 1)
	})
}

func TestPutIfAbsentLostWhileResponseLostReportsExist(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind != conditionalPut {
				return pass(req)
			}
			// Another writer's put lands; ours never arrives, but we
			// cannot know that.
			if err := server.PutIfAbsent(context.Background(), p, []byte("theirs")); err != nil {
				return nil, err
			}
			return nil, errReset
		})
		err := f.PutIfAbsent(t.Context(), p, []byte("ours"))
		if !errors.Is(err, fileio.ErrExist) {
			t.Fatalf("PutIfAbsent = %v, want ErrExist", err)
		}
		expectStored(t, server, p, []byte("theirs"))
		expectCount(t, ft, conditionalPut, 1)
	})
}

func TestPutIfAbsentThatNeverArrivedIsSentAgain(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind == conditionalPut && ft.count(conditionalPut) == 1 {
				return nil, errReset
			}
			return pass(req)
		})
		if err := f.PutIfAbsent(t.Context(), p, []byte("ours")); err != nil {
			t.Fatal(err)
		}
		expectStored(t, server, p, []byte("ours"))
		expectCount(t, ft, conditionalPut, 2)
	})
}

// TestPutIfAbsentLandingLateIsRecognized: the first put reaches the server
// only after the read-back found nothing, just before the second put,
// which 412 refuses. The read-back after that 412 finds our bytes.
func TestPutIfAbsentLandingLateIsRecognized(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		var held *http.Request
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind != conditionalPut {
				return pass(req)
			}
			if held == nil {
				var err error
				held, err = detach(req)
				if err != nil {
					return nil, err
				}
				return nil, errReset
			}
			if _, err := applyAndDrop(held); !errors.Is(err, errReset) {
				return nil, fmt.Errorf("the held put failed: %w", err)
			}
			return pass(req)
		})
		if err := f.PutIfAbsent(t.Context(), p, []byte("ours")); err != nil {
			t.Fatalf("PutIfAbsent whose first put landed late: %v, want success", err)
		}
		expectStored(t, server, p, []byte("ours"))
		expectCount(t, ft, conditionalPut, 2)
	})
}

// detach copies req, body included, so it can be sent after its attempt
// is over.
func detach(req *http.Request) (*http.Request, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	copied := req.Clone(context.Background())
	copied.Body = io.NopCloser(bytes.NewReader(body))
	copied.ContentLength = int64(len(body))
	return copied, nil
}

func TestPutIfAbsentReportsUnknownOutcomeWhenContextEnds(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		ctx, cancel := context.WithCancel(t.Context())
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind != conditionalPut {
				return pass(req)
			}
			resp, err := applyAndDrop(req)
			cancel()
			return resp, err
		})
		err := f.PutIfAbsent(ctx, p, []byte("ours"))
		if !errors.Is(err, lakeerr.ErrUnknownOutcome) || !errors.Is(err, context.Canceled) {
			t.Fatalf("PutIfAbsent = %v, want an unknown outcome wrapping context.Canceled", err)
		}
		// The put did land: the outcome really was unknown, not a failure.
		expectStored(t, server, p, []byte("ours"))
	})
}

func TestPutIfAbsentReportsUnknownOutcomeWhenAttemptsRunOut(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		ft := newFaultTransport()
		cfg := tg.withTransport(ft)
		cfg.MaxAttempts = 3
		f := tg.openWith(t, cfg)
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind == conditionalPut {
				return nil, errReset
			}
			return pass(req)
		})
		err := f.PutIfAbsent(t.Context(), path.Join(testRoot(t), "snapshot-1"), []byte("ours"))
		if !errors.Is(err, lakeerr.ErrUnknownOutcome) {
			t.Fatalf("PutIfAbsent = %v, want an unknown outcome", err)
		}
		expectCount(t, ft, conditionalPut, 3)
	})
}

func TestPutIfAbsentRetriesConditionalRequestConflict(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind == conditionalPut && ft.count(conditionalPut) == 1 {
				return s3Error(req, http.StatusConflict, "ConditionalRequestConflict"), nil
			}
			return pass(req)
		})
		if err := f.PutIfAbsent(t.Context(), p, []byte("ours")); err != nil {
			t.Fatal(err)
		}
		expectStored(t, server, p, []byte("ours"))
		expectCount(t, ft, conditionalPut, 2)
	})
}

// TestOverwriteRetriesConflict: a plain PUT refused with 409 was not
// applied (versitygw answers ExistingObjectIsDirectory while another
// request removes the key's directory; AWS OperationAborted), so it is
// sent again; the SDK's retryer would not.
func TestOverwriteRetriesConflict(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind == plainPut && ft.count(plainPut) <= 2 {
				return s3Error(req, http.StatusConflict, "ExistingObjectIsDirectory"), nil
			}
			return pass(req)
		})
		if err := f.Overwrite(t.Context(), p, []byte("lease")); err != nil {
			t.Fatalf("Overwrite after two 409s: %v", err)
		}
		expectStored(t, server, p, []byte("lease"))
		expectCount(t, ft, plainPut, 3)
	})
}

func TestPutIfAbsentRefusedIsNotRetried(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		if err := server.PutIfAbsent(t.Context(), p, []byte("theirs")); err != nil {
			t.Fatal(err)
		}
		ft.setIntercept(nil)
		err := f.PutIfAbsent(t.Context(), p, []byte("ours"))
		if !errors.Is(err, fileio.ErrExist) {
			t.Fatalf("PutIfAbsent = %v, want ErrExist", err)
		}
		expectCount(t, ft, conditionalPut, 1)
		// A plain 412 is the lost race itself: nothing to read back.
		expectCount(t, ft, getObject, 0)
	})
}

func TestServerErrorsAndThrottlingAreRetried(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		hint := path.Join(path.Dir(p), "LATEST")
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			switch n := ft.count(kind); {
			case kind == getObject && n <= 2:
				return s3Error(req, http.StatusServiceUnavailable, "SlowDown"), nil
			case kind == plainPut && n == 1:
				return s3Error(req, http.StatusInternalServerError, "InternalError"), nil
			case kind == conditionalPut && n == 1:
				return s3Error(req, http.StatusServiceUnavailable, "SlowDown"), nil
			}
			return pass(req)
		})
		ctx := t.Context()
		if err := f.PutIfAbsent(ctx, p, []byte("s1")); err != nil {
			t.Fatalf("PutIfAbsent after a throttled attempt: %v", err)
		}
		if err := f.Overwrite(ctx, hint, []byte("1")); err != nil {
			t.Fatalf("Overwrite after a 500: %v", err)
		}
		expectCount(t, ft, conditionalPut, 2)
		expectCount(t, ft, plainPut, 2)
		expectStored(t, server, hint, []byte("1"))
		// The read-back after the throttled put took the two throttled GETs.
		expectStored(t, f, p, []byte("s1"))
		expectCount(t, ft, getObject, 4)
	})
}

// brokenBody yields n bytes of body, then fails as a reset connection.
type brokenBody struct {
	body io.ReadCloser
	n    int
}

func (b *brokenBody) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, errReset
	}
	read, err := b.body.Read(p[:min(len(p), b.n)])
	b.n -= read
	return read, err
}

func (b *brokenBody) Close() error { return b.body.Close() }

func TestBodyBrokenOffIsFetchedAgain(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		f, ft, server, p := faultyFS(t, tg)
		data := bytes.Repeat([]byte("0123456789"), 10_000)
		if err := server.PutIfAbsent(t.Context(), p, data); err != nil {
			t.Fatal(err)
		}
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			resp, err := pass(req)
			if err == nil && kind == getObject && ft.count(getObject) == 1 {
				resp.Body = &brokenBody{body: resp.Body, n: 1000}
			}
			return resp, err
		})
		expectStored(t, f, p, data)
		expectCount(t, ft, getObject, 2)
	})
}

// TestWithoutListBucketPermission emulates AWS credentials lacking
// s3:ListBucket: listings are denied, and so is reading a missing key.
func TestWithoutListBucketPermission(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		ft := newFaultTransport()
		ft.setIntercept(func(kind string, req *http.Request) (*http.Response, error) {
			if kind == listObjects {
				return s3Error(req, http.StatusForbidden, "AccessDenied"), nil
			}
			resp, err := pass(req)
			if err == nil && resp.StatusCode == http.StatusNotFound {
				resp.Body.Close()
				return s3Error(req, http.StatusForbidden, "AccessDenied"), nil
			}
			return resp, err
		})
		cfg := tg.withTransport(ft)
		cfg.NoListBucket = true
		f := tg.openWith(t, cfg)
		ctx := t.Context()
		dir := path.Join(testRoot(t), "snapshot")
		snapshot1, snapshot2, hint := path.Join(dir, "snapshot-1"), path.Join(dir, "snapshot-2"), path.Join(dir, "LATEST")

		if exists, err := fileio.Exists(ctx, f, snapshot1); err != nil || exists {
			t.Fatalf("Exists of a missing snapshot = %v, %v; want false, nil", exists, err)
		}
		if err := f.PutIfAbsent(ctx, snapshot1, []byte("s1")); err != nil {
			t.Fatal(err)
		}
		if err := f.PutIfAbsent(ctx, snapshot1, []byte("s1'")); !errors.Is(err, fileio.ErrExist) {
			t.Fatalf("second PutIfAbsent = %v, want ErrExist", err)
		}
		if err := f.Overwrite(ctx, hint, []byte("1")); err != nil {
			t.Fatal(err)
		}
		expectStored(t, f, snapshot1, []byte("s1"))
		if _, err := f.ReadFile(ctx, snapshot2); !errors.Is(err, fileio.ErrNotExist) {
			t.Errorf("ReadFile of a missing snapshot = %v, want ErrNotExist", err)
		}
		if info, err := f.Stat(ctx, snapshot1); err != nil || info.Size != 2 {
			t.Errorf("Stat = %+v, %v; want a 2-byte file", info, err)
		}
		if err := f.Delete(ctx, hint); err != nil {
			t.Fatal(err)
		}
		if _, err := f.List(ctx, dir); !isAccessDenied(err) {
			t.Errorf("List = %v, want S3's refusal", err)
		}

		// Without NoListBucket, a denied read is an error, not an absence.
		cfg.NoListBucket = false
		strict := tg.openWith(t, cfg)
		if _, err := strict.ReadFile(ctx, snapshot2); err == nil || errors.Is(err, fileio.ErrNotExist) {
			t.Errorf("ReadFile denied by S3 = %v, want an error other than ErrNotExist", err)
		}
	})
}
