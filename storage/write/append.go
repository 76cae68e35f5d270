package write

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/storage/spec"
)

// appendWriter writes one bucket of an append table. Mirrors AppendOnlyWriter
// without write-buffer-for-append: rows go straight into a rolling data
// file, each taking the next sequence number; nothing is merged.
type appendWriter struct {
	env     *writerEnv
	files   *bucketFiles
	nextSeq int64
	// openBytes is the open file's size when memory was last accounted.
	openBytes int64
}

func newAppendWriter(env *writerEnv, dir string, nextSeq int64) *appendWriter {
	return &appendWriter{env: env, files: newBucketFiles(env, dir, appendLayout{settings: env.settings}), nextSeq: nextSeq}
}

// write encodes a validated row into the open file. It returns the change
// in memory the open file holds, which is negative when the file rolled.
func (w *appendWriter) write(ctx context.Context, row []any, _ spec.RowKind) (int64, error) {
	f, err := w.files.current()
	if err != nil {
		return 0, err
	}
	if err := f.writer.Write(row); err != nil {
		return 0, fmt.Errorf("encode data file %s: %w", f.name, err)
	}
	f.observe(row, w.nextSeq, spec.RowKindInsert)
	w.nextSeq++
	if err := w.files.rollIfFull(ctx); err != nil {
		return 0, err
	}
	return w.account(), nil
}

// account returns how much the open file grew since the last call.
func (w *appendWriter) account() int64 {
	size := w.files.size()
	delta := size - w.openBytes
	w.openBytes = size
	return delta
}

func (w *appendWriter) memory() int64 { return w.openBytes }

// release closes the open file early to give its buffer back; it returns
// the bytes freed.
func (w *appendWriter) release(ctx context.Context) (int64, error) {
	if err := w.files.closeFile(ctx); err != nil {
		return 0, err
	}
	return -w.account(), nil
}

// prepare closes the open file.
func (w *appendWriter) prepare(ctx context.Context) error {
	_, err := w.release(ctx)
	return err
}

func (w *appendWriter) drain() []spec.DataFileMeta { return w.files.drain() }

func (w *appendWriter) discard(ctx context.Context) error {
	err := w.files.discard(ctx)
	w.openBytes = 0
	return err
}
