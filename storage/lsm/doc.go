// Package lsm is the merge-on-read core of primary-key tables: merge engines,
// the sorted-run merge, interval partitioning and the level layout of a
// bucket. It is pure: it works on in-memory records and file descriptions and
// performs no I/O, so the readers and the compactor above it decide where
// records come from.
//
// # Records and ordering
//
// A bucket's data files hold KeyValue records. Every file is sorted by key and
// holds each key once; level-0 files may overlap each other, files of one
// level >= 1 do not. Reading a bucket merges sorted runs (each level-0 file is
// a run of its own, each level >= 1 is one run) and orders the records of one
// key by
//
//  1. the user sequence fields (`sequence.field`, in `sequence.field.sort-order`;
//     a null sorts first in both orders, as Paimon's generated comparator does),
//  2. the sequence number,
//  3. the row kind: a retraction before an addition with the same sequence number.
//
// The records of one key then go, in that order, through the table's
// MergeFunction (the `merge-engine` option); merged records whose kind is -U
// or -D are dropped unless the caller keeps them for compaction.
//
// # Comparators
//
// Key order and value order are injected (RowComparator, ValueComparator), so
// this package does not decide how a DECIMAL or a string compares; pass the
// storage-wide comparator from package spec.
//
// Reference: Apache Paimon, paimon-core org.apache.paimon.mergetree and
// org.apache.paimon.mergetree.compact, read at commit 5dacde516bf6 (2026-08).
package lsm
