package scan

import (
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// IndexTest is a kept data file whose data-file index (bloom filter,
// bitmap) may prove that no row of it makes Filter TRUE, so the read can
// skip it.
type IndexTest struct {
	Split, File int // positions in Plan.Splits and that split's Files
	// Filter is what the index may refute: the whole filter where each row
	// of the file is a row of the result (append files, and primary-key
	// splits read without merging, whose keys do not repeat across files);
	// only the key conjuncts in a merge, where another file's record of
	// the same key replaces this file's: a file may be left out of a merge
	// only when it holds no record of any matching key.
	Filter predicate.Predicate
}

// IndexTests lists the kept files a data-file index may drop: files with
// an index (embedded in the manifest or a .index extra file), under a
// filter with an equality, IN or IS NULL an index can answer. None when
// the table sets file-index.read.enabled = false.
func (p *Plan) IndexTests() ([]IndexTest, error) {
	if on, err := p.Schema.CoreOptions().FileIndexReadEnabled(); err != nil || !on {
		return nil, err
	}
	if !indexAnswerable(p.Filter.Full) {
		return nil, nil
	}
	var tests []IndexTest
	for s := range p.Splits {
		if !p.PrimaryKey && !p.Splits[s].RawConvertible {
			// A data-evolution split whose files share rows: no file
			// may be dropped from its group (see splitDataEvolution).
			continue
		}
		filter := p.Filter.Full
		if p.PrimaryKey && !p.Splits[s].RawConvertible {
			filter = p.Filter.Key
		}
		if !indexAnswerable(filter) {
			continue
		}
		for f := range p.Splits[s].Files {
			if HasFileIndex(&p.Splits[s].Files[f]) {
				tests = append(tests, IndexTest{Split: s, File: f, Filter: filter})
			}
		}
	}
	return tests, nil
}

// HasFileIndex reports whether a data file has a data-file index.
func HasFileIndex(f *spec.DataFileMeta) bool {
	return f.EmbeddedIndex != nil || IndexFileName(f) != ""
}

// IndexFileName is the name of a data file's .index extra file, or "".
func IndexFileName(f *spec.DataFileMeta) string {
	for _, name := range f.ExtraFiles {
		if strings.HasSuffix(name, ".index") {
			return name
		}
	}
	return ""
}

// indexAnswerable reports whether p has an equality, IN or IS NULL leaf,
// the only leaves an index answers.
func indexAnswerable(p predicate.Predicate) bool {
	return predicate.AnyLeaf(p, func(l *predicate.LeafPredicate) bool {
		return l.Op() == predicate.OpEq || l.Op() == predicate.OpIn || l.Op() == predicate.OpIsNull
	})
}

// DropIndexed removes the files whose test proved no match (cannot[i]
// for tests[i]), records PrunedByFileIndex for them in the explanation,
// and drops splits left without files.
func (p *Plan) DropIndexed(tests []IndexTest, cannot []bool) {
	names := map[string]bool{}
	for i, t := range tests {
		if cannot[i] {
			names[p.Splits[t.Split].Files[t.File].FileName] = true
		}
	}
	p.DropFiles(names, PrunedByFileIndex)
}

// DropFiles removes the kept files of the given names, records reason
// for them in the explanation, and drops splits left without files.
func (p *Plan) DropFiles(names map[string]bool, reason Reason) {
	if len(names) == 0 {
		return
	}
	var splits []Split
	for _, split := range p.Splits {
		files := slices.DeleteFunc(slices.Clone(split.Files), func(f spec.DataFileMeta) bool { return names[f.FileName] })
		if len(files) > 0 {
			split.Files = files
			splits = append(splits, split)
		}
	}
	p.Splits = splits
	for i := range p.Explain.Files {
		if d := &p.Explain.Files[i]; d.Reason == Kept && names[d.FileName] {
			d.Reason = reason
		}
	}
	p.Explain.count(p.Splits)
}
