package sketch

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// HLL sketch image layout, org.apache.datasketches.hll.PreambleUtil:
// byte 0 preamble ints, 1 serialization version (1), 2 family (7), 3 lgK,
// 4 lgArr (coupon table or aux table size), 5 flags, 6 list count (LIST)
// or curMin (HLL), 7 mode (current mode in bits 0-1, target type in bits
// 2-3). LIST coupons start at 8; SET has its count at 8 and coupons at 12;
// HLL has hipAccum, kxq0 and kxq1 (doubles) at 8, 16, 24, numAtCurMin at
// 32, the aux count at 36, the register array at 40 and the HLL_4 aux
// table after it. Little-endian throughout.
const (
	hllFlagEmpty      = 4
	hllFlagCompact    = 8
	hllFlagOutOfOrder = 16
	hllFlagRebuildKxQ = 32

	hllModeList = 0
	hllModeSet  = 1
	hllModeHLL  = 2

	hllTgt4 = 0
	hllTgt6 = 1
	hllTgt8 = 2

	hllListPreInts = 2
	hllSetPreInts  = 3
	hllPreInts     = 10
	hllArrayStart  = 40

	hllMinLgK = 4
	hllMaxLgK = 21

	hllKeyBits  = 26
	hllKeyMask  = 1<<hllKeyBits - 1
	hllAuxToken = 15

	hllLgInitListSize = 3
	hllLgInitSetSize  = 5
)

// hllLgAuxArrInts is HllUtil.LG_AUX_ARR_INTS: the initial size of an
// HLL_4 aux table by lgK.
var hllLgAuxArrInts = [...]int{0, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13}

// HLLUnion returns the bytes of Paimon's HllSketchUtil.union(acc, in):
// the accumulator is heapified (HllSketch.heapify), the input becomes a
// union of its own lgK (Union.heapify), the accumulator is folded into it,
// and the result is the compact image of getResult(HLL_4).
func HLLUnion(acc, in []byte) ([]byte, error) {
	a, err := heapifyHLL(acc, true)
	if err != nil {
		return nil, err
	}
	if len(in) < 8 {
		return nil, hllCorrupt("image of %d bytes is shorter than its preamble", len(in))
	}
	lgMaxK := int(in[3])
	if lgMaxK < hllMinLgK || lgMaxK > hllMaxLgK {
		return nil, hllCorrupt("lgK %d is not between 4 and 21", lgMaxK)
	}
	b, err := heapifyHLL(in, false)
	if err != nil {
		return nil, err
	}
	gadget := hllSketch{coupons: newCoupons(lgMaxK, hllTgt8, hllModeList)}
	for _, src := range []hllSketch{b, a} {
		if gadget, err = unionHLL(src, gadget, lgMaxK); err != nil {
			return nil, err
		}
	}
	if g := gadget.array; g != nil {
		if err := g.checkRebuildKxQ(); err != nil {
			return nil, err
		}
		h4, err := g.toHll4()
		if err != nil {
			return nil, err
		}
		return h4.compactImage(), nil
	}
	return gadget.coupons.compactImage(hllTgt4), nil
}

func hllCorrupt(format string, args ...any) error {
	return fmt.Errorf("%w: hll sketch: %s", lakeerr.ErrCorruption, fmt.Sprintf(format, args...))
}

// hllSketch is HllSketch: either coupons (LIST or SET mode) or an HLL
// register array.
type hllSketch struct {
	coupons *hllCoupons
	array   *hllArray
}

func (s hllSketch) lgK() int {
	if s.coupons != nil {
		return s.coupons.lgK
	}
	return s.array.lgK
}

// empty mirrors HllSketchImpl.isEmpty: coupons without any, never an array.
func (s hllSketch) empty() bool {
	return s.coupons != nil && s.coupons.count == 0
}

// couponUpdate mirrors HllSketch.couponUpdate: coupons of value zero are
// skipped; coupons promote themselves to a set or an HLL_8 array.
func (s *hllSketch) couponUpdate(coupon uint32) error {
	if coupon>>hllKeyBits == 0 {
		return nil
	}
	if s.array != nil {
		s.array.couponUpdate(coupon)
		return nil
	}
	promoted, err := s.coupons.update(coupon)
	if err != nil {
		return err
	}
	if !promoted {
		return nil
	}
	c := s.coupons
	if c.mode == hllModeList && c.lgK >= 8 {
		// CouponList.promoteHeapListToSet; the set cannot promote itself
		// while taking the list's eight coupons.
		set := newCoupons(c.lgK, c.tgt, hllModeSet)
		for _, x := range c.arr[:c.count] {
			if _, err := set.update(x); err != nil {
				return err
			}
		}
		s.coupons = set
		return nil
	}
	s.coupons, s.array = nil, c.promoteToHLL()
	return nil
}

