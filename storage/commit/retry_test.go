package commit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// injectorFunc adapts a function to errorio.Injector.
type injectorFunc func(op errorio.Op) errorio.Fault

func (f injectorFunc) Fault(op errorio.Op) errorio.Fault { return f(op) }

func isSnapshotPut(op errorio.Op) bool {
	return op.Kind == errorio.PutIfAbsent && strings.Contains(op.Path, "/snapshot/snapshot-")
}

// rival commits one file as user "rival" on h.mem, bypassing the writer
// under test; each call takes the next identifier.
type rival struct {
	h       *harness
	commits int64
}

func (r *rival) commit() {
	r.commits++
	r.h.commitFiles("rival", r.commits, r.h.appendMsg("2024-01-02", fileSpec{name: fmt.Sprintf("r%d", r.commits), rows: 1}))
}

// losingWriter opens a Committer whose every snapshot put is preceded by
// a rival commit taking the id it wants.
func losingWriter(h *harness) (*Committer, *rival) {
	r := &rival{h: h}
	fsys := errorio.Wrap(h.mem, injectorFunc(func(op errorio.Op) errorio.Fault {
		if isSnapshotPut(op) {
			r.commit()
		}
		return errorio.NoFault
	}))
	return h.committer(fsys), r
}

// appendRequest adds one file, which it places, to dt=2024-01-01.
func appendRequest(h *harness, user string, identifier int64, name string) Request {
	msgs := []Message{h.appendMsg("2024-01-01", fileSpec{name: name, rows: 3})}
	h.placeFiles(msgs)
	return Request{CommitUser: user, Identifier: identifier, Messages: msgs}
}

func TestRetriesExhaustedReportIncidentFacts(t *testing.T) {
	h := newHarness(t, false, "commit.max-retries=2")
	h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "a", rows: 10}))
	c, r := losingWriter(h)
	_, err := c.Commit(context.Background(), appendRequest(h, "writer", 5, "mine"))

	var re *RetryExhaustedError
	if !errors.As(err, &re) || !errors.Is(err, lakeerr.ErrRetryableConflict) {
		t.Fatalf("err = %v; want a retryable RetryExhaustedError", err)
	}
	want := RetryExhaustedError{
		Reason: "gave up after 2 retries (commit.max-retries)", CommitKind: spec.CommitKindAppend,
		CommitUser: "writer", CommitIdentifier: 5, BaseSnapshotID: 1,
		Latest:    SnapshotRef{ID: 4, CommitUser: "rival", CommitIdentifier: 3, CommitKind: spec.CommitKindAppend},
		Locations: []Location{{Partition: "dt=2024-01-01", Bucket: 0}}, Attempts: 3,
	}
	if fmt.Sprint(*re) != fmt.Sprint(want) {
		t.Fatalf("error facts\n got %+v\nwant %+v", *re, want)
	}
	for _, fact := range []string{"user=writer identifier=5", "read snapshot 1", "snapshot 4 (user=rival identifier=3", "dt=2024-01-01/bucket-0", "attempts=3"} {
		if !strings.Contains(err.Error(), fact) {
			t.Errorf("message %q lacks %q", err, fact)
		}
	}
	// The first lost race is retried at once; the second waits
	// commit.min-retry-wait.
	if r.commits != 3 || len(h.clock.sleeps) != 1 {
		t.Fatalf("%d rival commits and sleeps %v; want 3 attempts with 1 wait", r.commits, h.clock.sleeps)
	}
	checkWait(t, h.clock.sleeps[0], 10*time.Millisecond)
}

func checkWait(t *testing.T, got, base time.Duration) {
	t.Helper()
	if got < base || got >= base+base/5 {
		t.Fatalf("wait %s outside [%s, %s)", got, base, base+base/5)
	}
}

func TestTimeoutStopsRetries(t *testing.T) {
	h := newHarness(t, false, "commit.timeout=25 ms")
	c, _ := losingWriter(h)
	_, err := c.Commit(context.Background(), appendRequest(h, "writer", 1, "mine"))
	var re *RetryExhaustedError
	if !errors.As(err, &re) || !errors.Is(err, lakeerr.ErrRetryableConflict) {
		t.Fatalf("err = %v; want a retryable RetryExhaustedError", err)
	}
	// No wait after the first lost race, then waits of [10, 12) and
	// [20, 24) ms: the fourth attempt ends past 25 ms.
	if re.Attempts != 4 || !strings.Contains(re.Reason, "commit.timeout 25ms") {
		t.Fatalf("gave up after %d attempts (%s); want 4, on the timeout", re.Attempts, re.Reason)
	}
}

func TestBackoffIsExponentialWithBoundedJitter(t *testing.T) {
	h := newHarness(t, false)
	c := h.committer(nil)
	for retry := range 16 {
		base := min(10*time.Millisecond<<retry, 10*time.Second)
		var seen []time.Duration
		for range 200 {
			d := c.backoff(retry)
			checkWait(t, d, base)
			seen = append(seen, d)
		}
		if slices.Min(seen) == slices.Max(seen) {
			t.Fatalf("retry %d: no jitter in %d waits of %s", retry, len(seen), seen[0])
		}
	}
	again := newHarness(t, false).committer(nil)
	h.rand = rand.New(rand.NewPCG(1, 2))
	c = h.committer(nil)
	if a, b := c.backoff(3), again.backoff(3); a != b {
		t.Fatalf("same seed, different waits: %s and %s", a, b)
	}
}

