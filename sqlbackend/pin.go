package sqlbackend

import (
	"errors"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/table"
)

// pin is the snapshot a statement reads a table at; id 0 means the table
// had no snapshot, so it reads no rows even if a first snapshot lands
// while the statement runs. A pin from AS OF 'tag' keeps the tag: the
// tag holds its snapshot, which stays readable after snapshot-<id> itself
// has expired.
type pin struct {
	snapshotID int64
	tag        string
	schemaID   int64
}

func (p pin) empty() bool { return p.snapshotID == 0 }

func (p pin) timeTravel() snapshot.TimeTravel {
	if p.tag != "" {
		return snapshot.TimeTravel{Tag: p.tag}
	}
	return snapshot.TimeTravel{SnapshotID: p.snapshotID}
}

func (p pin) String() string {
	if p.empty() {
		return "none (empty table)"
	}
	return fmt.Sprintf("%d", p.snapshotID)
}

// pinFor decides the snapshot a table is read at in this statement: the
// one AS OF selects, else the transaction's pin, taken now if this is the
// table's first use in the transaction. AS OF is resolved here, at bind
// time, so that an expired snapshot fails the statement before it runs and
// EXPLAIN, planning and reading all see one snapshot.
func pinFor(ctx *sql.Context, db, name string, t *table.Table, asOf *snapshot.TimeTravel) (pin, error) {
	if asOf != nil {
		s, err := t.Snapshots().Resolve(ctx, *asOf)
		if errors.Is(err, lakeerr.ErrNotFound) {
			// AS OF names a snapshot, tag or time the table does not
			// (or no longer) have: the statement's argument is wrong.
			return pin{}, mysql.NewSQLError(mysql.ERWrongArguments, mysql.SSClientError, "%s", err.Error())
		}
		if err != nil {
			return pin{}, err
		}
		p := pin{snapshotID: s.ID, schemaID: s.SchemaID}
		if asOf.Tag != "" || isTag(ctx, t, asOf.Version) {
			p.tag = asOf.Tag + asOf.Version
		}
		return p, nil
	}
	tx, ok := ctx.GetTransaction().(*Transaction)
	if !ok {
		return latestPin(ctx, t)
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	key := db + "\x00" + name
	if p, ok := tx.pins[key]; ok {
		return p, nil
	}
	p, err := tx.takePin(ctx, t)
	if err != nil {
		return pin{}, err
	}
	tx.pins[key] = p
	return p, nil
}

// takePin pins the latest snapshot. In an explicit transaction whose read
// view is already taken, a snapshot committed after the read view is not
// visible: the newest one committed before it is pinned instead, so that
// every table of the transaction shows one moment.
func (tx *Transaction) takePin(ctx *sql.Context, t *table.Table) (pin, error) {
	explicit := explicitTransaction(ctx)
	firstRead := tx.readView.IsZero()
	if explicit && firstRead {
		tx.readView = tx.now()
	}
	latest, err := latestPin(ctx, t)
	if err != nil || latest.empty() || !explicit || firstRead {
		return latest, err
	}
	s, err := t.Snapshots().Snapshot(ctx, latest.snapshotID)
	if err != nil || s.TimeMillis <= tx.readView.UnixMilli() {
		return latest, err
	}
	before, err := t.Snapshots().AtOrBefore(ctx, tx.readView.UnixMilli())
	if err != nil || before == nil {
		return pin{}, err
	}
	return pin{snapshotID: before.ID}, nil
}

func latestPin(ctx *sql.Context, t *table.Table) (pin, error) {
	id, ok, err := t.Snapshots().LatestID(ctx)
	if err != nil || !ok {
		return pin{}, err
	}
	return pin{snapshotID: id}, nil
}

// isTag reports whether a Paimon scan.version names a tag (it may name a
// snapshot id instead).
func isTag(ctx *sql.Context, t *table.Table, version string) bool {
	if version == "" {
		return false
	}
	_, err := t.Snapshots().Tag(ctx, version)
	return err == nil
}
