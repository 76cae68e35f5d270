package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Views. Paimon's filesystem catalog keeps no views (views live in the
// Hive or REST catalog there: docs/content/concepts/views.md), so lakesql
// stores them itself, in the warehouse, so that every server sees them:
// the versions of view v of database d are files
// <warehouse>/<d>.db/.lakesql-views/<v>/view-<n>, JSON mirroring the parts
// of Paimon's ViewSchema a SQL engine needs (query, dialects, comment,
// options). Java lists only a database's directories that hold a schema as
// tables, and the leading dot keeps the directory out of lakesql's table
// names, so neither mistakes it for a table.
//
// Each change publishes the next version with FileIO.PutIfAbsent, so
// concurrent creators, replacers and droppers of one view serialize on the
// version number, as schema changes of a table do on the schema id; a drop
// publishes a tombstone. Versions more than viewVersionsKept below the
// newest are deleted after a change lands (see landedLatest for why they
// are not all deleted at once).

// viewsDirName is the directory of a database's views.
const viewsDirName = ".lakesql-views"

// viewFilePrefix names the version files of a view.
const viewFilePrefix = "view-"

// DialectMySQL names the SQL dialect lakesql's views are written in, as
// Paimon's ViewSchema names dialects ("spark", "flink").
const DialectMySQL = "mysql"

// ErrViewExists and ErrViewNotFound are the failure classes of view
// changes; a view and a table of one database cannot share a name.
var (
	ErrViewExists   = errors.New("view already exists")
	ErrViewNotFound = fmt.Errorf("view %w", lakeerr.ErrNotFound)
)

// View is one view of a database.
type View struct {
	Name string
	// Query is the view's SELECT, in MySQL's dialect.
	Query string
	// CreateStatement is the statement that created it, as given, for
	// SHOW CREATE VIEW.
	CreateStatement string
	// SQLMode is the sql_mode it was created under.
	SQLMode string
	Comment string
	Options map[string]string
	// Version counts the changes of the view, from 1.
	Version int64
}

// viewFile is the JSON of a view version. Mirrors the fields of
// org.apache.paimon.view.ViewSchema (query, dialects, comment, options),
// plus what MySQL needs to show the view again.
type viewFile struct {
	FormatVersion   int               `json:"version"`
	Query           string            `json:"query"`
	Dialects        map[string]string `json:"dialects"`
	Comment         string            `json:"comment,omitempty"`
	Options         map[string]string `json:"options,omitempty"`
	CreateStatement string            `json:"createStatement"`
	SQLMode         string            `json:"sqlMode,omitempty"`
	// Dropped marks the tombstone a drop publishes.
	Dropped bool `json:"dropped,omitempty"`
}

const viewFormatVersion = 1

func (c *Catalog) viewsDir(db string) string { return childPath(c.databaseDir(db), viewsDirName) }

func (c *Catalog) viewDir(db, name string) string { return childPath(c.viewsDir(db), name) }

func viewPath(dir string, version int64) string {
	return childPath(dir, viewFilePrefix+strconv.FormatInt(version, 10))
}

// CreateView creates view v.Name in database db, or replaces it when
// orReplace is set. A view of that name is an error wrapping ErrViewExists
// unless orReplace is set; a table of that name always wraps
// ErrTableExists.
func (c *Catalog) CreateView(ctx context.Context, db string, v View, orReplace bool) error {
	if err := validateTableName(v.Name); err != nil {
		return err
	}
	if err := c.checkDatabaseExists(ctx, db); err != nil {
		return err
	}
	isTable, err := c.TableExists(ctx, db, v.Name)
	if err != nil {
		return err
	}
	if isTable {
		return fmt.Errorf("create view %s.%s: a table of that name exists: %w", db, v.Name, ErrTableExists)
	}
	file := viewFile{FormatVersion: viewFormatVersion, Query: v.Query, Dialects: map[string]string{DialectMySQL: v.Query},
		Comment: v.Comment, Options: v.Options, CreateStatement: v.CreateStatement, SQLMode: v.SQLMode}
	return c.publishView(ctx, db, v.Name, file, func(current *View) error {
		if current != nil && !orReplace {
			return fmt.Errorf("create view %s.%s: %w", db, v.Name, ErrViewExists)
		}
		return nil
	})
}

// DropView drops a view. A missing view is an error wrapping
// ErrViewNotFound unless ifExists is set.
func (c *Catalog) DropView(ctx context.Context, db, name string, ifExists bool) error {
	if err := validateTableName(name); err != nil {
		return err
	}
	tombstone := viewFile{FormatVersion: viewFormatVersion, Dropped: true}
	return c.publishView(ctx, db, name, tombstone, func(current *View) error {
		if current == nil && !ifExists {
			return fmt.Errorf("drop view %s.%s: %w", db, name, ErrViewNotFound)
		}
		if current == nil {
			return errNothingToDo
		}
		return nil
	})
}

// errNothingToDo stops publishView without an error.
var errNothingToDo = errors.New("nothing to do")

// publishView publishes file as the next version of a view, after check
// accepted the current one (nil when there is none), retrying when a
// concurrent change took the version first.
func (c *Catalog) publishView(ctx context.Context, db, name string, file viewFile, check func(current *View) error) error {
	data, err := json.Marshal(file)
	if err != nil {
		return fmt.Errorf("encode view %s.%s: %w", db, name, err)
	}
	dir := c.viewDir(db, name)
	for {
		current, latest, err := c.readView(ctx, db, name)
		if err != nil {
			return err
		}
		if err := check(current); err != nil {
			if errors.Is(err, errNothingToDo) {
				return nil
			}
			return err
		}
		next := latest + 1
		err = c.io.PutIfAbsent(ctx, viewPath(dir, next), data)
		if errors.Is(err, fileio.ErrExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("write view %s.%s: %w", db, name, err)
		}
		landed, err := c.landedLatest(ctx, dir, next)
		if err != nil {
			return fmt.Errorf("write view %s.%s: %w", db, name, err)
		}
		if landed {
			c.deleteOldViewVersions(ctx, dir, next-c.viewVersionsKept)
			return nil
		}
	}
}

