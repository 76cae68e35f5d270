package systables

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// fixtureBackend serves the Java-written fixtures, each table the only
// one of its database, read at its latest snapshot as an autocommit
// statement reads it.
type fixtureBackend struct{ root string }

func (b fixtureBackend) OpenTable(ctx context.Context, db, name string) (*table.Table, error) {
	return table.Open(ctx, b.FileIO(), filepath.Join(b.root, db+".db", name))
}

func (fixtureBackend) FileIO() fileio.FileIO { return localio.New() }

func (fixtureBackend) Snapshot(ctx *sql.Context, _, _ string, t *table.Table, asOf *snapshot.TimeTravel) (*spec.Snapshot, error) {
	if asOf != nil {
		return t.Snapshots().Resolve(ctx, *asOf)
	}
	id, ok, err := t.Snapshots().LatestID(ctx)
	if err != nil || !ok {
		return nil, err
	}
	return t.Snapshots().Snapshot(ctx, id)
}

// TestEveryKindOfJavaFixtures reads every system table kind of every
// Java-written fixture; tables lakesql refuses must fail with a clear
// "not supported" error.
func TestEveryKindOfJavaFixtures(t *testing.T) {
	b := fixtureBackend{root: filepath.Join(fixtures.Root(), "paimon-java")}
	for name, m := range fixtures.LoadExpected(t).Tables {
		set, tbl, _ := strings.Cut(name, "/")
		if set != "paimon-java" || strings.HasSuffix(tbl, "_with_external") {
			continue
		}
		t.Run(tbl, func(t *testing.T) {
			for kind := range systemTableKinds {
				err := readAll(b, tbl, tbl, kind)
				if m.Exempt != nil {
					if err != nil && !strings.Contains(err.Error(), "not supported") && !strings.Contains(err.Error(), "unsupported") {
						t.Errorf("$%s of an exempt table: %v, want rows or an unsupported error", kind, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("$%s: %v", kind, err)
				}
			}
		})
	}
}

// readAll opens base$kind of db and reads its rows.
func readAll(b Backend, db, base, kind string) error {
	ctx := sql.NewEmptyContext()
	tbl, ok, err := Open(ctx, b, db, base, kind, nil)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s.%s not found", db, base)
	}
	rows, err := tbl.PartitionRows(ctx, metadata{})
	if err != nil {
		return err
	}
	_, err = sql.RowIterToRows(ctx, rows)
	return err
}
