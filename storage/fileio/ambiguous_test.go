package fileio_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
)

func isPut(op errorio.Op) bool { return op.Kind == errorio.PutIfAbsent }

func isDelete(op errorio.Op) bool { return op.Kind == errorio.Delete }

// TestAmbiguousPutsRecordsFailuresButErrExist puts a file under each
// outcome a put can have and checks which paths are recorded, and that
// DeleteAll leaves no file of the writer and every file of another.
func TestAmbiguousPutsRecordsFailuresButErrExist(t *testing.T) {
	cases := []struct {
		name string
		// theirs puts the path before the writer does.
		theirs   bool
		fault    errorio.Fault
		recorded bool
		// after is what the path holds after DeleteAll.
		after string
	}{
		{name: "succeeded", fault: errorio.NoFault, after: "mine"},
		{name: "failed after landing", fault: errorio.FailAfter, recorded: true, after: absent},
		{name: "failed before landing", fault: errorio.FailBefore, recorded: true, after: absent},
		{name: "lost to another writer", theirs: true, fault: errorio.NoFault, after: "theirs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			mem := memio.New()
			const p = "t/bucket-0/data-1.parquet"
			if c.theirs {
				if err := mem.PutIfAbsent(ctx, p, []byte("theirs")); err != nil {
					t.Fatal(err)
				}
			}
			fsys := errorio.Wrap(mem, errorio.OnNth(0, isPut, c.fault))
			var puts fileio.AmbiguousPuts
			err := puts.PutIfAbsent(ctx, fsys, p, []byte("mine"))
			switch {
			case c.theirs && !errors.Is(err, fileio.ErrExist):
				t.Fatalf("put: %v, want ErrExist", err)
			case c.fault != errorio.NoFault && !errors.Is(err, fileio.ErrInjected):
				t.Fatalf("put: %v, want the injected fault", err)
			case !c.theirs && c.fault == errorio.NoFault && err != nil:
				t.Fatalf("put: %v", err)
			}
			if got := len(puts.Paths()) == 1; got != c.recorded {
				t.Fatalf("recorded %q, want recorded=%v", puts.Paths(), c.recorded)
			}
			if err := puts.DeleteAll(ctx, fsys); err != nil {
				t.Fatalf("DeleteAll: %v", err)
			}
			if got, want := contentOrAbsent(t, mem, p), c.after; got != want {
				t.Fatalf("%s holds %q after DeleteAll, want %q", p, got, want)
			}
		})
	}
}

const absent = "<absent>"

func contentOrAbsent(t *testing.T, mem *memio.FS, p string) string {
	t.Helper()
	data, err := mem.ReadFile(t.Context(), p)
	if errors.Is(err, fileio.ErrNotExist) {
		return absent
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestAmbiguousPutsDeleteAll(t *testing.T) {
	ctx := t.Context()
	paths := []string{"t/a", "t/b", "t/c"}
	// putAll fails every put after it landed.
	putAll := func(t *testing.T, mem *memio.FS) *fileio.AmbiguousPuts {
		t.Helper()
		var puts fileio.AmbiguousPuts
		for i, p := range paths {
			fsys := errorio.Wrap(mem, errorio.OnNth(0, isPut, errorio.FailAfter))
			if err := puts.PutIfAbsent(ctx, fsys, p, []byte{byte(i)}); !errors.Is(err, fileio.ErrInjected) {
				t.Fatalf("put %s: %v", p, err)
			}
		}
		if !slices.Equal(puts.Paths(), paths) {
			t.Fatalf("recorded %q, want %q", puts.Paths(), paths)
		}
		return &puts
	}
	t.Run("with a cancelled context", func(t *testing.T) {
		mem := memio.New()
		puts := putAll(t, mem)
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if err := puts.DeleteAll(cancelled, mem); err != nil {
			t.Fatal(err)
		}
		if files := mem.Files(); len(files) != 0 {
			t.Fatalf("files left: %q", files)
		}
		if len(puts.Paths()) != 0 {
			t.Fatalf("still recorded: %q", puts.Paths())
		}
	})
	t.Run("a failing delete", func(t *testing.T) {
		mem := memio.New()
		puts := putAll(t, mem)
		fsys := errorio.Wrap(mem, errorio.OnNth(1, isDelete, errorio.FailBefore))
		if err := puts.DeleteAll(ctx, fsys); !errors.Is(err, fileio.ErrInjected) {
			t.Fatalf("DeleteAll: %v, want the failed delete", err)
		}
		if files := mem.Files(); !slices.Equal(files, []string{"t/b"}) {
			t.Fatalf("files left %q, want only the one whose delete failed", files)
		}
		if len(puts.Paths()) != 0 {
			t.Fatalf("still recorded: %q", puts.Paths())
		}
	})
}
