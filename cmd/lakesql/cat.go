package main

import (
	"bufio"
	"context"
	"flag"
	"io"

	"github.com/lakesql/lakesql/internal/jsonrow"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/table"
)

// runCat prints every row of a table, one JSON object per line.
func runCat(ctx context.Context, args []string, out io.Writer) error {
	dir, tt, err := parseCatArgs(args)
	if err != nil {
		return err
	}
	t, err := table.Open(ctx, localio.New(), dir)
	if err != nil {
		return err
	}
	rows, err := t.Read(ctx, table.ReadOptions{At: tt})
	if err != nil {
		return err
	}
	defer rows.Close()
	return writeRows(rows, out)
}

func writeRows(rows *table.Rows, out io.Writer) error {
	w := bufio.NewWriter(out)
	var line []byte
	for {
		row, err := rows.Next()
		if err == io.EOF {
			return w.Flush()
		}
		if err != nil {
			return err
		}
		if line, err = jsonrow.Append(line[:0], rows.Fields(), row); err != nil {
			return err
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
}

func parseCatArgs(args []string) (string, snapshot.TimeTravel, error) {
	var tt snapshot.TimeTravel
	fs := flag.NewFlagSet("cat", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int64Var(&tt.SnapshotID, "snapshot", 0, "snapshot id")
	fs.StringVar(&tt.Tag, "tag", "", "tag name")
	ts := fs.Int64("timestamp-ms", -1, "commit time in milliseconds since the epoch")
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		if help := flagHelp(fs, "usage:\n"+catSynopsis, err); help != err {
			return "", tt, help
		}
		return "", tt, usageError(err.Error())
	}
	if len(positional) != 1 {
		return "", tt, usageError("cat takes exactly one TABLE_DIR")
	}
	if *ts >= 0 {
		tt.TimestampMillis = ts
	}
	set := 0
	fs.Visit(func(f *flag.Flag) {
		set++
		if f.Name == "snapshot" && tt.SnapshotID <= 0 {
			err = usageError("--snapshot must be a positive snapshot id")
		}
	})
	if err == nil && set > 1 {
		err = usageError("give at most one of --snapshot, --tag and --timestamp-ms")
	}
	if err != nil {
		return "", tt, err
	}
	return positional[0], tt, nil
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (the flag package stops at the first positional).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	return positional, nil
}
