package lease

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/internal/testkit/filetest"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

const table = "wh/db.db/t"

// env is a table on a store with its own clock, and a registry whose
// holders read another clock, with TTL one hour.
type env struct {
	t        *testing.T
	storage  *clocktest.Clock
	holders  *clocktest.Clock
	mem      *memio.FS
	trace    *errorio.FS
	fs       *filetest.AgedFS
	registry *Registry
	uuids    int
}

func newEnv(t *testing.T, injector errorio.Injector) *env {
	// The storage's clock stamps the files it writes, as a real store's
	// does; the holders' clock is another, so that the tests show which
	// clock each decision reads.
	e := &env{t: t, storage: clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)),
		holders: clocktest.New(time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)), mem: memio.New()}
	e.trace = errorio.Wrap(e.mem, injector)
	e.fs = filetest.NewAgedFS(e.trace, e.storage.Now)
	e.registry = NewRegistry(Config{TTL: time.Hour, Now: e.holders.Now, Owner: "test process", NewUUID: func() string {
		e.uuids++
		return fmt.Sprintf("lease-%d", e.uuids)
	}})
	return e
}

// advance moves both clocks, as time passing does.
func (e *env) advance(d time.Duration) {
	e.storage.Advance(d)
	e.holders.Advance(d)
}

