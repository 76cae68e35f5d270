package compact

import (
	"sync"
	"time"
)

// progress logs how far the rewrites of one attempt have come: files and
// bytes read out of the total. Messages are spaced by an interval on the
// injected clock, and the last file always logs.
type progress struct {
	logf       func(format string, args ...any)
	now        func() time.Time
	interval   time.Duration
	table      string
	totalFiles int
	totalBytes int64

	mu        sync.Mutex
	doneFiles int
	doneBytes int64
	last      time.Time
}

func newProgress(opts *Options, table string, jobs []*job) *progress {
	p := &progress{logf: opts.Logf, now: opts.Now, interval: opts.ProgressInterval, table: table}
	for _, j := range jobs {
		for _, f := range j.inputs() {
			p.totalFiles++
			p.totalBytes += f.FileSize
		}
	}
	p.last = p.now()
	return p
}

// start logs what the attempt is about to do.
func (p *progress) start(jobs []*job) {
	upgrades := 0
	for _, j := range jobs {
		for _, s := range j.steps {
			if s.upgrade != nil {
				upgrades++
			}
		}
	}
	p.logf("compact %s: %d buckets: %d files (%d bytes) to rewrite, %d to upgrade",
		p.table, len(jobs), p.totalFiles, p.totalBytes, upgrades)
}

// fileDone records that one input file of size bytes was read to its end.
func (p *progress) fileDone(size int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.doneFiles++
	p.doneBytes += size
	now := p.now()
	if p.doneFiles < p.totalFiles && now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	p.logf("compact %s: read %d/%d files, %d/%d bytes", p.table, p.doneFiles, p.totalFiles, p.doneBytes, p.totalBytes)
}
