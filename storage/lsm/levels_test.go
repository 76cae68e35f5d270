package lsm

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func levelFile(name string, level, minKey, maxKey int, minSeq, maxSeq int64, created int64) FileMeta[string] {
	return FileMeta[string]{
		FileName: name, Level: level, MinKey: ints(minKey), MaxKey: ints(maxKey),
		MinSeq: minSeq, MaxSeq: maxSeq, CreationTime: spec.TimestampValue{Millis: created},
	}
}

func fileNames(files []FileMeta[string]) []string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.FileName
	}
	return names
}

func TestLevelsLevel0Order(t *testing.T) {
	files := []FileMeta[string]{
		levelFile("old", 0, 0, 9, 1, 5, 100),
		levelFile("new", 0, 0, 9, 6, 9, 100),
		// Same maxSeq (two writers): lower minSeq, then earlier creation
		// time, then file name first.
		levelFile("tie-minseq-high", 0, 0, 9, 4, 7, 100),
		levelFile("tie-minseq-low", 0, 0, 9, 2, 7, 100),
		levelFile("tie-late", 0, 0, 9, 3, 8, 200),
		levelFile("tie-early-b", 0, 0, 9, 3, 8, 100),
		levelFile("tie-early-a", 0, 0, 9, 3, 8, 100),
	}
	l, err := NewLevels(files, 3, compareTestRows)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"new", "tie-early-a", "tie-early-b", "tie-late", "tie-minseq-low", "tie-minseq-high", "old"}
	if got := fileNames(l.Level0()); !reflect.DeepEqual(got, want) {
		t.Fatalf("level 0 order %v, want %v", got, want)
	}
}

func TestLevelsSortedRuns(t *testing.T) {
	files := []FileMeta[string]{
		levelFile("l2-b", 2, 50, 90, 1, 2, 0),
		levelFile("l0-a", 0, 0, 99, 10, 11, 0),
		levelFile("l2-a", 2, 0, 40, 3, 4, 0),
		levelFile("l0-b", 0, 0, 99, 12, 13, 0),
		levelFile("l4", 4, 0, 99, 0, 0, 0),
	}
	l, err := NewLevels(files, 3, compareTestRows)
	if err != nil {
		t.Fatal(err)
	}
	if l.NumberOfLevels() != 5 || l.MaxLevel() != 4 {
		t.Fatalf("levels %d max %d: numLevels must grow to hold level 4", l.NumberOfLevels(), l.MaxLevel())
	}
	var got []string
	for _, run := range l.LevelSortedRuns() {
		got = append(got, fmt.Sprintf("%d:%s", run.Level, joinNames(run.Run)))
	}
	want := []string{"0:l0-b", "0:l0-a", "2:l2-a,l2-b", "4:l4"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("sorted runs %v, want %v", got, want)
	}
	if n := l.NumberOfSortedRuns(); n != 4 {
		t.Fatalf("NumberOfSortedRuns %d, want 4", n)
	}
	if l.NonEmptyHighestLevel() != 4 || len(l.RunOfLevel(1)) != 0 || len(l.RunOfLevel(9)) != 0 {
		t.Fatal("level accessors disagree with the layout")
	}
}

func joinNames(run SortedRun[string]) string {
	s := ""
	for i, f := range run {
		if i > 0 {
			s += ","
		}
		s += f.FileName
	}
	return s
}

func TestLevelsUpdate(t *testing.T) {
	l0a, l0b := levelFile("a", 0, 0, 9, 1, 2, 0), levelFile("b", 0, 5, 20, 3, 4, 0)
	l1 := levelFile("c", 1, 0, 4, 0, 0, 0)
	l, err := NewLevels([]FileMeta[string]{l0a, l0b, l1}, 3, compareTestRows)
	if err != nil {
		t.Fatal(err)
	}
	compacted := levelFile("d", 2, 0, 20, 0, 4, 0)
	if err := l.Update([]FileMeta[string]{l0a, l0b, l1}, []FileMeta[string]{compacted}); err != nil {
		t.Fatal(err)
	}
	if len(l.Level0()) != 0 || len(l.RunOfLevel(1)) != 0 || joinNames(l.RunOfLevel(2)) != "d" {
		t.Fatalf("after update: L0 %v L1 %v L2 %v", l.Level0(), l.RunOfLevel(1), l.RunOfLevel(2))
	}
	if l.NonEmptyHighestLevel() != 2 {
		t.Fatalf("NonEmptyHighestLevel %d", l.NonEmptyHighestLevel())
	}
	if err := l.Update(nil, []FileMeta[string]{levelFile("e", 7, 0, 1, 0, 0, 0)}); err == nil {
		t.Fatal("adding a file above the highest level succeeded")
	}
}

func TestLevelsErrors(t *testing.T) {
	overlapping := []FileMeta[string]{levelFile("a", 1, 0, 10, 0, 0, 0), levelFile("b", 1, 10, 20, 0, 0, 0)}
	if _, err := NewLevels(overlapping, 3, compareTestRows); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("overlapping level-1 files: got %v, want ErrCorruption", err)
	}
	if _, err := NewLevels([]FileMeta[string]{levelFile("a", -1, 0, 1, 0, 0, 0)}, 3, compareTestRows); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("negative level: got %v", err)
	}
	if _, err := NewLevels[string](nil, 1, compareTestRows); err == nil {
		t.Fatal("one level accepted")
	}
	l, err := NewLevels[string](nil, 2, compareTestRows)
	if err != nil || l.NonEmptyHighestLevel() != -1 || l.NumberOfSortedRuns() != 0 {
		t.Fatalf("empty levels: %v", err)
	}
}
