package snapshot

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// expiryIntentPrefix names the intent files snapshot expiry leaves in
// snapshot/ while it runs, .expiring-<end>: the snapshots below end are
// being deleted, data files first and snapshot files last, so a snapshot
// file can outlive the files it names for a while. lakesql's own
// convention; Java lists snapshot-* only and ignores them.
const expiryIntentPrefix = ".expiring-"

// ExpiryIntentPath is the path of the intent an expiry of the snapshots
// below end records before it deletes anything.
func (m *Manager) ExpiryIntentPath(end int64) string {
	return path.Join(m.snapshotDir(), expiryIntentPrefix+strconv.FormatInt(end, 10))
}

// ExpiryIntents returns the ends the branch's expiry intents announce: of
// expiries running now, and of ones that crashed before a later run
// finished past them.
func (m *Manager) ExpiryIntents(ctx context.Context) ([]int64, error) {
	infos, err := m.io.List(ctx, m.snapshotDir())
	if err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	var ends []int64
	for _, fi := range infos {
		digits, ok := strings.CutPrefix(path.Base(fi.Path), expiryIntentPrefix)
		if end, err := strconv.ParseInt(digits, 10, 64); ok && err == nil && !fi.IsDir {
			ends = append(ends, end)
		}
	}
	return ends, nil
}
