// Package filetest wraps a FileIO for tests that look at what reaches
// storage: AgedFS gives files the modification times of a test clock,
// CountingFS counts the reads and opens of each path.
package filetest

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/fileio"
)

// CountingFS counts, per path, the reads (ReadFile) and opens that reach
// the FileIO under it: what a cache in front of it failed to answer; and
// the bytes read from the files it opened.
type CountingFS struct {
	fileio.FileIO
	mu           sync.Mutex
	reads, opens map[string]int
	bytesRead    atomic.Int64
}

// NewCountingFS counts the reads and opens of inner.
func NewCountingFS(inner fileio.FileIO) *CountingFS {
	return &CountingFS{FileIO: inner, reads: map[string]int{}, opens: map[string]int{}}
}

func (c *CountingFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	c.count(c.reads, p)
	return c.FileIO.ReadFile(ctx, p)
}

func (c *CountingFS) Open(ctx context.Context, p string) (fileio.File, error) {
	c.count(c.opens, p)
	f, err := c.FileIO.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return countingFile{File: f, fs: c}, nil
}

// countingFile adds what it reads to its CountingFS's bytes.
type countingFile struct {
	fileio.File
	fs *CountingFS
}

func (f countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	f.fs.bytesRead.Add(int64(n))
	return n, err
}

// BytesRead is how many bytes were read from opened files (ReadAt).
func (c *CountingFS) BytesRead() int64 { return c.bytesRead.Load() }

func (c *CountingFS) count(counts map[string]int, p string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	counts[p]++
}

// Reads is how many times p was read with ReadFile.
func (c *CountingFS) Reads(p string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[p]
}

// Opens is how many times p was opened.
func (c *CountingFS) Opens(p string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opens[p]
}
