package commit

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/ids"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// Options configures a Committer. Every source of nondeterminism a commit
// has is here, so that a test replays a commit exactly. The functions are
// called from whichever goroutine runs the group's batch (see doc.go), one
// call at a time per Committer; functions shared by several Committers
// must be safe for concurrent use.
type Options struct {
	// FileIO reaches the table; its PutIfAbsent is the commit point.
	FileIO fileio.FileIO
	// TableDir is the table directory; Branch names the branch ("" is main).
	TableDir string
	Branch   string
	// Core holds the table options. Read: commit.max-retries,
	// commit.timeout, commit.min-retry-wait, commit.max-retry-wait,
	// manifest.target-file-size, manifest.merge-min-count,
	// manifest.format, manifest.compression and dynamic-partition-overwrite.
	Core spec.CoreOptions
	// Now stamps snapshots and measures commit.timeout. Default time.Now.
	Now func() time.Time
	// NewUUID names the metadata files of each Commit call and each
	// snapshot attempt. Default: random version-4 UUIDs.
	NewUUID func() string
	// Rand draws the retry jitter. Default: seeded from crypto/rand.
	Rand *mathrand.Rand
	// Sleep waits between attempts, returning early with the context's
	// error. Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Leases hands out the write lease each Commit call holds from before
	// it writes its first file until it returns (see package lease).
	// Default: lease.Default(), shared with the process's writers. A
	// Commit whose lease, or the lease of a message's writer, was lost
	// publishes nothing and fails with lease.ErrExpired.
	Leases *lease.Registry
}

// Committer publishes snapshots of one branch of one table. Mirrors
// org.apache.paimon.operation.FileStoreCommitImpl with
// RenamingSnapshotCommit, replacing the rename under a lock by
// FileIO.PutIfAbsent.
//
// A Committer runs one Commit at a time. It remembers the snapshots it
// published, per commit user, to detect a second live writer committing
// under the same user (SharedUserError). The Committers of one process on
// one table publish through one group (see doc.go, Group commit).
type Committer struct {
	io        fileio.FileIO
	snapshots *snapshot.Manager
	schemas   *schema.Manager
	manifests *manifest.Reader
	group     *group
	// decoded is the group's cache of manifests and manifest lists,
	// across Commit calls: they are immutable, and without it every
	// commit decoded every manifest of the table again, a cost growing
	// with the table. Only what was read from storage or decoded from
	// the bytes a commit wrote goes in, never what a commit wrote from
	// its request, which the caller owns.
	decoded    *scan.ManifestCache
	receiptDir string
	tableDir   string
	cfg        settings
	now        func() time.Time
	newUUID    func() string
	rand       *mathrand.Rand
	sleep      func(ctx context.Context, d time.Duration) error
	leases     leaseSource
	// statsSchemas caches, by statistics file name, the schema id the
	// file was computed on (noStatsSchema when it cannot be read as
	// statistics): the files never change, and every commit of a table
	// with statistics asks (inheritedStatistics).
	statsSchemas sync.Map

	mu sync.Mutex
	// horizon is the latest snapshot id when this Committer first read the
	// table (-1 before): snapshots up to it predate this writer, so a
	// snapshot of its user there is an earlier run of it, not a rival.
	horizon int64
	// lastPublished is, per commit user, the newest snapshot this
	// Committer published (or found its own attempt had landed as).
	lastPublished map[string]int64
	// pending holds, by uuid, the snapshots this Committer tried to publish
	// whose put did not clearly fail: one of them found in the table later
	// is its own, not a rival's.
	pending map[string]pendingPut
}

// pendingPut is a snapshot put whose outcome is not settled.
type pendingPut struct {
	user string
	id   int64
}

// settings are the table options a commit reads, parsed once.
type settings struct {
	maxRetries         int
	timeout            time.Duration
	timeoutLimited     bool
	minWait, maxWait   time.Duration
	manifestTargetSize int64
	mergeMinCount      int
	dynamicOverwrite   bool
	// manifestFormat is the format of the manifests, manifest lists and
	// index manifests a commit writes (manifest.format).
	manifestFormat manifest.Format
}

// decodedCacheEntries bounds a group's decoded cache, in manifest entries
// (a few hundred bytes each): a quarter of a scan planner's cache, since a
// process may commit to many tables.
const decodedCacheEntries = scan.DefaultCacheEntries / 4

// optionManifestCompression is CoreOptions.MANIFEST_COMPRESSION.
const optionManifestCompression = "manifest.compression"