// mergeTo mirrors CouponList.mergeTo: every coupon, in table order.
func (c *hllCoupons) mergeTo(dst *hllSketch) error {
	for _, x := range c.arr {
		if x == 0 {
			continue
		}
		if err := dst.couponUpdate(x); err != nil {
			return err
		}
	}
	return nil
}

// unionHLL mirrors Union.unionImpl for heap sketches: it returns the new
// gadget after folding source into gadget.
func unionHLL(source, gadget hllSketch, lgMaxK int) (hllSketch, error) {
	if source.empty() {
		return gadget, nil
	}
	if c := source.coupons; c != nil {
		if c.mode == hllModeSet && gadget.empty() && c.lgK == gadget.lgK() {
			return hllSketch{coupons: c.copyAs(hllTgt8)}, nil
		}
		err := c.mergeTo(&gadget)
		return gadget, err
	}
	// Java's switch key: bits 1-2 the gadget's mode (3 when empty), bit 3
	// a source of smaller lgK than the gadget, bit 4 a source above
	// lgMaxK; bit 0, a gadget in off-heap memory, is never set here.
	src := source.array
	gdtMode := 3
	switch {
	case gadget.array != nil:
		gdtMode = hllModeHLL
	case !gadget.empty():
		gdtMode = gadget.coupons.mode
	}
	sw := gdtMode << 1
	if src.lgK < gadget.lgK() {
		sw |= 8
	}
	if src.lgK > lgMaxK {
		sw |= 16
	}
	switch sw {
	case 0, 8, 2, 10, 16, 18:
		// A LIST or SET gadget: copy (or downsample) the source and fold
		// the gadget's coupons into it.
		var dst *hllArray
		var err error
		if sw >= 16 {
			dst, err = src.downsample(lgMaxK)
		} else {
			dst, err = src.copyAs8()
		}
		if err != nil {
			return gadget, err
		}
		out := hllSketch{array: dst}
		err = gadget.coupons.mergeTo(&out)
		return out, err
	case 4, 20:
		// An HLL gadget of lgK no larger than the source's: merge the
		// registers into it (folding a larger source).
		g := gadget.array
		if err := mergeHLLArrays(src, g, src.lgK, g.lgK); err != nil {
			return gadget, err
		}
		g.putOutOfOrder(true)
		return gadget, nil
	case 12:
		// An HLL gadget of larger lgK: downsample it to the source's.
		g, err := gadget.array.downsample(src.lgK)
		if err != nil {
			return gadget, err
		}
		if err := mergeHLLArrays(src, g, src.lgK, gadget.array.lgK); err != nil {
			return gadget, err
		}
		g.putOutOfOrder(true)
		return hllSketch{array: g}, nil
	case 6, 14:
		// An empty gadget: the source, as HLL_8.
		dst, err := src.copyAs8()
		return hllSketch{array: dst}, err
	default:
		// 22: an empty gadget and a source above lgMaxK (a source below
		// the gadget's lgK and above lgMaxK cannot be).
		dst, err := src.downsample(lgMaxK)
		return hllSketch{array: dst}, err
	}
}

// heapifyHLL mirrors HllSketch.heapify(mem, checkRebuild).
func heapifyHLL(mem []byte, checkRebuild bool) (hllSketch, error) {
	if len(mem) < 8 {
		return hllSketch{}, hllCorrupt("image of %d bytes is shorter than its preamble", len(mem))
	}
	preInts, mode, tgt, lgK := int(mem[0]&0x3f), int(mem[7]&3), int(mem[7]>>2&3), int(mem[3])
	if len(mem) < preInts*4 || mem[1] != 1 || mem[2] != 7 || mode == 3 || tgt == 3 ||
		preInts != [...]int{hllListPreInts, hllSetPreInts, hllPreInts}[mode] {
		return hllSketch{}, hllCorrupt("invalid preamble %x", mem[:8])
	}
	if lgK < hllMinLgK || lgK > hllMaxLgK {
		return hllSketch{}, hllCorrupt("lgK %d is not between 4 and 21", lgK)
	}
	switch mode {
	case hllModeList:
		c := newCoupons(lgK, tgt, hllModeList)
		c.count = int(mem[6])
		if c.count > len(c.arr) || len(mem) < 8+4*c.count {
			return hllSketch{}, hllCorrupt("list of %d coupons in %d bytes", c.count, len(mem))
		}
		readInts(mem[8:], c.arr[:c.count])
		return hllSketch{coupons: c}, nil
	case hllModeSet:
		return heapifySet(mem, lgK, tgt)
	}
	a, err := heapifyArray(mem, lgK, tgt)
	if err != nil {
		return hllSketch{}, err
	}
	if checkRebuild && tgt == hllTgt8 {
		if err := a.checkRebuildKxQ(); err != nil {
			return hllSketch{}, err
		}
	}
	return hllSketch{array: a}, nil
}

