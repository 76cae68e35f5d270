package catalog

import (
	"maps"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// immutableOptions are the options annotated @Immutable in Java's
// CoreOptions (apache/paimon 5dacde5): they shape data files, indexes or
// merging, so Java refuses to change them once a table has snapshots.
var immutableOptions = []string{
	"type", "bucket-key", "bucket-function.type", "data-file.path-directory", "merge-engine",
	"sequence.snapshot-ordering", "aggregation.remove-record-on-delete",
	"partial-update.remove-record-on-delete", "partial-update.remove-record-on-sequence-group",
	"rowkind.field", "primary-key", "primary-key.nullable", "partition",
	"dynamic-bucket.initial-buckets", "force-lookup", "row-tracking.enabled",
	"data-evolution.enabled", "index-file-in-data-file-dir", "blob-field",
	"blob-descriptor-field", "blob-view-field", "pk-clustering-override",
}

// optionDeletionVectorsModifiable is CoreOptions.DELETION_VECTORS_MODIFIABLE,
// which lets deletion-vectors.enabled change on a table with data.
const optionDeletionVectorsModifiable = "deletion-vectors.modifiable"

// checkOptionChange refuses setting (value non-nil) or removing (value nil)
// an option when Java's SchemaManager.checkAlterTableOption or
// checkResetTableOption would, and where lakesql is stricter:
//   - primary-key, partition and path never change: keys are fixed at
//     CREATE TABLE, and the catalog places tables itself;
//   - bucket and file.format are never removed, since lakesql keeps them
//     explicit in every schema;
//   - bucket never changes once the table has snapshots, since that needs
//     a rescale (INSERT OVERWRITE into the new count) lakesql lacks.
//
// Setting an option to its current value is always allowed.
func (a *alteration) checkOptionChange(key string, value *string) error {
	switch key {
	case optionPrimaryKey, optionPartition:
		return unsupportedf("option %s: keys are fixed when the table is created", key)
	case optionPath:
		return unsupportedf("option path: the filesystem catalog places tables itself")
	}
	if value == nil && (key == spec.OptionBucket || key == spec.OptionFileFormat) {
		return unsupportedf("cannot remove option %s: lakesql keeps it explicit", key)
	}
	if current, ok := a.old.Options[key]; ok && value != nil && *value == current {
		return nil
	}
	hasData, err := a.hasSnapshots()
	if err != nil || !hasData {
		return err
	}
	return checkOptionChangeWithData(a.old.Options, key, value)
}

// checkOptionChangeWithData applies the rules for tables with snapshots.
func checkOptionChangeWithData(old map[string]string, key string, value *string) error {
	switch {
	case slices.Contains(immutableOptions, key):
		return unsupportedf("option %s cannot change once the table has snapshots", key)
	case key == spec.OptionBucket:
		return unsupportedf("changing bucket of a table with snapshots needs a rescale, which lakesql lacks")
	case value == nil:
		return nil
	case key == spec.OptionDeletionVectorsEnabled && !javaBool(old[optionDeletionVectorsModifiable]) &&
		javaBool(old[key]) != javaBool(*value):
		return unsupportedf("changing %s of a table with snapshots can duplicate rows unless %s = true",
			key, optionDeletionVectorsModifiable)
	case key == spec.OptionIgnoreDelete && javaBool(old[key]) && !javaBool(*value):
		return unsupportedf("option %s cannot change from true to false", key)
	}
	return nil
}

// javaBool parses like Java's Boolean.parseBoolean: anything but "true" in
// some case is false.
func javaBool(s string) bool { return strings.EqualFold(s, "true") }

// Suffixes of per-field options whose value, not only whose key, lists
// columns (the partial-update sequence groups and nested-key).
var listValuedFieldOptions = []string{"sequence-group", "nested-key"}

// renameColumnInOptions renames a column where options name it, as Java's
// SchemaManager.applyRenameColumnsToOptions does: in bucket-key and
// sequence.field, in the keys of per-field options "fields.<names>.<suffix>",
// and in the values of sequence groups and nested keys.
func renameColumnInOptions(options map[string]string, from, to string) {
	for _, key := range []string{spec.OptionBucketKey, spec.OptionSequenceField} {
		if v, ok := options[key]; ok && strings.TrimSpace(v) != "" {
			options[key] = renameInCommaList(v, from, to)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(options)) {
		rest, ok := strings.CutPrefix(key, fieldsOptionPrefix)
		dot := strings.LastIndex(rest, ".")
		if !ok || dot < 0 {
			continue
		}
		names, suffix := rest[:dot], rest[dot+1:]
		value := options[key]
		if slices.Contains(listValuedFieldOptions, suffix) {
			value = renameInCommaList(value, from, to)
		}
		delete(options, key)
		options[fieldsOptionPrefix+renameInCommaList(names, from, to)+"."+suffix] = value
	}
}

func renameInCommaList(list, from, to string) string {
	return strings.Join(renameInList(strings.Split(list, ","), from, to), ",")
}

// renameInList replaces exact occurrences of from; names are not trimmed,
// as Java does not trim them.
func renameInList(names []string, from, to string) []string {
	out := slices.Clone(names)
	for i, name := range out {
		if name == from {
			out[i] = to
		}
	}
	return out
}
