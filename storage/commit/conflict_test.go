package commit

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestConflicts runs the scenario matrix in testdata/conflicts. A scenario
// is the snapshot the writer read (base), the commits that won the race
// after it (winner, in order), and the pending commit (mine):
//
//	base: add p=1 b=0 L0 f1 keys=1..5 ; add p=1 b=0 L1 f2 keys=1..9
//	winner kind=COMPACT: delete p=1 b=0 L0 f1 ; add p=1 b=0 L1 f3 keys=10..12
//	mine kind=OVERWRITE target=p=1,p=2: delete p=1 b=0 L1 f2
//
// An entry is "add|delete p=<partition> b=<bucket> L<level> <file>", with
// optional keys=<min>..<max> and buckets=<total buckets, default 2>.
// Directive arguments: append-only (no primary key), omit-history (the
// overwrite gets no deltas since its base). The output is "ok" or the class,
// kind, conflicting snapshot, locations, files and detail of the conflict.
//
// "judge" takes the same scenario and prints JudgeOverwriteTarget's verdict
// on the winners for mine's target.
func TestConflicts(t *testing.T) {
	datadriven.RunTest(t, "testdata/conflicts", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "check" && d.Cmd != "judge" {
			d.Fatalf(t, "unknown command %q", d.Cmd)
		}
		in, err := parseScenario(d.Input, !d.HasArg("append-only"), d.HasArg("omit-history"))
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
		if d.Cmd == "judge" {
			return renderTargetHistory(JudgeOverwriteTarget(in))
		}
		return renderOutcome(CheckConflicts(in))
	})
}

