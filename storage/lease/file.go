package lease

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

const (
	// DefaultTTL is how long a lease lives without renewal unless the
	// Registry is configured otherwise.
	DefaultTTL = time.Hour
	// ClockSlack widens a lease's protection to files modified up to this
	// long before its start: S3 reports modification times in whole
	// seconds, and its servers' clocks differ by a little.
	ClockSlack = 2 * time.Second
	// fileVersion is the version of the lease file format this package
	// writes and reads.
	fileVersion = 1
)

// Dir is the directory of the leases of the table at tableDir.
func Dir(tableDir string) string { return path.Join(tableDir, "_lakesql", "leases") }

// Lease is one lease file as orphan removal sees it.
type Lease struct {
	Path string
	// Owner describes the process holding it.
	Owner string
	// Start is the lease's protection start (see Covers). It is the zero
	// time, which covers every file, when the file cannot be read as a
	// lease: orphan removal then keeps everything until the lease is
	// stale.
	Start time.Time
	// Renewed is the file's modification time: when its holder last
	// showed it was alive.
	Renewed time.Time
	// TTL is how long the lease lives without renewal.
	TTL time.Duration
}

// Stale reports whether the lease's holder has not renewed it for longer
// than its TTL at now: it is dead or stalled, and no longer protects
// anything.
func (l Lease) Stale(now time.Time) bool { return now.Sub(l.Renewed) > l.TTL }

// Covers reports whether a file last modified at modTime may belong to a
// holder of the lease.
func (l Lease) Covers(modTime time.Time) bool { return !modTime.Before(l.Start.Add(-ClockSlack)) }

// content is the JSON of a lease file.
type content struct {
	Version int    `json:"version"`
	Owner   string `json:"owner"`
	TTLMs   int64  `json:"ttl-ms"`
	// Start is omitted until the first renewal (see the package doc).
	Start *time.Time `json:"start,omitempty"`
}

func encode(owner string, ttl time.Duration, start time.Time) []byte {
	c := content{Version: fileVersion, Owner: owner, TTLMs: ttl.Milliseconds()}
	if !start.IsZero() {
		c.Start = &start
	}
	data, err := json.Marshal(c)
	if err != nil {
		panic(fmt.Sprintf("lease: encoding %+v: %v", c, err)) // plain strings and numbers always encode
	}
	return data
}

func decode(data []byte) (content, error) {
	var c content
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%w: %w", lakeerr.ErrCorruption, err)
	}
	if c.Version != fileVersion {
		return c, fmt.Errorf("lease file version %d: %w", c.Version, lakeerr.ErrUnsupported)
	}
	if c.TTLMs <= 0 {
		return c, fmt.Errorf("%w: lease TTL %d ms", lakeerr.ErrCorruption, c.TTLMs)
	}
	return c, nil
}

// List returns the leases of the table at tableDir, stale or not. A lease
// released while List reads it is left out: a holder releases its lease
// only after its commit published its files or it deleted them.
func List(ctx context.Context, fio fileio.FileIO, tableDir string) ([]Lease, error) {
	infos, err := fio.List(ctx, Dir(tableDir))
	if err != nil {
		return nil, fmt.Errorf("list leases: %w", err)
	}
	var out []Lease
	for _, fi := range infos {
		if fi.IsDir || fileio.IsTempName(fi.Path) {
			continue
		}
		data, err := fio.ReadFile(ctx, fi.Path)
		if errors.Is(err, fileio.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read lease: %w", err)
		}
		out = append(out, leaseOf(fi, data))
	}
	return out, nil
}

// leaseOf interprets a lease file listed as fi. One that cannot be read as
// a lease covers everything until it is stale by the default TTL.
func leaseOf(fi fileio.FileInfo, data []byte) Lease {
	l := Lease{Path: fi.Path, Renewed: fi.ModTime, TTL: DefaultTTL}
	c, err := decode(data)
	if err != nil {
		l.Owner = fmt.Sprintf("unreadable lease file (%v)", err)
		return l
	}
	l.Owner, l.TTL, l.Start = c.Owner, time.Duration(c.TTLMs)*time.Millisecond, fi.ModTime
	if c.Start != nil {
		l.Start = *c.Start
	}
	return l
}
