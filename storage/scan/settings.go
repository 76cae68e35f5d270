package scan

import (
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// settings are the table options planning depends on, read once from the
// read schema.
type settings struct {
	primaryKey      bool
	deletionVectors bool
	engine          spec.MergeEngine
	// skipLevel0 is CoreOptions.batchScanSkipLevel0 on a primary-key table
	// (DataTableBatchScan): level-0 files of deletion-vector (unless
	// merge-on-read) and first-row tables are not
	// visible to batch reads until compaction resolves them. Such reads
	// filter files by value statistics one by one.
	skipLevel0 bool
	// dataEvolution (data-evolution.enabled): files may hold some columns
	// of rows other files hold too (see splitDataEvolution), so no file's
	// statistics bound the table's rows.
	dataEvolution bool
	split         splitConfig
}

const optionDeletionVectorsMergeOnRead = "deletion-vectors.merge-on-read"

func readSettings(s *spec.TableSchema) (settings, error) {
	opts := s.CoreOptions()
	st := settings{primaryKey: len(s.PrimaryKeys) > 0}
	var err error
	if st.deletionVectors, err = opts.DeletionVectorsEnabled(); err != nil {
		return st, err
	}
	if st.engine, err = opts.MergeEngine(); err != nil {
		return st, err
	}
	if st.dataEvolution, err = opts.DataEvolutionEnabled(); err != nil {
		return st, err
	}
	mor, _ := opts.Get(optionDeletionVectorsMergeOnRead)
	// Java's DataTableBatchScan sets the level filter only for primary-key
	// tables: an append table's files are all at level 0.
	st.skipLevel0 = st.primaryKey &&
		((st.deletionVectors && !strings.EqualFold(mor, "true")) || st.engine == spec.MergeEngineFirstRow)
	if st.split.targetSize, err = opts.SourceSplitTargetSize(); err != nil {
		return st, err
	}
	if st.split.openFileCost, err = opts.SourceSplitOpenFileCost(); err != nil {
		return st, err
	}
	st.split.uniqueKeys = st.deletionVectors || st.engine == spec.MergeEngineFirstRow
	return st, nil
}

// HidesLevel0 reports whether batch reads of tables of schema s skip
// level-0 files (see settings.skipLevel0): rows written there appear only
// once a compaction moves them up.
func HidesLevel0(s *spec.TableSchema) (bool, error) {
	st, err := readSettings(s)
	return st.skipLevel0, err
}

// mergedValuesPredictable reports whether the merged row of a key is one
// of its stored records, so value statistics bound merged rows. Not so for
// partial-update and aggregation tables without deletion vectors.
func (st settings) mergedValuesPredictable() bool {
	if st.deletionVectors {
		return true
	}
	return st.engine != spec.MergeEnginePartialUpdate && st.engine != spec.MergeEngineAggregation
}
