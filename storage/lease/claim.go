package lease

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Commit-user claims keep two live writers from committing to one table
// under one commit user with identifiers they pick themselves (a clock,
// a counter): idempotent retries tell commits apart by (user,
// identifier), so such writers collide, and Paimon drops the second
// writer's rows as already committed. A writer holding a claim on (table,
// user) is the only one that may pick identifiers for that user; a second
// one is refused at its first write, before it commits anything.
//
// A claim is a small file <table>/_lakesql/claims/<user> naming its holder.
// It lives while its holder renews it, rewriting it at a write when it is
// older than a third of its TTL; one older than its TTL is stale, and the
// next claimant takes it over. Like leases, age is measured from the
// modification time the storage gave the file, on the claimant's clock.
// Two claimants taking over one stale claim at the same moment may both
// believe they hold it; the commit's content digest (storage/commit) is
// the guard behind this one.

// ClaimTTL is how long a claim lives without renewal by default: a writer
// idle for longer loses its claim, and must claim the user again.
const ClaimTTL = time.Minute

// claimVersion is the version of the claim file format.
const claimVersion = 1

// ClaimsDir is the directory of the commit-user claims of a table.
func ClaimsDir(tableDir string) string { return path.Join(tableDir, "_lakesql", "claims") }

// ClaimPath is the claim file of user on the table; the user is escaped,
// so any commit user names one file.
func ClaimPath(tableDir, user string) string {
	return path.Join(ClaimsDir(tableDir), url.PathEscape(user))
}

// Claimant is one writer claiming commit users: a server session, say.
type Claimant struct {
	// Holder identifies the claimant; unique per claimant (a uuid).
	Holder string
	// Owner describes it to whoever is refused, e.g. "connection 7 of
	// lakesql pid 1234 on host-a".
	Owner string
	// TTL is how long its claims live without renewal; ClaimTTL if zero.
	TTL time.Duration
	// Now is its clock; time.Now if nil.
	Now func() time.Time
}

// ClaimedError refuses a claim that another live claimant holds.
type ClaimedError struct {
	User, TableDir string
	// Owner describes the holder; Renewed, when known, is when it last
	// renewed its claim.
	Owner   string
	Renewed time.Time
}

// Unwrap returns the class: terminal, since retrying does not help while
// the other writer lives.
func (e *ClaimedError) Unwrap() error { return lakeerr.ErrTerminalConflict }

