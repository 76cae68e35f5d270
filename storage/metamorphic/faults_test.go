package metamorphic

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// timeoutFS is a writer's view of the table that can make one commit time
// out: the snapshot put of a chosen part fails (after landing, or before),
// and so does the read-back with which the Committer would resolve it, so
// the Committer must report an unknown outcome and the writer must retry.
//
// errorio cannot do this: its injector sees paths, not contents, and only
// the content of a snapshot tells its part; counting puts would hit a
// retry of the data part instead of the compact part after a lost race.
type timeoutFS struct {
	fileio.FileIO

	mu    sync.Mutex
	fault faultKind
	part  string
	// readBack is the snapshot path whose next read fails; "" if none.
	readBack string
}

func (f *timeoutFS) arm(fault faultKind, part string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fault, f.part, f.readBack = fault, part, ""
}

func (f *timeoutFS) disarm() { f.arm(noFault, "") }

func isSnapshotPath(p string) bool { return strings.Contains(p, "/snapshot/snapshot-") }

func injected(op, p string, fault faultKind) error {
	return &fs.PathError{Op: op, Path: p, Err: fmt.Errorf("%w (%s)", fileio.ErrInjected, faultNames[fault])}
}

// PutIfAbsent fails the armed part's snapshot put. A put that loses the
// race is not faulted: the commit retries, and the fault waits for the
// put that would win.
func (f *timeoutFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	fault := f.faultFor(p, data)
	switch fault {
	case lostPut:
		f.setReadBack(p)
		return injected("put-if-absent", p, fault)
	case lostAck:
		if err := f.FileIO.PutIfAbsent(ctx, p, data); err != nil {
			return err
		}
		f.setReadBack(p)
		return injected("put-if-absent", p, fault)
	}
	return f.FileIO.PutIfAbsent(ctx, p, data)
}

func (f *timeoutFS) faultFor(p string, data []byte) faultKind {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fault == noFault || f.readBack != "" || !isSnapshotPath(p) {
		return noFault
	}
	s, err := spec.DecodeSnapshot(data)
	if err != nil || partOfKind(s.CommitKind) != f.part {
		return noFault
	}
	if f.fault == lostPut {
		return lostPut
	}
	// A lost-ack put that loses the race is retried; a later put of the
	// same part is faulted instead.
	return lostAck
}

func (f *timeoutFS) setReadBack(p string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.readBack = p
}

// ReadFile fails the read-back of the faulted put, once, then disarms.
func (f *timeoutFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	f.mu.Lock()
	hit := f.readBack != "" && p == f.readBack
	fault := f.fault
	if hit {
		f.fault, f.readBack = noFault, ""
	}
	f.mu.Unlock()
	if hit {
		return nil, injected("read", p, fault)
	}
	return f.FileIO.ReadFile(ctx, p)
}