// TestPutFailures drives the three outcomes of a put that returns an error
// other than "exists": it landed, it did not, or it cannot be told.
func TestPutFailures(t *testing.T) {
	cases := []struct {
		name string
		// faults returns the fault of the n-th snapshot put and of the
		// read-back that follows it.
		putFault, readFault errorio.Fault
		wantSnapshots       []int64
		wantErr             error
	}{
		{"landed: the read-back finds this attempt's uuid", errorio.FailAfter, errorio.NoFault, []int64{2}, nil},
		{"not landed: retried, reusing the attempt's files", errorio.FailBefore, errorio.NoFault, []int64{2}, nil},
		{"unknown: the read-back fails too", errorio.FailAfter, errorio.FailBefore, nil, lakeerr.ErrUnknownOutcome},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, false)
			h.commitFiles("setup", 1, h.appendMsg("2024-01-01", fileSpec{name: "a", rows: 10}))
			fsys := errorio.Wrap(h.mem, faultFirstPutAndReadBack(tc.putFault, tc.readFault))
			req := appendRequest(h, "writer", 1, "mine")
			before := manifestFiles(h.mem)
			res, err := h.committer(fsys).Commit(context.Background(), req)
			if !errors.Is(err, tc.wantErr) || !slices.Equal(res.Snapshots, tc.wantSnapshots) {
				t.Fatalf("Commit = %s, %v; want snapshots %v, error %v", res, err, tc.wantSnapshots, tc.wantErr)
			}
			// One delta manifest, delta list and base list: a retry wrote
			// nothing again, and an unknown outcome deleted nothing.
			if added := len(manifestFiles(h.mem)) - len(before); added != 3 {
				t.Fatalf("%d metadata files written; want 3", added)
			}
			retry, err := h.committer(nil).Commit(context.Background(), req)
			if err != nil || inspect(t, h.mem).latest.ID != 2 {
				t.Fatalf("retry = %s, %v; want the request in snapshot 2", retry, err)
			}
		})
	}
}

// faultFirstPutAndReadBack faults the first snapshot put and the read of
// the same path that follows it.
func faultFirstPutAndReadBack(putFault, readFault errorio.Fault) errorio.Injector {
	var put string
	return injectorFunc(func(op errorio.Op) errorio.Fault {
		switch {
		case put == "" && isSnapshotPut(op):
			put = op.Path
			return putFault
		case op.Kind == errorio.Read && op.Path == put:
			put = "done"
			return readFault
		}
		return errorio.NoFault
	})
}

// A put that fails while a rival takes the id: the read-back finds the
// rival's snapshot, so the attempt lost the race and the next one lands.
func TestPutFailureWhileRivalWins(t *testing.T) {
	h := newHarness(t, false)
	r := &rival{h: h}
	first := true
	fsys := errorio.Wrap(h.mem, injectorFunc(func(op errorio.Op) errorio.Fault {
		if first && isSnapshotPut(op) {
			first = false
			r.commit()
			return errorio.FailBefore
		}
		return errorio.NoFault
	}))
	res, err := h.committer(fsys).Commit(context.Background(), appendRequest(h, "writer", 1, "mine"))
	if err != nil || !slices.Equal(res.Snapshots, []int64{2}) {
		t.Fatalf("Commit = %s, %v; want snapshot 2 after the rival's snapshot 1", res, err)
	}
	if got := inspect(t, h.mem).live; !slices.Equal(got, []string{"mine", "r1"}) {
		t.Fatalf("live files %v", got)
	}
}

// A retry after an unknown outcome, by the same Committer, recognises its
// own landed snapshot by uuid rather than taking it for a rival's.
func TestRetryAfterUnknownOutcomeFindsOwnSnapshot(t *testing.T) {
	h := newHarness(t, false)
	fsys := errorio.Wrap(h.mem, faultFirstPutAndReadBack(errorio.FailAfter, errorio.FailBefore))
	c := h.committer(fsys)
	req := appendRequest(h, "writer", 1, "mine")
	if _, err := c.Commit(context.Background(), req); !errors.Is(err, lakeerr.ErrUnknownOutcome) {
		t.Fatalf("err = %v; want an unknown outcome", err)
	}
	res, err := c.Commit(context.Background(), req)
	if err != nil || !res.AlreadyCommitted() || res.AlreadyCommittedIn != 1 {
		t.Fatalf("retry = %s, %v; want already committed in snapshot 1", res, err)
	}
	next, err := c.Commit(context.Background(), appendRequest(h, "writer", 2, "next"))
	if err != nil || !slices.Equal(next.Snapshots, []int64{2}) {
		t.Fatalf("next commit = %s, %v", next, err)
	}
}

func TestErrorsWrapInjectedFault(t *testing.T) {
	h := newHarness(t, false)
	fsys := errorio.Wrap(h.mem, errorio.OnNth(0, isSnapshotPut, errorio.CrashBefore))
	_, err := h.committer(fsys).Commit(context.Background(), appendRequest(h, "writer", 1, "mine"))
	if !errors.Is(err, lakeerr.ErrUnknownOutcome) || !errors.Is(err, fileio.ErrInjected) {
		t.Fatalf("err = %v; want an unknown outcome wrapping the crash", err)
	}
}
