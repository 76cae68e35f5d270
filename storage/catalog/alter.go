package catalog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// maxAlterAttempts bounds how often AlterTable re-reads the latest schema
// after losing the publish race for schema-(N+1). Each lost race means
// another ALTER landed, so N concurrent alterers need at most N attempts;
// the bound only stops a livelock from spinning forever.
const maxAlterAttempts = 32

// AlterTable applies changes, in order, to the latest schema of a table and
// publishes the result as the next schema version, which it returns. The
// changes are all applied or none is.
//
// The new schema is published with PutIfAbsent. When a concurrent ALTER
// publishes the same schema id first, the changes are re-applied to the
// new latest schema and published again, up to maxAlterAttempts times;
// then the error wraps lakeerr.ErrRetryableConflict. Old schema files are
// never rewritten or deleted: data files name the schema they were
// written with.
//
// Errors wrap ErrTableNotFound, ErrColumnNotFound, ErrColumnExists,
// ErrInvalidDefinition (what Java refuses too) or lakeerr.ErrUnsupported
// (what lakesql refuses). A table lakesql can write stays one it can
// write; a table it cannot write (a Java table with dynamic buckets, say)
// may still evolve.
func (c *Catalog) AlterTable(ctx context.Context, db, table string, changes ...SchemaChange) (*spec.TableSchema, error) {
	dir, err := c.TablePath(db, table)
	if err != nil {
		return nil, err
	}
	s, err := c.alterTable(ctx, dir, changes)
	if err != nil {
		return nil, fmt.Errorf("alter table %s.%s: %w", db, table, err)
	}
	return s, nil
}

func (c *Catalog) alterTable(ctx context.Context, dir string, changes []SchemaChange) (*spec.TableSchema, error) {
	schemas := schema.NewManager(c.io, dir, "")
	for range maxAlterAttempts {
		latest, err := schemas.Latest(ctx)
		if errors.Is(err, lakeerr.ErrNotFound) {
			return nil, ErrTableNotFound
		}
		if err != nil || len(changes) == 0 {
			return latest, err
		}
		next, err := c.applyChanges(ctx, dir, latest, changes)
		if err != nil {
			return nil, err
		}
		data, err := encodeSchema(next)
		if err != nil {
			return nil, err
		}
		err = c.io.PutIfAbsent(ctx, schemas.SchemaPath(next.ID), data)
		if err == nil {
			return next, nil
		}
		if !errors.Is(err, fileio.ErrExist) {
			return nil, fmt.Errorf("publish schema %d: %w", next.ID, err)
		}
	}
	return nil, fmt.Errorf("%w: lost the race for the next schema id %d times to concurrent schema changes",
		lakeerr.ErrRetryableConflict, maxAlterAttempts)
}

// alteration is the state the changes of one AlterTable attempt work on.
type alteration struct {
	// old is the latest schema, shared with the schema cache: read only.
	old *spec.TableSchema
	// next is the schema being built, a deep enough copy of old that
	// changes may modify its slices, options and fields in place.
	next *spec.TableSchema
	// hasSnapshots reports whether the table holds data; options that
	// shape data files can then no longer change.
	hasSnapshots func() (bool, error)
}

// applyChanges builds schema old.ID+1 from old and validates it.
func (c *Catalog) applyChanges(ctx context.Context, dir string, old *spec.TableSchema, changes []SchemaChange) (*spec.TableSchema, error) {
	a := &alteration{old: old, next: cloneSchema(old), hasSnapshots: snapshotsExist(ctx, c.io, dir)}
	for _, change := range changes {
		if err := change.applyTo(a); err != nil {
			return nil, err
		}
	}
	next := a.next
	next.ID = old.ID + 1
	next.Version = spec.CurrentSchemaVersion
	next.TimeMillis = c.now().UnixMilli()
	if err := validateSchema(next); err != nil {
		return nil, err
	}
	if checkWritable(old) == nil {
		return next, checkWritable(next)
	}
	return next, nil
}

func cloneSchema(s *spec.TableSchema) *spec.TableSchema {
	clone := *s
	clone.Fields = slices.Clone(s.Fields)
	clone.PartitionKeys = slices.Clone(s.PartitionKeys)
	clone.PrimaryKeys = slices.Clone(s.PrimaryKeys)
	clone.Options = maps.Clone(s.Options)
	return &clone
}

// snapshotsExist returns a memoized check for a snapshot of the table's
// main branch, so an ALTER without option changes never lists snapshots.
func snapshotsExist(ctx context.Context, io fileio.FileIO, dir string) func() (bool, error) {
	var checked, exists bool
	var err error
	return func() (bool, error) {
		if !checked {
			_, exists, err = snapshot.NewManager(io, dir, "").LatestID(ctx)
			checked = true
		}
		return exists, err
	}
}
