package metamorphic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// config is one table and workload shape. Everything but batches is part
// of an ops file's header, so a replay needs nothing else.
type config struct {
	// pk selects a primary-key table; otherwise an append table.
	pk bool
	// buckets is the bucket option: 1, 2, 4 for primary-key tables, -1
	// (bucket-unaware) for append tables.
	buckets int
	// sharedKeys lets all writers write the same keys, ordered by the
	// sequence.field seq; otherwise each writer owns a key range.
	sharedKeys bool
	writers    int
	// maxRetries is commit.max-retries; 0 means 100, so that writers
	// rarely give up. A small value makes concurrent writers run out of
	// retries, and re-run the same request, as the incident's job did.
	maxRetries int
	seed       uint64
	// batches is how many batches each writer runs (generation only).
	batches int
}

func (c config) name() string {
	if !c.pk {
		return "append"
	}
	keys := "disjoint"
	if c.sharedKeys {
		keys = "shared"
	}
	name := fmt.Sprintf("pk-b%d-%s", c.buckets, keys)
	if c.maxRetries != 0 {
		name += fmt.Sprintf("-r%d", c.maxRetries)
	}
	return name
}

func (c config) spec() string {
	table, keys := "append", "disjoint"
	if c.pk {
		table = "pk"
	}
	if c.sharedKeys {
		keys = "shared"
	}
	return fmt.Sprintf("table=%s buckets=%d keys=%s writers=%d retries=%d seed=%d", table, c.buckets, keys, c.writers, c.maxRetries, c.seed)
}

func parseConfig(s string) (config, error) {
	var c config
	for _, f := range strings.Fields(s) {
		key, value, _ := strings.Cut(f, "=")
		var err error
		switch key {
		case "table":
			c.pk = value == "pk"
		case "buckets":
			c.buckets, err = strconv.Atoi(value)
		case "keys":
			c.sharedKeys = value == "shared"
		case "writers":
			c.writers, err = strconv.Atoi(value)
		case "retries":
			c.maxRetries, err = strconv.Atoi(value)
		case "seed":
			c.seed, err = strconv.ParseUint(value, 10, 64)
		default:
			err = fmt.Errorf("unknown config key %q", key)
		}
		if err != nil {
			return c, err
		}
	}
	if c.writers < 1 {
		return c, fmt.Errorf("config %q has no writers", s)
	}
	return c, nil
}

// Workload shape. Few partitions and keys make writers collide: the same
// partitions for overwrites to conflict with, the same keys updated again.
var partitions = []string{"d1", "d2", "d3"}

const (
	keysPerWriter = 8
	sharedKeys    = 10
	// writerKeyBase spaces the key ranges of writers in disjoint mode.
	writerKeyBase = 100
	maxLevel      = 5
	// rmwAttempts bounds the requests of one read-modify-write statement
	// (its first and its re-runs), as the server's conflict_rerun_timeout
	// bounds an autocommit UPDATE's re-runs.
	rmwAttempts = 8
)

// counterKey is a primary key the incr ops count on.
type counterKey struct {
	dt string
	pk int64
}

// counters are the hot keys of read-modify-write batches: every writer
// increments them, in every primary-key configuration, disjoint keys
// included, so that their statements race. Blind rows never reach them
// (their keys stay below 1000), so a counter changes only by an increment
// or by an overwrite of its partition; two counters share partition d1, and
// overwrites of d1 and d2 clear them.
var counters = []counterKey{{"d1", 1000}, {"d1", 1001}, {"d2", 1000}}

// generator writes the ops of every writer's batches, interleaved at
// random: the interleaving is the schedule of a serial run, and the order
// of each writer's ops that of a concurrent one.
type generator struct {
	cfg    config
	r      *rand.Rand
	nextID []int64
}

func generate(cfg config) []op {
	g := &generator{cfg: cfg, r: rand.New(rand.NewPCG(cfg.seed, 0x6d657461)), nextID: make([]int64, cfg.writers)}
	pending := make([][]op, cfg.writers)
	left := make([]int, cfg.writers)
	for w := range left {
		left[w] = cfg.batches
	}
	var ops []op
	for {
		var live []int
		for w := range pending {
			if len(pending[w]) > 0 || left[w] > 0 {
				live = append(live, w)
			}
		}
		if len(live) == 0 {
			return ops
		}
		w := live[g.r.IntN(len(live))]
		if len(pending[w]) == 0 {
			pending[w] = g.batch(w)
			left[w]--
		}
		o := pending[w][0]
		pending[w] = pending[w][1:]
		o.index = len(ops)
		ops = append(ops, o)
	}
}

