package write

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/errorio"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// putFaultTable is a table on which writeAndPrepare puts several files
// into each of several buckets of two partitions.
type putFaultTable struct {
	name string
	def  catalog.TableDefinition
	// budget, when positive, makes the writer flush during Write as well
	// as in PrepareCommit.
	budget int64
}

var putFaultTables = []putFaultTable{
	{
		name: "primary key",
		def: catalog.TableDefinition{
			Fields:        []spec.DataField{field("dt", notNull(stringType)), field("id", notNull(bigintType)), field("v", stringType)},
			PartitionKeys: []string{"dt"}, PrimaryKeys: []string{"dt", "id"},
			Options: map[string]string{"bucket": "3", "target-file-size": "1 kb", "write-buffer-spillable": "false"},
		},
		budget: 16 << 10,
	},
	{
		name: "append",
		def: catalog.TableDefinition{
			Fields:        []spec.DataField{field("dt", stringType), field("id", bigintType), field("v", stringType)},
			PartitionKeys: []string{"dt"},
			Options:       map[string]string{"bucket": "3", "bucket-key": "id", "target-file-size": "1 kb"},
		},
	},
}

// putFaultBuckets is how many buckets writeAndPrepare writes: two
// partitions of three buckets.
const putFaultBuckets = 6

// writeAndPrepare writes rows into two partitions and prepares them,
// stopping at the first error; failedIn names the call that failed.
func writeAndPrepare(ctx context.Context, w *TableWriter) (failedIn string, err error) {
	for i := range 300 {
		row := []any{fmt.Sprintf("d%d", i%2), int64(i), fmt.Sprintf("value-%04d-%x", i, i*7919)}
		if err := w.Write(ctx, row, spec.RowKindInsert); err != nil {
			return "Write", err
		}
	}
	if _, err := w.PrepareCommit(ctx); err != nil {
		return "PrepareCommit", err
	}
	return "", nil
}

func isPut(op errorio.Op) bool { return op.Kind == errorio.PutIfAbsent }

// TestAbortDeletesFilesOfFailedPuts injects a fault into each put of a
// write in turn, then aborts: no file the writer created may remain, not
// even one whose put landed although it reported an error (fail-after,
// as an S3 PUT whose acknowledgement was lost), and the writer deletes
// only paths it put.
func TestAbortDeletesFilesOfFailedPuts(t *testing.T) {
	for _, table := range putFaultTables {
		for _, fault := range []errorio.Fault{errorio.FailAfter, errorio.FailBefore} {
			t.Run(table.name+"/"+fault.String(), func(t *testing.T) {
				swept, failedIn := sweepPutFaults(t, table, fault)
				if swept < 2*putFaultBuckets {
					t.Fatalf("the write made %d puts, want several files in each of %d buckets", swept, putFaultBuckets)
				}
				if !failedIn["Write"] || !failedIn["PrepareCommit"] {
					t.Fatalf("faults failed %v, want both Write (a flush or roll) and PrepareCommit", failedIn)
				}
			})
		}
	}
}

// sweepPutFaults faults the k-th put for k = 0, 1, … until a run makes no
// k-th put. It returns how many puts that clean run made and the calls
// the faults failed.
func sweepPutFaults(t *testing.T, table putFaultTable, fault errorio.Fault) (int, map[string]bool) {
	failedIn := map[string]bool{}
	for k := 0; ; k++ {
		tt := newTestTable(t, table.def)
		before := memFiles(tt)
		efs := errorio.Wrap(tt.FS, errorio.OnNth(k, isPut, fault))
		opts := tt.options()
		opts.FileIO, opts.MemoryBudget = efs, table.budget
		w := tt.open(opts)
		call, err := writeAndPrepare(t.Context(), w)
		if !efs.Injected() {
			if err != nil {
				t.Fatalf("clean run: %v", err)
			}
			return k, failedIn
		}
		if !errors.Is(err, fileio.ErrInjected) {
			t.Fatalf("put %d: error %v, want the injected fault", k, err)
		}
		failedIn[call] = true
		if err := w.Abort(t.Context()); err != nil {
			t.Fatalf("put %d: Abort: %v", k, err)
		}
		if after := memFiles(tt); !slices.Equal(after, before) {
			t.Fatalf("put %d: files after Abort\n %q\nwant the files before the write\n %q", k, after, before)
		}
		checkDeletesOnlyPuts(t, efs.Trace())
	}
}

