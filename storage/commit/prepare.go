package commit

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// writtenFile is a metadata file a commit wrote in the manifest directory.
type writtenFile struct {
	name string
	size int64
}

// deltaFiles hold a part's own changes: its delta manifests and list, and
// its changelog. They do not depend on the snapshot the part lands on, so
// every retry reuses them; never deleting them after a lost race also
// keeps them valid for an earlier attempt whose put may still land
// (apache/paimon#7441).
type deltaFiles struct {
	list             writtenFile
	changelog        *writtenFile
	recordDelta      int64
	changelogRecords int64
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
}

func (b *baseFiles) builtOn(latest *spec.Snapshot) bool {
	return b != nil && b.latestID == idOf(latest) && b.latestUUID == uuidOf(latest)
}

func uuidOf(s *spec.Snapshot) string {
	if s == nil || s.UUID == nil {
		return ""
	}
	return *s.UUID
}

// prepare writes the metadata files part p needs on top of latest and
// returns the snapshot to publish. If it fails, it deletes the files this
// attempt wrote (Java's CommitCleaner): no snapshot references them, and
// no put naming them was tried. Files reused from earlier attempts stay.
func (r *run) prepare(ctx context.Context, p *part, latest *spec.Snapshot, index *indexPlan) (*spec.Snapshot, error) {
	w := &fileWriter{r: r}
	delta, base := p.delta, p.base
	var err error
	if delta == nil {
		delta, err = r.writeDelta(ctx, w, p)
	}
	if err == nil && !base.builtOn(latest) {
		base, err = r.writeBase(ctx, w, latest, index)
	}
	if err != nil {
		return nil, errors.Join(err, w.deleteFresh(ctx))
	}
	p.delta, p.base = delta, base
	return r.buildSnapshot(p, latest), nil
}

func (r *run) writeDelta(ctx context.Context, w *fileWriter, p *part) (*deltaFiles, error) {
	list, err := r.writeManifestsAndList(ctx, w, p.entries)
	if err != nil {
		return nil, err
	}
	d := &deltaFiles{list: list, recordDelta: recordDelta(p.entries)}
	if len(p.changelog) > 0 {
		changelog, err := r.writeManifestsAndList(ctx, w, p.changelog)
		if err != nil {
			return nil, err
		}
		d.changelog, d.changelogRecords = &changelog, recordDelta(p.changelog)
	}
	return d, nil
}

func (r *run) writeManifestsAndList(ctx context.Context, w *fileWriter, entries []spec.ManifestEntry) (writtenFile, error) {
	metas, err := r.writeManifests(ctx, w, entries)
	if err != nil {
		return writtenFile{}, err
	}
	return w.manifestList(ctx, metas)
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
	if b.list, err = w.manifestList(ctx, merged); err != nil {
		return nil, err
	}
	if index != nil {
		if b.indexManifest, err = w.indexManifest(ctx, index.entries); err != nil {
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
// own uuid, recorded as pending so that a later attempt, or a retry of the
// request, recognises it in the table.
func (r *run) buildSnapshot(p *part, latest *spec.Snapshot) *spec.Snapshot {
	uuid := r.c.newUUID()
	r.c.pending[uuid] = pendingPut{user: r.req.CommitUser, id: idOf(latest) + 1}
	d, b := p.delta, p.base
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
	}
	if len(r.req.Properties) > 0 {
		s.Properties = maps.Clone(r.req.Properties)
	}
	if d.changelog != nil {
		name, size, records := d.changelog.name, d.changelog.size, d.changelogRecords
		s.ChangelogManifestList, s.ChangelogManifestListSize, s.ChangelogRecordCount = &name, &size, &records
	}
	return s
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

// fileWriter writes the metadata files of one attempt and remembers them,
// so that a preparation failure deletes exactly what the attempt wrote.
// Data files are never its concern: a commit only references them.
type fileWriter struct {
	r     *run
	fresh []string
}

// put writes a new file named <prefix>-<uuid>-<n>. The path is remembered
// before the put, since a failed put may still have landed.
func (w *fileWriter) put(ctx context.Context, prefix string, data []byte) (writtenFile, error) {
	name := fmt.Sprintf("%s-%s-%d", prefix, w.r.fileUUID, w.r.fileCount)
	w.r.fileCount++
	p := w.r.c.manifests.Path(name)
	w.fresh = append(w.fresh, p)
	if err := w.r.c.io.PutIfAbsent(ctx, p, data); err != nil {
		return writtenFile{}, fmt.Errorf("commit: write %s: %w", p, err)
	}
	return writtenFile{name: name, size: int64(len(data))}, nil
}

func (w *fileWriter) manifestList(ctx context.Context, metas []spec.ManifestFileMeta) (writtenFile, error) {
	data, err := spec.EncodeManifestList(metas)
	if err != nil {
		return writtenFile{}, fmt.Errorf("commit: encode manifest list: %w", err)
	}
	f, err := w.put(ctx, "manifest-list", data)
	if err == nil {
		w.r.cache.lists[f.name] = metas
	}
	return f, err
}

// indexManifest writes the full index list, or returns nil when no index
// file is left: a snapshot without index files has no index manifest.
func (w *fileWriter) indexManifest(ctx context.Context, entries []spec.IndexManifestEntry) (*string, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	data, err := spec.EncodeIndexManifest(entries)
	if err != nil {
		return nil, fmt.Errorf("commit: encode index manifest: %w", err)
	}
	f, err := w.put(ctx, "index-manifest", data)
	if err != nil {
		return nil, err
	}
	return &f.name, nil
}

// deleteFresh deletes the files of a failed attempt. A file whose put
// failed before landing is already absent.
func (w *fileWriter) deleteFresh(ctx context.Context) error {
	var errs []error
	for _, p := range w.fresh {
		if err := w.r.c.io.Delete(ctx, p); err != nil && !errors.Is(err, fileio.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("commit: clean up after a failed preparation: %w", errors.Join(errs...))
	}
	return nil
}
