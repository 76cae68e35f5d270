package metamorphic

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// The ops syntax, one op per line; "#" starts a comment, and the first
// line names the configuration:
//
//	# config table=pk buckets=2 keys=disjoint writers=4 retries=0 seed=42
//	w0.begin                       open a TableWriter; base = latest snapshot
//	w0.begin overwrite             the same, for an INSERT OVERWRITE (no restore)
//	w0.upsert dt=d1 pk=17 v=5      write an INSERT row
//	w0.update dt=d1 pk=17 v=6      write an UPDATE_AFTER row
//	w0.delete dt=d1 pk=17          write a DELETE row
//	w0.incr dt=d1 pk=1000          read (d1, 1000) at the batch's base and
//	                               write v+1 with seq+1: an UPDATE_AFTER row,
//	                               or INSERT v=1 seq=1 if the key is absent
//	w0.commit id=3                 commit the batch as identifier 3
//	w0.commit id=3 upgrade=2       ... with a COMPACT part moving one of the
//	                               writer's committed level-0 files to level 2
//	                               (the newest for an even level, else the oldest)
//	w0.commit id=3 fault=lost-ack  the snapshot put lands, its ack and the
//	                               read-back fail: outcome unknown
//	w0.commit id=3 fault=lost-put@1 the put of part 1 (COMPACT) fails before
//	                               landing, and so does the read-back
//	w0.overwrite id=4 dt=d2        INSERT OVERWRITE PARTITION (dt='d2') of
//	                               the batch, based on the begin's snapshot
//	w0.overwrite id=4 dynamic      dynamic partition overwrite
//	w0.overwrite id=4 truncate     TRUNCATE TABLE (the batch has no rows)
//	w0.recommit id=3 fresh         run request 3 again, as a writer retrying
//	                               after a timeout; fresh: on a new Committer,
//	                               as a restarted process would
//
// A batch with incr rows is a read-modify-write statement (an autocommit
// UPDATE t SET v = v + 1 WHERE ...): its commit sets KeyCheck on the
// batch's base, and after a retryable WriteWriteConflict the writer re-runs
// its rows on the latest snapshot as a new request with the next
// identifier (id+1, id+2, ...; rmwAttempts requests in all, identifiers
// the generator leaves unused), as the server re-runs the statement. A
// recommit of the statement's id retries its newest request, and re-runs
// it the same way. Overwrite batches take no incr rows.
//
// Every blind row's seq column is the index of the op that wrote it
// (0-based, counting op lines only); an incr row's is one more than the
// seq it read, so that it orders after the version it derives from under
// sequence.field as well.

// opKind names what an op does.
type opKind int

const (
	opBegin opKind = iota
	opUpsert
	opUpdate
	opDelete
	opCommit
	opOverwrite
	opRecommit
	opIncr
)

var opNames = map[opKind]string{
	opBegin: "begin", opUpsert: "upsert", opUpdate: "update", opDelete: "delete",
	opCommit: "commit", opOverwrite: "overwrite", opRecommit: "recommit", opIncr: "incr",
}

func (k opKind) isRow() bool {
	return k == opUpsert || k == opUpdate || k == opDelete || k == opIncr
}

// faultKind is the simulated timeout of a commit.
type faultKind int

const (
	noFault faultKind = iota
	// lostAck: the snapshot put lands, then fails, and reading the
	// snapshot back fails too: the writer cannot tell it landed.
	lostAck
	// lostPut: the put fails without landing, and the read-back fails.
	lostPut
)

var faultNames = map[faultKind]string{lostAck: "lost-ack", lostPut: "lost-put"}

// op is one line of an ops list.
type op struct {
	// index is the op's position, and the seq of the row it writes.
	index  int
	writer int
	kind   opKind

	// Rows.
	dt string
	pk int64
	v  int64

	// begin: the batch is an overwrite.
	overwrite bool

	// commit, overwrite, recommit.
	id int64
	// commit: the level to upgrade one of the writer's level-0 files to;
	// 0 for none.
	upgrade int32
	// commit, overwrite: the injected fault and the part it hits.
	fault     faultKind
	faultPart int
	// overwrite: the static partition, or "" for a dynamic overwrite or
	// a truncate.
	static   string
	truncate bool
	// recommit: on a new Committer.
	fresh bool
}

