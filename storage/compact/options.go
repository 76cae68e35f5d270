package compact

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/ids"
	"github.com/lakesql/lakesql/storage/lease"
)

// Mode says how much a compaction rewrites.
type Mode int

const (
	// Minor lets the picker decide per bucket: nothing unless a rule of the
	// universal picker (or the append small-file rules) fires. This is what
	// a writer's own compaction does after a flush.
	Minor Mode = iota
	// Full merges every bucket into one sorted run on the highest level,
	// dropping retractions.
	Full
)

func (m Mode) String() string {
	if m == Full {
		return "full"
	}
	return "minor"
}

// ParseMode reads "minor" or "full", as CALL sys.compact takes them.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "minor":
		return Minor, nil
	case "full":
		return Full, nil
	}
	return 0, fmt.Errorf("compact: unknown compaction mode %q (want minor or full)", s)
}

// Options configures one compaction of one table.
type Options struct {
	// FileIO reaches the table.
	FileIO fileio.FileIO
	// TableDir is the table directory; Branch names the branch ("" is main).
	TableDir string
	Branch   string
	Mode     Mode
	// DynamicOptions are table options for this compaction only, over the
	// table's own, as the options argument of Java's compact procedure:
	// compaction.force-rewrite-all-files = true rewrites every file once.
	DynamicOptions map[string]string
	// Partitions restricts the compaction to partitions matching any of
	// the specs; each spec maps partition keys to values as they appear in
	// partition directory names, and may name only some keys. nil compacts
	// every partition. See ParsePartitions.
	Partitions []map[string]string
	// Identity is the commit user and identifier sequence the compaction
	// commits with; nil takes a fresh user "lakesql-compact-<uuid>". A
	// service that compacts repeatedly should keep one Identity.
	Identity *Identity
	// MaxAttempts bounds the plans a compaction makes when its commit loses
	// to a concurrent one (default 3).
	MaxAttempts int
	// Parallelism is how many buckets are rewritten at once (default 2).
	// Each holds up to target-file-size of encoded output in memory.
	Parallelism int
	// Logf receives progress and re-plan messages; nil discards them.
	Logf func(format string, args ...any)
	// ProgressInterval is the least time between two progress messages of
	// one compaction (default 10 s); the last one is always logged.
	ProgressInterval time.Duration
	// Now stamps files and snapshots and times progress messages; NewUUID
	// names files, metadata and the default commit user. Defaults: time.Now
	// and random version-4 UUIDs.
	Now     func() time.Time
	NewUUID func() string
	// Leases hands out the write lease Table holds while it runs, and its
	// commits hold while they commit (see package lease). Default:
	// lease.Default(). An inline compaction writes under its
	// TableWriter's lease.
	Leases *lease.Registry

	// hooks let tests commit concurrently at chosen points of an attempt.
	hooks testHooks
}

// testHooks run, when set, between the steps of each attempt.
type testHooks struct {
	beforeRewrite func(attempt int)
	beforeCommit  func(attempt int)
}

const (
	defaultMaxAttempts      = 3
	defaultParallelism      = 2
	defaultProgressInterval = 10 * time.Second
	commitUserPrefix        = "lakesql-compact-"
)

// Identity is a commit user with its increasing commit identifiers. The
// committer takes an identifier it has already seen for the user as landed,
// so identifiers must never repeat: one Identity hands them out. It is safe
// for concurrent use.
type Identity struct {
	user string
	mu   sync.Mutex
	last int64
}

// NewIdentity returns the identity of a commit user, numbering its commits
// from 1. The user must not commit through any other Identity.
func NewIdentity(user string) *Identity { return &Identity{user: user} }

// NewCompactionIdentity returns a fresh identity named
// "lakesql-compact-<uuid>", the uuid from newUUID (nil: a random one).
func NewCompactionIdentity(newUUID func() string) *Identity {
	if newUUID == nil {
		newUUID = ids.NewUUID
	}
	return NewIdentity(commitUserPrefix + newUUID())
}

// User is the commit user.
func (id *Identity) User() string { return id.user }

func (id *Identity) next() int64 {
	id.mu.Lock()
	defer id.mu.Unlock()
	id.last++
	return id.last
}
