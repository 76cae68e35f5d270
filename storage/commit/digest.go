package commit

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/bits"
	"strings"
)

// Digest is the content digest of a commit: the sum, modulo 2^256, of the
// SHA-256 of every row its data part writes, each row encoded with its row
// kind as a Paimon BinaryRow. A sum does not depend on the order the rows
// were written in, on how they were split into files or buckets, or on
// file names and sequence numbers, which a retry of the same rows changes;
// so a retried commit has the digest of the first attempt, and another
// commit's rows have another one. The zero Digest means unknown: a commit
// whose writer computed none (Java, Flink, hand-built messages).
//
// It tells "already committed" from "another writer under the same user
// and identifier": Paimon takes the identifier alone for proof, which
// silently drops the second writer's rows.
type Digest [32]byte

// digestVersion prefixes the text form, naming the row encoding and sum.
const digestVersion = "v1:"

// DigestProperty is the snapshot property holding a commit's Digest.
// Java Paimon keeps snapshot properties and ignores this one.
const DigestProperty = "lakesql.content-digest"

// RowDigest is the digest of one row, given its encoding.
func RowDigest(encoded []byte) Digest { return sha256.Sum256(encoded) }

// Add adds o to d, modulo 2^256.
func (d *Digest) Add(o Digest) {
	var carry uint64
	for i := 24; i >= 0; i -= 8 {
		var sum uint64
		sum, carry = bits.Add64(binary.BigEndian.Uint64(d[i:]), binary.BigEndian.Uint64(o[i:]), carry)
		binary.BigEndian.PutUint64(d[i:], sum)
	}
}

// IsZero reports whether d is unknown.
func (d Digest) IsZero() bool { return d == Digest{} }

func (d Digest) String() string {
	if d.IsZero() {
		return "none"
	}
	return digestVersion + hex.EncodeToString(d[:])
}

// ParseDigest reads the text form of a Digest; "" is the zero Digest.
func ParseDigest(s string) (Digest, error) {
	var d Digest
	if s == "" {
		return d, nil
	}
	h, ok := strings.CutPrefix(s, digestVersion)
	if !ok {
		return d, fmt.Errorf("content digest %q: unknown version", s)
	}
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != len(d) {
		return d, fmt.Errorf("content digest %q: want %d hex bytes", s, len(d))
	}
	copy(d[:], b)
	return d, nil
}

// requestDigest sums the digests of the messages' data increments.
func requestDigest(messages []Message) Digest {
	var d Digest
	for i := range messages {
		d.Add(messages[i].ContentDigest)
	}
	return d
}

// snapshotDigest is the Digest a snapshot records; zero when it records
// none or one this version cannot read, which compares as unknown.
func snapshotDigest(properties map[string]string) Digest {
	d, _ := ParseDigest(properties[DigestProperty])
	return d
}

// sameContent reports whether two digests may be of the same commit:
// they are equal, or one is unknown.
func sameContent(a, b Digest) bool { return a.IsZero() || b.IsZero() || a == b }
