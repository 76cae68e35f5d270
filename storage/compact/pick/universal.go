package pick

// Universal is the universal compaction strategy of primary-key tables,
// with the table options it reads. Mirrors UniversalCompaction, wrapped in
// ForceUpLevel0Compaction when ForceUpLevel0 is set.
type Universal struct {
	// NumLevels counts level 0 and the levels above it (num-levels, raised
	// to hold the highest level a file is on). The highest level,
	// NumLevels-1, holds the oldest data.
	NumLevels int
	// Trigger is num-sorted-run.compaction-trigger.
	Trigger int
	// MaxSizeAmplificationPercent is compaction.max-size-amplification-percent.
	MaxSizeAmplificationPercent int
	// SizeRatio is compaction.size-ratio, in percent. OffPeakRatio is added
	// to it during the off-peak hours (compaction.offpeak-ratio); the caller
	// decides whether it is off-peak, so picking stays a pure function.
	SizeRatio    int
	OffPeakRatio int
	// ForceUpLevel0 moves all level-0 files up when no other rule fires, as
	// Paimon does for tables that need lookup (first-row, force-lookup) and
	// with compaction.force-up-level-0.
	ForceUpLevel0 bool
	// TotalSizeThreshold and IncrementalSizeThreshold, when positive, are
	// compaction.total-size-threshold and
	// compaction.incremental-size-threshold: a bucket smaller than the
	// first, or whose runs below the highest level are larger than the
	// second, is compacted fully (EarlyFullCompaction without its
	// time-based interval, which needs state across compactions).
	TotalSizeThreshold       int64
	IncrementalSizeThreshold int64
}

func (u Universal) maxLevel() int { return u.NumLevels - 1 }

// Pick returns the unit a compaction trigger compacts, given the sorted
// runs of a bucket newest first (each level-0 file, then levels 1.. that
// hold files), or false when nothing needs compacting. Like
// MergeTreeCompactManager it skips a unit that would leave a single file on
// the level it is already on.
func (u Universal) Pick(runs []Run) (Unit, bool) {
	unit, ok := u.pick(runs)
	if !ok || len(unit.Files) == 0 {
		return Unit{}, false
	}
	if len(unit.Files) == 1 && unit.Files[0].Level == unit.OutputLevel {
		return Unit{}, false
	}
	return unit, true
}

func (u Universal) pick(runs []Run) (Unit, bool) {
	if unit, ok := u.pickEarlyFull(runs); ok {
		return unit, true
	}
	if unit, ok := u.pickForSizeAmp(runs); ok {
		return unit, true
	}
	if len(runs) >= u.Trigger {
		if unit, ok := u.pickForSizeRatio(runs, 1, false, SizeRatio); ok {
			return unit, true
		}
	}
	if len(runs) > u.Trigger {
		// Merge at least as many of the newest runs as bring the count
		// back to the trigger; size ratio may take more.
		return u.pickForSizeRatio(runs, len(runs)-u.Trigger+1, false, FileNum)
	}
	if u.ForceUpLevel0 {
		return u.forcePickLevel0(runs)
	}
	return Unit{}, false
}

// PickFull returns the unit of a full compaction: every run into the
// highest level. A bucket that is already one run on the highest level is
// left alone unless forceRewriteAll (compaction.force-rewrite-all-files)
// asks to rewrite its files anyway. Mirrors CompactStrategy.pickFullCompaction.
func (u Universal) PickFull(runs []Run, forceRewriteAll bool) (Unit, bool) {
	switch {
	case len(runs) == 0:
		return Unit{}, false
	case len(runs) == 1 && runs[0].Level == u.maxLevel():
		if !forceRewriteAll {
			return Unit{}, false
		}
	}
	return unitOf(runs, u.maxLevel(), Full), true
}

// pickEarlyFull compacts everything when the size thresholds ask for it.
func (u Universal) pickEarlyFull(runs []Run) (Unit, bool) {
	if len(runs) <= 1 || (u.TotalSizeThreshold <= 0 && u.IncrementalSizeThreshold <= 0) {
		return Unit{}, false
	}
	var total, incremental int64
	for _, r := range runs {
		total += r.Size()
		if r.Level != u.maxLevel() {
			incremental += r.Size()
		}
	}
	if (u.TotalSizeThreshold > 0 && total < u.TotalSizeThreshold) ||
		(u.IncrementalSizeThreshold > 0 && incremental > u.IncrementalSizeThreshold) {
		return unitOf(runs, u.maxLevel(), EarlyFull), true
	}
	return Unit{}, false
}

// pickForSizeAmp compacts everything when the runs above the oldest one
// hold more than MaxSizeAmplificationPercent of its size: that much of the
// stored data may be obsolete versions.
func (u Universal) pickForSizeAmp(runs []Run) (Unit, bool) {
	if len(runs) < u.Trigger || len(runs) == 0 {
		return Unit{}, false
	}
	var candidate int64
	for _, r := range runs[:len(runs)-1] {
		candidate += r.Size()
	}
	earliest := runs[len(runs)-1].Size()
	if candidate*100 > int64(u.MaxSizeAmplificationPercent)*earliest {
		return unitOf(runs, u.maxLevel(), SizeAmplification), true
	}
	return Unit{}, false
}

// pickForSizeRatio starts from the candidateCount newest runs and keeps
// adding the next run while the candidates are, within the size ratio, at
// least as large as it. A level-0 or level-1 run is swallowed even when it
// is larger once a compaction is decided, so that it is not left behind
// under its own output. Nothing is picked unless forced, more than one run
// was asked for, or a run was added.
func (u Universal) pickForSizeRatio(runs []Run, candidateCount int, force bool, reason Reason) (Unit, bool) {
	var candidate int64
	for _, r := range runs[:candidateCount] {
		candidate += r.Size()
	}
	triggered := force || candidateCount > 1
	ratio := 100.0 + float64(u.SizeRatio+u.OffPeakRatio)
	for i := candidateCount; i < len(runs); i++ {
		next := runs[i]
		if float64(candidate)*ratio/100.0 < float64(next.Size()) && (!triggered || next.Level > 1) {
			break
		}
		candidate += next.Size()
		candidateCount++
		triggered = true
	}
	if !triggered {
		return Unit{}, false
	}
	return u.createUnit(runs, candidateCount, reason), true
}

// forcePickLevel0 picks every level-0 run (and what size ratio adds).
func (u Universal) forcePickLevel0(runs []Run) (Unit, bool) {
	n := 0
	for n < len(runs) && runs[n].Level == 0 {
		n++
	}
	if n == 0 {
		return Unit{}, false
	}
	return u.pickForSizeRatio(runs, n, true, ForceUpLevel0)
}

// createUnit takes the first runCount runs. The output goes just below the
// next run's level, so that it stays newer than everything above it; it
// never goes to level 0, since level-0 files would overlap. Taking every
// run means the output is the oldest data, on the highest level.
func (u Universal) createUnit(runs []Run, runCount int, reason Reason) Unit {
	outputLevel := u.maxLevel()
	if runCount < len(runs) {
		outputLevel = max(0, runs[runCount].Level-1)
	}
	if outputLevel == 0 {
		for runCount < len(runs) {
			next := runs[runCount]
			runCount++
			if next.Level != 0 {
				outputLevel = next.Level
				break
			}
		}
	}
	if runCount == len(runs) {
		outputLevel = u.maxLevel()
	}
	return unitOf(runs[:runCount], outputLevel, reason)
}
