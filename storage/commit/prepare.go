package commit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// writtenFile is a metadata file a commit wrote in the manifest directory.
type writtenFile struct {
	name string
	size int64
}

// deltaFiles hold a part's own changes: its delta manifests and list, and
// its changelog. They do not depend on the snapshot the part lands on, so
// they are written once, before the first attempt, which lets a batch
// (see batch) wait only for the files that do, and every retry reuses
// them; never deleting them after a lost race also keeps them valid for
// an earlier attempt whose put may still land (apache/paimon#7441).
type deltaFiles struct {
	list             writtenFile
	changelog        *writtenFile
	recordDelta      int64
	changelogRecords int64
	// writer wrote the files; it keeps them decoded for a batch's view.
	writer *fileWriter
}

// baseFiles depend on the latest snapshot: the merged base manifest list
// and the index manifest. A retry on the same latest snapshot (after a put
// that did not land) reuses them.
type baseFiles struct {
	latestID      int64
	latestUUID    string
	list          writtenFile
	indexManifest *string
	previousTotal int64
	// delta, when set, replaces the part's delta files: an overwrite's
	// delta re-based onto this latest snapshot (see rebaseOverwrite).
	delta *deltaFiles
}

func (b *baseFiles) builtOn(latest *spec.Snapshot) bool {
	return b != nil && b.latestID == idOf(latest) && b.latestUUID == uuidOf(latest)
}

func setProperty(s *spec.Snapshot, key, value string) {
	if s.Properties == nil {
		s.Properties = map[string]string{}
	}
	s.Properties[key] = value
}

func uuidOf(s *spec.Snapshot) string {
	if s == nil || s.UUID == nil {
		return ""
	}
	return *s.UUID
}

// preparation is an attempt ready to publish: its snapshot, encoded, and
// the base files it references, encoded and named. The files new to this
// attempt are written by w.flush, which must succeed before the snapshot
// is put.
type preparation struct {
	snap    *spec.Snapshot
	encoded []byte
	base    *baseFiles
	w       *fileWriter
}

// prepare plans the files part p needs on top of latest, besides its
// delta, and returns the snapshot to publish. It writes nothing: the batch
// writes the files of all its attempts at once (fileWriter.flush). Files
// reused from an earlier attempt on the same latest snapshot are not
// written again.
func (r *run) prepare(ctx context.Context, p *part, latest *spec.Snapshot, checked *checkedAttempt) (*preparation, error) {
	w := newFileWriter(r)
	base := p.base
	if !base.builtOn(latest) || (base.delta != nil) != (checked.rebased != nil) {
		var err error
		if base, err = r.writeBase(ctx, w, latest, checked.index); err != nil {
			return nil, err
		}
		if checked.rebased != nil {
			if base.delta, err = r.planDelta(w, checked.rebased, nil); err != nil {
				return nil, err
			}
		}
	}
	delta := p.delta
	if base.delta != nil {
		delta = base.delta
	}
	snap := r.buildSnapshot(p, delta, base, latest)
	var err error
	if snap.Statistics, err = r.inheritedStatistics(ctx, latest); err != nil {
		return nil, err
	}
	encoded, err := spec.EncodeSnapshot(snap)
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	return &preparation{snap: snap, encoded: encoded, base: base, w: w}, nil
}

// writeDelta writes the delta files of part p. If that fails, it deletes
// what it wrote: nothing references it.
func (r *run) writeDelta(ctx context.Context, p *part) error {
	w := newFileWriter(r)
	delta, err := r.planDelta(w, p.entries, p.changelog)
	if err == nil {
		err = w.flush(ctx)
	}
	if err != nil {
		return errors.Join(err, w.deleteFresh(ctx))
	}
	delta.writer = w
	p.delta = delta
	return nil
}

// deleteDelta deletes the delta files of a part that ends without a
// snapshot put naming them: it failed, or was found landed.
func (r *run) deleteDelta(ctx context.Context, p *part) error {
	return p.delta.writer.deleteFresh(ctx)
}