func readInts(mem []byte, dst []uint32) {
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint32(mem[4*i:])
	}
}

// heapifySet mirrors CouponHashSet.heapifySet: a compact image is
// inserted coupon by coupon (so the table is laid out as Java's is), an
// updatable one is taken as it is.
func heapifySet(mem []byte, lgK, tgt int) (hllSketch, error) {
	count := int(int32(binary.LittleEndian.Uint32(mem[8:])))
	if mem[5]&hllFlagCompact != 0 {
		if count < 0 || len(mem) < 12+4*count {
			return hllSketch{}, hllCorrupt("set of %d coupons in %d bytes", count, len(mem))
		}
		set := newCoupons(lgK, tgt, hllModeSet)
		for i := range count {
			// A promotion is ignored here, as Java ignores it.
			if _, err := set.update(binary.LittleEndian.Uint32(mem[12+4*i:])); err != nil {
				return hllSketch{}, err
			}
		}
		return hllSketch{coupons: set}, nil
	}
	lgArr := int(mem[4])
	if lgArr < hllLgInitSetSize {
		lgArr = setLgArr(count)
	}
	if count < 0 || lgArr > 30 || len(mem) < 12+4<<lgArr {
		return hllSketch{}, hllCorrupt("set table of 2^%d coupons in %d bytes", lgArr, len(mem))
	}
	set := &hllCoupons{lgK: lgK, tgt: tgt, mode: hllModeSet, lgArr: lgArr, count: count, arr: make([]uint32, 1<<lgArr)}
	readInts(mem[12:], set.arr)
	return hllSketch{coupons: set}, nil
}

// setLgArr mirrors PreambleUtil.computeLgArr for a SET image: the table
// size a count of coupons needs, at least the initial set size.
func setLgArr(count int) int {
	ceil := 1
	for ceil < count {
		ceil <<= 1
	}
	if 4*count > 3*ceil {
		ceil <<= 1
	}
	lg := 0
	for 1<<lg < ceil {
		lg++
	}
	return max(hllLgInitSetSize, lg)
}

// hllCoupons is CouponList (LIST mode: coupons in arrival order) and
// CouponHashSet (SET mode: an open-addressing table).
type hllCoupons struct {
	lgK, tgt, mode int
	lgArr, count   int
	arr            []uint32
}

func newCoupons(lgK, tgt, mode int) *hllCoupons {
	lgArr := hllLgInitListSize
	if mode == hllModeSet {
		lgArr = hllLgInitSetSize
	}
	return &hllCoupons{lgK: lgK, tgt: tgt, mode: mode, lgArr: lgArr, arr: make([]uint32, 1<<lgArr)}
}

func (c *hllCoupons) copyAs(tgt int) *hllCoupons {
	out := *c
	out.tgt = tgt
	out.arr = append([]uint32(nil), c.arr...)
	return &out
}

// update mirrors CouponList.couponUpdate and CouponHashSet.couponUpdate;
// it reports when the sketch must be promoted (a full list, a set at its
// largest size and 3/4 full).
func (c *hllCoupons) update(coupon uint32) (bool, error) {
	if c.mode == hllModeList {
		for i, x := range c.arr {
			if x == 0 {
				c.arr[i] = coupon
				c.count++
				return c.count >= len(c.arr), nil
			}
			if x == coupon {
				return false, nil
			}
		}
		return false, hllCorrupt("coupon list has no empty slot and no duplicate")
	}
	i, err := findCoupon(c.arr, c.lgArr, coupon)
	if err != nil || i >= 0 {
		return false, err
	}
	c.arr[^i] = coupon
	c.count++
	if 4*c.count > 3*(1<<c.lgArr) {
		if c.lgArr == c.lgK-3 {
			return true, nil
		}
		c.lgArr++
		grown := make([]uint32, 1<<c.lgArr)
		for _, x := range c.arr {
			if x == 0 {
				continue
			}
			j, err := findCoupon(grown, c.lgArr, x)
			if err != nil {
				return false, err
			}
			if j >= 0 {
				return false, hllCorrupt("duplicate coupon %08x", x)
			}
			grown[^j] = x
		}
		c.arr = grown
	}
	return false, nil
}

