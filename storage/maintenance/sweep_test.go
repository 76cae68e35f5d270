package maintenance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
)

// sweepCase is a maintenance operation to inject faults into, on copies of
// one table.
type sweepCase struct {
	name string
	// setup builds the table every run starts from.
	setup func(f *fixture)
	// run is the operation, on fio.
	run func(f *fixture, fio fileio.FileIO) error
	// keep selects the snapshots that must read as before the operation.
	keep func(id int64) bool
	// dropTags are the tags the operation deletes.
	dropTags []string
	// rerun finishes the operation after a fault; nil means run.
	rerun func(f *fixture, fio fileio.FileIO) error
	// check, if set, checks more after a run that may have been faulted.
	check func(t *testing.T, f *fixture, fio fileio.FileIO)
}

// sweep injects one fault into each I/O operation of c.run in turn: a clean
// failure and a failure after the effect (into every operation), and a
// crash before and after each mutation, after which the table is reopened
// on what the crash leaves (memio.CrashClone). After every run the
// retained snapshots and the tags must read as before and every file they
// reference must exist; running the operation again without faults must
// then succeed and leave exactly the files a clean run leaves.
func sweep(t *testing.T, c sweepCase) {
	base := newFixture(t, pkTable)
	c.setup(base)
	// start is a copy of the table the setup built; every run works on its
	// own start.
	start := func() *fixture {
		return base.clone(base.mem.CrashClone())
	}
	clean := start()
	before := captureState(t, clean.FS, clean.Dir)
	for _, name := range c.dropTags {
		delete(before.tags, name)
	}
	rerun := c.rerun
	if rerun == nil {
		rerun = c.run
	}
	if err := c.run(clean, clean.FS); err != nil {
		t.Fatalf("clean run: %v", err)
	}
	want := tableFiles(clean.mem)
	faults := []struct {
		fault errorio.Fault
		match func(errorio.Op) bool
	}{
		{errorio.FailBefore, nil}, {errorio.FailAfter, nil},
		{errorio.CrashBefore, errorio.Mutating}, {errorio.CrashAfter, errorio.Mutating},
	}
	for _, fc := range faults {
		t.Run(fc.fault.String(), func(t *testing.T) {
			t.Parallel()
			for k := 0; ; k++ {
				f := start()
				efs := errorio.Wrap(f.FS, errorio.OnNth(k, fc.match, fc.fault))
				err := c.run(f, efs)
				if !efs.Injected() {
					if err != nil {
						t.Fatalf("run %d without a fault: %v", k, err)
					}
					return
				}
				if err != nil && !errors.Is(err, fileio.ErrInjected) {
					t.Fatalf("fault %d: error %v does not wrap the injected fault", k, err)
				}
				after := f.aged
				if efs.Crashed() {
					after = f.aged.Over(f.mem.CrashClone(), f.clock.Now)
				}
				checkRetained(t, after, f.Dir, before, c.keep)
				if c.check != nil {
					c.check(t, f, after)
				}
				if err := rerun(f, after); err != nil {
					t.Fatalf("fault %d (%v): re-run: %v", k, fc.fault, err)
				}
				mem := f.mem
				if efs.Crashed() {
					mem = after.FileIO.(*memio.FS)
				}
				if got := tableFiles(mem); !slices.Equal(got, want) {
					t.Fatalf("fault %d (%v): after the re-run the table differs from a clean run's: %s", k, fc.fault, fileDiff(got, want))
				}
				if t.Failed() {
					t.Fatalf("fault %d (%v) broke the table", k, fc.fault)
				}
			}
		})
	}
}

// fileDiff describes how got differs from want.
func fileDiff(got, want []string) string {
	var extra, missing []string
	for _, p := range got {
		if !slices.Contains(want, p) {
			extra = append(extra, p)
		}
	}
	for _, p := range want {
		if !slices.Contains(got, p) {
			missing = append(missing, p)
		}
	}
	return fmt.Sprintf("extra %v, missing %v", extra, missing)
}

// tableFiles lists the files of a warehouse that hold table content: not
// the advisory LATEST and EARLIEST hints, nor commit receipts, which
// crashes may lose and later writes rewrite.
func tableFiles(mem *memio.FS) []string {
	var out []string
	for _, p := range mem.Files() {
		if strings.HasSuffix(p, "/LATEST") || strings.HasSuffix(p, "/EARLIEST") || strings.Contains(p, "/commit-user/") {
			continue
		}
		out = append(out, p)
	}
	return out
}

func TestExpireFaultSweep(t *testing.T) {
	sweep(t, sweepCase{
		name:  "expire",
		setup: buildHistory,
		run: func(f *fixture, fio fileio.FileIO) error {
			_, err := ExpireSnapshots(context.Background(), fio, f.Dir, ExpireOptions{RetainMin: intp(3),
				OlderThan: ptr(f.clock.Now()), Now: f.clock.Now})
			return err
		},
		keep: from(11),
	})
}
