package metamorphic

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// runOps executes ops on e, serially in list order or with one goroutine
// per writer, and returns the batches in commit order per writer.
func runOps(e *env, ops []op, concurrent bool) ([]*batch, error) {
	ctx := context.Background()
	writers := make([]*writer, e.cfg.writers)
	for i := range writers {
		var err error
		if writers[i], err = newWriter(ctx, e, i); err != nil {
			return nil, err
		}
	}
	for _, o := range ops {
		if o.writer < 0 || o.writer >= len(writers) {
			return nil, fmt.Errorf("op %d %s: no writer %d", o.index, o, o.writer)
		}
	}
	var err error
	if concurrent {
		err = runConcurrently(ctx, writers, ops)
	} else {
		err = runSerially(ctx, writers, ops)
	}
	var out []*batch
	for _, w := range writers {
		out = append(out, w.order...)
	}
	return out, err
}

func runSerially(ctx context.Context, writers []*writer, ops []op) error {
	for _, o := range ops {
		if err := writers[o.writer].do(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

// runConcurrently runs each writer's ops, in list order, in its own
// goroutine; the first failure cancels the others.
func runConcurrently(ctx context.Context, writers []*writer, ops []op) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	perWriter := make([][]op, len(writers))
	for _, o := range ops {
		perWriter[o.writer] = append(perWriter[o.writer], o)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(writers))
	for i, w := range writers {
		wg.Go(func() {
			for _, o := range perWriter[i] {
				if errs[i] = w.do(ctx, o); errs[i] != nil {
					cancel()
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
