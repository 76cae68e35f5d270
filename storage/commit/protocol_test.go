package commit

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestProtocol replays the golden I/O traces in testdata/protocol_*. Each
// file starts with "setup [pk] [<option>=<value>...]", which creates an
// empty table; then:
//
//	commit as=<writer> user=<user> id=<identifier> [overwrite=static|dynamic|truncate] [base=<id>] [static-dt=<dt>]
//	<verb> dt=<dt> <file> rows=<n> [b=<bucket>] [L<level>] [keys=<min>..<max>]
//
// runs one Commit by the writer (a Committer, one per writer name, like one
// process each), with verbs add, delete, compact-before and compact-after.
// It prints the writer's FileIO operations in order (paths relative to the
// table, "-> <error>" on failed ones, interleaved with sleeps and with
// commits of other writers), the result, and each published snapshot with
// its manifest lists and the entries of its delta. "arm-race" takes the
// same input and runs it, as another writer, just before the next commit's
// first snapshot put, so that commit loses the race. "expire ids=<a>,<b>"
// writes the receipts of those snapshots and deletes their files, as
// expiry will. "rm path=<path>" deletes a file of the table, and "ls" lists
// the table directory.
func TestProtocol(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, p string) {
		if !strings.HasPrefix(filepath.Base(p), "protocol_") {
			return
		}
		var pt *protocolTest
		datadriven.RunTest(t, p, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd == "setup" {
				pt = newProtocolTest(t, d)
				return ""
			}
			if pt == nil {
				d.Fatalf(t, "%s before setup", d.Cmd)
			}
			return pt.run(t, d)
		})
	})
}

type protocolTest struct {
	h       *harness
	writers map[string]*tracedWriter
	armed   *armedCommit
}

type armedCommit struct {
	writer string
	req    Request
}

func newProtocolTest(t *testing.T, d *datadriven.TestData) *protocolTest {
	pk := false
	var options []string
	for _, arg := range d.CmdArgs {
		if arg.Key == "pk" {
			pk = true
			continue
		}
		options = append(options, arg.Key+"="+strings.Join(arg.Vals, ","))
	}
	return &protocolTest{h: newHarness(t, pk, options...), writers: map[string]*tracedWriter{}}
}

func (pt *protocolTest) run(t *testing.T, d *datadriven.TestData) string {
	switch d.Cmd {
	case "commit":
		w, req := pt.writer(t, d), pt.request(t, d)
		return pt.commit(w, req)
	case "arm-race":
		pt.armed = &armedCommit{writer: argValue(t, d, "as"), req: pt.request(t, d)}
		pt.h.placeFiles(pt.armed.req.Messages)
		return "armed\n"
	case "expire":
		return pt.expire(t, d)
	case "ls":
		return listing(pt.h)
	case "rm":
		if err := pt.h.mem.Delete(context.Background(), tableDir+"/"+argValue(t, d, "path")); err != nil {
			d.Fatalf(t, "%v", err)
		}
		return "ok\n"
	}
	d.Fatalf(t, "unknown command %q", d.Cmd)
	return ""
}

func (pt *protocolTest) writer(t *testing.T, d *datadriven.TestData) *tracedWriter {
	return pt.writerNamed(argValue(t, d, "as"))
}

// commit runs req as w, firing an armed race before w's first snapshot put.
func (pt *protocolTest) commit(w *tracedWriter, req Request) string {
	if armed := pt.armed; armed != nil {
		pt.armed = nil
		w.hooks.beforeSnapshotPut = func() string {
			res, err := pt.writerNamed(armed.writer).c.Commit(context.Background(), armed.req)
			return fmt.Sprintf("== meanwhile %s (user %s) commits: %s", armed.writer, armed.req.CommitUser, outcome(res, err))
		}
	}
	pt.h.placeFiles(req.Messages)
	from := len(w.trace.Trace())
	res, err := w.c.Commit(context.Background(), req)
	var b strings.Builder
	w.render(&b, from)
	fmt.Fprintf(&b, "result: %s\n", outcome(res, err))
	for _, id := range res.Snapshots {
		describeSnapshot(&b, pt.h, id)
	}
	return b.String()
}

func (pt *protocolTest) writerNamed(name string) *tracedWriter {
	if w, ok := pt.writers[name]; ok {
		return w
	}
	w := newTracedWriter(pt.h)
	pt.writers[name] = w
	return w
}

func outcome(res Result, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	s := res.String()
	for _, w := range res.Warnings {
		s += "; warning: " + w.Error()
	}
	return s
}

