package maintenance

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// TestExpireTagsDataDriven runs testdata/expire_tags, the matrix of snapshot
// expiry against tags built from Paimon's bugs in that area. Every subtest
// is one scenario: it builds a table history, then expires snapshots,
// deletes and expires tags, damages metadata, and prints what survives.
//
// After every command the driver checks the invariant and fails the test
// if it does not hold: every snapshot and tag still listed reads exactly
// the rows its snapshot read when it was committed, and every file it
// references exists. Snapshots and tags that reference a file a break
// command damaged on purpose are exempt (state lists them as broken; the
// files only a damaged list names show as unreferenced).
//
// Files are named by alias, in the order commits first reference them: data
// files f1, f2, …, manifests m1, …, manifest lists l1, ….
//
//	table [append] [buckets=n] [merge-min-count=n]
//	                             start a scenario: a table partitioned by dt,
//	                             primary key (dt, id) unless append
//	insert | overwrite dt=d      commit the input rows "dt id v" (overwrite
//	                             replaces partition d)
//	compact [dt=d]               full compaction (of partition d)
//	drop f | upgrade f level=n   commit the deletion of live file f, or its
//	                             move to another level without a rewrite
//	tag name [snapshot=n] [retain=dur]
//	delete-tag name
//	expire-snapshots [retain-min=n] [retain-max=n] [max-deletes=n] [older-than=dur]
//	                             older-than is an age (default 0s: all
//	                             snapshots are old enough)
//	expire-tags [older-than=dur]
//	remove-orphans               every unreferenced file, whatever its age
//	advance dur                  move the clock
//	consumer id next=n           a streaming consumer's next snapshot
//	break (file=alias | (tag=name | snapshot=n) list=base|delta [first-manifest])
//	      mode=missing|corrupt|unreadable
//	                             damage a file (a manifest list, or the
//	                             first manifest it names); unreadable makes
//	                             its reads fail until heal, as a flaky
//	                             store does
//	heal
//	read (tag=name | snapshot=n)
//	state
//	interleave                   the input's first command, with the second
//	                             run at each of its I/O operations in turn
func TestExpireTagsDataDriven(t *testing.T) {
	var s *scenario
	datadriven.RunTest(t, "testdata/expire_tags", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd == "table" {
			s = newScenario(t, parseArgs(d.CmdArgs))
			return ""
		}
		if s == nil || s.t != t {
			t.Fatalf("%s: a scenario starts with table", d.Pos)
		}
		out := s.run(d.Cmd, parseArgs(d.CmdArgs), d.Input)
		if v := s.violations(); len(v) > 0 {
			t.Errorf("%s: invariant broken after %s:\n%s", d.Pos, d.Cmd, strings.Join(v, "\n"))
			out += "INVARIANT BROKEN: " + strings.Join(v, "; ") + "\n"
		}
		return out
	})
}

// scenario is the table of one subtest and what the driver knows about it.
type scenario struct {
	t         *testing.T
	f         *fixture
	compactor *compact.Identity
	// aliases maps file names to f<n>, m<n>, l<n>; counts holds the last n
	// of each prefix.
	aliases map[string]string
	counts  map[string]int
	// rows is what each snapshot read when it was committed.
	rows map[int64][]string
	// broken maps the names of damaged files to how they were damaged.
	broken map[string]string
	// unreadable holds the paths whose reads fail.
	unreadable map[string]bool
}

func newScenario(t *testing.T, a cmdArgs) *scenario {
	def := catalog.TableDefinition{
		Fields:        []spec.DataField{{Name: "dt", Type: stringType}, {Name: "id", Type: bigintType}, {Name: "v", Type: stringType}},
		PartitionKeys: []string{"dt"},
		// Manifests merge every few commits unless told otherwise, so that
		// expiry has manifests of its own to delete.
		Options: map[string]string{"manifest.merge-min-count": a.str("merge-min-count", "3")},
	}
	if !a.has("append") {
		def.PrimaryKeys = []string{"dt", "id"}
		def.Options["bucket"] = a.str("buckets", "1")
	}
	return &scenario{t: t, f: newFixture(t, def), compactor: compact.NewIdentity("compactor"),
		aliases: map[string]string{}, counts: map[string]int{}, rows: map[int64][]string{},
		broken: map[string]string{}, unreadable: map[string]bool{}}
}