func renderTargetHistory(h TargetHistory) string {
	if h.Change != TargetChanged {
		return h.Change.String() + "\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "changed: %s\n", h.Cause)
	if len(h.Entries) > 0 {
		names := make([]string, len(h.Entries))
		for i := range h.Entries {
			names[i] = h.Entries[i].File.FileName
		}
		fmt.Fprintf(&b, "entries: %s\n", strings.Join(names, ", "))
	}
	if h.Gap != "" {
		fmt.Fprintf(&b, "gap: %s\n", h.Gap)
	}
	return b.String()
}

// scenario is the parsed input before it is folded into a ConflictInput.
type scenario struct {
	base    []spec.ManifestEntry
	winners []SnapshotDelta
	mine    []spec.ManifestEntry
	kind    spec.CommitKind
	target  func([]byte) bool
}

func parseScenario(input string, primaryKey, omitHistory bool) (ConflictInput, error) {
	var sc scenario
	for _, line := range strings.Split(input, "\n") {
		if err := sc.parseLine(line); err != nil {
			return ConflictInput{}, fmt.Errorf("%q: %w", line, err)
		}
	}
	if sc.kind == "" {
		return ConflictInput{}, errors.New("no mine line")
	}
	return sc.conflictInput(primaryKey, omitHistory)
}

// parseLine reads one "<role> <attr>...: <entries>" line.
func (sc *scenario) parseLine(line string) error {
	header, body, ok := strings.Cut(line, ":")
	if !ok {
		return errors.New("want <role> <attr>...: <entries>")
	}
	entries, err := parseEntries(body)
	if err != nil {
		return err
	}
	fields := strings.Fields(header)
	attrs := map[string]string{}
	for _, f := range fields[1:] {
		key, value, _ := strings.Cut(f, "=")
		attrs[key] = value
	}
	switch fields[0] {
	case "base":
		sc.base = entries
	case "winner":
		sc.addWinner(attrs, entries)
	case "mine":
		sc.kind, sc.mine, sc.target = spec.CommitKind(attrs["kind"]), entries, parseTarget(attrs["target"])
	default:
		return fmt.Errorf("unknown role %q", fields[0])
	}
	return nil
}

// addWinner numbers winners after the base snapshot (id 1, if there is one).
func (sc *scenario) addWinner(attrs map[string]string, entries []spec.ManifestEntry) {
	user := cmp.Or(attrs["user"], "writer-b")
	ref := SnapshotRef{ID: sc.baseID() + int64(len(sc.winners)) + 1, CommitUser: user,
		CommitIdentifier: int64(len(sc.winners)) + 1, CommitKind: spec.CommitKind(cmp.Or(attrs["kind"], "APPEND"))}
	sc.winners = append(sc.winners, SnapshotDelta{Snapshot: ref, Entries: entries})
}

func (sc *scenario) baseID() int64 {
	if sc.base == nil {
		return 0
	}
	return 1
}

func parseTarget(value string) func([]byte) bool {
	switch value {
	case "":
		return nil
	case "all":
		return func([]byte) bool { return true }
	}
	target := map[string]bool{}
	for _, p := range strings.Split(value, ",") {
		target[p] = true
	}
	return func(partition []byte) bool { return target[string(partition)] }
}

// conflictInput folds base and winners into the latest live set and keeps
// the partitions mine touches, as the commit engine's scan would.
func (sc *scenario) conflictInput(primaryKey, omitHistory bool) (ConflictInput, error) {
	merger := manifest.NewMerger()
	latest := SnapshotRef{}
	if sc.base != nil {
		latest = SnapshotRef{ID: 1, CommitUser: "seed", CommitKind: spec.CommitKindAppend}
	}
	if err := merger.Add(sc.base); err != nil {
		return ConflictInput{}, err
	}
	for _, w := range sc.winners {
		if err := merger.Add(w.Entries); err != nil {
			return ConflictInput{}, err
		}
		latest = w.Snapshot
	}
	if dangling := merger.DanglingDeletes(); len(dangling) > 0 {
		return ConflictInput{}, fmt.Errorf("winners delete %s, which base does not hold", dangling[0].File.FileName)
	}
	in := ConflictInput{
		CommitKind: sc.kind, CommitUser: "writer-a", CommitIdentifier: 100, Attempt: 1,
		BaseSnapshotID: sc.baseID(), Latest: latest,
		Base: inPartitionsOf(sc.mine, merger.Live()), Delta: sc.mine,
		PrimaryKey: primaryKey, CompareKeys: bytes.Compare,
		OverwriteTarget: sc.target, SinceBase: sc.winners,
		FormatPartition: func(p []byte) string { return string(p) },
	}
	if omitHistory {
		in.SinceBase = nil
	}
	return in, nil
}

func parseEntries(body string) ([]spec.ManifestEntry, error) {
	var out []spec.ManifestEntry
	for _, text := range strings.Split(body, ";") {
		if strings.TrimSpace(text) == "" {
			continue
		}
		e, err := parseEntry(strings.Fields(text))
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w", text, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// parseEntry reads "add|delete p=.. b=.. L<n> <file> [keys=a..b] [buckets=n]".
// Partitions are their own display string; keys are 8-byte big-endian
// integers, so bytes.Compare orders them numerically.
func parseEntry(fields []string) (spec.ManifestEntry, error) {
	e := spec.ManifestEntry{Kind: spec.FileKindAdd, TotalBuckets: 2}
	switch fields[0] {
	case "add":
	case "delete":
		e.Kind = spec.FileKindDelete
	default:
		return e, fmt.Errorf("want add or delete, got %q", fields[0])
	}
	var err error
	for _, f := range fields[1:] {
		key, value, isAttr := strings.Cut(f, "=")
		switch {
		case key == "p":
			e.Partition = []byte(f)
		case key == "b":
			e.Bucket, err = parseInt32(value)
		case key == "buckets":
			e.TotalBuckets, err = parseInt32(value)
		case key == "keys":
			e.File.MinKey, e.File.MaxKey, err = parseKeyRange(value)
		case !isAttr && strings.HasPrefix(f, "L"):
			e.File.Level, err = parseInt32(f[1:])
		case !isAttr:
			e.File.FileName = f
		default:
			err = fmt.Errorf("unknown attribute %q", key)
		}
		if err != nil {
			return e, err
		}
	}
	return e, nil
}

func parseInt32(s string) (int32, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	return int32(n), err
}

func parseKeyRange(s string) (minKey, maxKey []byte, err error) {
	lo, hi, ok := strings.Cut(s, "..")
	if !ok {
		return nil, nil, fmt.Errorf("keys %q: want <min>..<max>", s)
	}
	loN, err := strconv.ParseUint(lo, 10, 64)
	if err != nil {
		return nil, nil, err
	}
	hiN, err := strconv.ParseUint(hi, 10, 64)
	return binary.BigEndian.AppendUint64(nil, loN), binary.BigEndian.AppendUint64(nil, hiN), err
}

func renderOutcome(err error) string {
	if err == nil {
		return "ok\n"
	}
	var ce *ConflictError
	if !errors.As(err, &ce) {
		return "error: " + err.Error() + "\n"
	}
	class := "terminal"
	if errors.Is(err, lakeerr.ErrRetryableConflict) {
		class = "retryable"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\nagainst: %s\n", class, ce.Kind, ce.Conflicting)
	for _, line := range [][2]string{
		{"at", joinStrings(ce.Locations)},
		{"files", strings.Join(ce.Files, ", ")},
		{"detail", ce.Detail},
	} {
		if line[1] != "" {
			fmt.Fprintf(&b, "%s: %s\n", line[0], line[1])
		}
	}
	return b.String()
}
