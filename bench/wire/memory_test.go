package wire

import (
	"io/fs"
	"path/filepath"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
)

// peaks are the largest resident set, spill directory size and Go heap
// seen: what the resident set holds beyond the Go heap is DuckDB's.
type peaks struct{ rss, spill, goHeap int64 }

// watchPeaks runs f while sampling process pid's resident set, the size
// of the spill directory and this process's Go heap every 20 ms.
func watchPeaks(b *testing.B, pid int, spillDir string, f func()) peaks {
	var (
		p    peaks
		mu   sync.Mutex
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	sample := func() {
		rss, spill, heap := residentBytes(b, pid), dirBytes(spillDir), goHeapBytes()
		mu.Lock()
		p.rss, p.spill, p.goHeap = max(p.rss, rss), max(p.spill, spill), max(p.goHeap, heap)
		mu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				sample()
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	sample()
	return p
}

// residentBytes is VmRSS of process pid.
func residentBytes(b *testing.B, pid int) int64 {
	rss, err := servertest.ResidentBytes(pid)
	if err != nil {
		b.Skip("no resident set size:", err)
	}
	return rss
}

// goHeapBytes is the memory the Go heap has mapped and not returned to
// the operating system, live or not.
func goHeapBytes() int64 {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(sample)
	return int64(sample[0].Value.Uint64() - sample[1].Value.Uint64())
}

// dirBytes is the total size of the files under dir; files removed while
// it walks are skipped.
func dirBytes(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			total += info.Size()
		}
		return nil
	})
	return total
}
