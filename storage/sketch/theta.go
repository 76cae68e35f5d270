package sketch

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Theta sketch image layout, org.apache.datasketches.theta.PreambleUtil:
// byte 0 preamble longs (low 6 bits), 1 serialization version, 2 family,
// 3 lgNomLongs (version 4: bits per packed delta), 4 lgArrLongs (version
// 4: bytes of the entry count), 5 flags, 6-7 seed hash, 8-11 retained
// entries, 12-15 sampling probability p, 16-23 theta; the hashes follow
// the preamble longs. Little-endian throughout.
const (
	thetaFlagEmpty      = 4
	thetaFlagCompact    = 8
	thetaFlagOrdered    = 16
	thetaFlagSingleItem = 32
	thetaFlagReadOnly   = 2

	thetaFamilyCompact = 3
	thetaSerVer        = 3

	// thetaSeedHash is ThetaUtil.computeSeedHash(9001), the seed of
	// ThetaUtil.DEFAULT_UPDATE_SEED that Paimon's union and Java's
	// UpdateSketch builder use: the low 16 bits of MurmurHash3 of the seed.
	thetaSeedHash = 0x93cc

	// Paimon builds its union with SetOperationBuilder's defaults: 4096
	// nominal entries (lgNomLongs 12), p = 1. The gadget's hash table ends
	// at 2k slots and rebuilds when it holds more than 15/16 of them
	// (HeapQuickSelectSketch.setHashTableThreshold, REBUILD_THRESHOLD).
	thetaK                = 1 << 12
	thetaRebuildThreshold = 15 * (2 * thetaK) / 16

	thetaMaxLong = math.MaxInt64
)

// ThetaUnion returns the bytes of Paimon's ThetaSketch.union(a, b): a
// heap Union with default settings takes a then b (UnionImpl.union(Memory))
// and serializes getResult(), a compact ordered sketch.
func ThetaUnion(a, b []byte) ([]byte, error) {
	u := thetaUnion{gadget: thetaGadget{hashes: map[int64]struct{}{}, theta: thetaMaxLong, empty: true},
		unionTheta: thetaMaxLong, unionEmpty: true}
	for _, mem := range [][]byte{a, b} {
		if err := u.union(mem); err != nil {
			return nil, err
		}
	}
	return u.result(), nil
}

// thetaGadget is the union's HeapQuickSelectSketch. Only the set of
// hashes it holds, its theta and its empty flag reach the result (which
// is sorted), so a Go map stands for Java's hash table; the table's
// resizes below full size reject nothing and are not modelled.
type thetaGadget struct {
	hashes map[int64]struct{}
	theta  int64
	empty  bool
}

// update mirrors HeapQuickSelectSketch.hashUpdate: zero and hashes at or
// above theta are rejected, a new hash past the rebuild threshold makes
// theta the (k+1)-th smallest hash and drops the hashes at or above it.
func (g *thetaGadget) update(h int64) error {
	if h < 0 {
		return fmt.Errorf("%w: theta sketch hash %d is negative", lakeerr.ErrCorruption, h)
	}
	g.empty = false
	if h == 0 || h >= g.theta {
		return nil
	}
	if _, dup := g.hashes[h]; dup {
		return nil
	}
	g.hashes[h] = struct{}{}
	if len(g.hashes) > thetaRebuildThreshold {
		g.theta = g.sorted()[thetaK]
		for h := range g.hashes {
			if h >= g.theta {
				delete(g.hashes, h)
			}
		}
	}
	return nil
}

