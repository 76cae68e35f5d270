// Command lakesql serves and inspects Apache Paimon tables.
//
//	lakesql cat TABLE_DIR [--snapshot N | --tag NAME | --timestamp-ms T]
//	lakesql inspect TABLE_DIR
//	lakesql serve [--listen HOST:PORT] [--warehouse DIR] [--config FILE]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

const usage = `usage:
  lakesql cat TABLE_DIR [--snapshot N | --tag NAME | --timestamp-ms T]
  lakesql inspect TABLE_DIR
  lakesql serve [--listen HOST:PORT] [--warehouse DIR|s3://BUCKET/PREFIX] [--config FILE] [--metrics-listen HOST:PORT] [--catalog-option KEY=VALUE]...
  lakesql compact --warehouse DIR|s3://BUCKET/PREFIX [--config FILE] [--table DB.TABLE [--partitions SPEC]] [--full] [--watch [--interval D] [--metrics-listen HOST:PORT]]
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "lakesql: "+oneLine(err.Error()))
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return usageError("missing command")
	}
	switch args[0] {
	case "cat":
		return runCat(ctx, args[1:], out)
	case "inspect":
		return runInspect(ctx, args[1:], out)
	case "compact":
		return runCompact(ctx, args[1:], out)
	case "serve":
		return runServe(ctx, args[1:], out)
	case "help", "-h", "--help":
		_, err := io.WriteString(out, usage)
		return err
	}
	return usageError("unknown command " + args[0])
}

func usageError(msg string) error {
	return fmt.Errorf("%s\n%s", msg, usage)
}

// oneLine keeps error output to one line, as scripts expect; usage text is
// the exception since it is meant for people.
func oneLine(msg string) string {
	if strings.Contains(msg, "\nusage:") {
		return msg
	}
	return strings.ReplaceAll(msg, "\n", " ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
