// Package errorio wraps a fileio.FileIO to record the operations a workload
// performs and to inject faults into them, in the manner of pebble's errorfs.
//
// The trace makes the I/O order of a protocol (which files a commit writes,
// in which order) a golden artifact. The faults model the three ways
// storage lets a writer down: an operation that fails cleanly (FailBefore),
// one whose effect landed although the caller got an error, as when a PUT
// succeeds and its acknowledgement is lost (FailAfter), and a process crash
// (CrashBefore, CrashAfter), after which nothing the process issues
// reaches storage.
//
// Every injected error wraps fileio.ErrInjected, and crash errors wrap
// ErrCrashed too. Files returned by Open read the inner FileIO directly:
// their reads are neither traced nor faulted.
package errorio

import (
	"context"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/fileio"
)

// ErrCrashed is wrapped by the error of the crashing operation and of every
// operation issued after it.
var ErrCrashed = fmt.Errorf("crashed: %w", fileio.ErrInjected)

// Kind is the kind of a FileIO operation: one per FileIO or HintWriter
// method.
type Kind uint8

// The kinds, one per method.
const (
	Read Kind = iota
	Open
	Stat
	List
	Delete
	PutIfAbsent
	Overwrite
	OverwriteHint
)

var kindNames = [...]string{"read", "open", "stat", "list", "delete", "put-if-absent", "overwrite", "overwrite-hint"}

func (k Kind) String() string { return kindNames[k] }

// Mutating reports whether operations of kind k change the stored state.
func (k Kind) Mutating() bool { return k >= Delete }

// Op is one FileIO operation.
type Op struct {
	Kind Kind
	Path string
}

func (op Op) String() string { return op.Kind.String() + " " + op.Path }

// Mutating matches operations that change the stored state; pass it to
// OnNth to count only those.
func Mutating(op Op) bool { return op.Kind.Mutating() }

// Fault is what an Injector does to one operation.
type Fault uint8

const (
	// NoFault lets the operation run normally.
	NoFault Fault = iota
	// FailBefore fails the operation without applying it.
	FailBefore
	// FailAfter applies the operation, then fails it: its outcome is
	// unknown to the caller.
	FailAfter
	// CrashBefore crashes the process just before the operation.
	CrashBefore
	// CrashAfter crashes the process just after applying the operation,
	// before its result reaches the caller.
	CrashAfter
)

var faultNames = [...]string{"no fault", "fail-before", "fail-after", "crash-before", "crash-after"}

func (f Fault) String() string { return faultNames[f] }

func (f Fault) appliesOp() bool { return f == NoFault || f == FailAfter || f == CrashAfter }

func (f Fault) crashes() bool { return f == CrashBefore || f == CrashAfter }

// Injector chooses the fault of each operation. FS calls it once per
// operation, in trace order, with its lock held.
type Injector interface {
	Fault(op Op) Fault
}

// OnNth returns an Injector that injects fault into the n-th operation
// (counting from 0) accepted by match, and into no other. A nil match
// accepts every operation.
func OnNth(n int, match func(Op) bool, fault Fault) Injector {
	return &nth{n: int64(n), match: match, fault: fault}
}

type nth struct {
	n     int64
	match func(Op) bool
	fault Fault
	seen  atomic.Int64
}

func (i *nth) Fault(op Op) Fault {
	if i.match != nil && !i.match(op) {
		return NoFault
	}
	if i.seen.Add(1)-1 == i.n {
		return i.fault
	}
	return NoFault
}

// Toggle consults Injector only while switched on, so that the injector
// counts and faults only the operations of the phase under test (a commit,
// say, and not the setup before it). A Toggle starts off.
type Toggle struct {
	Injector Injector
	on       atomic.Bool
}

// On switches injection on.
func (t *Toggle) On() { t.on.Store(true) }

// Off switches injection off.
func (t *Toggle) Off() { t.on.Store(false) }

// Fault implements Injector.
func (t *Toggle) Fault(op Op) Fault {
	if !t.on.Load() {
		return NoFault
	}
	return t.Injector.Fault(op)
}

// FS is a FileIO that records and faults the operations it passes to an
// inner FileIO.
type FS struct {
	inner    fileio.FileIO
	injector Injector

	mu       sync.Mutex
	trace    []Op
	injected bool
	crashed  bool
}

var _ fileio.FileIO = (*FS)(nil)

// Wrap returns an FS over inner. A nil injector injects no fault.
func Wrap(inner fileio.FileIO, injector Injector) *FS {
	return &FS{inner: inner, injector: injector}
}

