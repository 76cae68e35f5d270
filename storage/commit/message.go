package commit

import (
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/spec"
)

// Message is what one writer changed in one bucket of one partition since
// its last commit: the unit a commit applies. Writers produce messages from
// file metadata they already hold; a commit never re-reads rows.
// Mirrors org.apache.paimon.table.sink.CommitMessageImpl with its
// DataIncrement and CompactIncrement.
type Message struct {
	// Partition is the serialized partition BinaryRow.
	Partition []byte
	Bucket    int32
	// TotalBuckets is the bucket count the files were routed with.
	TotalBuckets int32

	// Data increment: files written by the writer, and files it removed
	// (row-level deletes rewriting whole files).
	NewFiles       []spec.DataFileMeta
	DeletedFiles   []spec.DataFileMeta
	ChangelogFiles []spec.DataFileMeta

	// Compact increment: files a compaction replaced and produced. An
	// upgrade lists the same file in both, at its old and new level.
	CompactBefore    []spec.DataFileMeta
	CompactAfter     []spec.DataFileMeta
	CompactChangelog []spec.DataFileMeta

	// Index increments (deletion vectors) of the data and compact parts.
	NewIndexFiles            []spec.IndexFileMeta
	DeletedIndexFiles        []spec.IndexFileMeta
	CompactNewIndexFiles     []spec.IndexFileMeta
	CompactDeletedIndexFiles []spec.IndexFileMeta

	// ContentDigest is the Digest of the rows of the data increment, the
	// sum of RowDigest of each row the writer wrote into NewFiles; zero
	// when the writer computed none. The commit records the sum over its
	// messages, to tell a retry of the same rows from another commit under
	// the same user and identifier.
	ContentDigest Digest

	// Lease, if set, is the write lease the message's writer holds while
	// its files wait for this commit (see package lease). Commit checks it
	// and publishes nothing once it is lost, since orphan removal may have
	// deleted the files. The writer keeps it until the commit returned.
	Lease *lease.Handle
}

// IsEmpty reports whether the message changes nothing.
func (m *Message) IsEmpty() bool {
	return len(m.NewFiles)+len(m.DeletedFiles)+len(m.ChangelogFiles)+
		len(m.CompactBefore)+len(m.CompactAfter)+len(m.CompactChangelog)+
		len(m.NewIndexFiles)+len(m.DeletedIndexFiles)+
		len(m.CompactNewIndexFiles)+len(m.CompactDeletedIndexFiles) == 0
}
