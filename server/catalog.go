package server

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/catalog/jdbc"
	"github.com/lakesql/lakesql/storage/catalog/tablelock"
	"github.com/lakesql/lakesql/storage/fileio"
)

// metastoreFilesystem is the metastore option's value of the default
// catalog, Paimon's FileSystemCatalog.
const metastoreFilesystem = "filesystem"

func validateCatalogOptions(options map[string]string) error {
	switch m := options["metastore"]; {
	case len(options) == 0, jdbc.IsJDBC(options):
		return nil
	case m == "" || strings.EqualFold(m, metastoreFilesystem):
		if len(options) > 1 || m == "" {
			return fmt.Errorf("catalog options %v: the filesystem catalog takes none (did you mean \"metastore\": \"jdbc\"?)", slices.Sorted(maps.Keys(options)))
		}
		return nil
	default:
		return fmt.Errorf("catalog metastore %q: lakesql opens the filesystem and jdbc catalogs", m)
	}
}

// Catalog is what a warehouse's catalog options add to its file system.
type Catalog struct {
	// FileIO is the warehouse's file system, publishing snapshots and
	// schemas under the catalog lock when the catalog has one.
	FileIO fileio.FileIO
	// Metastore names databases and tables; nil for the filesystem catalog.
	Metastore catalog.Metastore
	closer    io.Closer
}

// Close releases the catalog's connections.
func (c Catalog) Close() error {
	if c.closer == nil {
		return nil
	}
	return c.closer.Close()
}

// OpenCatalog opens the catalog that options (Config.Catalog) name over
// the warehouse at root in fsys. objectStore says whether the warehouse
// is on an object store, where Java's lock.enabled defaults to true.
func OpenCatalog(ctx context.Context, options map[string]string, objectStore bool, fsys fileio.FileIO, root string) (Catalog, error) {
	if err := validateCatalogOptions(options); err != nil {
		return Catalog{}, err
	}
	if !jdbc.IsJDBC(options) {
		return Catalog{FileIO: fsys}, nil
	}
	opts, err := jdbc.ParseOptions(options, objectStore)
	if err != nil {
		return Catalog{}, err
	}
	jc, err := jdbc.Open(ctx, opts, jdbc.Settings{ReleaseFailed: logReleaseFailure})
	if err != nil {
		return Catalog{}, err
	}
	c := Catalog{FileIO: fsys, Metastore: jc, closer: jc}
	if jc.LockEnabled() {
		c.FileIO = tablelock.Wrap(fsys, root, jc)
	}
	entry := logrus.WithField("catalog", jc.String()).WithField("lock", jc.LockEnabled())
	if zone := jc.SessionTimeZone(); zone != "" {
		// Java writers' JVMs must run in this zone (jdbc.Catalog.SessionTimeZone).
		entry = entry.WithField("session_time_zone", zone)
	}
	entry.Info("catalog opened")
	return c, nil
}

// logReleaseFailure warns about a lock row left behind: until it expires
// (lock-acquire-timeout) no writer, Java or lakesql, publishes to the
// table.
func logReleaseFailure(lockID string, err error) {
	logrus.WithField("lock_id", lockID).WithError(err).Error("catalog lock not released; writers of the table wait until it expires")
}