// Trace returns the operations issued so far, in order, including those
// failed by injection and excluding those issued after a crash. To trace
// one phase, slice from the trace length taken before it.
func (f *FS) Trace() []Op {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Op(nil), f.trace...)
}

// Injected reports whether a fault has been injected. A fault sweep stops
// at the first k for which its workload runs with Injected still false.
func (f *FS) Injected() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.injected
}

// Crashed reports whether a crash fault has been injected.
func (f *FS) Crashed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.crashed
}

// ReadFile implements fileio.FileIO.
func (f *FS) ReadFile(ctx context.Context, path string) ([]byte, error) {
	var data []byte
	err := f.do(Op{Read, path}, func() (err error) {
		data, err = f.inner.ReadFile(ctx, path)
		return err
	})
	if err != nil {
		return nil, err
	}
	return data, nil
}

// Open implements fileio.FileIO.
func (f *FS) Open(ctx context.Context, path string) (fileio.File, error) {
	var file fileio.File
	err := f.do(Op{Open, path}, func() (err error) {
		file, err = f.inner.Open(ctx, path)
		return err
	})
	if err != nil {
		if file != nil {
			// Opened, then faulted: the caller never sees the file to close it.
			file.Close()
		}
		return nil, err
	}
	return file, nil
}

// Stat implements fileio.FileIO.
func (f *FS) Stat(ctx context.Context, path string) (fileio.FileInfo, error) {
	var info fileio.FileInfo
	err := f.do(Op{Stat, path}, func() (err error) {
		info, err = f.inner.Stat(ctx, path)
		return err
	})
	if err != nil {
		return fileio.FileInfo{}, err
	}
	return info, nil
}

// List implements fileio.FileIO.
func (f *FS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	var infos []fileio.FileInfo
	err := f.do(Op{List, dir}, func() (err error) {
		infos, err = f.inner.List(ctx, dir)
		return err
	})
	if err != nil {
		return nil, err
	}
	return infos, nil
}

// Delete implements fileio.FileIO.
func (f *FS) Delete(ctx context.Context, path string) error {
	return f.do(Op{Delete, path}, func() error { return f.inner.Delete(ctx, path) })
}

// PutIfAbsent implements fileio.FileIO.
func (f *FS) PutIfAbsent(ctx context.Context, path string, data []byte) error {
	return f.do(Op{PutIfAbsent, path}, func() error { return f.inner.PutIfAbsent(ctx, path, data) })
}

// Overwrite implements fileio.FileIO.
func (f *FS) Overwrite(ctx context.Context, path string, data []byte) error {
	return f.do(Op{Overwrite, path}, func() error { return f.inner.Overwrite(ctx, path, data) })
}

// OverwriteHint implements fileio.HintWriter, passing the weaker
// durability of the inner FileIO through, so crash tests see hint writes
// lost exactly as the real FileIO would lose them.
func (f *FS) OverwriteHint(ctx context.Context, path string, data []byte) error {
	return f.do(Op{OverwriteHint, path}, func() error { return fileio.OverwriteHint(ctx, f.inner, path, data) })
}

// do runs apply, the operation op on the inner FileIO, unless a fault says
// otherwise. A faulted operation returns the injected error even if apply
// failed, so the caller can always tell the fault fired.
func (f *FS) do(op Op, apply func() error) error {
	fault, err := f.begin(op)
	if err != nil {
		return err
	}
	var applyErr error
	if fault.appliesOp() {
		applyErr = apply()
	}
	if fault != NoFault {
		return injectedError(op, fault)
	}
	return applyErr
}

// begin records op and decides its fault. Deciding and recording under one
// lock keeps the injector's count in trace order; marking the crash here
// makes every operation that begins afterwards fail, even while op runs.
func (f *FS) begin(op Op) (Fault, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.crashed {
		return NoFault, &fs.PathError{Op: op.Kind.String(), Path: op.Path, Err: ErrCrashed}
	}
	f.trace = append(f.trace, op)
	fault := NoFault
	if f.injector != nil {
		fault = f.injector.Fault(op)
	}
	f.injected = f.injected || fault != NoFault
	f.crashed = fault.crashes()
	return fault, nil
}

func injectedError(op Op, fault Fault) error {
	cause := fileio.ErrInjected
	if fault.crashes() {
		cause = ErrCrashed
	}
	return &fs.PathError{Op: op.Kind.String(), Path: op.Path, Err: fmt.Errorf("%w (%s)", cause, fault)}
}