// checkDeletesOnlyPuts checks that every path deleted in trace was put
// earlier in it.
func checkDeletesOnlyPuts(t *testing.T, trace []errorio.Op) {
	t.Helper()
	put := map[string]bool{}
	for _, op := range trace {
		switch op.Kind {
		case errorio.PutIfAbsent:
			put[op.Path] = true
		case errorio.Delete:
			if !put[op.Path] {
				t.Fatalf("deleted %s, which the writer never put", op.Path)
			}
		}
	}
}

// TestAbortKeepsAnotherWritersFile makes a writer's put lose to a file
// already at its path, as when two writers draw the same uuid: the file
// is the other writer's, so neither Abort nor Close may delete it.
func TestAbortKeepsAnotherWritersFile(t *testing.T) {
	for _, table := range putFaultTables {
		for _, release := range []string{"Abort", "Close"} {
			t.Run(table.name+"/"+release, func(t *testing.T) {
				tt := newTestTable(t, table.def)
				const uuid = "00000000-0000-4000-8000-ffffffffffff"
				owned := tt.dataPath("dt=d0", 0, "data-"+uuid+"-0.parquet")
				theirs := []byte("another writer's file")
				if err := tt.FS.PutIfAbsent(t.Context(), owned, theirs); err != nil {
					t.Fatal(err)
				}
				before := memFiles(tt)
				efs := errorio.Wrap(tt.FS, nil)
				opts := tt.options()
				opts.FileIO, opts.NewUUID = efs, func() string { return uuid }
				w := tt.open(opts)
				if _, err := writeAndPrepare(t.Context(), w); !errors.Is(err, fileio.ErrExist) {
					t.Fatalf("write: %v, want a put failing with ErrExist", err)
				}
				releaseWriter(t, w, release)
				for _, op := range efs.Trace() {
					if op.Kind == errorio.Delete && op.Path == owned {
						t.Fatalf("%s deleted %s, whose put failed with ErrExist", release, owned)
					}
				}
				if data, err := tt.FS.ReadFile(t.Context(), owned); err != nil || string(data) != string(theirs) {
					t.Fatalf("the other writer's file after %s: %q, %v", release, data, err)
				}
				if after := memFiles(tt); !slices.Equal(after, before) {
					t.Fatalf("files after %s\n %q\nwant the files before the write\n %q", release, after, before)
				}
			})
		}
	}
}

func releaseWriter(t *testing.T, w *TableWriter, how string) {
	t.Helper()
	var err error
	if how == "Abort" {
		err = w.Abort(t.Context())
	} else {
		err = w.Close()
	}
	if err != nil {
		t.Fatalf("%s: %v", how, err)
	}
}

