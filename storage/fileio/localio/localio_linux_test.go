package localio

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFailedWriteLeavesNothingBehind makes the staging write itself fail
// part-way, by lowering the process's file size limit: a write past it
// fails with EFBIG (Go does not let SIGXFSZ kill the process).
func TestFailedWriteLeavesNothingBehind(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	hint := filepath.Join(dir, "LATEST")
	writeRaw(t, hint, "1")
	l := New()
	large := make([]byte, 64<<10)

	var putErr, overwriteErr error
	withFileSizeLimit(t, 4<<10, func() {
		putErr = l.PutIfAbsent(ctx, filepath.Join(dir, "snapshot-1"), large)
		overwriteErr = l.Overwrite(ctx, hint, large)
	})
	if !errors.Is(putErr, syscall.EFBIG) || !errors.Is(overwriteErr, syscall.EFBIG) {
		t.Fatalf("PutIfAbsent: %v, Overwrite: %v; want both to fail with EFBIG", putErr, overwriteErr)
	}
	expectRaw(t, hint, "1")
	expectNames(t, dir, "LATEST")
}

// withFileSizeLimit runs f under RLIMIT_FSIZE limit. The limit is process
// wide, which is safe only because no test of this package runs in
// parallel.
func withFileSizeLimit(t *testing.T, limit uint64, f func()) {
	t.Helper()
	var saved syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &saved); err != nil {
		t.Fatal(err)
	}
	lowered := syscall.Rlimit{Cur: limit, Max: saved.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lowered); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &saved); err != nil {
			t.Fatal(err)
		}
	}()
	f()
}