// landedLatest reports whether version, just put, took a number no
// version had before. A change deletes the versions more than
// viewVersionsKept below its own, so a writer that read the versions
// long ago can put a number that existed and was deleted: the put
// succeeds, but newer versions exist and readers, who read the newest,
// never see it: a lost change. Version v is deleted only once a version
// above v+viewVersionsKept exists, so such a version is the sign of a
// reused number; the put is taken back (nobody reads it) and the change
// retried on the current version. (A put whose number was new may, in
// theory, see that many changes land before it looks: it is then
// applied again, never lost.)
func (c *Catalog) landedLatest(ctx context.Context, dir string, version int64) (bool, error) {
	versions, err := c.viewVersions(ctx, dir)
	if err != nil {
		return false, err
	}
	if len(versions) > 0 && versions[len(versions)-1] > version+c.viewVersionsKept {
		if err := c.io.Delete(ctx, viewPath(dir, version)); err != nil && !errors.Is(err, fileio.ErrNotExist) {
			return false, err
		}
		return false, nil
	}
	return true, nil
}

// deleteOldViewVersions deletes the versions before latest; one left
// behind by a failure is only read past.
func (c *Catalog) deleteOldViewVersions(ctx context.Context, dir string, latest int64) {
	versions, err := c.viewVersions(ctx, dir)
	if err != nil {
		return
	}
	for _, v := range versions {
		if v < latest {
			_ = c.io.Delete(ctx, viewPath(dir, v))
		}
	}
}

// GetView returns the view of that name, matched as GMS matches table
// names: exactly, else ignoring case.
func (c *Catalog) GetView(ctx context.Context, db, name string) (View, bool, error) {
	names, err := c.viewNames(ctx, db)
	if err != nil {
		return View{}, false, err
	}
	stored, ok := matchName(names, name)
	if !ok {
		return View{}, false, nil
	}
	v, _, err := c.readView(ctx, db, stored)
	if err != nil || v == nil {
		return View{}, false, err
	}
	return *v, true, nil
}

// ListViews returns the views of a database, sorted by name.
func (c *Catalog) ListViews(ctx context.Context, db string) ([]View, error) {
	names, err := c.viewNames(ctx, db)
	if err != nil {
		return nil, err
	}
	var out []View
	for _, name := range names {
		v, _, err := c.readView(ctx, db, name)
		if err != nil {
			return nil, err
		}
		if v != nil {
			out = append(out, *v)
		}
	}
	return out, nil
}

// viewNames lists the view directories of a database, sorted; some may
// hold only a tombstone.
func (c *Catalog) viewNames(ctx context.Context, db string) ([]string, error) {
	if err := c.checkDatabaseExists(ctx, db); err != nil {
		return nil, err
	}
	infos, err := c.io.List(ctx, c.viewsDir(db))
	if err != nil {
		return nil, fmt.Errorf("list views of %s: %w", db, err)
	}
	var names []string
	for _, fi := range infos {
		if fi.IsDir {
			names = append(names, path.Base(fi.Path))
		}
	}
	slices.Sort(names)
	return names, nil
}

func matchName(names []string, name string) (string, bool) {
	if slices.Contains(names, name) {
		return name, true
	}
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n, true
		}
	}
	return "", false
}

// readView returns the current view (nil when it does not exist or was
// dropped) and its latest version number (0 for none).
func (c *Catalog) readView(ctx context.Context, db, name string) (*View, int64, error) {
	dir := c.viewDir(db, name)
	versions, err := c.viewVersions(ctx, dir)
	if err != nil || len(versions) == 0 {
		return nil, 0, err
	}
	latest := versions[len(versions)-1]
	data, err := c.io.ReadFile(ctx, viewPath(dir, latest))
	if errors.Is(err, fileio.ErrNotExist) {
		// A newer change deleted it as old: read again.
		return c.readView(ctx, db, name)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read view %s.%s: %w", db, name, err)
	}
	var f viewFile
	if err := json.Unmarshal(data, &f); err != nil || f.FormatVersion != viewFormatVersion {
		return nil, 0, fmt.Errorf("view %s.%s version %d: not a view file of version %d: %w", db, name, latest, viewFormatVersion, lakeerr.ErrCorruption)
	}
	if f.Dropped {
		return nil, latest, nil
	}
	query := f.Dialects[DialectMySQL]
	if query == "" {
		query = f.Query
	}
	return &View{Name: name, Query: query, CreateStatement: f.CreateStatement, SQLMode: f.SQLMode,
		Comment: f.Comment, Options: f.Options, Version: latest}, latest, nil
}

// viewVersions lists the version numbers of a view directory, ascending.
func (c *Catalog) viewVersions(ctx context.Context, dir string) ([]int64, error) {
	infos, err := c.io.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("list view versions in %s: %w", dir, err)
	}
	var out []int64
	for _, fi := range infos {
		n, ok := strings.CutPrefix(path.Base(fi.Path), viewFilePrefix)
		if v, err := strconv.ParseInt(n, 10, 64); ok && err == nil && !fi.IsDir {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out, nil
}
