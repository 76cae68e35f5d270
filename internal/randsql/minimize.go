package randsql

import (
	"context"
	"errors"
	"slices"
)

// Minimizer shrinks a case while it still shows a finding of the same
// signature: first the query (on the seed's data, set up once), then the
// data (tables, statements, rows; each trial sets the database up
// again), then the query once more.
type Minimizer struct {
	Engines *Engines
	// DB is the database name trials run in.
	DB string
	// MaxDataTrials bounds the trials that set the database up again.
	MaxDataTrials int
	dataTrials    int
	last          *Finding // the finding of the last case that reproduced
}

// ErrNotReproduced is returned by Minimize when the finding does not show
// again when its query runs alone: a flaky bug, or one that needs the
// other queries.
var ErrNotReproduced = errors.New("the finding does not reproduce with its query alone")

// Minimize returns the smallest case found with a finding of f's
// signature, and that finding. c is the case f was found in. When the
// finding does not reproduce it returns the case cut down to f's query,
// f, and ErrNotReproduced.
func (m *Minimizer) Minimize(ctx context.Context, c *Case, f *Finding) (*Case, *Finding, error) {
	sig := f.Signature()
	cur := &Case{Seed: c.Seed, Tables: c.Tables, Writes: c.Writes}
	if f.Query >= 0 {
		cur.Queries = []*Query{c.Queries[f.Query]}
	}
	allowed, err := m.baseline(ctx, cur, sig)
	if err != nil {
		return nil, nil, err
	}
	if m.last == nil {
		return cur, f, ErrNotReproduced
	}
	m.dataTrials = 0
	if cur.Queries != nil {
		if cur, err = m.shrinkQuery(ctx, cur, sig); err != nil {
			return nil, nil, err
		}
	}
	cur = m.shrinkData(ctx, cur, sig, allowed)
	if cur.Queries != nil {
		if cur, err = m.shrinkQuery(ctx, cur, sig); err != nil {
			return nil, nil, err
		}
	}
	return cur, m.last, nil
}

// baseline runs the case as it is: its finding of signature sig becomes
// the last one seen (none when it does not reproduce), and the
// signatures of its findings are the ones a trial may have. Findings of
// the set-up may stay (a failed compaction beside a wrong query); new
// ones mean a trial changed what the data are.
func (m *Minimizer) baseline(ctx context.Context, c *Case, sig string) (map[string]bool, error) {
	out, err := m.Engines.Run(ctx, c.Program(), m.DB)
	if err != nil {
		return nil, err
	}
	m.last = nil
	allowed := map[string]bool{sig: true}
	for _, f := range out.Findings {
		allowed[f.Signature()] = true
		if f.Signature() == sig && m.last == nil {
			m.last = f
		}
	}
	return allowed, nil
}

// reproduces runs the case and reports whether it has a finding of
// signature sig (which becomes the last one seen) and none outside
// allowed.
func (m *Minimizer) reproduces(ctx context.Context, c *Case, sig string, allowed map[string]bool) bool {
	m.dataTrials++
	out, err := m.Engines.Run(ctx, c.Program(), m.DB)
	if err != nil {
		return false
	}
	var hit *Finding
	for _, f := range out.Findings {
		switch s := f.Signature(); {
		case s == sig && hit == nil:
			hit = f
		case !allowed[s]:
			return false
		}
	}
	if hit != nil {
		m.last = hit
	}
	return hit != nil
}

// shrinkData drops tables the query does not need, then statements, then
// rows, while the finding persists.
func (m *Minimizer) shrinkData(ctx context.Context, c *Case, sig string, allowed map[string]bool) *Case {
	test := func(cand *Case) bool {
		if m.dataTrials >= m.MaxDataTrials {
			return false
		}
		return m.reproduces(ctx, cand, sig, allowed)
	}
	for i := len(c.Tables) - 1; i >= 0 && len(c.Tables) > 1; i-- {
		if cand := c.withoutTable(i); test(cand) {
			c = cand
		}
	}
	writes := shrinkList(c.Writes, func(ws []*Stmt) bool { return test(c.withWrites(ws)) })
	c = c.withWrites(writes)
	for i, w := range c.Writes {
		if w.Insert == nil || len(w.Insert.Rows) < 2 {
			continue
		}
		rows := shrinkList(w.Insert.Rows, func(rows [][]string) bool {
			return len(rows) > 0 && test(c.withRows(i, rows))
		})
		c = c.withRows(i, rows)
	}
	return c
}

func (c *Case) withWrites(ws []*Stmt) *Case {
	d := *c
	d.Writes = ws
	return &d
}

// withRows replaces the rows of insert i.
func (c *Case) withRows(i int, rows [][]string) *Case {
	d := *c
	d.Writes = slices.Clone(c.Writes)
	in := *c.Writes[i].Insert
	in.Rows = rows
	st := *c.Writes[i]
	st.Insert = &in
	d.Writes[i] = &st
	return &d
}

// withoutTable drops table i and the statements that write it.
func (c *Case) withoutTable(i int) *Case {
	d := *c
	d.Tables = slices.Delete(slices.Clone(c.Tables), i, i+1)
	d.Writes = slices.DeleteFunc(slices.Clone(c.Writes), func(s *Stmt) bool { return s.Table == c.Tables[i].Name })
	return &d
}

// shrinkList removes chunks of items, halving the chunk size down to
// single items, while test holds (delta debugging's simple form).
func shrinkList[T any](items []T, test func([]T) bool) []T {
	for chunk := max(len(items)/2, 1); ; chunk /= 2 {
		for start := 0; start < len(items); {
			cand := slices.Delete(slices.Clone(items), start, min(start+chunk, len(items)))
			if test(cand) {
				items = cand
				continue
			}
			start += chunk
		}
		if chunk == 1 {
			return items
		}
	}
}

// shrinkQuery applies query reductions on a database set up once, keeping
// each one under which the query still shows the finding, until none
// applies.
func (m *Minimizer) shrinkQuery(ctx context.Context, c *Case, sig string) (*Case, error) {
	db, err := m.Engines.Open(ctx, m.DB)
	if err != nil {
		return nil, err
	}
	defer db.Close(ctx)
	db.Setup(ctx, c.Program().Setup)
	q := c.Queries[0]
	for changed := true; changed; {
		changed = false
		for _, cand := range reductions(q) {
			f, _ := db.Check(ctx, queryCheck(0, cand))
			if f != nil && f.Signature() == sig {
				q, changed, m.last = cand, true, f
				break
			}
		}
	}
	d := *c
	d.Queries = []*Query{q}
	return &d, nil
}