// New returns a Committer, or an error if an option is invalid.
func New(opts Options) (*Committer, error) {
	if opts.FileIO == nil {
		return nil, errors.New("commit: Options.FileIO is nil")
	}
	cfg, err := parseSettings(opts.Core)
	if err != nil {
		return nil, err
	}
	withDefaults(&opts)
	snapshots := snapshot.NewManager(opts.FileIO, opts.TableDir, opts.Branch)
	g := groupFor(opts.FileIO, snapshots.BranchDir())
	return &Committer{
		io:            opts.FileIO,
		snapshots:     snapshots,
		schemas:       schema.NewManager(opts.FileIO, opts.TableDir, opts.Branch),
		manifests:     manifest.NewReader(opts.FileIO, opts.TableDir),
		group:         g,
		decoded:       g.decoded,
		receiptDir:    path.Join(snapshots.BranchDir(), "commit-user"),
		tableDir:      opts.TableDir,
		cfg:           cfg,
		now:           opts.Now,
		newUUID:       opts.NewUUID,
		rand:          opts.Rand,
		sleep:         opts.Sleep,
		leases:        newLeaseSource(opts),
		horizon:       -1,
		lastPublished: map[string]int64{},
		pending:       map[string]pendingPut{},
	}, nil
}

func parseSettings(o spec.CoreOptions) (settings, error) {
	var s settings
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	var err error
	s.maxRetries, err = o.CommitMaxRetries()
	keep(err)
	s.timeout, s.timeoutLimited, err = o.CommitTimeout()
	keep(err)
	s.minWait, err = o.CommitMinRetryWait()
	keep(err)
	s.maxWait, err = o.CommitMaxRetryWait()
	keep(err)
	s.manifestTargetSize, err = o.ManifestTargetFileSize()
	keep(err)
	s.mergeMinCount, err = o.ManifestMergeMinCount()
	keep(err)
	s.dynamicOverwrite, err = o.DynamicPartitionOverwrite()
	keep(err)
	s.manifestFormat, err = manifest.FormatOf(o)
	keep(err)
	keep(checkManifestCompression(o))
	if err := errors.Join(errs...); err != nil {
		return settings{}, fmt.Errorf("commit: %w", err)
	}
	return s, nil
}

// checkManifestCompression accepts only the codec the manifest encoder
// writes (zstd, Java's default since 0.9), so that a table configured
// otherwise is refused rather than silently written with another codec.
func checkManifestCompression(o spec.CoreOptions) error {
	if v, ok := o.Get(optionManifestCompression); ok && !strings.EqualFold(v, "zstd") {
		return fmt.Errorf("%s=%s: only zstd is written: %w", optionManifestCompression, v, lakeerr.ErrUnsupported)
	}
	return nil
}

func withDefaults(o *Options) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.NewUUID == nil {
		o.NewUUID = ids.NewUUID
	}
	if o.Rand == nil {
		var seed [16]byte
		_, _ = rand.Read(seed[:])
		o.Rand = mathrand.New(mathrand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))
	}
	if o.Sleep == nil {
		o.Sleep = sleepContext
	}
}

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// Commit publishes the request: up to two snapshots (see Result), each
// after checking that it landed neither before nor in an earlier attempt,
// and that it does not conflict with the snapshots published since the
// writer planned it.
//
// Errors wrap one class: lakeerr.ErrRetryableConflict (re-plan and re-run
// the statement; see ConflictError and RetryExhaustedError),
// lakeerr.ErrTerminalConflict (see ConflictError and SharedUserError),
// lakeerr.ErrUnknownOutcome (the snapshot may have landed: retry the same
// request, with the same identifier, to find out), ErrInvalidRequest, or an
// I/O error from before the publish, after which the metadata files this
// call wrote have been deleted. With two parts, the data part is published
// (or found landed) before the compact part is attempted; if the compact
// part then fails, the error is a *CompactPartError wrapping its error, and
// the Result lists the snapshot of the data part. A retry of the request
// publishes only the missing part.
func (c *Committer) Commit(ctx context.Context, req Request) (Result, error) {
	if err := validateCommitUser(req.CommitUser); err != nil {
		return Result{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	leases, err := c.holdLeases(ctx, &req)
	if err != nil {
		return Result{}, err
	}
	defer leases.release(ctx)
	table, err := c.loadTable(ctx)
	if err != nil {
		return Result{}, err
	}
	parts, err := planParts(&req, table, c.cfg.dynamicOverwrite)
	if err != nil {
		return Result{}, err
	}
	r := c.newRun(&req, table)
	r.leases = leases
	var res Result
	for i, p := range parts {
		if err := r.commitPart(ctx, p, &res); err != nil {
			if i > 0 && p.kind == spec.CommitKindCompact {
				err = &CompactPartError{Err: err}
			}
			return res, err
		}
	}
	return res, nil
}