func (e *env) acquire() *Handle {
	e.t.Helper()
	h, err := e.registry.Acquire(context.Background(), e.fs, table)
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

func (e *env) leases() []Lease {
	e.t.Helper()
	ls, err := List(context.Background(), e.fs, table)
	if err != nil {
		e.t.Fatal(err)
	}
	return ls
}

func (e *env) leasePaths() []string {
	var out []string
	for _, l := range e.leases() {
		out = append(out, path.Base(l.Path))
	}
	return out
}

// ops returns the operations traced since from, rendered.
func (e *env) ops(from int) []string {
	var out []string
	for _, op := range e.trace.Trace()[from:] {
		out = append(out, op.Kind.String()+" "+strings.TrimPrefix(op.Path, table+"/"))
	}
	return out
}

// TestGenerationIsSharedAndEndsWithItsLastHolder: the first holder creates
// the lease file, the others join in memory, and the last release deletes
// it; the lease protects from its creation on, on the storage's clock.
func TestGenerationIsSharedAndEndsWithItsLastHolder(t *testing.T) {
	e := newEnv(t, nil)
	created := e.storage.Now()
	a := e.acquire()
	e.advance(time.Minute)
	b := e.acquire()
	if got, want := e.ops(0), []string{"overwrite-hint _lakesql/leases/lease-1"}; !slices.Equal(got, want) {
		t.Fatalf("two acquires did %q, want %q", got, want)
	}
	ls := e.leases()
	if len(ls) != 1 || ls[0].Owner != "test process" || ls[0].TTL != time.Hour || !ls[0].Start.Equal(created) || !ls[0].Renewed.Equal(created) {
		t.Fatalf("leases %+v; want one of test process, TTL 1h, started and renewed at %v", ls, created)
	}
	if ls[0].Stale(e.storage.Now()) || !ls[0].Covers(created) || !ls[0].Covers(created.Add(-ClockSlack)) || ls[0].Covers(created.Add(-ClockSlack-time.Nanosecond)) {
		t.Fatalf("lease %+v: wrong staleness or coverage", ls[0])
	}
	from := len(e.trace.Trace())
	a.Release(context.Background())
	a.Release(context.Background())
	if got := e.ops(from); len(got) != 0 {
		t.Fatalf("releasing one of two holders did %q", got)
	}
	b.Release(context.Background())
	if got, want := e.ops(from), []string{"delete _lakesql/leases/lease-1"}; !slices.Equal(got, want) {
		t.Fatalf("the last release did %q, want %q", got, want)
	}
	if len(e.registry.tables) != 0 {
		t.Fatalf("the registry keeps %d tables without leases", len(e.registry.tables))
	}
	c := e.acquire()
	if got := e.leasePaths(); !slices.Equal(got, []string{"lease-2"}) {
		t.Fatalf("after the last release an acquire made %v, want a new generation", got)
	}
	c.Release(context.Background())
}

// TestTablesAndFileIOsHaveTheirOwnGenerations: a lease covers one table
// reached through one FileIO.
func TestTablesAndFileIOsHaveTheirOwnGenerations(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	other := filetest.NewAgedFS(e.trace, e.storage.Now)
	handles := []*Handle{e.acquire()}
	for _, target := range []struct {
		fs  fileio.FileIO
		dir string
	}{{e.fs, table + "2"}, {other, table}} {
		h, err := e.registry.Acquire(ctx, target.fs, target.dir)
		if err != nil {
			t.Fatal(err)
		}
		handles = append(handles, h)
	}
	if got := e.ops(0); len(got) != 3 {
		t.Fatalf("acquires on three (FileIO, table) pairs did %q, want three lease files", got)
	}
	for _, h := range handles {
		h.Release(ctx)
	}
	if files := e.mem.Files(); len(files) != 0 {
		t.Fatalf("files left after every release: %v", files)
	}
}

// TestGenerationRotates: once the current generation is half a TTL old,
// new holders start a new one, and the old one ends with its last holder.
func TestGenerationRotates(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	old := e.acquire()
	e.advance(29 * time.Minute)
	joined := e.acquire()
	e.advance(time.Minute)
	fresh := e.acquire()
	if got := e.leasePaths(); !slices.Equal(got, []string{"lease-1", "lease-2"}) {
		t.Fatalf("leases %v; want the old generation and a new one", got)
	}
	old.Release(ctx)
	joined.Release(ctx)
	if got := e.leasePaths(); !slices.Equal(got, []string{"lease-2"}) {
		t.Fatalf("after the old generation's holders released: %v; want only the new one", got)
	}
	fresh.Release(ctx)
}

// TestRenewal: a check more than a third of the TTL after the last write
// rewrites the lease, which then records its start; the protection start
// stays that of its creation while the renewal time moves.
func TestRenewal(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	created := e.storage.Now()
	h := e.acquire()
	e.advance(19 * time.Minute)
	from := len(e.trace.Trace())
	if err := h.Check(ctx); err != nil || len(e.ops(from)) != 0 {
		t.Fatalf("check before a renewal is due: %v, did %q", err, e.ops(from))
	}
	e.advance(time.Minute)
	if err := h.Check(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"stat _lakesql/leases/lease-1", "overwrite-hint _lakesql/leases/lease-1"}
	if got := e.ops(from); !slices.Equal(got, want) {
		t.Fatalf("a due check did %q, want %q", got, want)
	}
	data, err := e.mem.ReadFile(ctx, table+"/_lakesql/leases/lease-1")
	if err != nil || !strings.Contains(string(data), `"start":"2026-03-01T12:00:00Z"`) {
		t.Fatalf("renewed lease file %s, %v; want it to record its start", data, err)
	}
	renewed := e.storage.Now()
	e.advance(50 * time.Minute)
	ls := e.leases()
	if len(ls) != 1 || !ls[0].Start.Equal(created) || !ls[0].Renewed.Equal(renewed) || ls[0].Stale(e.storage.Now()) {
		t.Fatalf("lease %+v; want started %v, renewed %v, live 50 minutes after the renewal", ls, created, renewed)
	}
	e.advance(11 * time.Minute)
	if !e.leases()[0].Stale(e.storage.Now()) {
		t.Fatal("a lease not renewed for 61 minutes is not stale")
	}
	h.Release(ctx)
}

// TestUnrenewedLeaseExpires: a holder that did not check for three
// quarters of the TTL must not publish, and new holders do not join it.
func TestUnrenewedLeaseExpires(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	h := e.acquire()
	e.advance(45 * time.Minute)
	err := h.Check(ctx)
	if !errors.Is(err, ErrExpired) || !errors.Is(err, lakeerr.ErrTerminalConflict) {
		t.Fatalf("check 45 minutes after the last renewal: %v; want ErrExpired, a terminal conflict", err)
	}
	if again := h.Check(ctx); !errors.Is(again, ErrExpired) {
		t.Fatalf("second check of a lost lease: %v", again)
	}
	next := e.acquire()
	if err := next.Check(ctx); err != nil {
		t.Fatalf("a new holder inherited the loss: %v", err)
	}
	if got := e.leasePaths(); !slices.Equal(got, []string{"lease-1", "lease-2"}) {
		t.Fatalf("leases %v; want a new generation besides the lost one", got)
	}
	h.Release(ctx)
	next.Release(ctx)
}

// TestLeaseDeletedUnderItsHolderIsLost: a holder that finds its lease file
// gone when renewing takes it for lost rather than writing it again.
func TestLeaseDeletedUnderItsHolderIsLost(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	h := e.acquire()
	if err := e.mem.Delete(ctx, table+"/_lakesql/leases/lease-1"); err != nil {
		t.Fatal(err)
	}
	e.advance(21 * time.Minute)
	if err := h.Check(ctx); !errors.Is(err, ErrExpired) || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("renewal of a deleted lease: %v; want ErrExpired saying it is gone", err)
	}
	if files := e.mem.Files(); len(files) != 0 {
		t.Fatalf("the renewal wrote the lease back: %v", files)
	}
	h.Release(ctx)
}