// findCoupon mirrors AbstractCoupons.find: the slot of coupon, or the
// complement of the empty slot where it goes.
func findCoupon(arr []uint32, lgArr int, coupon uint32) (int, error) {
	mask := uint32(len(arr) - 1)
	probe := coupon & mask
	start := probe
	for {
		switch arr[probe] {
		case 0:
			return ^int(probe), nil
		case coupon:
			return int(probe), nil
		}
		probe = (probe + (coupon&hllKeyMask>>lgArr | 1)) & mask
		if probe == start {
			return 0, hllCorrupt("coupon table is full")
		}
	}
}

// promoteToHLL mirrors CouponList.promoteHeapListOrSetToHll. Only the
// union's gadget, of type HLL_8, is promoted (heapifySet ignores the
// signal, as Java does): the coupons go into registers in table order and
// the HIP accumulator starts at the coupons' estimate.
func (c *hllCoupons) promoteToHLL() *hllArray {
	a := newHll8(c.lgK)
	for _, x := range c.arr {
		if x != 0 {
			a.couponUpdate(x)
		}
	}
	a.hip = couponEstimate(c.count)
	return a
}

// compactImage mirrors ToByteArrayImpl.toCouponByteArray for a heap
// sketch and a compact image: the coupons in table order.
func (c *hllCoupons) compactImage(tgt int) []byte {
	start, preInts := 8, hllListPreInts
	if c.mode == hllModeSet {
		start, preInts = 12, hllSetPreInts
	}
	out := make([]byte, start, start+4*c.count)
	out[0], out[1], out[2], out[3], out[4] = byte(preInts), 1, 7, byte(c.lgK), byte(c.lgArr)
	out[5] = hllFlagCompact
	if c.count == 0 {
		out[5] |= hllFlagEmpty
	}
	out[7] = byte(tgt<<2 | c.mode)
	for _, x := range c.arr {
		if x != 0 {
			out = binary.LittleEndian.AppendUint32(out, x)
		}
	}
	if c.mode == hllModeList {
		out[6] = byte(c.count)
	} else {
		binary.LittleEndian.PutUint32(out[8:], uint32(c.count))
	}
	return out
}

// hllArray is HllArray in HLL mode: Hll4Array, Hll6Array or Hll8Array,
// with the preamble state the image carries.
type hllArray struct {
	lgK, tgt        int
	ooo, rebuild    bool
	curMin          int
	numAtCurMin     int
	hip, kxq0, kxq1 float64
	regs            []byte
	aux             map[int]int // HLL_4 read from an image: slot -> value
	auxTable        *hllAuxTable
}

func hllArrayBytes(lgK, tgt int) int {
	switch tgt {
	case hllTgt4:
		return 1 << (lgK - 1)
	case hllTgt6:
		return (1<<lgK)*3/4 + 1
	}
	return 1 << lgK
}

func newHllArray(lgK, tgt int) *hllArray {
	return &hllArray{lgK: lgK, tgt: tgt, numAtCurMin: 1 << lgK, kxq0: float64(int(1) << lgK),
		regs: make([]byte, hllArrayBytes(lgK, tgt))}
}

func newHll8(lgK int) *hllArray { return newHllArray(lgK, hllTgt8) }