func (o op) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "w%d.%s", o.writer, opNames[o.kind])
	switch {
	case o.kind == opBegin && o.overwrite:
		b.WriteString(" overwrite")
	case o.kind.isRow():
		fmt.Fprintf(&b, " dt=%s pk=%d", o.dt, o.pk)
		if o.kind != opDelete && o.kind != opIncr {
			fmt.Fprintf(&b, " v=%d", o.v)
		}
	case o.kind == opCommit || o.kind == opOverwrite || o.kind == opRecommit:
		fmt.Fprintf(&b, " id=%d", o.id)
	}
	if o.kind == opOverwrite {
		switch {
		case o.truncate:
			b.WriteString(" truncate")
		case o.static != "":
			fmt.Fprintf(&b, " dt=%s", o.static)
		default:
			b.WriteString(" dynamic")
		}
	}
	if o.upgrade != 0 {
		fmt.Fprintf(&b, " upgrade=%d", o.upgrade)
	}
	if o.fault != noFault {
		fmt.Fprintf(&b, " fault=%s", faultNames[o.fault])
		if o.faultPart != 0 {
			fmt.Fprintf(&b, "@%d", o.faultPart)
		}
	}
	if o.fresh {
		b.WriteString(" fresh")
	}
	return b.String()
}

// formatOps renders a configuration and its ops as an ops file.
func formatOps(cfg config, ops []op) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# config %s\n", cfg.spec())
	for _, o := range ops {
		fmt.Fprintf(&b, "%s\n", o)
	}
	return b.String()
}

// parseOps reads an ops file back: the configuration of its header line,
// then one op per line.
func parseOps(text string) (config, []op, error) {
	var cfg config
	var ops []op
	haveConfig := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := strings.TrimSpace(sc.Text())
		if spec, ok := strings.CutPrefix(line, "# config "); ok {
			var err error
			if cfg, err = parseConfig(spec); err != nil {
				return cfg, nil, fmt.Errorf("line %d: %w", lineNo, err)
			}
			haveConfig = true
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		o, err := parseOp(line)
		if err != nil {
			return cfg, nil, fmt.Errorf("line %d: %q: %w", lineNo, line, err)
		}
		o.index = len(ops)
		ops = append(ops, o)
	}
	if !haveConfig {
		return cfg, nil, fmt.Errorf("no '# config' line")
	}
	return cfg, ops, nil
}

func parseOp(line string) (op, error) {
	fields := strings.Fields(line)
	head, verb, ok := strings.Cut(fields[0], ".")
	if !ok || !strings.HasPrefix(head, "w") {
		return op{}, fmt.Errorf("want w<N>.<verb>")
	}
	var o op
	var err error
	if o.writer, err = strconv.Atoi(head[1:]); err != nil {
		return op{}, err
	}
	if o.kind, ok = kindOf(verb); !ok {
		return op{}, fmt.Errorf("unknown verb %q", verb)
	}
	for _, f := range fields[1:] {
		if err := o.setArg(f); err != nil {
			return op{}, err
		}
	}
	return o, nil
}

func kindOf(verb string) (opKind, bool) {
	for k, name := range opNames {
		if name == verb {
			return k, true
		}
	}
	return 0, false
}

// setArg applies one "key=value" or flag argument.
func (o *op) setArg(arg string) error {
	key, value, _ := strings.Cut(arg, "=")
	var err error
	switch key {
	case "overwrite":
		o.overwrite = true
	case "dynamic":
	case "truncate":
		o.truncate = true
	case "fresh":
		o.fresh = true
	case "dt":
		if o.kind == opOverwrite {
			o.static = value
		} else {
			o.dt = value
		}
	case "pk":
		o.pk, err = strconv.ParseInt(value, 10, 64)
	case "v":
		o.v, err = strconv.ParseInt(value, 10, 64)
	case "id":
		o.id, err = strconv.ParseInt(value, 10, 64)
	case "upgrade":
		var level int64
		level, err = strconv.ParseInt(value, 10, 32)
		o.upgrade = int32(level)
	case "fault":
		err = o.setFault(value)
	default:
		return fmt.Errorf("unknown argument %q", arg)
	}
	return err
}

func (o *op) setFault(value string) error {
	name, part, hasPart := strings.Cut(value, "@")
	for k, n := range faultNames {
		if n == name {
			o.fault = k
		}
	}
	if o.fault == noFault {
		return fmt.Errorf("unknown fault %q", value)
	}
	if hasPart {
		var err error
		o.faultPart, err = strconv.Atoi(part)
		return err
	}
	return nil
}