func (g *thetaGadget) sorted() []int64 {
	out := make([]int64, 0, len(g.hashes))
	for h := range g.hashes {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// thetaUnion mirrors UnionImpl on the heap: the gadget plus the union's
// own theta and empty state, which incoming estimation-mode sketches
// lower and clear.
type thetaUnion struct {
	gadget     thetaGadget
	unionTheta int64
	unionEmpty bool
}

// union mirrors UnionImpl.union(Memory).
func (u *thetaUnion) union(mem []byte) error {
	if len(mem) < 16 {
		// Java ignores images shorter than two longs: the empty sketch (8
		// bytes) or garbage.
		return nil
	}
	serVer, family := mem[1], mem[2]
	switch serVer {
	case 4:
		if err := checkThetaSeedHash(mem); err != nil {
			return err
		}
		return u.unionCompressed(mem)
	case 3:
		if family < 1 || family > 3 {
			return fmt.Errorf("%w: theta sketch family %d is not Alpha, QuickSelect or Compact", lakeerr.ErrCorruption, family)
		}
		return u.unionVer3(mem)
	case 1, 2:
		return fmt.Errorf("%w: theta sketch serialization version %d", lakeerr.ErrUnsupported, serVer)
	}
	return fmt.Errorf("%w: theta sketch serialization version %d is unknown", lakeerr.ErrCorruption, serVer)
}

func checkThetaSeedHash(mem []byte) error {
	if got := binary.LittleEndian.Uint16(mem[6:]); got != thetaSeedHash {
		return fmt.Errorf("%w: theta sketch seed hash %04x, Paimon's union expects %04x (seed 9001)",
			lakeerr.ErrCorruption, got, thetaSeedHash)
	}
	return nil
}

// unionVer3 mirrors UnionImpl.processVer3: the image is read in place, in
// its own order (sorted for an ordered compact sketch, which allows the
// early stop at theta; as stored for an unordered one or a hash table).
func (u *thetaUnion) unionVer3(mem []byte) error {
	preLongs := int(mem[0] & 0x3f)
	flags := mem[5]
	if preLongs == 1 {
		// SingleItemSketch.otherCheckForSingleItem: an old writer may
		// have left the single-item flag unset; otherwise it is empty.
		if flags&0x1f == 0x1a && mem[1] >= 3 && mem[2] == thetaFamilyCompact || flags&thetaFlagSingleItem != 0 {
			return u.gadget.update(int64(binary.LittleEndian.Uint64(mem[8:])))
		}
		return nil
	}
	if err := checkThetaSeedHash(mem); err != nil {
		return err
	}
	count := int(int32(binary.LittleEndian.Uint32(mem[8:])))
	thetaIn := int64(thetaMaxLong)
	if preLongs == 2 {
		if count == 0 {
			return nil
		}
	} else {
		v, err := thetaLong(mem, 16)
		if err != nil {
			return err
		}
		thetaIn = v
	}
	u.unionTheta = min(u.unionTheta, thetaIn, u.gadget.theta)
	u.unionEmpty = false
	at := func(i int) (int64, error) { return thetaLong(mem, (preLongs+i)*8) }
	if flags&thetaFlagOrdered != 0 {
		if err := u.updateOrdered(count, at); err != nil {
			return err
		}
	} else {
		size := count
		if flags&thetaFlagCompact == 0 {
			size = int(int32(1) << (mem[4] & 31))
		}
		for i := 0; i < size; i++ {
			h, err := at(i)
			if err != nil {
				return err
			}
			if h <= 0 || h >= u.unionTheta {
				continue
			}
			if err := u.gadget.update(h); err != nil {
				return err
			}
		}
	}
	u.unionTheta = min(u.unionTheta, u.gadget.theta)
	return nil
}

// updateOrdered feeds sorted hashes to the gadget up to the union's theta
// (the "early stop" of UnionImpl).
func (u *thetaUnion) updateOrdered(count int, at func(int) (int64, error)) error {
	for i := 0; i < count; i++ {
		h, err := at(i)
		if err != nil {
			return err
		}
		if h >= u.unionTheta {
			break
		}
		if err := u.gadget.update(h); err != nil {
			return err
		}
	}
	return nil
}

func thetaLong(mem []byte, off int) (int64, error) {
	if off < 0 || off+8 > len(mem) {
		return 0, fmt.Errorf("%w: theta sketch of %d bytes is truncated", lakeerr.ErrCorruption, len(mem))
	}
	return int64(binary.LittleEndian.Uint64(mem[off:])), nil
}

// unionCompressed mirrors the serialization version 4 path: UnionImpl
// heapifies the image (CompactSketch.heapifyV4: the delta-encoded sorted
// hashes, bit-packed most significant bit first) and unions the heap
// sketch (UnionImpl.union(Sketch)).
func (u *thetaUnion) unionCompressed(mem []byte) error {
	if mem[2] != thetaFamilyCompact {
		return fmt.Errorf("%w: compressed theta sketch family %d is not Compact", lakeerr.ErrCorruption, mem[2])
	}
	preLongs, entryBits, countBytes := int(mem[0]&0x3f), int(mem[3]), int(mem[4])
	empty := mem[5]&thetaFlagEmpty != 0
	off := 8
	thetaIn := int64(thetaMaxLong)
	if preLongs > 1 {
		v, err := thetaLong(mem, 8)
		if err != nil {
			return err
		}
		thetaIn = v
		off += 8
	}
	var count int32
	for i := 0; i < countBytes; i++ {
		if off >= len(mem) {
			return fmt.Errorf("%w: compressed theta sketch is truncated", lakeerr.ErrCorruption)
		}
		count |= int32(mem[off]) << ((i << 3) & 31)
		off++
	}
	if count < 0 || entryBits < 1 || entryBits > 64 || int64(count)*int64(entryBits) > int64(len(mem)-off)*8 {
		return fmt.Errorf("%w: compressed theta sketch of %d entries of %d bits does not fit its %d bytes",
			lakeerr.ErrCorruption, count, entryBits, len(mem))
	}
	hashes := make([]int64, count)
	var prev int64
	bit := off * 8
	for i := range hashes {
		var delta uint64
		for range entryBits {
			delta = delta<<1 | uint64(mem[bit>>3]>>(7-bit&7)&1)
			bit++
		}
		prev += int64(delta)
		hashes[i] = prev
	}
	// HeapCompactSketch: an empty sketch with entries is corrupt, and an
	// empty one without has theta 1.
	if empty {
		if count != 0 {
			return fmt.Errorf("%w: compressed theta sketch is empty with %d entries", lakeerr.ErrCorruption, count)
		}
		return nil
	}
	u.unionTheta = min(u.unionTheta, thetaIn, u.gadget.theta)
	u.unionEmpty = false
	if err := u.updateOrdered(len(hashes), func(i int) (int64, error) { return hashes[i], nil }); err != nil {
		return err
	}
	u.unionTheta = min(u.unionTheta, u.gadget.theta)
	return nil
}

// result mirrors UnionImpl.getResult(true, null) and the toByteArray of
// the compact sketch it returns (EmptyCompactSketch, SingleItemSketch or
// HeapCompactSketch, built by CompactOperations.componentsToCompact).
func (u *thetaUnion) result() []byte {
	hashes := u.gadget.sorted()
	theta := u.gadget.theta
	if len(hashes) > thetaK {
		theta = min(theta, hashes[thetaK])
	}
	theta = min(theta, u.unionTheta)
	n, _ := slices.BinarySearch(hashes, theta)
	hashes = hashes[:n]
	if (u.gadget.empty && u.unionEmpty) || (n == 0 && theta == thetaMaxLong) {
		return []byte{1, thetaSerVer, thetaFamilyCompact, 0, 0, thetaFlagReadOnly | thetaFlagEmpty | thetaFlagCompact | thetaFlagOrdered, 0, 0}
	}
	const flags = thetaFlagReadOnly | thetaFlagCompact | thetaFlagOrdered
	if n == 1 && theta == thetaMaxLong {
		out := []byte{1, thetaSerVer, thetaFamilyCompact, 0, 0, flags | thetaFlagSingleItem, 0, 0}
		binary.LittleEndian.PutUint16(out[6:], thetaSeedHash)
		return binary.LittleEndian.AppendUint64(out, uint64(hashes[0]))
	}
	preLongs := 2
	if theta < thetaMaxLong {
		preLongs = 3
	}
	out := make([]byte, 8*preLongs, 8*(preLongs+n))
	out[0], out[1], out[2], out[5] = byte(preLongs), thetaSerVer, thetaFamilyCompact, flags
	binary.LittleEndian.PutUint16(out[6:], thetaSeedHash)
	binary.LittleEndian.PutUint32(out[8:], uint32(n))
	binary.LittleEndian.PutUint32(out[12:], math.Float32bits(1))
	if preLongs == 3 {
		binary.LittleEndian.PutUint64(out[16:], uint64(theta))
	}
	for _, h := range hashes {
		out = binary.LittleEndian.AppendUint64(out, uint64(h))
	}
	return out
}
