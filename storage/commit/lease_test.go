package commit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/internal/testkit/leasetest"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/spec"
)

// newLeaseRegistry returns a registry with a TTL of one hour on its own
// clock, naming its leases <prefix>-<n>.
func newLeaseRegistry(prefix string) (*lease.Registry, *clocktest.Clock) {
	clock := clocktest.New(creationTime)
	return leasetest.New(prefix, clock.Now, time.Hour), clock
}

// leasingCommitter is a harness Committer that takes its leases from
// registry.
func (h *harness) leasingCommitter(fsys fileio.FileIO, registry *lease.Registry) *Committer {
	h.t.Helper()
	c, err := New(Options{FileIO: fsys, TableDir: tableDir, Core: spec.NewCoreOptions(h.options), Now: h.clock.Now,
		NewUUID: h.uuids.next, Rand: h.rand, Sleep: h.clock.Sleep, Leases: registry})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// onOp is an errorio.Injector that runs hook just before the first
// operation match accepts and injects nothing. It runs under the
// errorio.FS's lock, so hook must not use that FS.
type onOp struct {
	match func(errorio.Op) bool
	hook  func()
	fired bool
}

func (o *onOp) Fault(op errorio.Op) errorio.Fault {
	if !o.fired && o.match(op) {
		o.fired = true
		o.hook()
	}
	return errorio.NoFault
}

func isPutUnder(dir string) func(errorio.Op) bool {
	return func(op errorio.Op) bool {
		return op.Kind == errorio.PutIfAbsent && strings.HasPrefix(op.Path, tableDir+"/"+dir+"/")
	}
}

func rendered(ops []errorio.Op) []string {
	var out []string
	for _, op := range ops {
		out = append(out, op.Kind.String()+" "+strings.TrimPrefix(op.Path, tableDir+"/"))
	}
	return out
}

// TestCommitHoldsItsLeaseUntilItReturns: a Commit takes its lease before
// its first file and gives it up after its snapshot put, and every file it
// wrote before the put is covered by the lease as orphan removal sees it.
func TestCommitHoldsItsLeaseUntilItReturns(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, false)
	registry, _ := newLeaseRegistry("lease")
	var uncovered []string
	var leasesAtPut []lease.Lease
	atPut := &onOp{match: isPutUnder("snapshot"), hook: func() {
		var err error
		if leasesAtPut, err = lease.List(ctx, h.mem, tableDir); err != nil {
			t.Error(err)
		}
		for _, p := range h.mem.Files() {
			fi, err := h.mem.Stat(ctx, p)
			if err != nil {
				t.Error(err)
			}
			if strings.Contains(p, "/manifest/") && (len(leasesAtPut) != 1 || !leasesAtPut[0].Covers(fi.ModTime)) {
				uncovered = append(uncovered, p)
			}
		}
	}}
	trace := errorio.Wrap(h.mem, atPut)
	if _, err := h.leasingCommitter(trace, registry).Commit(ctx, appendRequest(h, "writer", 1, "f1")); err != nil {
		t.Fatal(err)
	}
	if !atPut.fired || len(leasesAtPut) != 1 || len(uncovered) > 0 {
		t.Fatalf("at the snapshot put: leases %+v, manifests not covered %v; want one lease covering them all", leasesAtPut, uncovered)
	}
	ops := rendered(trace.Trace())
	first, last := ops[0], ops[len(ops)-1]
	if first != "overwrite-hint _lakesql/leases/lease-1" || last != "delete _lakesql/leases/lease-1" {
		t.Fatalf("operations %q; want the lease created first and deleted last", ops)
	}
	if ls, err := lease.List(ctx, h.mem, tableDir); err != nil || len(ls) != 0 {
		t.Fatalf("leases after the commit: %+v, %v", ls, err)
	}
}

