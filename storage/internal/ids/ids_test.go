package ids

import (
	"regexp"
	"testing"
)

func TestNewUUIDIsARandomVersion4UUID(t *testing.T) {
	form := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := NewUUID()
		if !form.MatchString(id) {
			t.Fatalf("%q is not a version-4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("%q repeated", id)
		}
		seen[id] = true
	}
}

func TestDerivedUUIDsAreDistinctAndRepeatable(t *testing.T) {
	form := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a, b := Derived("seed"), Derived("seed")
	seen := map[string]bool{}
	for i := range 100 {
		x, y := a(), b()
		if x != y || seen[x] || (i == 0) != (x == "seed") || (i > 0 && !form.MatchString(x)) {
			t.Fatalf("draw %d: %q and %q (seen before: %v)", i, x, y, seen[x])
		}
		seen[x] = true
	}
}
