package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// runInspect prints a table's schema, its snapshots and the live files of
// its latest snapshot: what an operator checks first in an incident.
func runInspect(ctx context.Context, args []string, out io.Writer) error {
	if len(args) != 1 {
		return usageError("inspect takes exactly one TABLE_DIR")
	}
	t, err := table.Open(ctx, localio.New(), args[0])
	if err != nil {
		return err
	}
	s, err := t.LatestSchema(ctx)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	printSchema(w, s)
	latest, err := printSnapshots(ctx, w, t)
	if err != nil {
		return err
	}
	if latest != nil {
		if err := printLiveFiles(ctx, w, t, latest); err != nil {
			return err
		}
	}
	return w.Flush()
}

func printSchema(w io.Writer, s *spec.TableSchema) {
	fmt.Fprintf(w, "schema %d\n", s.ID)
	for _, f := range s.Fields {
		fmt.Fprintf(w, "  %d\t%s\t%s\n", f.ID, f.Name, f.Type)
	}
	fmt.Fprintf(w, "partition keys: %s\n", strings.Join(s.PartitionKeys, ", "))
	fmt.Fprintf(w, "primary keys: %s\n", strings.Join(s.PrimaryKeys, ", "))
	for _, k := range sortedKeys(s.Options) {
		fmt.Fprintf(w, "option %s = %s\n", k, s.Options[k])
	}
}

func printSnapshots(ctx context.Context, w io.Writer, t *table.Table) (*spec.Snapshot, error) {
	ids, err := t.Snapshots().IDs(ctx)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "\nsnapshots (%d)\n", len(ids))
	fmt.Fprintln(w, "  id\tkind\tcommit user\tidentifier\tcommit time (UTC)\ttotal rows\tdelta rows\tschema")
	var latest *spec.Snapshot
	for _, id := range ids {
		s, err := t.Snapshots().Snapshot(ctx, id)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "  %d\t%s\t%s\t%d\t%s\t%s\t%s\t%d\n", s.ID, s.CommitKind, s.CommitUser, s.CommitIdentifier,
			time.UnixMilli(s.TimeMillis).UTC().Format("2006-01-02 15:04:05.000"),
			optional(s.TotalRecordCount), optional(s.DeltaRecordCount), s.SchemaID)
		latest = s
	}
	return latest, nil
}

func printLiveFiles(ctx context.Context, w io.Writer, t *table.Table, s *spec.Snapshot) error {
	entries, err := t.LiveFiles(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nlive files of snapshot %d (%d)\n", s.ID, len(entries))
	fmt.Fprintln(w, "  bucket\tlevel\tfile\trows\tbytes\tsequence\tschema")
	for _, e := range entries {
		f := e.File
		fmt.Fprintf(w, "  %d\t%d\t%s\t%d\t%d\t%d..%d\t%d\n", e.Bucket, f.Level, f.FileName, f.RowCount, f.FileSize,
			f.MinSequenceNumber, f.MaxSequenceNumber, f.SchemaID)
	}
	return nil
}

func optional(v *int64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprint(*v)
}
