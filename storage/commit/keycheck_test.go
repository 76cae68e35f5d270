package commit

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestKeyCheck runs the scenario matrix of the key-level write-write check
// in testdata/key_conflicts. A scenario is the files this commit adds
// (mine) and the snapshots published after the snapshot its writer read
// (snapshot, in id order from base+1):
//
//	check-keys base=4 scope=bucket
//	mine: p=1 b=0 f1 keys=1,5,9
//	snapshot kind=APPEND user=cdc id=70: add p=1 b=0 f2 keys=5
//	snapshot missing
//
// An entry is "add|delete p=<partition> b=<bucket> <file> keys=<k>,<k>..."
// with an optional source=compact; keys are BIGINTs, and a file's MinKey
// and MaxKey are its smallest and largest key. Mine's entries are adds
// without the verb; this commit is user fix-job, identifier 7, and a
// snapshot's identifier is ten times its id unless id= says otherwise. "snapshot missing" stands for an expired snapshot. The
// output names the files whose keys were read, then "ok" or the conflict.
func TestKeyCheck(t *testing.T) {
	datadriven.RunTest(t, "testdata/key_conflicts", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "check-keys" {
			d.Fatalf(t, "unknown command %q", d.Cmd)
		}
		sc, err := parseKeyScenario(t, d)
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
		var read []string
		source := func(e *spec.ManifestEntry) ([][]any, error) {
			read = append(read, e.File.FileName)
			return sc.keys[e.File.FileName], nil
		}
		candidates, err := PlanKeyCheck(sc.in)
		if err == nil {
			err = DecideKeyCheck(sc.in, candidates, source)
		}
		var b strings.Builder
		if len(read) > 0 {
			fmt.Fprintf(&b, "read: %s\n", strings.Join(compactRuns(read), ", "))
		}
		b.WriteString(renderOutcome(err))
		return b.String()
	})
}

// compactRuns drops repeats of the previous name, so that a file read for
// each of several pairs is listed once per run.
func compactRuns(names []string) []string { return slices.Compact(slices.Clone(names)) }

type keyScenario struct {
	in   KeyCheckInput
	keys map[string][][]any
}

var bigintKey = []spec.DataType{{Root: spec.BigInt}}

func parseKeyScenario(t *testing.T, d *datadriven.TestData) (*keyScenario, error) {
	base := int64(1)
	if d.HasArg("base") {
		var v string
		d.ScanArgs(t, "base", &v)
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, err
		}
		base = n
	}
	sc := &keyScenario{keys: map[string][][]any{}, in: KeyCheckInput{
		CommitUser: "fix-job", CommitIdentifier: 7, Attempt: 1, BaseSnapshotID: base,
		Latest: SnapshotRef{ID: base}, KeyTypes: bigintKey, KeyNames: []string{"id"},
		FormatPartition: func(p []byte) string { return string(p) },
	}}
	if d.HasArg("scope") {
		var scope string
		d.ScanArgs(t, "scope", &scope)
		scopes := map[string]KeyScope{"bucket": KeysInBucket, "partition": KeysInPartition, "anywhere": KeysAnywhere}
		s, ok := scopes[scope]
		if !ok {
			return nil, fmt.Errorf("unknown scope %q", scope)
		}
		sc.in.Scope = s
	}
	for _, line := range strings.Split(d.Input, "\n") {
		if err := sc.parseLine(line); err != nil {
			return nil, fmt.Errorf("%q: %w", line, err)
		}
	}
	return sc, nil
}

func (sc *keyScenario) parseLine(line string) error {
	header, body, _ := strings.Cut(line, ":")
	fields := strings.Fields(header)
	switch {
	case len(fields) == 0:
		return errors.New("empty line")
	case fields[0] == "mine":
		entries, err := sc.parseEntries("add "+body, true)
		sc.in.Mine = entries
		return err
	case fields[0] == "snapshot" && len(fields) == 2 && fields[1] == "missing":
		sc.in.Latest = SnapshotRef{ID: sc.in.Latest.ID + 1}
		return nil
	case fields[0] != "snapshot":
		return fmt.Errorf("unknown role %q", fields[0])
	}
	attrs := map[string]string{}
	for _, f := range fields[1:] {
		k, v, _ := strings.Cut(f, "=")
		attrs[k] = v
	}
	id := sc.in.Latest.ID + 1
	entries, err := sc.parseEntries(body, false)
	identifier := id * 10
	if v, ok := attrs["id"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return err
		}
		identifier = n
	}
	ref := SnapshotRef{ID: id, CommitUser: cmp.Or(attrs["user"], "cdc"), CommitIdentifier: identifier,
		CommitKind: spec.CommitKind(cmp.Or(attrs["kind"], "APPEND"))}
	sc.in.Since = append(sc.in.Since, SnapshotDelta{Snapshot: ref, Entries: entries})
	sc.in.Latest = ref
	return err
}

// parseEntries reads entries separated by ';'. In mine, every entry starts
// with an implicit "add".
func (sc *keyScenario) parseEntries(body string, mine bool) ([]spec.ManifestEntry, error) {
	var out []spec.ManifestEntry
	for i, text := range strings.Split(body, ";") {
		if mine && i > 0 {
			text = "add " + text
		}
		if strings.TrimSpace(text) == "" || strings.TrimSpace(text) == "add" {
			continue
		}
		e, err := sc.parseEntry(strings.Fields(text))
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w", text, err)
		}
		out = append(out, e)
	}
	return out, nil
}

func (sc *keyScenario) parseEntry(fields []string) (spec.ManifestEntry, error) {
	e := spec.ManifestEntry{Kind: spec.FileKindAdd, TotalBuckets: 2}
	if fields[0] == "delete" {
		e.Kind = spec.FileKindDelete
	} else if fields[0] != "add" {
		return e, fmt.Errorf("want add or delete, got %q", fields[0])
	}
	var keys [][]any
	for _, f := range fields[1:] {
		key, value, isAttr := strings.Cut(f, "=")
		var err error
		switch {
		case key == "p":
			e.Partition = []byte(f)
		case key == "b":
			e.Bucket, err = parseInt32(value)
		case key == "keys":
			keys, err = parseKeyList(value)
		case key == "source" && value == "compact":
			source := spec.FileSourceCompact
			e.File.FileSource = &source
		case !isAttr:
			e.File.FileName = f
		default:
			err = fmt.Errorf("unknown attribute %q", key)
		}
		if err != nil {
			return e, err
		}
	}
	if len(keys) == 0 {
		return e, errors.New("an entry needs keys")
	}
	var err error
	if e.File.MinKey, err = spec.SerializeBinaryRow(bigintKey, keys[0]); err != nil {
		return e, err
	}
	if e.File.MaxKey, err = spec.SerializeBinaryRow(bigintKey, keys[len(keys)-1]); err != nil {
		return e, err
	}
	sc.keys[e.File.FileName] = keys
	return e, nil
}

// parseKeyList reads "1,5,9" into sorted one-column keys.
func parseKeyList(s string) ([][]any, error) {
	var out [][]any
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, []any{n})
	}
	slices.SortFunc(out, func(a, b []any) int { return cmp.Compare(a[0].(int64), b[0].(int64)) })
	return out, nil
}