// heapifyArray mirrors Hll4Array, Hll6Array and Hll8Array.heapify
// (HllArray.extractCommonHll and, for HLL_4, HeapAuxHashMap.heapify).
func heapifyArray(mem []byte, lgK, tgt int) (*hllArray, error) {
	a := newHllArray(lgK, tgt)
	end := hllArrayStart + len(a.regs)
	if len(mem) < end {
		return nil, hllCorrupt("register array of %d bytes in an image of %d", len(a.regs), len(mem))
	}
	flags := mem[5]
	a.ooo = flags&hllFlagOutOfOrder != 0
	a.rebuild = flags&hllFlagRebuildKxQ != 0
	a.curMin = int(mem[6])
	a.hip = math.Float64frombits(binary.LittleEndian.Uint64(mem[8:]))
	a.kxq0 = math.Float64frombits(binary.LittleEndian.Uint64(mem[16:]))
	a.kxq1 = math.Float64frombits(binary.LittleEndian.Uint64(mem[24:]))
	a.numAtCurMin = int(int32(binary.LittleEndian.Uint32(mem[32:])))
	copy(a.regs, mem[hllArrayStart:end])
	if tgt != hllTgt4 {
		return a, nil
	}
	auxCount := int(int32(binary.LittleEndian.Uint32(mem[36:])))
	if auxCount <= 0 {
		return a, nil
	}
	n := auxCount
	if flags&hllFlagCompact == 0 {
		n = 1 << min(int(mem[4]), 30)
	}
	if len(mem)-end < 4*n {
		return nil, hllCorrupt("aux table of %d entries in an image of %d bytes", n, len(mem))
	}
	a.aux = make(map[int]int, n)
	for i := range n {
		pair := binary.LittleEndian.Uint32(mem[end+4*i:])
		if pair == 0 && flags&hllFlagCompact == 0 {
			continue
		}
		slot := int(pair & hllKeyMask & (1<<lgK - 1))
		if _, dup := a.aux[slot]; dup {
			return nil, hllCorrupt("aux table holds slot %d twice", slot)
		}
		a.aux[slot] = int(pair >> hllKeyBits)
	}
	return a, nil
}

func (a *hllArray) nibble(slot int) int {
	b := a.regs[slot>>1]
	if slot&1 != 0 {
		b >>= 4
	}
	return int(b & 0x0f)
}

func (a *hllArray) putNibble(slot, v int) {
	i := slot >> 1
	if slot&1 == 0 {
		a.regs[i] = a.regs[i]&0xf0 | byte(v)&0x0f
	} else {
		a.regs[i] = a.regs[i]&0x0f | byte(v<<4)&0xf0
	}
}

// value is the register of slot (getSlotValue and the pair iterators).
func (a *hllArray) value(slot int) (int, error) {
	switch a.tgt {
	case hllTgt4:
		n := a.nibble(slot)
		if n != hllAuxToken {
			return n + a.curMin, nil
		}
		v, ok := a.aux[slot]
		if !ok {
			return 0, hllCorrupt("slot %d is an exception missing from the aux table", slot)
		}
		return v, nil
	case hllTgt6:
		bit := slot * 6
		w := uint16(a.regs[bit>>3]) | uint16(a.regs[bit>>3+1])<<8
		return int(w >> (bit & 7) & 0x3f), nil
	}
	return int(a.regs[slot] & 0x3f), nil
}

// couponUpdate mirrors Hll8Array.couponUpdate; coupons only ever go into
// HLL_8 arrays here (the gadget and its copies).
func (a *hllArray) couponUpdate(coupon uint32) {
	slot := int(coupon & (1<<a.lgK - 1))
	newValue := int(coupon >> hllKeyBits)
	old := int(a.regs[slot] & 0x3f)
	if newValue > old {
		a.regs[slot] = byte(newValue & 0x3f)
		a.hipAndKxQUpdate(old, newValue)
		if old == 0 {
			a.numAtCurMin--
		}
	}
}

func invPow2(e int) float64 { return math.Ldexp(1, -e) }

// hipAndKxQUpdate mirrors AbstractHllArray.hipAndKxQIncrementalUpdate:
// the HIP accumulator grows by k over the current sum of 2^-register,
// then that sum trades the old register's term for the new one's (kept
// in two halves below and from 32).
func (a *hllArray) hipAndKxQUpdate(oldValue, newValue int) {
	kxq0, kxq1 := a.kxq0, a.kxq1
	a.hip += float64(int(1)<<a.lgK) / (kxq0 + kxq1)
	if oldValue < 32 {
		kxq0 -= invPow2(oldValue)
		a.kxq0 = kxq0
	} else {
		kxq1 -= invPow2(oldValue)
		a.kxq1 = kxq1
	}
	if newValue < 32 {
		a.kxq0 = kxq0 + invPow2(newValue)
	} else {
		a.kxq1 = kxq1 + invPow2(newValue)
	}
}

