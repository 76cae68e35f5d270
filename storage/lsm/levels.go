package lsm

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Levels holds the files of one bucket by LSM level: level 0 as separate
// sorted runs, newest first, and every level >= 1 as one sorted run. Mirrors
// org.apache.paimon.mergetree.Levels.
type Levels[P any] struct {
	level0      []FileMeta[P]
	levels      []SortedRun[P] // levels[i] is level i+1
	compareKeys RowComparator
}

// LevelSortedRun is a sorted run with the level it lives on. Mirrors
// org.apache.paimon.mergetree.LevelSortedRun.
type LevelSortedRun[P any] struct {
	Level int
	Run   SortedRun[P]
}

// NewLevels places files on their levels. The number of levels is
// numLevels, raised to hold the highest level any file is on (Paimon does the
// same on restore), and must be at least 2. Files of one level >= 1 whose key
// ranges overlap break the LSM invariant and are reported as corruption.
func NewLevels[P any](files []FileMeta[P], numLevels int, compareKeys RowComparator) (*Levels[P], error) {
	if compareKeys == nil {
		return nil, errors.New("lsm: NewLevels needs a key comparator")
	}
	for _, f := range files {
		if f.Level < 0 {
			return nil, fmt.Errorf("%w: file %s has negative level %d", lakeerr.ErrCorruption, f.FileName, f.Level)
		}
		numLevels = max(numLevels, f.Level+1)
	}
	if numLevels < 2 {
		return nil, fmt.Errorf("lsm: number of levels must be at least 2, got %d", numLevels)
	}
	l := &Levels[P]{levels: make([]SortedRun[P], numLevels-1), compareKeys: compareKeys}
	if err := l.Update(nil, files); err != nil {
		return nil, err
	}
	return l, nil
}

// Update replaces the before files (matched by level and file name) with
// the after files, as a compaction result does; an after file whose level is
// beyond the highest level is an error.
func (l *Levels[P]) Update(before, after []FileMeta[P]) error {
	for _, f := range after {
		if f.Level < 0 || f.Level > l.MaxLevel() {
			return fmt.Errorf("lsm: file %s is on level %d, levels are 0..%d", f.FileName, f.Level, l.MaxLevel())
		}
	}
	for level := 0; level < l.NumberOfLevels(); level++ {
		if err := l.updateLevel(level, filesOnLevel(before, level), filesOnLevel(after, level)); err != nil {
			return err
		}
	}
	return nil
}

func (l *Levels[P]) updateLevel(level int, before, after []FileMeta[P]) error {
	if len(before) == 0 && len(after) == 0 {
		return nil
	}
	current := l.level0
	if level > 0 {
		current = l.levels[level-1]
	}
	files := slices.DeleteFunc(slices.Clone(current), func(f FileMeta[P]) bool {
		return slices.ContainsFunc(before, func(b FileMeta[P]) bool { return b.FileName == f.FileName })
	})
	files = append(files, after...)
	if level == 0 {
		slices.SortStableFunc(files, compareLevel0Files)
		l.level0 = files
		return nil
	}
	run, err := sortedRunFromUnsorted(files, l.compareKeys)
	if err != nil {
		return fmt.Errorf("level %d: %w", level, err)
	}
	l.levels[level-1] = run
	return nil
}

func filesOnLevel[P any](files []FileMeta[P], level int) []FileMeta[P] {
	var out []FileMeta[P]
	for _, f := range files {
		if f.Level == level {
			out = append(out, f)
		}
	}
	return out
}

// compareLevel0Files orders level-0 files newest first: by maxSeq
// descending, then minSeq, creation time and file name ascending. The
// tie-breaks matter when several writers share a bucket and produce files
// with the same maxSeq.
func compareLevel0Files[P any](a, b FileMeta[P]) int {
	if c := cmp.Compare(b.MaxSeq, a.MaxSeq); c != 0 {
		return c
	}
	if c := cmp.Compare(a.MinSeq, b.MinSeq); c != 0 {
		return c
	}
	if c := cmp.Compare(a.CreationTime.Millis, b.CreationTime.Millis); c != 0 {
		return c
	}
	if c := cmp.Compare(a.CreationTime.NanoOfMilli, b.CreationTime.NanoOfMilli); c != 0 {
		return c
	}
	return cmp.Compare(a.FileName, b.FileName)
}

// sortedRunFromUnsorted mirrors SortedRun.fromUnsorted: sort by minKey and
// require each file to start after the previous one ends.
func sortedRunFromUnsorted[P any](files []FileMeta[P], compareKeys RowComparator) (SortedRun[P], error) {
	slices.SortStableFunc(files, func(a, b FileMeta[P]) int { return compareKeys(a.MinKey, b.MinKey) })
	for i := 1; i < len(files); i++ {
		if compareKeys(files[i].MinKey, files[i-1].MaxKey) <= 0 {
			return nil, fmt.Errorf("%w: files %s and %s overlap in one sorted run",
				lakeerr.ErrCorruption, files[i-1].FileName, files[i].FileName)
		}
	}
	return files, nil
}

// Level0 returns the level-0 files, newest first; each is its own sorted run.
func (l *Levels[P]) Level0() []FileMeta[P] { return l.level0 }

// RunOfLevel returns the sorted run of a level >= 1 (empty when the level
// has no files or does not exist).
func (l *Levels[P]) RunOfLevel(level int) SortedRun[P] {
	if level < 1 || level > len(l.levels) {
		return nil
	}
	return l.levels[level-1]
}

// NumberOfLevels counts level 0 and every level above it.
func (l *Levels[P]) NumberOfLevels() int { return len(l.levels) + 1 }

// MaxLevel is the highest level number.
func (l *Levels[P]) MaxLevel() int { return len(l.levels) }

// NumberOfSortedRuns counts each level-0 file and each non-empty level.
func (l *Levels[P]) NumberOfSortedRuns() int {
	n := len(l.level0)
	for _, run := range l.levels {
		if len(run) > 0 {
			n++
		}
	}
	return n
}

// NonEmptyHighestLevel is the highest level holding a file, or -1 when the
// bucket is empty.
func (l *Levels[P]) NonEmptyHighestLevel() int {
	for i := len(l.levels) - 1; i >= 0; i-- {
		if len(l.levels[i]) > 0 {
			return i + 1
		}
	}
	if len(l.level0) > 0 {
		return 0
	}
	return -1
}

// LevelSortedRuns lists the sorted runs newest first: each level-0 file,
// then levels 1..max, skipping empty levels. This is the order a full merge
// reads them and the order compaction pickers reason about.
func (l *Levels[P]) LevelSortedRuns() []LevelSortedRun[P] {
	runs := make([]LevelSortedRun[P], 0, l.NumberOfSortedRuns())
	for _, f := range l.level0 {
		runs = append(runs, LevelSortedRun[P]{Level: 0, Run: SortedRun[P]{f}})
	}
	for i, run := range l.levels {
		if len(run) > 0 {
			runs = append(runs, LevelSortedRun[P]{Level: i + 1, Run: run})
		}
	}
	return runs
}
