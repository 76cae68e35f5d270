package fileio

import (
	"path/filepath"
	"strings"
)

// IsTempName reports whether the last element of name is a temp file name:
// ".<target>.<random>.tmp", the scaffolding an atomic write stages before
// publishing the target. It is the pattern of Java Paimon's
// org.apache.paimon.fs.Path#createTempPath and of localio, so files left
// behind by a crashed writer of either kind are recognised.
//
// List returns temp files like any other file, because they are really
// there; callers that look for table files skip names IsTempName accepts.
func IsTempName(name string) bool {
	base := filepath.Base(name)
	return len(base) > len(".tmp") && strings.HasPrefix(base, ".") && strings.HasSuffix(base, ".tmp")
}