// putOutOfOrder mirrors HllArray.putOutOfOrder: an out-of-order sketch
// has no HIP estimate, so its accumulator restarts at zero.
func (a *hllArray) putOutOfOrder(ooo bool) {
	if ooo {
		a.hip = 0
	}
	a.ooo = ooo
}

// checkRebuildKxQ mirrors Union.checkRebuildCurMinNumKxQ: after an
// array merge the union recomputes curMin, numAtCurMin and the kxq sums.
// Java adds 2^-v - 1 to kxq1 for registers of 32 and above (not 2^-v),
// and so does this.
func (a *hllArray) checkRebuildKxQ() error {
	if !a.rebuild || a.tgt != hllTgt8 {
		return nil
	}
	values, err := a.registers()
	if err != nil {
		return err
	}
	kxq0, kxq1 := float64(int(1)<<a.lgK), 0.0
	for _, v := range values {
		if v > 0 {
			if v < 32 {
				kxq0 += invPow2(v) - 1.0
			} else {
				kxq1 += invPow2(v) - 1.0
			}
		}
	}
	a.curMin, a.numAtCurMin = curMinAndNum(values)
	a.kxq0, a.kxq1, a.rebuild = kxq0, kxq1, false
	return nil
}

// registers is every slot's value, in slot order.
func (a *hllArray) registers() ([]int, error) {
	values := make([]int, 1<<a.lgK)
	for slot := range values {
		v, err := a.value(slot)
		if err != nil {
			return nil, err
		}
		values[slot] = v
	}
	return values, nil
}

// curMinAndNum mirrors Conversions.curMinAndNum: the smallest register
// (64 when there are none) and how many slots hold it.
func curMinAndNum(values []int) (curMin, num int) {
	curMin = 64
	for _, v := range values {
		if v < curMin {
			curMin, num = v, 1
		} else if v == curMin {
			num++
		}
	}
	return curMin, num
}

// copyAs8 mirrors AbstractHllArray.copyAs(HLL_8): a copy of an HLL_8
// array, Conversions.convertToHll8 of the others (registers re-added in
// slot order, so kxq is recomputed; the HIP accumulator is the source's).
func (a *hllArray) copyAs8() (*hllArray, error) {
	if a.tgt == hllTgt8 {
		out := *a
		out.regs = append([]byte(nil), a.regs...)
		return &out, nil
	}
	values, err := a.registers()
	if err != nil {
		return nil, err
	}
	out := newHll8(a.lgK)
	out.putOutOfOrder(a.ooo)
	zeros := 1 << a.lgK
	for slot, v := range values {
		if v != 0 {
			zeros--
			out.couponUpdate(uint32(v)<<hllKeyBits | uint32(slot))
		}
	}
	out.numAtCurMin = zeros
	out.hip = a.hip
	out.rebuild = false
	return out, nil
}

// downsample mirrors Union.downsample: the registers folded into an
// HLL_8 array of lgK tgtLgK (slot modulo the smaller k).
func (a *hllArray) downsample(tgtLgK int) (*hllArray, error) {
	values, err := a.registers()
	if err != nil {
		return nil, err
	}
	out := newHll8(tgtLgK)
	for slot, v := range values {
		if v != 0 {
			out.couponUpdate(uint32(v)<<hllKeyBits | uint32(slot))
		}
	}
	out.hip = a.hip
	out.putOutOfOrder(a.ooo)
	out.rebuild = false
	return out, nil
}

// mergeHLLArrays mirrors Union.mergeHlltoHLLmode into a heap HLL_8
// target: register-wise maximum, the source folded when its lgK is
// larger than tgtLgK. HLL_8 sources are compared as Java's signed bytes.
// The target's curMin, numAtCurMin and kxq are left stale, marked for
// rebuild.
func mergeHLLArrays(src, tgt *hllArray, srcLgK, tgtLgK int) error {
	mask := 1<<srcLgK - 1
	if srcLgK > tgtLgK {
		mask = 1<<tgtLgK - 1
	}
	for i := range 1 << srcLgK {
		j := i & mask
		if src.tgt == hllTgt8 {
			if int8(src.regs[i]) > int8(tgt.regs[j]) {
				tgt.regs[j] = src.regs[i]
			}
			continue
		}
		v, err := src.value(i)
		if err != nil {
			return err
		}
		tgt.regs[j] = byte(max(v, int(tgt.regs[j]&0x3f)))
	}
	tgt.rebuild = true
	return nil
}