// TestLostLeaseRefusesThePublish: a Commit whose lease expires before its
// snapshot put publishes nothing, fails with a terminal conflict, and
// leaves none of its files.
func TestLostLeaseRefusesThePublish(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, false)
	registry, clock := newLeaseRegistry("lease")
	// The commit stalls for 45 minutes while writing its second manifest
	// list, the base list, its last file before the snapshot.
	lists := 0
	stall := &onOp{hook: func() { clock.Advance(45 * time.Minute) }, match: func(op errorio.Op) bool {
		if op.Kind == errorio.PutIfAbsent && strings.Contains(op.Path, "/manifest/manifest-list-") {
			lists++
		}
		return lists == 2
	}}
	req := appendRequest(h, "writer", 1, "f1")
	before := h.mem.Files()
	_, err := h.leasingCommitter(errorio.Wrap(h.mem, stall), registry).Commit(ctx, req)
	if !errors.Is(err, lease.ErrExpired) || !errors.Is(err, lakeerr.ErrTerminalConflict) {
		t.Fatalf("commit whose lease expired before its put: %v; want lease.ErrExpired, a terminal conflict", err)
	}
	if !stall.fired {
		t.Fatal("the commit wrote fewer than two manifest lists")
	}
	if ids, err := h.committer(nil).snapshots.IDs(ctx); err != nil || len(ids) != 0 {
		t.Fatalf("snapshots %v, %v; want none published", ids, err)
	}
	if after := h.mem.Files(); !slices.Equal(after, before) {
		t.Fatalf("files after the refused commit\n %q\nwant those before it\n %q", after, before)
	}
}

// TestWritersLeasesAreChecked: a message's lease is renewed by the commit
// when due, and a lost one fails the commit before it writes anything.
func TestWritersLeasesAreChecked(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, false)
	writers, clock := newLeaseRegistry("writer")
	held, err := writers.Acquire(ctx, h.mem, tableDir)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release(ctx)
	commitWith := func(id int64) ([]errorio.Op, error) {
		req := appendRequest(h, "writer", id, fmt.Sprintf("f%d", id))
		req.Messages[0].Lease = held
		trace := errorio.Wrap(h.mem, nil)
		_, err := h.leasingCommitter(trace, lease.Disabled()).Commit(ctx, req)
		return trace.Trace(), err
	}

	clock.Advance(25 * time.Minute)
	if _, err := commitWith(1); err != nil {
		t.Fatalf("commit with a writer's lease due for renewal: %v", err)
	}
	// A renewal records the start, which the created file leaves out.
	data, err := h.mem.ReadFile(ctx, tableDir+"/_lakesql/leases/writer-1")
	if err != nil || !strings.Contains(string(data), `"start"`) {
		t.Fatalf("the commit did not renew the writer's lease: %s, %v", data, err)
	}

	clock.Advance(45 * time.Minute)
	ops, err := commitWith(2)
	if !errors.Is(err, lease.ErrExpired) {
		t.Fatalf("commit of a writer whose lease expired: %v; want lease.ErrExpired", err)
	}
	for _, op := range ops {
		if op.Kind.Mutating() {
			t.Fatalf("the refused commit wrote: %q", rendered(ops))
		}
	}
}

// TestLeaseCreationFaults: a Commit whose lease cannot be created fails
// before writing anything else, and leaves no lease file even when the
// failed write landed.
func TestLeaseCreationFaults(t *testing.T) {
	for _, fault := range []errorio.Fault{errorio.FailBefore, errorio.FailAfter} {
		t.Run(fault.String(), func(t *testing.T) {
			h := newHarness(t, false)
			registry, _ := newLeaseRegistry("lease")
			req := appendRequest(h, "writer", 1, "f1")
			before := h.mem.Files()
			faulty := errorio.Wrap(h.mem, errorio.OnNth(0, nil, fault))
			_, err := h.leasingCommitter(faulty, registry).Commit(context.Background(), req)
			if !errors.Is(err, fileio.ErrInjected) {
				t.Fatalf("commit: %v; want the injected fault", err)
			}
			if after := h.mem.Files(); !slices.Equal(after, before) {
				t.Fatalf("files after the failed commit\n %q\nwant\n %q", after, before)
			}
		})
	}
}
