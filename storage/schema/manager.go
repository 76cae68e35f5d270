// Package schema reads the schema versions of a table and maps rows of old
// data files onto a newer schema. Manager mirrors
// org.apache.paimon.schema.SchemaManager (the read side); RowMapping mirrors
// org.apache.paimon.schema.SchemaEvolutionUtil with the casts of
// org.apache.paimon.casting.CastExecutors.
package schema

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

const (
	schemaPrefix = "schema-"
	mainBranch   = "main"
)

// Manager reads the schema/ directory of one branch of a table. Mirrors
// org.apache.paimon.schema.SchemaManager.
//
// Decoded schemas are cached by id: a schema-N file is never rewritten, so a
// cached schema stays valid for the life of the Manager. Which ids exist is
// not cached, since ALTER TABLE adds new ones. A Manager is safe for
// concurrent use.
type Manager struct {
	io        fileio.FileIO
	schemaDir string

	mu    sync.Mutex
	cache map[int64]*spec.TableSchema
	// latest is the highest schema id the last listing found; -1 before
	// one.
	latest int64
}

// NewManager returns the Manager of the named branch of the table at
// tableDir. An empty, blank or "main" branch is the main branch, whose
// schemas are in <tableDir>/schema; another branch's are in
// <tableDir>/branch/branch-<name>/schema (BranchManager.branchPath).
func NewManager(io fileio.FileIO, tableDir, branch string) *Manager {
	dir := strings.TrimRight(tableDir, "/")
	if b := strings.TrimSpace(branch); b != "" && b != mainBranch {
		dir += "/branch/branch-" + branch
	}
	return &Manager{io: io, schemaDir: dir + "/schema", cache: map[int64]*spec.TableSchema{}, latest: -1}
}

// SchemaPath returns the path of schema-<id>.
func (m *Manager) SchemaPath(id int64) string {
	return m.schemaDir + "/" + schemaPrefix + strconv.FormatInt(id, 10)
}

// IDs lists the ids of the schema files, ascending. Like Java's
// FileUtils.listVersionedFiles it skips names whose suffix is not a number,
// which covers temp files of Java, Python and lakesql writers.
func (m *Manager) IDs(ctx context.Context) ([]int64, error) {
	infos, err := m.io.List(ctx, m.schemaDir)
	if err != nil {
		return nil, fmt.Errorf("list schemas in %s: %w", m.schemaDir, err)
	}
	var ids []int64
	for _, fi := range infos {
		if id, ok := parseSchemaName(fi); ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

func parseSchemaName(fi fileio.FileInfo) (int64, bool) {
	name := fi.Path[strings.LastIndexByte(fi.Path, '/')+1:]
	if fi.IsDir || fileio.IsTempName(name) {
		return 0, false
	}
	digits, ok := strings.CutPrefix(name, schemaPrefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(digits, 10, 64)
	return id, err == nil
}

// Schema returns schema <id>. A missing file wraps lakeerr.ErrNotFound, an
// undecodable one lakeerr.ErrCorruption; both name the file. The result is
// shared by all callers and must not be modified.
func (m *Manager) Schema(ctx context.Context, id int64) (*spec.TableSchema, error) {
	if s := m.cached(id); s != nil {
		return s, nil
	}
	p := m.SchemaPath(id)
	data, err := m.io.ReadFile(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, fmt.Errorf("schema %d: %w: no file %s", id, lakeerr.ErrNotFound, p)
	}
	if err != nil {
		return nil, fmt.Errorf("read schema file %s: %w", p, err)
	}
	s, err := decodeSchemaFile(p, id, data)
	if err != nil {
		return nil, err
	}
	return m.remember(id, s), nil
}

// decodeSchemaFile decodes and checks one schema file. A file that cannot
// be decoded wraps lakeerr.ErrCorruption; a valid file using a type lakesql
// does not model keeps the decoder's lakeerr.ErrUnsupported.
func decodeSchemaFile(p string, id int64, data []byte) (*spec.TableSchema, error) {
	s, err := spec.DecodeSchema(data)
	switch {
	case errors.Is(err, lakeerr.ErrCorruption), errors.Is(err, lakeerr.ErrUnsupported):
		return nil, fmt.Errorf("schema file %s: %w", p, err)
	case err != nil:
		return nil, fmt.Errorf("schema file %s: %w: %w", p, lakeerr.ErrCorruption, err)
	}
	// Data files name their schema by id, so a file that disagrees with its
	// name would silently map columns through the wrong schema.
	if s.ID != id {
		return nil, fmt.Errorf("schema file %s: %w: it holds schema id %d", p, lakeerr.ErrCorruption, s.ID)
	}
	return s, nil
}

func (m *Manager) cached(id int64) *spec.TableSchema {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cache[id]
}

// remember caches s unless a concurrent reader got there first, and returns
// the cached value so every caller shares one instance per id.
func (m *Manager) remember(id int64, s *spec.TableSchema) *spec.TableSchema {
	m.mu.Lock()
	defer m.mu.Unlock()
	if prev, ok := m.cache[id]; ok {
		return prev
	}
	m.cache[id] = s
	return s
}

// Latest returns the schema with the highest id. A table without schema
// files wraps lakeerr.ErrNotFound.
//
// Schema ids grow by one (Java's SchemaManager.commit writes
// schema-(latest+1) with put-if-absent), so once a listing found the
// highest, checking that its successor does not exist tells that it still
// is the highest: one existence check instead of a listing, which a
// server would otherwise make for every statement. Like the schemas
// cached by id, this assumes schema files are never deleted or replaced
// under a running reader, which only Java's fast-forward of a branch does.
func (m *Manager) Latest(ctx context.Context) (*spec.TableSchema, error) {
	if id := m.knownLatest(); id >= 0 && m.stillLatest(ctx, id) {
		return m.Schema(ctx, id)
	}
	ids, err := m.IDs(ctx)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("latest schema: %w: no schema files in %s", lakeerr.ErrNotFound, m.schemaDir)
	}
	id := ids[len(ids)-1]
	m.mu.Lock()
	m.latest = id
	m.mu.Unlock()
	return m.Schema(ctx, id)
}

func (m *Manager) knownLatest() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.latest
}

// stillLatest reports whether schema id has no successor; a failed check
// is a no, which makes Latest list.
func (m *Manager) stillLatest(ctx context.Context, id int64) bool {
	next, err := fileio.Exists(ctx, m.io, m.SchemaPath(id+1))
	return err == nil && !next
}
