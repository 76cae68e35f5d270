package maintenance

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// PartitionExpireOptions configures ExpirePartitions.
type PartitionExpireOptions struct {
	// ExpirationTime: partitions whose time is older than now minus it are
	// dropped.
	ExpirationTime time.Duration
	// TimestampFormatter is a java.time DateTimeFormatter pattern such as
	// "yyyyMMdd"; empty means "yyyy-MM-dd[ HH:mm:ss]".
	TimestampFormatter string
	// TimestampPattern builds the time string from several partition keys,
	// e.g. "$dt $hour:00:00"; empty means the first partition value.
	TimestampPattern string
	// MaxExpires caps the partitions one call drops; 0 means 100
	// (partition.expiration-max-num).
	MaxExpires int
	// Now is the clock; its location is the zone partition values are
	// written in (Java uses LocalDateTime.now()). Default time.Now.
	Now func() time.Time
	// CommitUser publishes the drop; default "expire-partitions-<uuid>".
	CommitUser string
	// NewUUID names the commit's files and the default user; default random.
	NewUUID func() string
}

// PartitionExpireResult says what ExpirePartitions did.
type PartitionExpireResult struct {
	// Partitions are the dropped partitions, as "k=v/k2=v2", in Java's
	// order (by their values joined with commas).
	Partitions []string
	// SnapshotID is the OVERWRITE snapshot that dropped them; 0 if nothing
	// expired.
	SnapshotID   int64
	FilesDeleted int
}

// defaultMaxExpires is partition.expiration-max-num's default.
const defaultMaxExpires = 100

// dropAttempts bounds the re-plans after a conflict with a concurrent
// commit that rewrote files of an expiring partition.
const dropAttempts = 3

// ExpirePartitions drops the partitions whose time, read from their values
// (the values-time strategy of Java's PartitionExpire), is older than now
// minus the expiration time. The drop is one OVERWRITE snapshot that
// deletes every live file (and index file) of those partitions, as Java's
// commit.dropPartitions. The deletes name the files of the snapshot the
// drop was planned on: a concurrent compaction of an expiring partition
// makes the commit conflict, and the drop is planned again; rows appended
// to it meanwhile stay, and the next run drops them.
//
// Partitions whose time cannot be read, or that hold a null value, never
// expire, as in Java. Unlike Java, a DATE partition value reads as
// yyyy-MM-dd (Java reads it as a day count, which no formatter parses).
func ExpirePartitions(ctx context.Context, fio fileio.FileIO, tableDir string, opts PartitionExpireOptions) (PartitionExpireResult, error) {
	var res PartitionExpireResult
	if opts.ExpirationTime <= 0 || opts.MaxExpires < 0 {
		return res, fmt.Errorf("expire partitions: expiration time %v must be positive and max expires %d not negative: %w",
			opts.ExpirationTime, opts.MaxExpires, ErrInvalidArgument)
	}
	extractor, err := newPartitionTimeExtractor(opts.TimestampPattern, opts.TimestampFormatter)
	if err != nil {
		return res, err
	}
	t, err := openTable(ctx, fio, tableDir)
	if err != nil {
		return res, err
	}
	if len(t.schema.PartitionKeys) == 0 {
		return res, fmt.Errorf("expire partitions of %s: %w", tableDir, ErrNotPartitioned)
	}
	now := nowOrDefault(opts.Now)()
	user := opts.CommitUser
	if user == "" && opts.NewUUID != nil {
		user = "expire-partitions-" + opts.NewUUID()
	} else if user == "" {
		user = "expire-partitions-" + strings.ToLower(rand.Text())
	}
	c, err := commit.New(commit.Options{FileIO: fio, TableDir: tableDir, Core: t.core, Now: opts.Now, NewUUID: opts.NewUUID})
	if err != nil {
		return res, err
	}
	sel := partitionSelection{
		keys:         t.schema.PartitionKeys,
		extractor:    extractor,
		expireBefore: wallClock(now, now.Location()).Add(-opts.ExpirationTime),
		maxExpires:   cmp.Or(opts.MaxExpires, defaultMaxExpires),
	}
	for attempt := 1; ; attempt++ {
		res, err = dropExpired(ctx, t, c, user, sel)
		var conflict *commit.ConflictError
		if err == nil || !errors.As(err, &conflict) || !conflict.Retryable() || attempt == dropAttempts {
			return res, err
		}
	}
}