// clone is the scenario on a copy of its warehouse, for one interleaving.
// The alias and row maps are shared: maintenance never adds to them.
func (s *scenario) clone() *scenario {
	c := *s
	c.f = s.f.clone(s.f.mem.CrashClone())
	c.unreadable = maps.Clone(s.unreadable)
	return &c
}

// fio is the FileIO maintenance runs on: the table's, failing the reads
// of the paths break made unreadable.
func (s *scenario) fio() fileio.FileIO {
	if len(s.unreadable) == 0 {
		return s.f.FS
	}
	return failingReads{FileIO: s.f.FS, paths: s.unreadable}
}

func (s *scenario) run(cmd string, a cmdArgs, input string) string {
	switch cmd {
	case "insert":
		return s.committed(s.f.insert("writer", parseRows(s.t, input)...))
	case "overwrite":
		return s.committed(s.f.overwrite("writer", a.str("dt", ""), parseRows(s.t, input)...))
	case "compact":
		return s.compact(a)
	case "drop":
		return s.committed(s.f.dropFile("writer", s.liveEntry(a.name(s.t))))
	case "upgrade":
		return s.committed(s.f.upgrade("writer", s.liveEntry(a.name(s.t)), int32(a.int(s.t, "level", 5))))
	case "advance":
		s.f.clock.Advance(parseDuration(s.t, a.name(s.t)))
		return ""
	case "consumer":
		return s.consumer(a)
	case "break":
		return s.breakFile(a)
	case "heal":
		clear(s.unreadable)
		return ""
	case "read":
		return s.read(a)
	case "state":
		return s.state()
	case "interleave":
		return s.interleave(input)
	}
	return s.maintained(cmd, a)
}

// committed learns the files of new snapshots and what they read, and
// describes each one's delta.
func (s *scenario) committed(ids []int64) string {
	s.t.Helper()
	var b strings.Builder
	for _, id := range ids {
		snap := s.snapshot(id)
		s.learn(snap)
		rows, err := readAt(s.f.FS, s.f.Dir, snapshot.TimeTravel{SnapshotID: id})
		if err != nil {
			s.t.Fatalf("read snapshot %d just committed: %v", id, err)
		}
		s.rows[id] = rows
		fmt.Fprintf(&b, "snapshot %d %s: %s\n", id, snap.CommitKind, s.delta(snap))
	}
	return b.String()
}

