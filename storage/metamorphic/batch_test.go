package metamorphic

import (
	"errors"
	"slices"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/spec"
)

// record is one row a batch wrote; seq is its seq column (see the ops
// syntax).
type record struct {
	dt        string
	pk, v     int64
	seq       int64
	retracted bool
	// incr: an increment of the value read at the batch's base.
	incr bool
}

// batch is one statement of a writer: its rows, and the request and calls
// that committed them.
type batch struct {
	writer    int
	user      string
	id        int64
	overwrite bool
	// static is the partition of a static overwrite; "" for dynamic.
	static string
	// truncate: the overwrite replaces the whole table.
	truncate bool
	// base is the latest snapshot when the batch began (its read).
	base    int64
	records []record
	// rows are the row ops that wrote records, which a re-run repeats.
	rows    []op
	request commit.Request
	// stmt is the identifier of the statement's first request, and
	// attempt how many re-runs preceded this one (read-modify-write
	// statements only re-run).
	stmt    int64
	attempt int
	// upgraded is the file the COMPACT part moves, if any.
	upgraded *liveFile
	calls    []*call
	// tracked is set once the batch's files are upgrade candidates.
	tracked bool
}

// readModifyWrite reports whether b's rows derive from what it read: its
// commit is key-checked and re-run after a WriteWriteConflict.
func (b *batch) readModifyWrite() bool {
	return slices.ContainsFunc(b.records, func(r record) bool { return r.incr })
}

// hasData and hasCompact say which parts the request publishes.
func (b *batch) hasData() bool    { return b.overwrite || len(b.records) > 0 }
func (b *batch) hasCompact() bool { return b.upgraded != nil }

// target is the set of partitions an overwrite replaces.
func (b *batch) target() map[string]bool {
	if !b.overwrite {
		return nil
	}
	if b.truncate {
		out := map[string]bool{}
		for _, p := range partitions {
			out[p] = true
		}
		return out
	}
	if b.static != "" {
		return map[string]bool{b.static: true}
	}
	return b.partitions()
}

// partitions is the set of partitions b's records are in.
func (b *batch) partitions() map[string]bool {
	out := map[string]bool{}
	for _, r := range b.records {
		out[r.dt] = true
	}
	return out
}

// call is one Commit of a batch's request.
type call struct {
	op        op
	faulted   bool
	faultPart string
	res       commit.Result
	err       error
}

// liveFile is a level-0 file a writer committed and may upgrade.
type liveFile struct {
	partition    []byte
	dt           string
	bucket       int32
	totalBuckets int32
	meta         spec.DataFileMeta
}

// Parts of a request, named by what they publish.
const (
	partData    = "data"
	partCompact = "compact"
)

func partOfKind(kind spec.CommitKind) string {
	if kind == spec.CommitKindCompact {
		return partCompact
	}
	return partData
}

// callParts says what one call showed about each part of b's request:
// landed (published or found landed), failed (a conflict: not published),
// or unknown. Parts the call did not reach are absent.
func callParts(b *batch, c *call) map[string]string {
	out := map[string]string{}
	parts := b.parts()
	failed, status := failedPart(c)
	if c.err != nil && !slices.Contains(parts, failed) {
		// An error about a part the request lacks: the checker reports
		// it; no part's fate is known.
		for _, p := range parts {
			out[p] = "unknown"
		}
		return out
	}
	for _, p := range parts {
		if c.err != nil && p == failed {
			out[p] = status
			break
		}
		out[p] = "landed"
	}
	return out
}

// parts lists the parts of b's request in publishing order.
func (b *batch) parts() []string {
	var out []string
	if b.hasData() {
		out = append(out, partData)
	}
	if b.hasCompact() {
		out = append(out, partCompact)
	}
	return out
}

// failedPart names the part a failed call stopped at, and whether it is
// known not to have landed ("failed") or not ("unknown").
func failedPart(c *call) (string, string) {
	var ce *commit.ConflictError
	var re *commit.RetryExhaustedError
	switch {
	case c.err == nil:
		return "", ""
	case errors.As(c.err, &ce):
		return partOfKind(ce.CommitKind), "failed"
	case errors.As(c.err, &re):
		return partOfKind(re.CommitKind), "failed"
	case c.faulted:
		return c.faultPart, "unknown"
	}
	return partData, "unknown"
}

func landedParts(b *batch, c *call) map[string]bool {
	out := map[string]bool{}
	for p, s := range callParts(b, c) {
		out[p] = s == "landed"
	}
	return out
}
