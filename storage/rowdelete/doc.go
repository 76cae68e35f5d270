// Package rowdelete deletes single rows of append tables, which have no
// primary key a deletion could name.
//
// A statement selects the rows it deletes by position: Find reads the
// live rows of a pinned plan's files with their positions and keeps those
// a caller's match accepts (the SQL layer matches the row values its
// DELETE or UPDATE read). Apply then removes them in one of two ways:
//
//   - With deletion vectors, when the table has deletion-vectors.enabled:
//     each touched file's vector gains the positions, and every vector of
//     the bucket is written into one new index file that replaces the
//     bucket's old ones. Java's maintainers do the same: the bucketed one
//     rewrites the bucket's single file (BucketedDvMaintainer), the
//     unaware-bucket one the files it touched (AppendDeleteFileMaintainer,
//     whose bucket is 0 as the data files' is).
//   - Otherwise by copy-on-write, as Spark's DELETE on such a table does:
//     each touched file is rewritten without the rows, and the commit
//     deletes it and adds the rewrite.
//
// Either way the commit names the files and index files it replaced, so a
// concurrent compaction or deletion of the same files fails it with a
// conflict (package commit), and Java commits such a change as OVERWRITE.
//
// Reference: Apache Paimon paimon-core
// org.apache.paimon.deletionvectors.append and paimon-spark's
// DeleteFromPaimonTableCommand.
package rowdelete