// TestCloseDeletesFilesOfFailedPuts checks Close, which deletes what was
// not handed to a commit message. The last put of the write is that of
// the last bucket PrepareCommit flushes, after the other buckets' files;
// a PrepareCommit failing there hands nothing over, so every file of the
// write, landed or maybe landed, goes.
func TestCloseDeletesFilesOfFailedPuts(t *testing.T) {
	for _, table := range putFaultTables {
		t.Run(table.name, func(t *testing.T) {
			last := putsOfCleanWrite(t, table) - 1
			tt := newTestTable(t, table.def)
			before := memFiles(tt)
			efs := errorio.Wrap(tt.FS, errorio.OnNth(last, isPut, errorio.FailAfter))
			opts := tt.options()
			opts.FileIO, opts.MemoryBudget = efs, table.budget
			w := tt.open(opts)
			if _, err := writeAndPrepare(t.Context(), w); !errors.Is(err, fileio.ErrInjected) {
				t.Fatalf("write: %v, want the injected fault", err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if after := memFiles(tt); !slices.Equal(after, before) {
				t.Fatalf("files after Close\n %q\nwant\n %q", after, before)
			}
		})
	}
}

// putsOfCleanWrite counts the puts of writeAndPrepare without faults.
func putsOfCleanWrite(t *testing.T, table putFaultTable) int {
	t.Helper()
	tt := newTestTable(t, table.def)
	efs := errorio.Wrap(tt.FS, nil)
	opts := tt.options()
	opts.FileIO, opts.MemoryBudget = efs, table.budget
	if _, err := writeAndPrepare(t.Context(), tt.open(opts)); err != nil {
		t.Fatal(err)
	}
	return len(slices.DeleteFunc(efs.Trace(), func(op errorio.Op) bool { return !isPut(op) }))
}

// TestAbortWithCancelledContext aborts the write of a cancelled statement
// with its context: a put cut short by cancellation may have landed, and
// the cleanup must run all the same.
func TestAbortWithCancelledContext(t *testing.T) {
	tt := newTestTable(t, putFaultTables[1].def)
	before := memFiles(tt)
	efs := errorio.Wrap(tt.FS, errorio.OnNth(3, isPut, errorio.FailAfter))
	opts := tt.options()
	opts.FileIO = efs
	w := tt.open(opts)
	ctx, cancel := context.WithCancel(t.Context())
	if _, err := writeAndPrepare(ctx, w); !errors.Is(err, fileio.ErrInjected) {
		t.Fatalf("write: %v, want the injected fault", err)
	}
	cancel()
	if err := w.Abort(ctx); err != nil {
		t.Fatal(err)
	}
	if after := memFiles(tt); !slices.Equal(after, before) {
		t.Fatalf("files after Abort\n %q\nwant\n %q", after, before)
	}
}

// TestCompactionWriterAbortDeletesFilesOfFailedPuts sweeps fail-after
// faults over the puts of a compaction's output: its Abort deletes the
// file whose put failed with the files it wrote.
func TestCompactionWriterAbortDeletesFilesOfFailedPuts(t *testing.T) {
	for _, table := range putFaultTables {
		t.Run(table.name, func(t *testing.T) {
			for k := 0; ; k++ {
				tt := newTestTable(t, table.def)
				before := memFiles(tt)
				efs := errorio.Wrap(tt.FS, errorio.OnNth(k, isPut, errorio.FailAfter))
				w, err := NewCompactionWriter(CompactionWriterOptions{FileIO: efs, Schema: tt.Schema(),
					BucketDir: tt.dataPath("dt=d0", 0, ""), Level: 1, NewUUID: tt.NewUUID})
				if err != nil {
					t.Fatal(err)
				}
				err = writeCompactionOutput(t.Context(), w, table.def.PrimaryKeys != nil)
				if !efs.Injected() {
					if err != nil || k < 2 {
						t.Fatalf("clean run after %d puts: %v, want several files", k, err)
					}
					return
				}
				if !errors.Is(err, fileio.ErrInjected) {
					t.Fatalf("put %d: error %v, want the injected fault", k, err)
				}
				if err := w.Abort(t.Context()); err != nil {
					t.Fatalf("put %d: Abort: %v", k, err)
				}
				if after := memFiles(tt); !slices.Equal(after, before) {
					t.Fatalf("put %d: files after Abort\n %q\nwant\n %q", k, after, before)
				}
			}
		})
	}
}

// writeCompactionOutput writes records of partition d0 in key order and
// finishes, stopping at the first error.
func writeCompactionOutput(ctx context.Context, w *CompactionWriter, primaryKey bool) error {
	for i := range 200 {
		row := []any{"d0", int64(i), fmt.Sprintf("value-%04d-%x", i, i*7919)}
		var err error
		if primaryKey {
			err = w.WriteKeyValue(ctx, lsm.KeyValue{Key: []any{int64(i)}, Seq: int64(i), Kind: spec.RowKindInsert, Value: row})
		} else {
			err = w.WriteRow(ctx, row)
		}
		if err != nil {
			return err
		}
	}
	_, err := w.Finish(ctx)
	return err
}
