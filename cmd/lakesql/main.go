// Command lakesql serves and inspects Apache Paimon tables.
//
//	lakesql cat TABLE_DIR [--snapshot N | --tag NAME | --timestamp-ms T]
//	lakesql inspect TABLE_DIR
//	lakesql serve [--listen HOST:PORT] [--warehouse DIR] [--config FILE]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

const (
	catSynopsis   = "  lakesql cat TABLE_DIR [--snapshot N | --tag NAME | --timestamp-ms T]\n"
	serveSynopsis = "  lakesql serve [--listen HOST:PORT] [--warehouse DIR|s3://BUCKET/PREFIX] [--config FILE] [--metrics-listen HOST:PORT] [--catalog-option KEY=VALUE]...\n"
	usage         = "usage:\n" + catSynopsis +
		"  lakesql inspect TABLE_DIR\n" + serveSynopsis +
		"  lakesql compact --warehouse DIR|s3://BUCKET/PREFIX [--config FILE] [--table DB.TABLE [--partitions SPEC]] [--full] [--watch [--interval D] [--metrics-listen HOST:PORT]]\n" +
		"  lakesql COMMAND --help   the command's flags\n"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runHelping(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "lakesql: "+oneLine(err.Error()))
		os.Exit(1)
	}
}

// runHelping runs a command, printing its help to out instead when it
// was asked for.
func runHelping(ctx context.Context, args []string, out io.Writer) error {
	err := run(ctx, args, out)
	var help helpText
	if errors.As(err, &help) {
		_, err = io.WriteString(out, string(help))
	}
	return err
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

// helpText is a command's answer to -h or --help: its usage and flag
// descriptions, printed to stdout, and the command succeeds.
type helpText string

func (h helpText) Error() string { return string(h) }

// flagHelp is the help text of fs when err is the flag package's answer
// to -h or --help; other errors are returned as they are.
func flagHelp(fs *flag.FlagSet, synopsis string, err error) error {
	if !errors.Is(err, flag.ErrHelp) {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nflags:\n", synopsis)
	fs.SetOutput(&b)
	fs.PrintDefaults()
	return helpText(b.String())
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