func (s *scenario) snapshot(id int64) *spec.Snapshot {
	s.t.Helper()
	snap, err := snapshot.NewManager(s.f.FS, s.f.Dir, "").Snapshot(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	return snap
}

// learn gives aliases to the files a new snapshot references.
func (s *scenario) learn(snap *spec.Snapshot) {
	s.t.Helper()
	ctx := context.Background()
	r := s.table().Manifests()
	for _, list := range manifestLists(snap) {
		s.alias("l", list)
		metas, err := r.ManifestList(ctx, list)
		if err != nil {
			s.t.Fatal(err)
		}
		for _, m := range metas {
			s.alias("m", m.FileName)
			entries, err := r.Entries(ctx, m.FileName)
			if err != nil {
				s.t.Fatal(err)
			}
			for _, e := range entries {
				s.alias("f", e.File.FileName)
			}
		}
	}
}

func (s *scenario) alias(prefix, name string) {
	if _, ok := s.aliases[name]; !ok {
		s.counts[prefix]++
		s.aliases[name] = prefix + strconv.Itoa(s.counts[prefix])
	}
}

// delta renders what a snapshot's delta changes: -f deleted, +f added,
// f L0->L5 moved to another level as the same file.
func (s *scenario) delta(snap *spec.Snapshot) string {
	s.t.Helper()
	ctx := context.Background()
	metas, err := s.table().Manifests().ManifestList(ctx, snap.DeltaManifestList)
	if err != nil {
		s.t.Fatal(err)
	}
	added, deleted := map[string]int32{}, map[string]int32{}
	for _, m := range metas {
		entries, err := s.table().Manifests().Entries(ctx, m.FileName)
		if err != nil {
			s.t.Fatal(err)
		}
		for _, e := range entries {
			if e.Kind == spec.FileKindAdd {
				added[s.aliases[e.File.FileName]] = e.File.Level
			} else {
				deleted[s.aliases[e.File.FileName]] = e.File.Level
			}
		}
	}
	var removed, adds, moved []string
	for f, level := range deleted {
		if to, ok := added[f]; ok {
			moved = append(moved, fmt.Sprintf("%s L%d->L%d", f, level, to))
			delete(added, f)
			continue
		}
		removed = append(removed, "-"+f)
	}
	for f := range added {
		adds = append(adds, "+"+f)
	}
	out := slices.Concat(sortAliases(removed), sortAliases(adds), sortAliases(moved))
	if len(out) == 0 {
		return "no change"
	}
	return strings.Join(out, " ")
}

func (s *scenario) table() *table.Table {
	s.t.Helper()
	tbl, err := table.Open(context.Background(), s.f.FS, s.f.Dir)
	if err != nil {
		s.t.Fatal(err)
	}
	return tbl
}

func (s *scenario) compact(a cmdArgs) string {
	s.t.Helper()
	s.f.clock.Advance(time.Minute)
	opts := compact.Options{FileIO: s.f.FS, TableDir: s.f.Dir, Mode: compact.Full, Identity: s.compactor,
		Now: s.f.clock.Now, NewUUID: s.f.NewUUID}
	if dt := a.str("dt", ""); dt != "" {
		opts.Partitions = []map[string]string{{"dt": dt}}
	}
	res, err := compact.Table(context.Background(), opts)
	if err != nil {
		s.t.Fatal(err)
	}
	if res.Snapshot == 0 {
		return "nothing to compact\n"
	}
	return s.committed([]int64{res.Snapshot})
}

// liveEntry returns the entry of the live file with the given alias in the
// latest snapshot.
func (s *scenario) liveEntry(alias string) spec.ManifestEntry {
	s.t.Helper()
	latest := s.snapshot(s.f.LatestID())
	for _, e := range liveFiles(s.t, s.f.FS, s.f.Dir, latest) {
		if s.aliases[e.File.FileName] == alias {
			return e
		}
	}
	s.t.Fatalf("%s is not live in snapshot %d", alias, latest.ID)
	return spec.ManifestEntry{}
}

func (s *scenario) consumer(a cmdArgs) string {
	s.t.Helper()
	next := a.int(s.t, "next", 0)
	p := path.Join(s.f.Dir, "consumer", "consumer-"+a.name(s.t))
	if err := s.f.FS.Overwrite(context.Background(), p, spec.EncodeConsumer(&spec.Consumer{NextSnapshot: int64(next)})); err != nil {
		s.t.Fatal(err)
	}
	return ""
}

// breakFile damages one file.
func (s *scenario) breakFile(a cmdArgs) string {
	s.t.Helper()
	ctx := context.Background()
	name := s.target(a)
	p := s.pathOf(name)
	switch mode := a.str("mode", ""); mode {
	case "missing":
		if err := s.f.FS.Delete(ctx, p); err != nil {
			s.t.Fatal(err)
		}
		s.broken[name] = mode
	case "corrupt":
		if err := s.f.mem.Overwrite(ctx, p, []byte("not a manifest")); err != nil {
			s.t.Fatal(err)
		}
		s.broken[name] = mode
	case "unreadable":
		s.unreadable[p] = true
	default:
		s.t.Fatalf("break: mode %q", mode)
	}
	return fmt.Sprintf("%s is %s\n", s.aliases[name], a.str("mode", ""))
}

// target is the name of the file a break command names.
func (s *scenario) target(a cmdArgs) string {
	s.t.Helper()
	if alias := a.str("file", ""); alias != "" {
		for name, al := range s.aliases {
			if al == alias {
				return name
			}
		}
		s.t.Fatalf("no file %s", alias)
	}
	var snap *spec.Snapshot
	if tag := a.str("tag", ""); tag != "" {
		t, err := snapshot.NewManager(s.f.FS, s.f.Dir, "").Tag(context.Background(), tag)
		if err != nil {
			s.t.Fatal(err)
		}
		snap = &t.Snapshot
	} else {
		snap = s.snapshot(int64(a.int(s.t, "snapshot", 0)))
	}
	list := snap.BaseManifestList
	if a.str("list", "") == "delta" {
		list = snap.DeltaManifestList
	}
	if !a.has("first-manifest") {
		return list
	}
	metas, err := s.table().Manifests().ManifestList(context.Background(), list)
	if err != nil || len(metas) == 0 {
		s.t.Fatalf("no manifest in %s (%v)", s.aliases[list], err)
	}
	return metas[0].FileName
}

func (s *scenario) pathOf(name string) string {
	s.t.Helper()
	for _, p := range s.f.mem.Files() {
		if path.Base(p) == name {
			return p
		}
	}
	s.t.Fatalf("%s is not on disk", s.aliases[name])
	return ""
}

func (s *scenario) read(a cmdArgs) string {
	tt := snapshot.TimeTravel{Tag: a.str("tag", "")}
	if tt.Tag == "" {
		tt.SnapshotID = int64(a.int(s.t, "snapshot", 0))
	}
	rows, err := readAt(s.f.FS, s.f.Dir, tt)
	if err != nil {
		return "error: " + s.errorText(err) + "\n"
	}
	if len(rows) == 0 {
		return "no rows\n"
	}
	return strings.Join(rows, "\n") + "\n"
}

// maintained runs a maintenance command and reports what it said and which
// files it deleted.
func (s *scenario) maintained(cmd string, a cmdArgs) string {
	before := s.f.mem.Files()
	summary, err := s.maintain(s.fio(), cmd, a)
	if err != nil {
		summary = "error: " + s.errorText(err)
	}
	out := summary + "\n"
	if gone := s.describe(difference(before, s.f.mem.Files())); len(gone) > 0 {
		out += "deleted: " + strings.Join(gone, " ") + "\n"
	}
	return out
}

// maintain runs one maintenance operation on fio and summarises its result.
func (s *scenario) maintain(fio fileio.FileIO, cmd string, a cmdArgs) (string, error) {
	ctx := context.Background()
	now := s.f.clock.Now
	switch cmd {
	case "tag":
		opts := CreateTagOptions{SnapshotID: int64(a.int(s.t, "snapshot", 0)), Now: now}
		if a.has("retain") {
			opts.TimeRetained = ptr(parseDuration(s.t, a.str("retain", "")))
		}
		tag, err := CreateTag(ctx, fio, s.f.Dir, a.name(s.t), opts)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("tag %s on snapshot %d", a.name(s.t), tag.ID), nil
	case "delete-tag":
		res, err := DeleteTag(ctx, fio, s.f.Dir, a.name(s.t))
		return fmt.Sprintf("deleted tag %s of snapshot %d", a.name(s.t), res.SnapshotID), err
	case "expire-snapshots":
		res, err := ExpireSnapshots(ctx, fio, s.f.Dir, ExpireOptions{RetainMin: a.optInt(s.t, "retain-min"),
			RetainMax: a.optInt(s.t, "retain-max"), MaxDeletes: a.optInt(s.t, "max-deletes"),
			OlderThan: ptr(now().Add(-parseDuration(s.t, a.str("older-than", "0s")))), Now: now})
		if res.End == 0 {
			return "nothing expired", err
		}
		return fmt.Sprintf("expired snapshots [%d, %d)", res.Begin, res.End), err
	case "expire-tags":
		opts := ExpireTagsOptions{Now: now}
		if a.has("older-than") {
			opts.OlderThan = ptr(now().Add(-parseDuration(s.t, a.str("older-than", ""))))
		}
		res, err := ExpireTags(ctx, fio, s.f.Dir, opts)
		if len(res.Expired) == 0 {
			return "no tag expired", err
		}
		return "expired tags " + strings.Join(res.Expired, " "), err
	case "remove-orphans":
		res, err := RemoveOrphanFiles(ctx, fio, s.f.Dir, OrphanOptions{OlderThan: new(time.Duration), Now: now})
		return fmt.Sprintf("removed %d orphans", len(res.Deleted)), err
	}
	s.t.Fatalf("unknown command %s", cmd)
	return "", nil
}

// errorText is an error's class and its message, with file names replaced
// by their aliases.
func (s *scenario) errorText(err error) string {
	return errorClass(err) + ": " + s.aliased(err.Error())
}

// aliased replaces the table directory and file names in msg by aliases.
func (s *scenario) aliased(msg string) string {
	msg = strings.ReplaceAll(msg, s.f.Dir+"/", "")
	for name, alias := range s.aliases {
		msg = strings.ReplaceAll(msg, name, alias)
	}
	return msg
}

func errorClass(err error) string {
	for _, c := range []struct {
		target error
		name   string
	}{
		{lakeerr.ErrCorruption, "corruption"}, {lakeerr.ErrRetryableConflict, "retryable conflict"},
		{lakeerr.ErrNotFound, "not found"}, {ErrAlreadyExists, "already exists"},
		{ErrInvalidArgument, "invalid argument"}, {fileio.ErrInjected, "i/o error"},
	} {
		if errors.Is(err, c.target) {
			return c.name
		}
	}
	return "unclassified"
}

// describe names table files by alias, or as snapshot-<n>, tag-<name>,
// consumer-<id>; hints, receipts and expiry intents are left out.
func (s *scenario) describe(paths []string) []string {
	var out []string
	for _, p := range paths {
		name := path.Base(p)
		switch rel := strings.TrimPrefix(p, s.f.Dir+"/"); {
		case s.aliases[name] != "":
			out = append(out, s.aliases[name])
		case strings.HasPrefix(rel, "snapshot/snapshot-"), strings.HasPrefix(rel, "tag/"),
			strings.HasPrefix(rel, "consumer/"):
			out = append(out, name)
		case strings.HasPrefix(rel, "snapshot/"), strings.HasPrefix(rel, "commit-user/"):
		default:
			out = append(out, rel)
		}
	}
	return sortAliases(out)
}

// state lists the snapshots, the tags (with the snapshot each holds), the
// data files on disk, how many manifests and lists there are, the files no
// snapshot or tag references, and the snapshots and tags a break damaged.
func (s *scenario) state() string {
	ctx := context.Background()
	mgr := snapshot.NewManager(s.f.FS, s.f.Dir, "")
	ids, err := mgr.IDs(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "snapshots: %s\n", joinInts(ids))
	var tags []string
	for _, o := range s.objects() {
		if o.tag != "" {
			tags = append(tags, fmt.Sprintf("%s@%d", o.tag, o.snap.ID))
		}
	}
	fmt.Fprintf(&b, "tags: %s\n", orNone(tags))
	var data []string
	manifests, lists := 0, 0
	for _, name := range s.diskNames() {
		switch alias := s.aliases[name]; {
		case strings.HasPrefix(alias, "f"):
			data = append(data, alias)
		case strings.HasPrefix(alias, "m"):
			manifests++
		case strings.HasPrefix(alias, "l"):
			lists++
		}
	}
	fmt.Fprintf(&b, "data files: %s\n", orNone(sortAliases(data)))
	fmt.Fprintf(&b, "metadata: %d manifests, %d manifest lists\n", manifests, lists)
	fmt.Fprintf(&b, "unreferenced: %s\n", orNone(s.unreferenced()))
	var broken []string
	for _, o := range s.objects() {
		if reason := s.damage(o.snap); reason != "" {
			broken = append(broken, o.String()+" ("+reason+")")
		}
	}
	if len(broken) > 0 {
		fmt.Fprintf(&b, "broken: %s\n", strings.Join(broken, ", "))
	}
	return b.String()
}

// object is a snapshot or a tag.
type object struct {
	tag  string
	snap *spec.Snapshot
}

func (o object) String() string {
	if o.tag != "" {
		return "tag " + o.tag
	}
	return fmt.Sprintf("snapshot %d", o.snap.ID)
}

func (o object) timeTravel() snapshot.TimeTravel {
	if o.tag != "" {
		return snapshot.TimeTravel{Tag: o.tag}
	}
	return snapshot.TimeTravel{SnapshotID: o.snap.ID}
}

// objects lists the snapshots, then the tags, of the table.
func (s *scenario) objects() []object {
	s.t.Helper()
	ctx := context.Background()
	mgr := snapshot.NewManager(s.f.FS, s.f.Dir, "")
	ids, err := mgr.IDs(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	var out []object
	for _, id := range ids {
		out = append(out, object{snap: s.snapshot(id)})
	}
	names, err := mgr.TagNames(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, name := range names {
		tag, err := mgr.Tag(ctx, name)
		if err != nil {
			s.t.Fatal(err)
		}
		out = append(out, object{tag: name, snap: &tag.Snapshot})
	}
	return out
}

// violations checks the invariant: every snapshot and tag that no break
// damaged reads the rows its snapshot read when committed, and every file
// it references exists.
func (s *scenario) violations() []string {
	var out []string
	onDisk := map[string]bool{}
	for _, name := range s.diskNames() {
		onDisk[name] = true
	}
	for _, o := range s.objects() {
		if s.damage(o.snap) != "" {
			continue
		}
		got, err := readAt(s.f.FS, s.f.Dir, o.timeTravel())
		if want, ok := s.rows[o.snap.ID]; err != nil || !ok || !slices.Equal(got, want) {
			out = append(out, s.aliased(fmt.Sprintf("%s reads %v (%v), want %v", o, got, err, want)))
		}
		refs, err := s.references(o.snap, false)
		if err != nil {
			out = append(out, s.aliased(fmt.Sprintf("%s: %v", o, err)))
		}
		var missing []string
		for name := range refs {
			if !onDisk[name] {
				missing = append(missing, s.aliases[name])
			}
		}
		if len(missing) > 0 {
			out = append(out, fmt.Sprintf("%s references missing %s", o, strings.Join(sortAliases(missing), " ")))
		}
	}
	return out
}

// references returns the names of the files snap needs: its manifest
// lists, their manifests and its live data files, found by the read path.
// partial collects what is readable of a damaged snapshot: the files any
// readable entry names.
func (s *scenario) references(snap *spec.Snapshot, partial bool) (map[string]bool, error) {
	ctx := context.Background()
	tbl := s.table()
	refs := map[string]bool{}
	for _, list := range manifestLists(snap) {
		refs[list] = true
		metas, err := tbl.Manifests().ManifestList(ctx, list)
		if err != nil && !partial {
			return refs, err
		}
		for _, m := range metas {
			refs[m.FileName] = true
			if !partial {
				continue
			}
			entries, _ := tbl.Manifests().Entries(ctx, m.FileName)
			for _, e := range entries {
				refs[e.File.FileName] = true
			}
		}
	}
	if partial {
		return refs, nil
	}
	live, err := tbl.LiveFiles(ctx, snap)
	for _, e := range live {
		refs[e.File.FileName] = true
	}
	return refs, err
}

// damage says which damaged file snap references, "" if none.
func (s *scenario) damage(snap *spec.Snapshot) string {
	refs, _ := s.references(snap, true)
	var hits []string
	for name := range refs {
		if how, ok := s.broken[name]; ok {
			hits = append(hits, s.aliases[name]+" "+how)
		}
	}
	slices.Sort(hits)
	return strings.Join(hits, ", ")
}

// unreferenced lists the data and metadata files on disk that no snapshot
// or tag references (of a damaged one, what its readable entries name).
func (s *scenario) unreferenced() []string {
	used := map[string]bool{}
	for _, o := range s.objects() {
		refs, err := s.references(o.snap, s.damage(o.snap) != "")
		if err != nil {
			s.t.Fatalf("%s: %v", o, err)
		}
		maps.Copy(used, refs)
	}
	var out []string
	for _, name := range s.diskNames() {
		if !used[name] {
			out = append(out, s.aliases[name])
		}
	}
	return sortAliases(out)
}

// diskNames are the names of the data files, manifests and manifest lists
// on disk.
func (s *scenario) diskNames() []string {
	var out []string
	for _, p := range s.f.mem.Files() {
		rel := strings.TrimPrefix(p, s.f.Dir+"/")
		if strings.HasPrefix(rel, "manifest/") || strings.Contains(rel, "/bucket-") {
			out = append(out, path.Base(p))
		}
	}
	return out
}

// interleave runs the first command of the input with the second one run
// just before each of its I/O operations in turn, and once after it, each
// time on a copy of the table. Each one that fails with a retryable
// conflict is then run again, as its caller would once the other is done.
// It prints the outcomes seen and whether any interleaving left
// unreferenced files; the invariant is checked after every interleaving.
func (s *scenario) interleave(input string) string {
	lines := strings.Split(strings.TrimSpace(input), "\n")
	if len(lines) != 2 {
		s.t.Fatalf("interleave takes two commands, got %d", len(lines))
	}
	outer, outerArgs := parseCommand(s.t, lines[0])
	inner, innerArgs := parseCommand(s.t, lines[1])
	outcomes := map[string]bool{}
	leaked := false
	for k := 0; ; k++ {
		c := s.clone()
		var innerErr error
		h := &hookFS{FileIO: c.fio(), at: k, hook: func() { _, innerErr = c.maintain(c.fio(), inner, innerArgs) }}
		_, outerErr := c.maintain(h, outer, outerArgs)
		if !h.fired {
			_, innerErr = c.maintain(c.fio(), inner, innerArgs)
		}
		outcomes[fmt.Sprintf("%s: %s, %s: %s", outer, c.retried(outer, outerArgs, outerErr),
			inner, c.retried(inner, innerArgs, innerErr))] = true
		if v := c.violations(); len(v) > 0 {
			s.t.Errorf("%s with %s at its I/O %d: %s", outer, inner, k, strings.Join(v, "; "))
			return fmt.Sprintf("INVARIANT BROKEN with %s at I/O %d of %s: %s\n", inner, k, outer, strings.Join(v, "; "))
		}
		leaked = leaked || len(c.unreferenced()) > 0
		if !h.fired {
			break
		}
	}
	out := strings.Join(slices.Sorted(maps.Keys(outcomes)), "\n") + "\n"
	if leaked {
		out += "some orders leave unreferenced files\n"
	}
	return out
}

// retried runs a maintenance command again while its last run failed with
// a retryable conflict, a few times at most, and describes the outcomes.
func (s *scenario) retried(cmd string, a cmdArgs, err error) string {
	out := outcome(err)
	for range 3 {
		if !errors.Is(err, lakeerr.ErrRetryableConflict) {
			break
		}
		_, err = s.maintain(s.fio(), cmd, a)
		out += ", then " + outcome(err)
	}
	return out
}

func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	return errorClass(err)
}

// failingReads fails reads of some paths, as a store that times out does.
type failingReads struct {
	fileio.FileIO
	paths map[string]bool
}

var errFlakyRead = fmt.Errorf("read timed out: %w", fileio.ErrInjected)

func (f failingReads) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if f.paths[path.Clean(p)] {
		return nil, fmt.Errorf("read %s: %w", p, errFlakyRead)
	}
	return f.FileIO.ReadFile(ctx, p)
}

func (f failingReads) Open(ctx context.Context, p string) (fileio.File, error) {
	if f.paths[path.Clean(p)] {
		return nil, fmt.Errorf("open %s: %w", p, errFlakyRead)
	}
	return f.FileIO.Open(ctx, p)
}

// cmdArgs are a command's arguments: bare words and key=value pairs.
type cmdArgs struct {
	words []string
	kv    map[string]string
}

func parseArgs(args []datadriven.CmdArg) cmdArgs {
	a := cmdArgs{kv: map[string]string{}}
	for _, arg := range args {
		if len(arg.Vals) == 0 {
			a.words = append(a.words, arg.Key)
			continue
		}
		a.kv[arg.Key] = arg.Vals[0]
	}
	return a
}

func parseCommand(t *testing.T, line string) (string, cmdArgs) {
	cmd, args, err := datadriven.ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	return cmd, parseArgs(args)
}

func (a cmdArgs) has(key string) bool {
	_, ok := a.kv[key]
	return ok || slices.Contains(a.words, key)
}

func (a cmdArgs) str(key, def string) string {
	if v, ok := a.kv[key]; ok {
		return v
	}
	return def
}

// name is the command's first bare word.
func (a cmdArgs) name(t *testing.T) string {
	if len(a.words) == 0 {
		t.Fatal("missing name")
	}
	return a.words[0]
}

func (a cmdArgs) int(t *testing.T, key string, def int) int {
	if p := a.optInt(t, key); p != nil {
		return *p
	}
	return def
}

func (a cmdArgs) optInt(t *testing.T, key string) *int {
	v, ok := a.kv[key]
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s=%s: %v", key, v, err)
	}
	return &n
}