// TestFailedRenewalRetriesUntilExpiry: a renewal that fails leaves the
// lease good, the next check tries again, and the loss names the failure.
func TestFailedRenewalRetriesUntilExpiry(t *testing.T) {
	rewrites := func(op errorio.Op) bool { return op.Kind == errorio.OverwriteHint }
	e := newEnv(t, errorio.OnNth(1, rewrites, errorio.FailBefore))
	ctx := context.Background()
	h := e.acquire()
	e.advance(21 * time.Minute)
	if err := h.Check(ctx); err != nil {
		t.Fatalf("a failed renewal failed the check: %v", err)
	}
	e.advance(time.Minute)
	if err := h.Check(ctx); err != nil {
		t.Fatal(err)
	}
	e.advance(44 * time.Minute)
	if err := h.Check(ctx); err != nil {
		t.Fatalf("the retried renewal did not take: %v", err)
	}

	e = newEnv(t, errorio.OnNth(1, rewrites, errorio.FailBefore))
	h = e.acquire()
	e.advance(21 * time.Minute)
	_ = h.Check(ctx)
	e.advance(24 * time.Minute)
	if err := h.Check(ctx); !errors.Is(err, ErrExpired) {
		t.Fatalf("check 45 minutes after the last successful write: %v; want ErrExpired", err)
	}
	if err := h.Check(ctx); err == nil || !strings.Contains(err.Error(), "injected") {
		t.Fatalf("expiry %v does not name the failed renewal", err)
	}
}

// TestReleasedHandleVouchesForNothing: a released handle's check passes
// without I/O, whatever became of its generation.
func TestReleasedHandleVouchesForNothing(t *testing.T) {
	e := newEnv(t, nil)
	h := e.acquire()
	h.Release(context.Background())
	e.advance(2 * time.Hour)
	from := len(e.trace.Trace())
	if err := h.Check(context.Background()); err != nil || len(e.ops(from)) != 0 {
		t.Fatalf("check of a released handle: %v, did %q", err, e.ops(from))
	}
}

// TestDisabledRegistry leases nothing and does no I/O.
func TestDisabledRegistry(t *testing.T) {
	e := newEnv(t, nil)
	h, err := Disabled().Acquire(context.Background(), e.fs, table)
	if err != nil || h != nil {
		t.Fatalf("disabled acquire: %v, %v", h, err)
	}
	if err := h.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.Release(context.Background())
	if ops := e.ops(0); len(ops) != 0 {
		t.Fatalf("a disabled registry did %q", ops)
	}
}