// dropExpired plans the drop on the latest snapshot and commits it.
func dropExpired(ctx context.Context, t *tableCtx, c *commit.Committer, user string, sel partitionSelection) (PartitionExpireResult, error) {
	var res PartitionExpireResult
	latest, err := t.snapshots.Latest(ctx)
	if err != nil || latest == nil {
		return res, err
	}
	live, err := t.manifests.LiveEntries(ctx, latest)
	if err != nil {
		return res, err
	}
	parts, err := livePartitions(t.schema, live)
	if err != nil {
		return res, err
	}
	expired := sel.expired(parts)
	if len(expired) == 0 {
		return res, nil
	}
	var index []spec.IndexManifestEntry
	if latest.IndexManifest != nil {
		if index, err = t.manifests.IndexEntries(ctx, *latest.IndexManifest); err != nil {
			return res, err
		}
	}
	drop := map[string]bool{}
	for _, p := range expired {
		drop[string(p.serialized)] = true
		res.Partitions = append(res.Partitions, p.String(sel.keys))
	}
	msgs := dropMessages(live, index, drop)
	for _, m := range msgs {
		res.FilesDeleted += len(m.DeletedFiles)
	}
	out, err := c.Commit(ctx, commit.Request{CommitUser: user, Identifier: spec.BatchCommitIdentifier, Messages: msgs})
	if err != nil {
		return PartitionExpireResult{}, err
	}
	if len(out.Snapshots) > 0 {
		res.SnapshotID = out.Snapshots[0]
	}
	return res, nil
}

// partitionValues is one live partition: its serialized row and its values
// as Java's PartitionExpireStrategy renders them.
type partitionValues struct {
	serialized []byte
	values     []string
	hasNull    bool
}

func (p partitionValues) String(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + p.values[i]
	}
	return strings.Join(parts, "/")
}

// livePartitions returns the distinct partitions of the live entries.
func livePartitions(s *spec.TableSchema, live []spec.ManifestEntry) ([]partitionValues, error) {
	types, err := s.PartitionTypes()
	if err != nil {
		return nil, err
	}
	defaultName := s.CoreOptions().PartitionDefaultName()
	seen := map[string]bool{}
	var out []partitionValues
	for i := range live {
		key := string(live[i].Partition)
		if seen[key] {
			continue
		}
		seen[key] = true
		values, err := spec.DeserializeBinaryRow(types, live[i].Partition)
		if err != nil {
			return nil, err
		}
		p := partitionValues{serialized: live[i].Partition, values: make([]string, len(values))}
		for j, v := range values {
			p.values[j], p.hasNull = partitionValueString(v, defaultName), p.hasNull || v == nil
		}
		out = append(out, p)
	}
	return out, nil
}

func partitionValueString(v any, defaultName string) string {
	switch v := v.(type) {
	case nil:
		return defaultName
	case spec.TimestampValue:
		return v.Time().Format("2006-01-02 15:04:05.999999999")
	case []byte:
		return string(v)
	}
	return fmt.Sprint(v)
}

// partitionSelection decides which partitions expire.
type partitionSelection struct {
	keys      []string
	extractor *partitionTimeExtractor
	// expireBefore is a wall-clock reading stored as UTC.
	expireBefore time.Time
	maxExpires   int
}

// expired returns the partitions whose time is before expireBefore, in
// Java's order (values joined with commas), at most maxExpires of them.
func (s partitionSelection) expired(parts []partitionValues) []partitionValues {
	var out []partitionValues
	for _, p := range parts {
		if p.hasNull {
			continue
		}
		t, err := s.extractor.extract(s.keys, p.values)
		if err == nil && s.expireBefore.After(t) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b partitionValues) int {
		return strings.Compare(strings.Join(a.values, ","), strings.Join(b.values, ","))
	})
	return out[:min(len(out), s.maxExpires)]
}

// dropMessages builds one commit message per bucket of the dropped
// partitions, deleting its live files and index files.
func dropMessages(live []spec.ManifestEntry, index []spec.IndexManifestEntry, drop map[string]bool) []commit.Message {
	type bucket struct {
		partition string
		bucket    int32
	}
	byBucket := map[bucket]*commit.Message{}
	var order []bucket
	message := func(partition []byte, b int32, total int32) *commit.Message {
		key := bucket{string(partition), b}
		if m, ok := byBucket[key]; ok {
			return m
		}
		m := &commit.Message{Partition: partition, Bucket: b, TotalBuckets: total}
		byBucket[key] = m
		order = append(order, key)
		return m
	}
	for _, e := range live {
		if drop[string(e.Partition)] {
			m := message(e.Partition, e.Bucket, e.TotalBuckets)
			m.DeletedFiles = append(m.DeletedFiles, e.File)
		}
	}
	totals := map[string]int32{}
	for _, e := range live {
		totals[string(e.Partition)] = e.TotalBuckets
	}
	for _, e := range index {
		if drop[string(e.Partition)] {
			m := message(e.Partition, e.Bucket, totals[string(e.Partition)])
			m.DeletedIndexFiles = append(m.DeletedIndexFiles, e.IndexFile)
		}
	}
	msgs := make([]commit.Message, len(order))
	for i, key := range order {
		msgs[i] = *byBucket[key]
	}
	return msgs
}