// expire records the receipts of the given snapshots, then deletes their
// snapshot files (not their manifests), as snapshot expiry will.
func (pt *protocolTest) expire(t *testing.T, d *datadriven.TestData) string {
	ctx := context.Background()
	var snaps []*spec.Snapshot
	for _, text := range strings.Split(argValue(t, d, "ids"), ",") {
		id, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			d.Fatalf(t, "ids: %v", err)
		}
		s, err := pt.h.committer(nil).snapshots.Snapshot(ctx, id)
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
		snaps = append(snaps, s)
	}
	if err := pt.h.committer(nil).WriteReceipts(ctx, snaps); err != nil {
		d.Fatalf(t, "%v", err)
	}
	for _, s := range snaps {
		if err := pt.h.mem.Delete(ctx, pt.h.committer(nil).snapshots.SnapshotPath(s.ID)); err != nil {
			d.Fatalf(t, "%v", err)
		}
	}
	return "ok\n"
}

func listing(h *harness) string {
	var b strings.Builder
	for _, p := range h.mem.Files() {
		fmt.Fprintf(&b, "%s\n", strings.TrimPrefix(p, tableDir+"/"))
	}
	return b.String()
}

func argValue(t *testing.T, d *datadriven.TestData, key string) string {
	for _, arg := range d.CmdArgs {
		if arg.Key == key {
			return strings.Join(arg.Vals, ",")
		}
	}
	d.Fatalf(t, "missing argument %s", key)
	return ""
}

// tracedWriter is one writer process: a Committer over an errorio.FS
// (which records the operations) under a tap (which records their errors).
type tracedWriter struct {
	c     *Committer
	trace *errorio.FS
	tap   *tapIO
	hooks *hookInjector
}

func newTracedWriter(h *harness) *tracedWriter {
	hooks := &hookInjector{markers: map[int][]string{}}
	trace := errorio.Wrap(h.mem, hooks)
	tap := &tapIO{FileIO: trace}
	sleep := func(ctx context.Context, d time.Duration) error {
		hooks.mark(fmt.Sprintf("== sleep %s", d))
		return h.clock.Sleep(ctx, d)
	}
	return &tracedWriter{c: h.committerSleeping(tap, sleep), trace: trace, tap: tap, hooks: hooks}
}

// render prints the operations from index from on.
func (w *tracedWriter) render(b *strings.Builder, from int) {
	ops := w.trace.Trace()
	if len(ops) != len(w.tap.errs) {
		panic(fmt.Sprintf("trace has %d operations, tap %d", len(ops), len(w.tap.errs)))
	}
	for i := from; i <= len(ops); i++ {
		for _, m := range w.hooks.markers[i] {
			fmt.Fprintf(b, "%s\n", m)
		}
		if i == len(ops) {
			break
		}
		fmt.Fprintf(b, "%s %s%s\n", ops[i].Kind, strings.TrimPrefix(ops[i].Path, tableDir+"/"), errorSuffix(w.tap.errs[i]))
	}
}

func errorSuffix(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, fileio.ErrExist):
		return " -> exists"
	case errors.Is(err, fileio.ErrNotExist):
		return " -> not found"
	}
	return " -> " + err.Error()
}

// hookInjector injects no fault: it numbers operations, keeps markers to
// print before an operation, and runs a hook just before the first
// snapshot put it sees.
type hookInjector struct {
	ops               int
	markers           map[int][]string
	beforeSnapshotPut func() string
}

func (i *hookInjector) Fault(op errorio.Op) errorio.Fault {
	if hook := i.beforeSnapshotPut; hook != nil && op.Kind == errorio.PutIfAbsent && strings.Contains(op.Path, "/snapshot/snapshot-") {
		i.beforeSnapshotPut = nil
		i.mark(hook())
	}
	i.ops++
	return errorio.NoFault
}

func (i *hookInjector) mark(s string) { i.markers[i.ops] = append(i.markers[i.ops], s) }

// tapIO records the error of every operation, in order.
type tapIO struct {
	fileio.FileIO
	errs []error
}

func (t *tapIO) note(err error) error {
	t.errs = append(t.errs, err)
	return err
}

func (t *tapIO) ReadFile(ctx context.Context, p string) ([]byte, error) {
	data, err := t.FileIO.ReadFile(ctx, p)
	return data, t.note(err)
}

func (t *tapIO) Open(ctx context.Context, p string) (fileio.File, error) {
	f, err := t.FileIO.Open(ctx, p)
	return f, t.note(err)
}

func (t *tapIO) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	info, err := t.FileIO.Stat(ctx, p)
	return info, t.note(err)
}

func (t *tapIO) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	infos, err := t.FileIO.List(ctx, dir)
	return infos, t.note(err)
}

func (t *tapIO) Delete(ctx context.Context, p string) error {
	return t.note(t.FileIO.Delete(ctx, p))
}

func (t *tapIO) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	return t.note(t.FileIO.PutIfAbsent(ctx, p, data))
}

func (t *tapIO) Overwrite(ctx context.Context, p string, data []byte) error {
	return t.note(t.FileIO.Overwrite(ctx, p, data))
}

func (t *tapIO) OverwriteHint(ctx context.Context, p string, data []byte) error {
	return t.note(fileio.OverwriteHint(ctx, t.FileIO, p, data))
}
