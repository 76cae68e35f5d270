package server

import "testing"

func TestPadFraction(t *testing.T) {
	cases := []struct {
		in     string
		digits int
		want   string
	}{
		{"2026-04-17 00:00:00", 6, "2026-04-17 00:00:00.000000"},
		{"2026-04-16 10:11:12.345", 6, "2026-04-16 10:11:12.345000"},
		{"2026-04-16 10:11:12.345", 3, "2026-04-16 10:11:12.345"},
		{"2026-04-16 10:11:12", 1, "2026-04-16 10:11:12.0"},
	}
	for _, c := range cases {
		got, ok := padFraction([]byte(c.in), c.digits)
		if !ok {
			got = []byte(c.in)
		}
		if string(got) != c.want {
			t.Errorf("padFraction(%q, %d) = %q, want %q", c.in, c.digits, got, c.want)
		}
	}
}
