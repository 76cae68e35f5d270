package sqllogictest

import "time"

// Summary counts the outcomes of a script run.
type Summary struct {
	// Executed is Passed + Failed: the records the engine was judged on.
	Executed, Passed, Failed, Skipped int
	// Slow counts records over SlowRecord.
	Slow        int
	Disconnects int
	Slowest     time.Duration
	// SlowestLine is the script line of the slowest record.
	SlowestLine int
}

// Summarize counts results.
func Summarize(results []Result) Summary {
	var s Summary
	for _, r := range results {
		switch r.Outcome {
		case Passed:
			s.Passed++
		case Failed:
			s.Failed++
		case Skipped:
			s.Skipped++
		}
		if r.Duration > SlowRecord {
			s.Slow++
		}
		if r.Disconnected {
			s.Disconnects++
		}
		if r.Duration > s.Slowest {
			s.Slowest, s.SlowestLine = r.Duration, r.Line
		}
	}
	s.Executed = s.Passed + s.Failed
	return s
}

// Add accumulates another summary, for totals; the slowest record of the
// two is kept without its line, which belongs to a file.
func (s *Summary) Add(o Summary) {
	s.Executed += o.Executed
	s.Passed += o.Passed
	s.Failed += o.Failed
	s.Skipped += o.Skipped
	s.Slow += o.Slow
	s.Disconnects += o.Disconnects
	if o.Slowest > s.Slowest {
		s.Slowest = o.Slowest
	}
	s.SlowestLine = 0
}
