package tablelock

import (
	"path"
	"strconv"
	"strings"
)

// Java's layout of a table directory (org.apache.paimon.utils.SnapshotManager,
// SchemaManager, BranchManager): <table>/snapshot/snapshot-<id>,
// <table>/schema/schema-<id>, and the same below
// <table>/branch/branch-<name>/ for a branch.
const (
	databaseSuffix  = ".db"
	branchDir       = "branch"
	branchPrefix    = "branch-"
	snapshotDir     = "snapshot"
	snapshotPrefix  = "snapshot-"
	schemaDir       = "schema"
	schemaPrefix    = "schema-"
	branchSeparator = "$branch_"
)

// Target is the table whose lock a put must hold, named as Java's
// Lock.fromCatalog names it: the database, and the object name, which for
// a branch is "<table>$branch_<name>" (Identifier.getObjectName).
type Target struct {
	Database string
	Object   string
}

// PublishTarget reports whether a put of file publishes a snapshot or a
// schema of a table of the warehouse at root, and which table's lock it
// then needs. Every other file (data, manifests, hints, tags) is written
// without the lock, as Java writes it.
func PublishTarget(root, file string) (Target, bool) {
	rel, ok := relativeTo(cleanPath(root), cleanPath(file))
	if !ok {
		return Target{}, false
	}
	parts := strings.Split(rel, "/")
	if len(parts) < 4 {
		return Target{}, false
	}
	db, isDatabase := strings.CutSuffix(parts[0], databaseSuffix)
	if !isDatabase || db == "" {
		return Target{}, false
	}
	object, ok := publishedObject(parts[1], parts[2:])
	if !ok {
		return Target{}, false
	}
	return Target{Database: db, Object: object}, true
}

// publishedObject names the object of table whose directory holds rest,
// if rest is a snapshot or schema file of the table or one of its
// branches.
func publishedObject(table string, rest []string) (string, bool) {
	if len(rest) == 4 && rest[0] == branchDir {
		branch, ok := strings.CutPrefix(rest[1], branchPrefix)
		if !ok || branch == "" || !isPublishedFile(rest[2], rest[3]) {
			return "", false
		}
		return table + branchSeparator + branch, true
	}
	if len(rest) == 2 && isPublishedFile(rest[0], rest[1]) {
		return table, true
	}
	return "", false
}

func isPublishedFile(dir, name string) bool {
	switch dir {
	case snapshotDir:
		return hasIDSuffix(name, snapshotPrefix)
	case schemaDir:
		return hasIDSuffix(name, schemaPrefix)
	}
	return false
}

func hasIDSuffix(name, prefix string) bool {
	id, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	_, err := strconv.ParseInt(id, 10, 64)
	return err == nil
}

// cleanPath cleans the path part of a local path or a URI
// ("s3://bucket/wh"), so that "./wh/x" and "wh/x" compare equal.
func cleanPath(p string) string {
	if scheme, rest, ok := strings.Cut(p, "://"); ok {
		return scheme + "://" + path.Clean("/" + rest)[1:]
	}
	return path.Clean(p)
}

func relativeTo(root, file string) (string, bool) {
	if root == "." {
		return file, !strings.HasPrefix(file, "/") && !strings.HasPrefix(file, "../")
	}
	return strings.CutPrefix(file, strings.TrimSuffix(root, "/")+"/")
}