// planDelta names the delta manifests and list of entries, and the
// changelog's, in w.
func (r *run) planDelta(w *fileWriter, entries, changelog []spec.ManifestEntry) (*deltaFiles, error) {
	list, err := r.writeManifestsAndList(w, entries)
	if err != nil {
		return nil, err
	}
	d := &deltaFiles{list: list, recordDelta: recordDelta(entries)}
	if len(changelog) > 0 {
		cl, err := r.writeManifestsAndList(w, changelog)
		if err != nil {
			return nil, err
		}
		d.changelog, d.changelogRecords = &cl, recordDelta(changelog)
	}
	return d, nil
}

func (r *run) writeManifestsAndList(w *fileWriter, entries []spec.ManifestEntry) (writtenFile, error) {
	metas, err := r.writeManifests(w, entries)
	if err != nil {
		return writtenFile{}, err
	}
	return w.manifestList(metas)
}

// writeBase writes the base manifest list (latest's base and delta
// manifests, merged; empty for the first snapshot) and, if the index
// changes, the new index manifest.
func (r *run) writeBase(ctx context.Context, w *fileWriter, latest *spec.Snapshot, index *indexPlan) (*baseFiles, error) {
	b := &baseFiles{latestID: idOf(latest), latestUUID: uuidOf(latest)}
	var merged []spec.ManifestFileMeta
	if latest != nil {
		input, err := r.dataManifests(ctx, latest)
		if err != nil {
			return nil, err
		}
		if merged, err = r.mergeManifests(ctx, w, input); err != nil {
			return nil, err
		}
		if b.previousTotal, err = r.previousTotal(ctx, latest); err != nil {
			return nil, err
		}
		b.indexManifest = latest.IndexManifest
	}
	var err error
	if b.list, err = w.manifestList(merged); err != nil {
		return nil, err
	}
	if index != nil {
		if b.indexManifest, err = w.indexManifest(index.entries); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// previousTotal is the record count of latest. Snapshots of Paimon before
// 0.4 lack it; it is then summed over the live files, as Java's
// FileStoreScan.totalRecordCount does.
func (r *run) previousTotal(ctx context.Context, latest *spec.Snapshot) (int64, error) {
	if latest.TotalRecordCount != nil {
		return *latest.TotalRecordCount, nil
	}
	live, err := r.liveEntries(ctx, latest)
	return recordDelta(live), err
}

// recordDelta is the rows added minus the rows deleted by entries.
func recordDelta(entries []spec.ManifestEntry) int64 {
	var n int64
	for i := range entries {
		if entries[i].Kind == spec.FileKindAdd {
			n += entries[i].File.RowCount
		} else {
			n -= entries[i].File.RowCount
		}
	}
	return n
}

// buildSnapshot returns the snapshot of this attempt. Each attempt gets its
// own uuid, so that a later attempt, or a retry of the request, recognises
// it in the table (see publish).
func (r *run) buildSnapshot(p *part, d *deltaFiles, b *baseFiles, latest *spec.Snapshot) *spec.Snapshot {
	uuid := r.c.newUUID()
	baseSize, deltaSize := b.list.size, d.list.size
	total, delta := b.previousTotal+d.recordDelta, d.recordDelta
	s := &spec.Snapshot{
		Version:               spec.CurrentSnapshotVersion,
		UUID:                  &uuid,
		ID:                    idOf(latest) + 1,
		SchemaID:              r.table.schemaID,
		BaseManifestList:      b.list.name,
		BaseManifestListSize:  &baseSize,
		DeltaManifestList:     d.list.name,
		DeltaManifestListSize: &deltaSize,
		IndexManifest:         b.indexManifest,
		CommitUser:            r.req.CommitUser,
		CommitIdentifier:      r.req.Identifier,
		CommitKind:            p.kind,
		TimeMillis:            r.c.now().UnixMilli(),
		TotalRecordCount:      &total,
		DeltaRecordCount:      &delta,
		Watermark:             newWatermark(r.req.Watermark, latest),
		NextRowID:             nextRowID(latest),
	}
	if len(r.req.Properties) > 0 {
		s.Properties = maps.Clone(r.req.Properties)
	}
	if !r.digest.IsZero() {
		setProperty(s, DigestProperty, r.digest.String())
	}
	if parent := uuidOf(latest); parent != "" {
		setProperty(s, ParentProperty, parent)
	}
	if d.changelog != nil {
		name, size, records := d.changelog.name, d.changelog.size, d.changelogRecords
		s.ChangelogManifestList, s.ChangelogManifestListSize, s.ChangelogRecordCount = &name, &size, &records
	}
	return s
}

// nextRowID carries the row id the next new file of a row-tracking table
// starts at, as Java's commit does when it adds no file that needs row
// ids: lakesql writes no such file (row-tracking writes are refused), but
// its other commits (a partition's expiry, say) must not drop the count,
// or Java would number new rows from 0 again, over existing ones.
func nextRowID(latest *spec.Snapshot) *int64 {
	if latest == nil || latest.NextRowID == nil {
		return nil
	}
	next := *latest.NextRowID
	return &next
}

// inheritedStatistics is the statistics file (an engine's ANALYZE TABLE)
// the new snapshot keeps from latest: Java's commit keeps it while the
// table's schema is the one it was computed on, so that Spark's planner
// still finds it after a write. A file that cannot be found or read as
// statistics is not kept either: the statistics are optional, and a
// malformed file must not stop the table's writes.
func (r *run) inheritedStatistics(ctx context.Context, latest *spec.Snapshot) (*string, error) {
	if latest == nil || latest.Statistics == nil {
		return nil, nil
	}
	name := *latest.Statistics
	schemaID, err := r.c.statisticsSchema(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("commit: statistics of snapshot %d: %w", latest.ID, err)
	}
	if schemaID != r.table.schemaID {
		return nil, nil
	}
	return &name, nil
}

// noStatsSchema is the schema id of a statistics file that is missing or
// cannot be read as statistics: no schema's.
const noStatsSchema = -1

// statisticsSchema is the schema id statistics file name was computed on.
func (c *Committer) statisticsSchema(ctx context.Context, name string) (int64, error) {
	if id, ok := c.statsSchemas.Load(name); ok {
		return id.(int64), nil
	}
	data, err := c.io.ReadFile(ctx, path.Join(c.tableDir, "statistics", name))
	if errors.Is(err, fileio.ErrNotExist) {
		return noStatsSchema, nil
	}
	if err != nil {
		return 0, err
	}
	var stats struct {
		SchemaID *int64 `json:"schemaId"`
	}
	id := int64(noStatsSchema)
	if json.Unmarshal(data, &stats) == nil && stats.SchemaID != nil {
		id = *stats.SchemaID
	}
	c.statsSchemas.Store(name, id)
	return id, nil
}

// newWatermark never moves the watermark back (Java keeps the maximum).
func newWatermark(requested *int64, latest *spec.Snapshot) *int64 {
	var previous *int64
	if latest != nil {
		previous = latest.Watermark
	}
	switch {
	case requested == nil && previous == nil:
		return nil
	case requested == nil:
		w := *previous
		return &w
	case previous == nil:
		w := *requested
		return &w
	}
	w := max(*requested, *previous)
	return &w
}

// fileWriter names and encodes the metadata files of one attempt, and
// writes them on flush, so that planning an attempt never waits for an
// fsync. Data files are never its concern: a commit only
// references them.
//
// Each file it names is also decoded back from its bytes into lists,
// entries and index, and the manifests and lists into the group's cache:
// the later attempts of a batch read them before they are written, and
// later commits need not read them back. Decoded copies share no memory
// with the request, which the caller owns once its Commit returns.
type fileWriter struct {
	r      *run
	writes []pendingWrite
	// attempted counts the writes flush tried: a failed put may still
	// have landed, so each of them is deleted after a failure.
	attempted int
	lists     map[string][]spec.ManifestFileMeta
	entries   map[string][]spec.ManifestEntry
	index     map[string][]spec.IndexManifestEntry
}

type pendingWrite struct {
	path string
	data []byte
}

func newFileWriter(r *run) *fileWriter {
	return &fileWriter{r: r, lists: map[string][]spec.ManifestFileMeta{},
		entries: map[string][]spec.ManifestEntry{}, index: map[string][]spec.IndexManifestEntry{}}
}

// put names a new file <prefix>-<uuid>-<n> holding data, to be written by
// flush.
func (w *fileWriter) put(prefix string, data []byte) writtenFile {
	name := fmt.Sprintf("%s-%s-%d", prefix, w.r.fileUUID, w.r.fileCount)
	w.r.fileCount++
	w.writes = append(w.writes, pendingWrite{path: w.r.c.manifests.Path(name), data: data})
	return writtenFile{name: name, size: int64(len(data))}
}

// manifest names a manifest encoded as data.
func (w *fileWriter) manifest(data []byte) (writtenFile, error) {
	decoded, err := manifest.DecodeEntries(data)
	if err != nil {
		return writtenFile{}, fmt.Errorf("commit: decode the manifest just encoded: %w", err)
	}
	f := w.put("manifest", data)
	w.r.cache.entries[f.name] = decoded
	w.entries[f.name] = decoded
	w.r.c.decoded.AddEntries(f.name, decoded)
	return f, nil
}

func (w *fileWriter) manifestList(metas []spec.ManifestFileMeta) (writtenFile, error) {
	data, err := manifest.EncodeList(w.r.c.cfg.manifestFormat, metas)
	if err != nil {
		return writtenFile{}, fmt.Errorf("commit: encode manifest list: %w", err)
	}
	decoded, err := manifest.DecodeList(data)
	if err != nil {
		return writtenFile{}, fmt.Errorf("commit: decode the manifest list just encoded: %w", err)
	}
	f := w.put("manifest-list", data)
	w.r.cache.lists[f.name] = decoded
	w.lists[f.name] = decoded
	w.r.c.decoded.AddManifestList(f.name, decoded)
	return f, nil
}

// indexManifest names the full index list, or returns nil when no index
// file is left: a snapshot without index files has no index manifest.
func (w *fileWriter) indexManifest(entries []spec.IndexManifestEntry) (*string, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	data, err := manifest.EncodeIndex(w.r.c.cfg.manifestFormat, entries)
	if err != nil {
		return nil, fmt.Errorf("commit: encode index manifest: %w", err)
	}
	decoded, err := manifest.DecodeIndex(data)
	if err != nil {
		return nil, fmt.Errorf("commit: decode the index manifest just encoded: %w", err)
	}
	f := w.put("index-manifest", data)
	w.index[f.name] = decoded
	return &f.name, nil
}

// flush writes the named files in order, stopping at the first failure.
func (w *fileWriter) flush(ctx context.Context) error {
	for _, pw := range w.writes {
		w.attempted++
		if err := w.r.c.io.PutIfAbsent(ctx, pw.path, pw.data); err != nil {
			return fmt.Errorf("commit: write %s: %w", pw.path, err)
		}
	}
	return nil
}

// deleteFresh deletes the files flush tried to write (Java's
// CommitCleaner) when no snapshot put named them: the attempt failed
// before its put, or its part ended unpublished (delta files), or it was
// superseded (see batch).
// A file whose put failed before landing is already absent.
func (w *fileWriter) deleteFresh(ctx context.Context) error {
	var errs []error
	for _, pw := range w.writes[:w.attempted] {
		if err := w.r.c.io.Delete(ctx, pw.path); err != nil && !errors.Is(err, fileio.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("commit: clean up files no snapshot references: %w", errors.Join(errs...))
	}
	return nil
}