// batch returns the ops of the next batch of writer w.
func (g *generator) batch(w int) []op {
	g.nextID[w]++
	switch {
	case g.r.IntN(5) == 0:
		return g.overwriteBatch(w, g.nextID[w])
	case g.cfg.pk && g.r.IntN(3) == 0:
		return g.rmwBatch(w)
	}
	return g.writeBatch(w, g.nextID[w])
}

// rmwBatch: increments of one or two distinct counters, then a commit,
// perhaps with a fault, and a retry as for other batches. The identifiers
// of the statement's re-runs are reserved, so that a writer's identifiers
// still grow with its commits.
func (g *generator) rmwBatch(w int) []op {
	id := g.nextID[w]
	g.nextID[w] += rmwAttempts - 1
	ops := []op{{writer: w, kind: opBegin}}
	for _, i := range g.r.Perm(len(counters))[:1+g.r.IntN(2)] {
		ops = append(ops, op{writer: w, kind: opIncr, dt: counters[i].dt, pk: counters[i].pk})
	}
	c := op{writer: w, kind: opCommit, id: id}
	g.maybeFault(&c, 6)
	return g.withRetry(append(ops, c), c)
}

// writeBatch: rows, then a commit, perhaps with a COMPACT part and a
// fault, then a retry of the same request after a fault (always: the
// writer timed out) or after a success (sometimes: a job re-run).
func (g *generator) writeBatch(w int, id int64) []op {
	ops := []op{{writer: w, kind: opBegin}}
	for range 1 + g.r.IntN(5) {
		ops = append(ops, g.row(w, g.partition(), g.rowKind()))
	}
	c := op{writer: w, kind: opCommit, id: id}
	if g.cfg.pk && g.r.IntN(4) == 0 {
		c.upgrade = int32(1 + g.r.IntN(maxLevel))
	}
	g.maybeFault(&c, 6)
	return g.withRetry(append(ops, c), c)
}

// overwriteBatch: INSERT OVERWRITE of one static partition (perhaps with
// no rows: the partition is emptied) or of the partitions of its rows, or
// now and then a TRUNCATE.
func (g *generator) overwriteBatch(w int, id int64) []op {
	ops := []op{{writer: w, kind: opBegin, overwrite: true}}
	c := op{writer: w, kind: opOverwrite, id: id}
	switch n := g.r.IntN(10); {
	case n == 0:
		c.truncate = true
	case n < 5:
		c.static = g.partition()
		for range g.r.IntN(4) {
			ops = append(ops, g.row(w, c.static, opUpsert))
		}
	default:
		for range 1 + g.r.IntN(3) {
			ops = append(ops, g.row(w, partitions[g.r.IntN(2)], opUpsert))
		}
	}
	g.maybeFault(&c, 8)
	return g.withRetry(append(ops, c), c)
}

// maybeFault injects a fault into one commit in oneIn.
func (g *generator) maybeFault(c *op, oneIn int) {
	if g.r.IntN(oneIn) != 0 {
		return
	}
	c.fault = lostAck + faultKind(g.r.IntN(2))
	if c.upgrade != 0 && g.r.IntN(2) == 0 {
		c.faultPart = 1
	}
}

// withRetry retries a commit after a fault, always, and otherwise now and
// then; more often when writers run out of retries, since such a writer
// re-runs its request.
func (g *generator) withRetry(ops []op, c op) []op {
	oneIn := 8
	if g.cfg.maxRetries != 0 {
		oneIn = 2
	}
	if c.fault != noFault || g.r.IntN(oneIn) == 0 {
		ops = append(ops, op{writer: c.writer, kind: opRecommit, id: c.id, fresh: g.r.IntN(2) == 0})
	}
	return ops
}

func (g *generator) partition() string { return partitions[g.r.IntN(len(partitions))] }

// rowKind draws the kind of a row: an append table takes INSERT and
// UPDATE_AFTER rows alike, and no retraction.
func (g *generator) rowKind() opKind {
	if !g.cfg.pk {
		return []opKind{opUpsert, opUpsert, opUpsert, opUpdate}[g.r.IntN(4)]
	}
	switch n := g.r.IntN(20); {
	case n < 11:
		return opUpsert
	case n < 16:
		return opUpdate
	}
	return opDelete
}

func (g *generator) row(w int, dt string, kind opKind) op {
	pk := int64(g.r.IntN(sharedKeys))
	if !g.cfg.sharedKeys {
		pk = int64(w*writerKeyBase + g.r.IntN(keysPerWriter))
	}
	return op{writer: w, kind: kind, dt: dt, pk: pk, v: int64(g.r.IntN(1000))}
}
