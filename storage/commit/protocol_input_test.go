package commit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// request parses the arguments and input lines of a commit or arm-race.
func (pt *protocolTest) request(t *testing.T, d *datadriven.TestData) Request {
	id, err := strconv.ParseInt(argValue(t, d, "id"), 10, 64)
	if err != nil {
		d.Fatalf(t, "id: %v", err)
	}
	req := Request{CommitUser: argValue(t, d, "user"), Identifier: id}
	if d.HasArg("overwrite") {
		req.Overwrite = overwriteArg(t, d)
	}
	msgs := map[string]*Message{}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
		if line == "" {
			continue
		}
		verb, dt, bucket, f, err := parseFileLine(line)
		if err != nil {
			d.Fatalf(t, "%q: %v", line, err)
		}
		k := fmt.Sprintf("%s/%d", dt, bucket)
		if msgs[k] == nil {
			msgs[k] = &Message{Partition: partition(dt), Bucket: bucket, TotalBuckets: pt.h.totalBuckets()}
			order = append(order, k)
		}
		if err := addToMessage(msgs[k], verb, pt.h.file(f)); err != nil {
			d.Fatalf(t, "%q: %v", line, err)
		}
	}
	for _, k := range order {
		req.Messages = append(req.Messages, *msgs[k])
	}
	return req
}

func overwriteArg(t *testing.T, d *datadriven.TestData) *Overwrite {
	ow := &Overwrite{}
	if d.HasArg("base") {
		base, err := strconv.ParseInt(argValue(t, d, "base"), 10, 64)
		if err != nil {
			d.Fatalf(t, "base: %v", err)
		}
		ow.BaseSnapshotID = base
	}
	switch mode := argValue(t, d, "overwrite"); mode {
	case "truncate":
		ow.Truncate = true
	case "static":
		ow.Static = map[string]any{}
		if d.HasArg("static-dt") {
			ow.Static["dt"] = argValue(t, d, "static-dt")
		}
	case "dynamic":
	default:
		d.Fatalf(t, "unknown overwrite mode %q", mode)
	}
	return ow
}

func addToMessage(m *Message, verb string, f spec.DataFileMeta) error {
	switch verb {
	case "add":
		m.NewFiles = append(m.NewFiles, f)
	case "delete":
		m.DeletedFiles = append(m.DeletedFiles, f)
	case "compact-before":
		m.CompactBefore = append(m.CompactBefore, f)
	case "compact-after":
		source := spec.FileSourceCompact
		f.FileSource = &source
		m.CompactAfter = append(m.CompactAfter, f)
	default:
		return fmt.Errorf("unknown verb %q", verb)
	}
	return nil
}

// parseFileLine reads "<verb> dt=<dt> <file> rows=<n> [b=<bucket>] [L<level>] [keys=<a>..<b>]".
func parseFileLine(line string) (verb, dt string, bucket int32, f fileSpec, err error) {
	fields := strings.Fields(line)
	verb = fields[0]
	for _, field := range fields[1:] {
		k, v, isAttr := strings.Cut(field, "=")
		switch {
		case k == "dt":
			dt = v
		case k == "b":
			var n int64
			n, err = strconv.ParseInt(v, 10, 32)
			bucket = int32(n)
		case k == "rows":
			f.rows, err = strconv.ParseInt(v, 10, 64)
		case k == "keys":
			lo, hi, _ := strings.Cut(v, "..")
			f.minK, err = strconv.ParseInt(lo, 10, 64)
			if err == nil {
				f.maxK, err = strconv.ParseInt(hi, 10, 64)
			}
		case !isAttr && strings.HasPrefix(field, "L"):
			var n int64
			n, err = strconv.ParseInt(field[1:], 10, 32)
			f.level = int32(n)
		case !isAttr:
			f.name = field
		default:
			err = fmt.Errorf("unknown attribute %q", k)
		}
		if err != nil {
			return
		}
	}
	return
}

// describeSnapshot prints a published snapshot for review: its header,
// its manifest lists with each manifest's summary, and the entries of its
// delta manifests.
func describeSnapshot(b *strings.Builder, h *harness, id int64) {
	ctx := context.Background()
	c := h.committer(nil)
	s, err := c.snapshots.Snapshot(ctx, id)
	if err != nil {
		fmt.Fprintf(b, "snapshot %d: %v\n", id, err)
		return
	}
	fmt.Fprintf(b, "snapshot %d: %s user=%s identifier=%d schema=%d records total=%d delta=%d watermark=%s\n",
		s.ID, s.CommitKind, s.CommitUser, s.CommitIdentifier, s.SchemaID, deref(s.TotalRecordCount), deref(s.DeltaRecordCount), optional(s.Watermark))
	describeList(b, c.manifests, "base", s.BaseManifestList, false)
	describeList(b, c.manifests, "delta", s.DeltaManifestList, true)
	if s.ChangelogManifestList != nil {
		describeList(b, c.manifests, "changelog", *s.ChangelogManifestList, true)
	}
	if s.IndexManifest != nil {
		fmt.Fprintf(b, "  index %s\n", *s.IndexManifest)
	}
}

func describeList(b *strings.Builder, r *manifest.Reader, role, name string, withEntries bool) {
	metas, err := r.ManifestList(context.Background(), name)
	if err != nil {
		fmt.Fprintf(b, "  %s %s: %v\n", role, name, err)
		return
	}
	if len(metas) == 0 {
		fmt.Fprintf(b, "  %s %s: empty\n", role, name)
		return
	}
	fmt.Fprintf(b, "  %s %s:\n", role, name)
	for _, m := range metas {
		fmt.Fprintf(b, "    %s: +%d -%d dt=%s buckets=%s levels=%s\n", m.FileName, m.NumAddedFiles, m.NumDeletedFiles,
			describeStats(m.PartitionStats), describeRange(m.MinBucket, m.MaxBucket), describeRange(m.MinLevel, m.MaxLevel))
		if !withEntries {
			continue
		}
		entries, err := r.Entries(context.Background(), m.FileName)
		if err != nil {
			fmt.Fprintf(b, "      %v\n", err)
			continue
		}
		for _, e := range entries {
			fmt.Fprintf(b, "      %s dt=%s/bucket-%d/%s L%d rows=%d\n", e.Kind, dtOf(e.Partition), e.Bucket, e.File.FileName, e.File.Level, e.File.RowCount)
		}
	}
}

// describeStats renders partition stats as min..max (nulls=<n>).
func describeStats(s spec.SimpleStats) string {
	cols, err := s.Decode(partitionTypes)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%v..%v(nulls=%s)", orNull(cols[0].Min), orNull(cols[0].Max), optional(cols[0].NullCount))
}

func describeRange(lo, hi *int32) string {
	if lo == nil || hi == nil {
		return "null"
	}
	return fmt.Sprintf("%d..%d", *lo, *hi)
}

func orNull(v any) any {
	if v == nil {
		return "null"
	}
	return v
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func optional(p *int64) string {
	if p == nil {
		return "none"
	}
	return strconv.FormatInt(*p, 10)
}
