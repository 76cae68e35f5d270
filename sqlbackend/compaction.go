package sqlbackend

import (
	"context"
	"errors"
	"sync"

	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// compactionService compacts primary-key tables after the commits of the
// server's statements, off the statement path (Options.BackgroundCompaction).
// Java's writers hand compaction to a thread of their own and commit its
// result later; the writers of 5000-row autocommit INSERTs spent two thirds
// of their time compacting inline (3.8 of 5.6 s in one profile). A commit asks for its table; one worker
// compacts the tables asked for in turn with the minor strategy (a bucket
// is rewritten when the universal strategy picks its sorted runs, as the
// writer itself would have) and commits a COMPACT snapshot under the
// service's own commit user. Statements do not compact at all, as with
// write-only = true and a dedicated compaction job: a writer that also
// compacted at num-sorted-run.stop-trigger, as Java's writers stall there,
// lost those compactions to the service's (same files, committed first),
// and the INSERT benchmark gained nothing over inline compaction. So a
// large statement commits all its level-0 files, and the service merges
// them after. A compaction that loses to a concurrent commit plans again
// (compact.Table); one that fails is logged, and the table's next commit
// asks again. Close stops the worker; a compaction it cuts short leaves
// only files no snapshot names, for orphan removal.
type compactionService struct {
	opts     *Options
	identity *compact.Identity
	log      logrus.FieldLogger

	mu sync.Mutex
	// pending are the tables asked for and not yet started, in order.
	pending []compactionRequest
	closed  bool
	wake    chan struct{}
	ctx     context.Context
	stop    context.CancelFunc
	done    chan struct{}
}

// compactionRequest names a table for the service's log and metrics.
type compactionRequest struct{ db, name, dir string }

func newCompactionService(opts *Options) *compactionService {
	ctx, stop := context.WithCancel(context.Background())
	s := &compactionService{
		opts: opts, identity: compact.NewCompactionIdentity(opts.NewUUID),
		log:  logrus.WithField("component", "compaction"),
		wake: make(chan struct{}, 1), ctx: ctx, stop: stop, done: make(chan struct{}),
	}
	go s.work()
	return s
}

// request asks for a compaction of the table; a table already waiting is
// not queued twice.
func (s *compactionService) request(r compactionRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	for _, p := range s.pending {
		if p.dir == r.dir {
			return
		}
	}
	s.pending = append(s.pending, r)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *compactionService) work() {
	defer close(s.done)
	for {
		r, ok := s.next()
		if !ok {
			return
		}
		s.compact(r)
	}
}

// next waits for the next table to compact; false once closed.
func (s *compactionService) next() (compactionRequest, bool) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return compactionRequest{}, false
		}
		if len(s.pending) > 0 {
			r := s.pending[0]
			s.pending = s.pending[1:]
			s.mu.Unlock()
			return r, true
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-s.ctx.Done():
		}
	}
}

func (s *compactionService) compact(r compactionRequest) {
	res, err := compact.Table(s.ctx, compact.Options{
		FileIO: s.opts.FileIO, TableDir: r.dir, Mode: compact.Minor, Identity: s.identity,
		Now: s.opts.Now, NewUUID: s.opts.NewUUID,
	})
	s.opts.Metrics.Compacted(r.db, r.name, res, err)
	log := s.log.WithField("table", r.db+"."+r.name)
	switch {
	case err != nil && s.ctx.Err() != nil:
		log.WithError(err).Info("background compaction stopped by shutdown")
	case errors.Is(err, lakeerr.ErrUnsupported):
		// As inline: the writers of such a table do not compact it either.
		log.WithError(err).Debug("background compaction: table not compacted by lakesql")
	case err != nil:
		log.WithError(err).Warn("background compaction failed; the table's next commit asks again")
	case res.Snapshot != 0:
		log.Debugf("background compaction: %s", res)
	}
}

// Close stops the worker, cutting short a compaction under way, and waits
// for it to return.
func (s *compactionService) Close() {
	s.mu.Lock()
	s.closed = true
	s.pending = nil
	s.mu.Unlock()
	s.stop()
	<-s.done
}
