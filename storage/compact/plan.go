package compact

import (
	"bytes"
	"cmp"
	"fmt"
	"path"
	"slices"

	"github.com/lakesql/lakesql/storage/compact/pick"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// bucket is the live files of one bucket of one partition.
type bucket struct {
	plan table.BucketPlan
	// totalBuckets is the bucket count the live files were written with,
	// which the compacted files keep.
	totalBuckets int32
	// vectors are the bucket's deletion-vector index files (append tables
	// with deletion vectors); plan.DeletionFiles locates each vector.
	vectors []spec.IndexFileMeta
}

// job is the compaction of one bucket.
type job struct {
	bucket *bucket
	reason pick.Reason
	// Primary-key tables: the output level, whether retractions are
	// dropped, and the steps in key order.
	outputLevel int
	dropDelete  bool
	steps       []step
	// keptRuns are the runs above level 0 the unit leaves in place, whose
	// keys its output must not repeat (first-row tables, lookup.go).
	keptRuns []lsm.SortedRun[*spec.DataFileMeta]
	// Append tables: groups of files, each merged into new files in order.
	groups [][]*spec.DataFileMeta
}

// step is one action of a primary-key compaction: a merge of sections
// into new files, or the upgrade of one file to the output level.
type step struct {
	sections [][]lsm.SortedRun[*spec.DataFileMeta]
	upgrade  *spec.DataFileMeta
}

// inputs returns the files a job reads and rewrites.
func (j *job) inputs() []*spec.DataFileMeta {
	var out []*spec.DataFileMeta
	for _, s := range j.steps {
		for _, section := range s.sections {
			for _, run := range section {
				for _, f := range run {
					out = append(out, f.Payload)
				}
			}
		}
	}
	for _, g := range j.groups {
		out = append(out, g...)
	}
	return out
}

// planner plans the jobs of one snapshot.
type planner struct {
	cfg      *tableConfig
	mode     Mode
	schemaOf func(int64) (*spec.TableSchema, error)
}

// groupBuckets groups the live files by bucket, in partition and bucket
// order, keeping the partitions the filter selects.
func groupBuckets(entries []spec.ManifestEntry, s *spec.TableSchema, tableDir string, filter *partitionFilter) ([]*bucket, error) {
	byKey := map[string]*bucket{}
	var out []*bucket
	for i := range entries {
		e := &entries[i]
		key := fmt.Sprintf("%x/%d", e.Partition, e.Bucket)
		b, ok := byKey[key]
		if !ok {
			selected, err := filter.matches(e.Partition)
			if err != nil {
				return nil, err
			}
			if !selected {
				continue
			}
			dir, err := bucketDir(s, tableDir, e.Partition, e.Bucket)
			if err != nil {
				return nil, err
			}
			b = &bucket{plan: table.BucketPlan{Partition: e.Partition, Bucket: e.Bucket, Dir: dir}, totalBuckets: e.TotalBuckets}
			byKey[key] = b
			out = append(out, b)
		}
		b.plan.Files = append(b.plan.Files, e.File)
	}
	slices.SortFunc(out, func(a, b *bucket) int {
		if c := bytes.Compare(a.plan.Partition, b.plan.Partition); c != 0 {
			return c
		}
		return cmp.Compare(a.plan.Bucket, b.plan.Bucket)
	})
	return out, nil
}

// bucketDir is <table>/<partition path>/bucket-<n>, the partition path
// formatted with the schema's partition options.
func bucketDir(s *spec.TableSchema, tableDir string, partition []byte, bucketID int32) (string, error) {
	rel, err := s.PartitionDir(partition)
	if err != nil {
		return "", err
	}
	return path.Join(tableDir, rel, fmt.Sprintf("bucket-%d", bucketID)), nil
}

// planBucket returns the job of one bucket, or nil when it needs none.
func (p *planner) planBucket(b *bucket) (*job, error) {
	switch {
	case p.cfg.primaryKey:
		return p.planMergeTree(b)
	case p.cfg.unaware:
		return p.planUnawareAppend(b), nil
	}
	return p.planBucketedAppend(b), nil
}

// planMergeTree places the bucket's files on their levels, picks a unit and
// plans its steps as MergeTreeCompactManager and MergeTreeCompactTask do.
func (p *planner) planMergeTree(b *bucket) (*job, error) {
	files, err := scan.KeyRanges(p.cfg.schema, p.schemaOf, b.plan.Files)
	if err != nil {
		return nil, err
	}
	for i := range files {
		if created := files[i].Payload.CreationTime; created != nil {
			files[i].CreationTime = spec.TimestampFromTime(*created)
		}
	}
	compareKeys := scan.KeyComparator(p.cfg.schema)
	levels, err := lsm.NewLevels(files, p.cfg.universal.NumLevels, compareKeys)
	if err != nil {
		return nil, fmt.Errorf("bucket %s: %w", b.plan.Dir, err)
	}
	// A full compaction rewrites files with deletion vectors, which only
	// a rewrite drops for good (as for append tables, forceRewrite).
	force := p.cfg.forceRewriteAll || (p.mode == Full && len(b.plan.DeletionFiles) > 0)
	unit, ok := p.pickUnit(levels, force)
	if !ok {
		return nil, nil
	}
	byName := map[string]lsm.FileMeta[*spec.DataFileMeta]{}
	for _, f := range files {
		byName[f.FileName] = f
	}
	unitFiles := make([]lsm.FileMeta[*spec.DataFileMeta], len(unit.Files))
	for i, f := range unit.Files {
		unitFiles[i] = byName[f.Name]
	}
	j := &job{bucket: b, reason: unit.Reason, outputLevel: unit.OutputLevel,
		// Retractions delete older versions of their keys. They may go only
		// when the output is the oldest data of the bucket: not level 0
		// (older level-0 files may lie outside the unit) and no level
		// above the output holds a file.
		// With deletion vectors the lookup marks every older record of
		// a retracted key deleted, so retractions always go.
		dropDelete: unit.OutputLevel != 0 && (unit.OutputLevel >= levels.NonEmptyHighestLevel() || p.cfg.deletionVectors)}
	if p.cfg.uniqueKeys {
		j.keptRuns = keptRuns(levels, unit)
	}
	sections := lsm.PartitionIntervals(unitFiles, compareKeys)
	j.steps = planSteps(sections, stepRules{outputLevel: unit.OutputLevel, maxLevel: levels.MaxLevel(),
		minFileSize: p.cfg.compactionFileSize, forceRewriteAll: force, rewriteLevel0: p.cfg.uniqueKeys})
	if len(j.steps) == 0 {
		return nil, nil
	}
	return j, nil
}

// keptRuns are the runs above level 0 holding none of the unit's files.
func keptRuns(levels *lsm.Levels[*spec.DataFileMeta], unit pick.Unit) []lsm.SortedRun[*spec.DataFileMeta] {
	picked := map[string]bool{}
	for _, f := range unit.Files {
		picked[f.Name] = true
	}
	var kept []lsm.SortedRun[*spec.DataFileMeta]
	for _, r := range levels.LevelSortedRuns() {
		if r.Level > 0 && len(r.Run) > 0 && !picked[r.Run[0].FileName] {
			kept = append(kept, r.Run)
		}
	}
	return kept
}

func (p *planner) pickUnit(levels *lsm.Levels[*spec.DataFileMeta], forceRewriteAll bool) (pick.Unit, bool) {
	var runs []pick.Run
	for _, r := range levels.LevelSortedRuns() {
		run := pick.Run{Level: r.Level}
		for _, f := range r.Run {
			run.Files = append(run.Files, pick.File{Name: f.FileName, Level: f.Level, Size: f.Payload.FileSize})
		}
		runs = append(runs, run)
	}
	u := p.cfg.universal
	u.NumLevels = levels.NumberOfLevels()
	if p.mode == Full {
		return u.PickFull(runs, forceRewriteAll)
	}
	return u.Pick(runs)
}

// planSteps walks the sections of a unit in key order, as
// MergeTreeCompactTask.doCompact does. Sections of several runs overlap
// and must be merged. In a section of one run, small files are merged with
// their neighbours, while a large file is upgraded: the merges gathered
// before it are cut off first, since a file cannot be skipped without
// breaking the key order of the output.
func planSteps(sections [][]lsm.SortedRun[*spec.DataFileMeta], rules stepRules) []step {
	pl := &stepPlanner{stepRules: rules}
	minFileSize := rules.minFileSize
	for _, section := range sections {
		if len(section) > 1 {
			pl.candidate = append(pl.candidate, section)
			continue
		}
		for _, f := range section[0] {
			if f.Payload.FileSize < minFileSize {
				pl.candidate = append(pl.candidate, []lsm.SortedRun[*spec.DataFileMeta]{{f}})
				continue
			}
			pl.flush()
			pl.upgrade(f)
		}
	}
	pl.flush()
	return pl.steps
}

// stepRules are what decides between upgrading a file and rewriting it.
type stepRules struct {
	outputLevel, maxLevel int
	minFileSize           int64
	forceRewriteAll       bool
	// rewriteLevel0 rewrites level-0 files rather than upgrade them, so
	// that their records meet the kept levels' keys (lookup.go).
	rewriteLevel0 bool
}

type stepPlanner struct {
	stepRules
	candidate [][]lsm.SortedRun[*spec.DataFileMeta]
	steps     []step
}

// flush merges the gathered sections; a lone single-run section is
// upgraded file by file instead, since merging it would change nothing.
func (pl *stepPlanner) flush() {
	candidate := pl.candidate
	pl.candidate = nil
	switch {
	case len(candidate) == 0:
	case len(candidate) == 1 && len(candidate[0]) == 1:
		for _, f := range candidate[0][0] {
			pl.upgrade(f)
		}
	default:
		pl.steps = append(pl.steps, step{sections: candidate})
	}
}

// upgrade moves a file to the output level without rewriting it, unless
// it must be rewritten: all files are with force-rewrite-all, and a file
// holding retractions (or not saying whether it does) must not reach the
// highest level as is, where nothing would ever delete them.
func (pl *stepPlanner) upgrade(f lsm.FileMeta[*spec.DataFileMeta]) {
	rewrite := step{sections: [][]lsm.SortedRun[*spec.DataFileMeta]{{{f}}}}
	if f.Level == pl.outputLevel {
		if pl.forceRewriteAll {
			pl.steps = append(pl.steps, rewrite)
		}
		return
	}
	noDeletes := f.Payload.DeleteRowCount != nil && *f.Payload.DeleteRowCount == 0
	mayUpgrade := !pl.forceRewriteAll && !(pl.rewriteLevel0 && f.Level == 0)
	if (pl.outputLevel != pl.maxLevel || noDeletes) && mayUpgrade {
		pl.steps = append(pl.steps, step{upgrade: f.Payload})
		return
	}
	pl.steps = append(pl.steps, rewrite)
}

// forceRewrite says whether a full compaction of b rewrites every file:
// when the table says so, and when rows of b are deleted by vectors,
// which only a rewrite drops for good.
func (p *planner) forceRewrite(b *bucket) bool {
	return p.cfg.forceRewriteAll || len(b.plan.DeletionFiles) > 0
}

// planBucketedAppend picks windows of small files of a fixed bucket.
func (p *planner) planBucketedAppend(b *bucket) *job {
	files, byName := appendFiles(b)
	var units []pick.Unit
	if p.mode == Full {
		if u, ok := p.cfg.bucketedAppend.PickFull(files, p.forceRewrite(b)); ok {
			units = []pick.Unit{u}
		}
	} else {
		units = p.cfg.bucketedAppend.Pick(files)
	}
	return appendJob(b, units, byName)
}

// planUnawareAppend packs small files of a bucket-unaware partition.
func (p *planner) planUnawareAppend(b *bucket) *job {
	files, byName := appendFiles(b)
	if p.mode == Full {
		return appendJob(b, p.cfg.unawareAppend.PickFull(files, p.forceRewrite(b)), byName)
	}
	return appendJob(b, p.cfg.unawareAppend.Pick(files), byName)
}

func appendFiles(b *bucket) ([]pick.File, map[string]*spec.DataFileMeta) {
	files := make([]pick.File, len(b.plan.Files))
	byName := map[string]*spec.DataFileMeta{}
	for i := range b.plan.Files {
		f := &b.plan.Files[i]
		files[i] = pick.File{Name: f.FileName, Size: f.FileSize, MinSeq: f.MinSequenceNumber}
		byName[f.FileName] = f
	}
	return files, byName
}

func appendJob(b *bucket, units []pick.Unit, byName map[string]*spec.DataFileMeta) *job {
	if len(units) == 0 {
		return nil
	}
	j := &job{bucket: b, reason: units[0].Reason}
	for _, u := range units {
		group := make([]*spec.DataFileMeta, len(u.Files))
		for i, f := range u.Files {
			group[i] = byName[f.Name]
		}
		j.groups = append(j.groups, group)
	}
	return j
}