func (e *ClaimedError) Error() string {
	holder := e.Owner
	if !e.Renewed.IsZero() {
		holder += ", active at " + e.Renewed.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("%s: commit user %s of table %s is in use by another live writer (%s): "+
		"two writers under one commit user without explicit identifiers would take each other's commits for their own; "+
		"give each writer its own commit user, or set explicit commit identifiers",
		lakeerr.ErrTerminalConflict, e.User, e.TableDir, holder)
}

// claimFile is the JSON of a claim file.
type claimFile struct {
	Version int    `json:"version"`
	Holder  string `json:"holder"`
	Owner   string `json:"owner"`
	TTLMs   int64  `json:"ttl-ms"`
}

// claimAction is what a claimant does about a claim file it read.
type claimAction int

const (
	claimCreate   claimAction = iota // no claim: create one
	claimKeep                        // its own, fresh: nothing to do
	claimRenew                       // its own, aging: rewrite it
	claimTakeOver                    // another's, stale: overwrite it
	claimRefuse                      // another's, live: refuse
)

// decideClaim decides, for the claimant holder with ttl at now, on the
// claim file found (nil if none) last modified at modTime. A claim file
// that does not decode is stale by the claimant's TTL.
func decideClaim(found *claimFile, modTime, now time.Time, holder string, ttl time.Duration) claimAction {
	if found == nil {
		return claimCreate
	}
	age := now.Sub(modTime)
	if found.Holder == holder {
		if age > ttl/3 {
			return claimRenew
		}
		return claimKeep
	}
	if found.TTLMs > 0 {
		ttl = time.Duration(found.TTLMs) * time.Millisecond
	}
	if age > ttl {
		return claimTakeOver
	}
	return claimRefuse
}

func (c Claimant) ttl() time.Duration {
	if c.TTL > 0 {
		return c.TTL
	}
	return ClaimTTL
}

func (c Claimant) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Claim makes c the holder of user's claim on the table, renewing it if c
// holds it already, or returns a *ClaimedError naming the live holder.
func (c Claimant) Claim(ctx context.Context, fio fileio.FileIO, tableDir, user string) error {
	p := ClaimPath(tableDir, user)
	data := c.encode()
	for attempt := 0; ; attempt++ {
		found, fi, err := readClaim(ctx, fio, p)
		if err != nil {
			return err
		}
		switch decideClaim(found, fi.ModTime, c.now(), c.Holder, c.ttl()) {
		case claimKeep:
			return nil
		case claimRefuse:
			return &ClaimedError{User: user, TableDir: tableDir, Owner: found.Owner, Renewed: fi.ModTime}
		case claimCreate:
			err = fio.PutIfAbsent(ctx, p, data)
			if errors.Is(err, fileio.ErrExist) && attempt == 0 {
				continue // created meanwhile: decide on it
			}
		case claimRenew:
			err = fio.Overwrite(ctx, p, data)
		case claimTakeOver:
			if err = fio.Overwrite(ctx, p, data); err == nil {
				return c.confirm(ctx, fio, tableDir, user)
			}
		}
		if err != nil {
			return fmt.Errorf("claim commit user %s: %w", user, err)
		}
		return nil
	}
}

// confirm re-reads a claim taken over, so that of two claimants
// overwriting it at once, the one whose write lost learns it.
func (c Claimant) confirm(ctx context.Context, fio fileio.FileIO, tableDir, user string) error {
	found, fi, err := readClaim(ctx, fio, ClaimPath(tableDir, user))
	if err != nil {
		return err
	}
	if found == nil || found.Holder != c.Holder {
		owner := "a writer that released it"
		if found != nil {
			owner = found.Owner
		}
		return &ClaimedError{User: user, TableDir: tableDir, Owner: owner, Renewed: fi.ModTime}
	}
	return nil
}

// Release deletes c's claim of user, if c holds it.
func (c Claimant) Release(ctx context.Context, fio fileio.FileIO, tableDir, user string) error {
	p := ClaimPath(tableDir, user)
	found, _, err := readClaim(ctx, fio, p)
	if err != nil || found == nil || found.Holder != c.Holder {
		return err
	}
	if err := fio.Delete(ctx, p); err != nil && !errors.Is(err, fileio.ErrNotExist) {
		return fmt.Errorf("release claim of commit user %s: %w", user, err)
	}
	return nil
}

func (c Claimant) encode() []byte {
	data, err := json.Marshal(claimFile{Version: claimVersion, Holder: c.Holder, Owner: c.Owner, TTLMs: c.ttl().Milliseconds()})
	if err != nil {
		panic(fmt.Sprintf("lease: encoding a claim: %v", err)) // plain strings and numbers always encode
	}
	return data
}

// readClaim reads the claim file at p; nil if there is none. A file that
// does not decode is returned as a claim of an unknown holder, which ages
// out by the reader's TTL.
func readClaim(ctx context.Context, fio fileio.FileIO, p string) (*claimFile, fileio.FileInfo, error) {
	fi, err := fio.Stat(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, fi, nil
	}
	if err != nil {
		return nil, fi, fmt.Errorf("read claim %s: %w", p, err)
	}
	data, err := fio.ReadFile(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, fi, nil
	}
	if err != nil {
		return nil, fi, fmt.Errorf("read claim %s: %w", p, err)
	}
	var c claimFile
	if json.Unmarshal(data, &c) != nil || c.Version != claimVersion {
		return &claimFile{Owner: "an unreadable claim file " + p}, fi, nil
	}
	return &c, fi, nil
}
