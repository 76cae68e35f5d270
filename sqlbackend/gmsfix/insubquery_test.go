package gmsfix

import "testing"

// A string IN numbers compares as a number, the one the string starts
// with, as MySQL reads it.
func TestNumericPrefix(t *testing.T) {
	for s, want := range map[string]float64{
		"7.5": 7.5, "2024-01-04": 2024, "abc": 0, " -.5x": -0.5, "1e3z": 1000, "1e": 1, ".": 0, "+": 0, "": 0,
	} {
		if got := numericPrefix(s); got != want {
			t.Errorf("numericPrefix(%q) = %v, want %v", s, got, want)
		}
	}
}
