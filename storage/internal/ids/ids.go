// Package ids generates the random identifiers Paimon puts in file names
// and snapshots. Callers that need determinism inject their own generator
// and use this one only as the default.
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"strconv"
)

// NewUUID returns a random version-4 UUID in its canonical text form, as
// Java's UUID.randomUUID().toString() prints it.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Derived returns a generator whose first UUID is seed and whose later
// ones are derived from it (name-based, version 5 in form): one draw from
// a shared generator then names any number of files of one task, whatever
// order tasks running at the same time draw in.
func Derived(seed string) func() string {
	n := 0
	return func() string {
		n++
		if n == 1 {
			return seed
		}
		sum := sha256.Sum256([]byte(seed + "/" + strconv.Itoa(n)))
		b := sum[:16]
		b[6] = b[6]&0x0f | 0x50
		b[8] = b[8]&0x3f | 0x80
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	}
}
