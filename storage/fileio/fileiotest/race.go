package fileiotest

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strconv"
	"sync"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
)

const (
	raceWriters = 32
	raceReaders = 4
	raceRounds  = 5
)

// testPutIfAbsentRace races writers publishing distinct payloads to one
// path, the way committers race for snapshot-N, while readers poll it.
func testPutIfAbsentRace(t *testing.T, h Harness) {
	fsys, root := h.New(t)
	for round := range raceRounds {
		p := path.Join(root, fmt.Sprintf("round-%d", round), "snapshot-1")
		results, seen := racePutIfAbsent(t, fsys, p)
		winner := expectOneWinner(t, results)
		expectContent(t, fsys, p, payload(winner))
		for writer := range seen {
			if writer != winner {
				t.Errorf("round %d: a reader saw %s, but writer %d won", round, describeWriter(writer), winner)
			}
		}
	}
}

// racePutIfAbsent releases raceWriters PutIfAbsent calls at once and
// returns their results with the set of writers whose payload the readers
// saw (notWriter for content that is no writer's complete payload).
func racePutIfAbsent(t *testing.T, fsys fileio.FileIO, p string) ([]error, map[int]bool) {
	results := make([]error, raceWriters)
	start := make(chan struct{})
	var writers sync.WaitGroup
	for i := range raceWriters {
		writers.Go(func() {
			<-start
			results[i] = fsys.PutIfAbsent(t.Context(), p, payload(i))
		})
	}
	stop := make(chan struct{})
	seen := make([]map[int]bool, raceReaders)
	var readers sync.WaitGroup
	for r := range raceReaders {
		readers.Go(func() { seen[r] = pollWriters(t, fsys, p, stop) })
	}
	close(start)
	writers.Wait()
	close(stop)
	readers.Wait()
	union := map[int]bool{}
	for _, s := range seen {
		for writer := range s {
			union[writer] = true
		}
	}
	return results, union
}

// testConcurrentOverwrite checks that readers of a hint being overwritten
// concurrently see one complete version, never a mix.
func testConcurrentOverwrite(t *testing.T, h Harness) {
	const writers, overwrites = 4, 20
	fsys, root := h.New(t)
	p := path.Join(root, "snapshot", "LATEST")
	stop := make(chan struct{})
	var seen map[int]bool
	var reader, wg sync.WaitGroup
	reader.Go(func() { seen = pollWriters(t, fsys, p, stop) })
	for i := range writers {
		wg.Go(func() {
			for range overwrites {
				if err := fsys.Overwrite(t.Context(), p, payload(i)); err != nil {
					t.Errorf("Overwrite: %v", err)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	reader.Wait()
	if seen[notWriter] {
		t.Error("a reader saw content that is no writer's complete payload")
	}
	if final, err := fsys.ReadFile(t.Context(), p); err != nil || writerOf(final) == notWriter {
		t.Errorf("after the overwrites: %q, %v; want a writer's complete payload", truncate(final), err)
	}
}

// pollWriters reads p until stop is closed and returns the writers whose
// payload it read. Absence is expected while a race is under way; any other
// error fails the test.
func pollWriters(t *testing.T, fsys fileio.FileIO, p string, stop <-chan struct{}) map[int]bool {
	seen := map[int]bool{}
	for {
		select {
		case <-stop:
			return seen
		default:
		}
		data, err := fsys.ReadFile(t.Context(), p)
		switch {
		case errors.Is(err, fileio.ErrNotExist):
		case err != nil:
			t.Errorf("ReadFile during the race: %v", err)
			return seen
		default:
			seen[writerOf(data)] = true
		}
	}
}

// expectOneWinner checks that exactly one result is nil and every other
// wraps ErrExist, and returns the winner's index.
func expectOneWinner(t *testing.T, results []error) int {
	t.Helper()
	winner := notWriter
	for i, err := range results {
		switch {
		case err == nil && winner != notWriter:
			t.Fatalf("writers %d and %d both won", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, fileio.ErrExist):
			t.Fatalf("writer %d: %v, want an error wrapping ErrExist", i, err)
		}
	}
	if winner == notWriter {
		t.Fatal("no writer won")
	}
	return winner
}

const (
	// notWriter stands for content that is not any writer's complete payload.
	notWriter = -1
	// maxWriters bounds the writer a payload header may name, so that a
	// corrupt header cannot make writerOf build a huge payload.
	maxWriters = 1 << 10
)

// payload returns the content writer i publishes: a header naming i, then
// tens of KiB whose length and bytes depend on i, so that a torn write or a
// mix of two writers cannot pass for a complete payload.
func payload(i int) []byte {
	header := fmt.Sprintf("writer %d\n", i)
	b := make([]byte, len(header)+32<<10+i*131)
	copy(b, header)
	for j := len(header); j < len(b); j++ {
		b[j] = byte(i*7 + j + j/256)
	}
	return b
}

// writerOf returns the writer whose complete payload data is, or notWriter.
func writerOf(data []byte) int {
	header, _, found := bytes.Cut(data, []byte("\n"))
	digits, ok := bytes.CutPrefix(header, []byte("writer "))
	if !found || !ok {
		return notWriter
	}
	i, err := strconv.Atoi(string(digits))
	if err != nil || i < 0 || i >= maxWriters || !bytes.Equal(data, payload(i)) {
		return notWriter
	}
	return i
}

func describeWriter(writer int) string {
	if writer == notWriter {
		return "content that is no writer's complete payload"
	}
	return fmt.Sprintf("the payload of writer %d", writer)
}