func parseDuration(t *testing.T, s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// parseRows reads lines "dt id v".
func parseRows(t *testing.T, input string) [][]any {
	var rows [][]any
	for line := range strings.Lines(strings.TrimSpace(input)) {
		var dt, v string
		var id int64
		if _, err := fmt.Sscan(line, &dt, &id, &v); err != nil {
			t.Fatalf("row %q: %v", line, err)
		}
		rows = append(rows, row(dt, id, v))
	}
	return rows
}

// difference returns the paths of before that are not in after.
func difference(before, after []string) []string {
	var out []string
	for _, p := range before {
		if _, found := slices.BinarySearch(after, p); !found {
			out = append(out, p)
		}
	}
	return out
}

// aliasOrder ranks alias prefixes the way deletions proceed: data files,
// then manifests, manifest lists, snapshots and tags.
var aliasOrder = []string{"f", "m", "l", "snapshot-", "tag-"}

// sortAliases sorts by prefix (aliasOrder, then the rest by name), then by
// number: f2 before f10.
func sortAliases(names []string) []string {
	rank := func(prefix string) int {
		if i := slices.Index(aliasOrder, prefix); i >= 0 {
			return i
		}
		return len(aliasOrder)
	}
	key := func(s string) (string, int) {
		i := strings.IndexAny(s, "0123456789")
		if i < 0 {
			return s, 0
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(s[i:j])
		return s[:i], n
	}
	slices.SortFunc(names, func(a, b string) int {
		pa, na := key(a)
		pb, nb := key(b)
		if ra, rb := rank(pa), rank(pb); ra != rb {
			return ra - rb
		}
		if pa != pb {
			return strings.Compare(pa, pb)
		}
		if na != nb {
			return na - nb
		}
		return strings.Compare(a, b)
	})
	return names
}

func joinInts(ids []int64) string {
	var out []string
	for _, id := range ids {
		out = append(out, strconv.FormatInt(id, 10))
	}
	return orNone(out)
}

func orNone(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, " ")
}