// TestConcurrentAcquiresStartOneGeneration: holders arriving together
// wait for the one generation being started instead of each starting one.
func TestConcurrentAcquiresStartOneGeneration(t *testing.T) {
	mem := memio.New()
	r := NewRegistry(Config{})
	const holders = 16
	handles := make([]*Handle, holders)
	var wg sync.WaitGroup
	for i := range holders {
		wg.Go(func() {
			h, err := r.Acquire(context.Background(), mem, table)
			if err != nil {
				t.Error(err)
			}
			handles[i] = h
		})
	}
	wg.Wait()
	if files := mem.Files(); len(files) != 1 {
		t.Fatalf("%d concurrent acquires made lease files %v, want one", holders, files)
	}
	for _, h := range handles {
		wg.Go(func() { h.Release(context.Background()) })
	}
	wg.Wait()
	if files := mem.Files(); len(files) != 0 {
		t.Fatalf("files left after every release: %v", files)
	}
}

// TestFailedStartFailsTheAcquire: a lease that cannot be created leaves
// nothing behind, and the next acquire tries again.
func TestFailedStartFailsTheAcquire(t *testing.T) {
	e := newEnv(t, errorio.OnNth(0, nil, errorio.FailBefore))
	if _, err := e.registry.Acquire(context.Background(), e.fs, table); !errors.Is(err, fileio.ErrInjected) {
		t.Fatalf("acquire over a failing store: %v", err)
	}
	if len(e.registry.tables) != 0 {
		t.Fatal("the failed start left table state behind")
	}
	h := e.acquire()
	h.Release(context.Background())
}

// TestListReadsWhatIsThere: temp files and directories are skipped, a
// lease file that cannot be read covers everything until it is stale, and
// a lease released while listed is left out.
func TestListReadsWhatIsThere(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	dir := Dir(table)
	for p, data := range map[string]string{
		".lease-x.123.tmp": "{}", "sub/inner": "{}", "garbled": "not json",
		"future": `{"version":2,"owner":"later","ttl-ms":1000}`,
	} {
		if err := e.fs.PutIfAbsent(ctx, path.Join(dir, p), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	ls := e.leases()
	if len(ls) != 2 {
		t.Fatalf("leases %+v; want the garbled and the future one", ls)
	}
	for _, l := range ls {
		if !l.Start.IsZero() || l.TTL != DefaultTTL || !l.Covers(time.Time{}) || l.Stale(e.storage.Now()) {
			t.Errorf("unreadable lease %+v: want it to cover everything for the default TTL", l)
		}
		if !l.Stale(e.storage.Now().Add(DefaultTTL + time.Second)) {
			t.Errorf("unreadable lease %+v never goes stale", l)
		}
	}
	vanishing := &vanishingFS{FileIO: e.fs, gone: path.Join(dir, "garbled")}
	ls, err := List(ctx, vanishing, table)
	if err != nil || len(ls) != 1 || path.Base(ls[0].Path) != "future" {
		t.Fatalf("listing while a lease is released: %+v, %v; want only the other one", ls, err)
	}
}

// vanishingFS reads one path as already deleted.
type vanishingFS struct {
	fileio.FileIO
	gone string
}

func (v *vanishingFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if p == v.gone {
		return nil, fmt.Errorf("read %s: %w", p, fileio.ErrNotExist)
	}
	return v.FileIO.ReadFile(ctx, p)
}

// BenchmarkJoinAndRelease measures a holder joining a generation another
// holder keeps alive, and releasing it: what a commit pays for its lease
// while a writer of the process holds one.
func BenchmarkJoinAndRelease(b *testing.B) {
	ctx := context.Background()
	mem := memio.New()
	r := NewRegistry(Config{})
	held, err := r.Acquire(ctx, mem, table)
	if err != nil {
		b.Fatal(err)
	}
	defer held.Release(ctx)
	for b.Loop() {
		h, err := r.Acquire(ctx, mem, table)
		if err != nil {
			b.Fatal(err)
		}
		h.Release(ctx)
	}
}

// BenchmarkCheck measures a check that is not due for renewal, which a
// TableWriter makes at every Write.
func BenchmarkCheck(b *testing.B) {
	ctx := context.Background()
	h, err := NewRegistry(Config{}).Acquire(ctx, memio.New(), table)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Release(ctx)
	for b.Loop() {
		if err := h.Check(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