// toHll4 mirrors Conversions.convertToHll4: registers stored as nibbles
// above curMin, those 15 or more above it in a new aux table, kxq
// recomputed, the HIP accumulator kept.
func (a *hllArray) toHll4() (*hllArray, error) {
	out := newHllArray(a.lgK, hllTgt4)
	out.putOutOfOrder(a.ooo)
	values, err := a.registers()
	if err != nil {
		return nil, err
	}
	curMin, num := curMinAndNum(values)
	for slot, v := range values {
		if v == 0 {
			continue
		}
		out.hipAndKxQUpdate(0, v)
		if v >= curMin+hllAuxToken {
			out.putNibble(slot, hllAuxToken)
			if out.auxTable == nil {
				out.auxTable = newAuxTable(a.lgK)
			}
			if err := out.auxTable.add(slot, v); err != nil {
				return nil, err
			}
		} else {
			out.putNibble(slot, v-curMin)
		}
	}
	out.curMin, out.numAtCurMin, out.hip, out.rebuild = curMin, num, a.hip, false
	return out, nil
}

// compactImage mirrors ToByteArrayImpl.toHllByteArray(compact) of an
// HLL_4 array: the aux pairs follow the registers in table order.
func (a *hllArray) compactImage() []byte {
	out := make([]byte, hllArrayStart, hllArrayStart+len(a.regs))
	out[0], out[1], out[2], out[3] = hllPreInts, 1, 7, byte(a.lgK)
	out[5] = hllFlagCompact
	if a.ooo {
		out[5] |= hllFlagOutOfOrder
	}
	out[6] = byte(a.curMin)
	out[7] = byte(a.tgt<<2 | hllModeHLL)
	binary.LittleEndian.PutUint64(out[8:], math.Float64bits(a.hip))
	binary.LittleEndian.PutUint64(out[16:], math.Float64bits(a.kxq0))
	binary.LittleEndian.PutUint64(out[24:], math.Float64bits(a.kxq1))
	binary.LittleEndian.PutUint32(out[32:], uint32(a.numAtCurMin))
	out = append(out, a.regs...)
	if t := a.auxTable; t != nil {
		binary.LittleEndian.PutUint32(out[36:], uint32(t.count))
		out[4] = byte(t.lgArr)
		for _, x := range t.arr {
			if x != 0 {
				out = binary.LittleEndian.AppendUint32(out, x)
			}
		}
	}
	return out
}

// hllAuxTable is HeapAuxHashMap: HLL_4's exceptions, pairs of slot and
// value in an open-addressing table keyed by slot.
type hllAuxTable struct {
	lgK, lgArr, count int
	arr               []uint32
}

func newAuxTable(lgK int) *hllAuxTable {
	lgArr := hllLgAuxArrInts[lgK]
	return &hllAuxTable{lgK: lgK, lgArr: lgArr, arr: make([]uint32, 1<<lgArr)}
}

// add mirrors HeapAuxHashMap.mustAdd, growing the table past 3/4.
func (t *hllAuxTable) add(slot, value int) error {
	i, err := t.find(t.arr, t.lgArr, slot)
	if err != nil {
		return err
	}
	if i >= 0 {
		return hllCorrupt("aux table already holds slot %d", slot)
	}
	t.arr[^i] = uint32(value)<<hllKeyBits | uint32(slot)&hllKeyMask
	t.count++
	if 4*t.count > 3*len(t.arr) {
		grown := make([]uint32, 2*len(t.arr))
		for _, x := range t.arr {
			if x == 0 {
				continue
			}
			j, err := t.find(grown, t.lgArr+1, int(x&(1<<t.lgK-1)))
			if err != nil {
				return err
			}
			grown[^j] = x
		}
		t.arr, t.lgArr = grown, t.lgArr+1
	}
	return nil
}

// find mirrors HeapAuxHashMap.find: entries compare on the slot only.
func (t *hllAuxTable) find(arr []uint32, lgArr, slot int) (int, error) {
	mask := len(arr) - 1
	probe := slot & mask
	start := probe
	for {
		x := arr[probe]
		if x == 0 {
			return ^probe, nil
		}
		if slot == int(x&(1<<t.lgK-1)) {
			return probe, nil
		}
		probe = (probe + (slot>>lgArr | 1)) & mask
		if probe == start {
			return 0, hllCorrupt("aux table is full")
		}
	}
}
