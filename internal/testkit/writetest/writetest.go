// Package writetest writes rows to a tabletest.Table through storage/write
// and commits them, as a job does. It is apart from tabletest because
// storage/write's own tests use tabletest; tests of storage/write and of
// the packages it imports cannot use it.
package writetest

import (
	"context"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/write"
)

// Options are the options of a writer of tt: its FileIO, clock and uuids,
// spilling to a temporary directory of the test.
func Options(tt *tabletest.Table) write.Options {
	return write.Options{FileIO: tt.FS, TableDir: tt.Dir, Now: tt.Now, NewUUID: tt.NewUUID, SpillDir: tt.T.TempDir()}
}

// Prepare writes records with a new writer opened with opts and returns
// its commit messages; the writer is closed when it returns.
func Prepare(tt *tabletest.Table, opts write.Options, records ...tabletest.Record) []commit.Message {
	tt.T.Helper()
	w, err := write.Open(context.Background(), opts)
	if err != nil {
		tt.T.Fatal(err)
	}
	defer w.Close()
	msgs, err := writeAndPrepare(w, records)
	if err != nil {
		tt.T.Fatal(err)
	}
	return msgs
}

// Commit writes records with a new writer and commits them as user's next
// identifier.
func Commit(tt *tabletest.Table, user string, records ...tabletest.Record) commit.Result {
	tt.T.Helper()
	res, err := TryCommit(tt, user, records)
	if err != nil {
		tt.T.Fatal(err)
	}
	return res
}

// TryCommit is Commit returning the error. The writer holds its lease
// until the commit returns, as a job's does.
func TryCommit(tt *tabletest.Table, user string, records []tabletest.Record) (commit.Result, error) {
	w, err := write.Open(context.Background(), Options(tt))
	if err != nil {
		return commit.Result{}, err
	}
	defer w.Close()
	msgs, err := writeAndPrepare(w, records)
	if err != nil {
		return commit.Result{}, err
	}
	return tt.TryCommit(user, commit.Request{Messages: msgs})
}

func writeAndPrepare(w *write.TableWriter, records []tabletest.Record) ([]commit.Message, error) {
	ctx := context.Background()
	for _, r := range records {
		if err := w.Write(ctx, r.Row, r.Kind); err != nil {
			return nil, err
		}
	}
	return w.PrepareCommit(ctx)
}
