package lsm

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

const aggRBM64 = "rbm64"

// rbm64Agg mirrors FieldRoaringBitmap64Agg: VARBINARY values holding
// org.apache.paimon.utils.RoaringBitmap64, which wraps RoaringBitmap's
// Roaring64Bitmap (RoaringBitmap 1.2.1 in Paimon 1.3 and 1.4), are unioned
// and written back after runOptimize. Roaring64Bitmap.serialize does not
// write the portable 64-bit format that roaring's roaring64 package reads
// and writes: it dumps its in-memory layout, an adaptive radix tree (ART)
// over the high 48 bits of the values and a two-level array of 16-bit
// containers, with the tree's node kinds, its stale key bytes and the
// containers' slot numbers as the history of the bitmap left them. So the
// union replays Java's steps on that layout (rbm64Bitmap): deserialize both
// sides, Roaring64Bitmap.or, runOptimize, serialize, and the bytes come out
// as Java's. Retraction is refused, as FieldAggregator's default does.
type rbm64Agg struct {
	retractRefusal
	stateless
}

func newRBM64Agg(col spec.DataField, refuse retractRefusal) (aggregatorFactory, error) {
	if col.Type.Root != spec.VarBinary {
		return nil, fmt.Errorf("%w: data type for roaring bitmap column %s must be VARBINARY", ErrInvalidOptions, col.Name)
	}
	agg := rbm64Agg{retractRefusal: refuse}
	return func() fieldAggregator { return agg }, nil
}

func (rbm64Agg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		return firstNonNil(acc, in), nil
	}
	a, b, err := operands[[]byte](acc, in)
	if err != nil {
		return nil, err
	}
	union, err := readBitmap64(a)
	if err != nil {
		return nil, err
	}
	other, err := readBitmap64(b)
	if err != nil {
		return nil, err
	}
	if err := union.or(other); err != nil {
		return nil, err
	}
	union.runOptimize()
	return union.serialize(), nil
}

// rbm64Bitmap is org.roaringbitmap.longlong.Roaring64Bitmap's
// HighLowContainer: the ART maps the high 48 bits of a value, as 6
// big-endian bytes, to the slot of the container of its low 16 bits.
type rbm64Bitmap struct {
	keySize    int64 // Art.keySize
	root       *artNode
	containers rbm64Containers
}

// ART node kinds, NodeType's ordinals.
const (
	artNode4 byte = iota
	artNode16
	artNode48
	artNode256
	artLeaf
)

const (
	artKeyLen   = 6    // LeafNode.LEAF_NODE_KEY_LENGTH_IN_BYTES
	node48Empty = 0xff // Node48.EMPTY_VALUE
)

// artNode is one node of org.roaringbitmap.art, with the fields its
// serialization writes: the header (kind, count, compressed prefix) and the
// body. Node4 keeps its child keys in the bytes of an int, first child in
// the high byte (keys[0:4]); Node16 in two longs the same way (keys); both
// keep children sorted by unsigned key, and the bytes past count are
// whatever earlier operations left there. Node48 maps a key byte to a slot
// of children (index, 0xff for none); Node256 marks its keys in a bitmask.
type artNode struct {
	kind      byte
	count     int16
	prefixLen int8
	prefix    []byte
	keys      [16]byte
	index     [256]byte
	mask      [4]uint64
	children  []*artNode
	leafKey   [artKeyLen]byte
	container int64 // LeafNode.containerIdx
}

func newArtNode(kind byte, prefixLen int) *artNode {
	n := &artNode{kind: kind, prefixLen: int8(prefixLen), prefix: make([]byte, max(prefixLen, 0))}
	switch kind {
	case artNode4:
		n.children = make([]*artNode, 4)
	case artNode16:
		n.children = make([]*artNode, 16)
	case artNode48:
		n.children = make([]*artNode, 48)
		for i := range n.index {
			n.index[i] = node48Empty
		}
	case artNode256:
		n.children = make([]*artNode, 256)
	}
	return n
}

func newArtLeaf(key [artKeyLen]byte, container int64) *artNode {
	return &artNode{kind: artLeaf, leafKey: key, container: container}
}

// childPos is Node.getChildPos: the position of the child under key byte
// k, or -1.
func (n *artNode) childPos(k byte) int {
	switch n.kind {
	case artNode4, artNode16:
		for i := 0; i < int(n.count); i++ {
			if n.keys[i] == k {
				return i
			}
		}
	case artNode48:
		if n.index[k] != node48Empty {
			return int(k)
		}
	case artNode256:
		if n.children[k] != nil {
			return int(k)
		}
	}
	return -1
}

func (n *artNode) child(pos int) *artNode {
	if n.kind == artNode48 {
		return n.children[n.index[pos]]
	}
	return n.children[pos]
}

func (n *artNode) replaceChild(pos int, c *artNode) {
	if n.kind == artNode48 {
		n.children[n.index[pos]] = c
		return
	}
	n.children[pos] = c
}

// positions lists the child positions in key order (Node.getNextLargerPos
// from the start).
func (n *artNode) positions() []int {
	var out []int
	switch n.kind {
	case artNode4, artNode16:
		for i := 0; i < int(n.count); i++ {
			out = append(out, i)
		}
	case artNode48:
		for k, slot := range n.index {
			if slot != node48Empty {
				out = append(out, k)
			}
		}
	case artNode256:
		for w, m := range n.mask {
			for ; m != 0; m &= m - 1 {
				out = append(out, w*64+bits.TrailingZeros64(m))
			}
		}
	}
	return out
}

// insertChild is Node.insertLeaf (and Node4.insert for a fresh Node4): it
// returns the node that now holds the children, a larger kind when n was
// full.
func insertChild(n, c *artNode, k byte) *artNode {
	switch n.kind {
	case artNode4:
		if n.count < 4 {
			n.keys[n.count], n.children[n.count] = k, c
			n.count++
			sortArtKeys(n.keys[:], n.children, int(n.count)-1)
			return n
		}
		grown := newArtNode(artNode16, int(n.prefixLen))
		grown.count = 4
		copy(grown.keys[:4], n.keys[:4])
		copy(grown.children, n.children)
		copyArtPrefix(n, grown)
		return insertChild(grown, c, k)
	case artNode16:
		if n.count < 16 {
			if n.count < 8 {
				// Node16.insert sorts the first long only.
				n.keys[n.count], n.children[n.count] = k, c
				sortArtKeys(n.keys[:8], n.children, int(n.count))
			} else {
				n.keys[n.count], n.children[n.count] = k, c
				sortArtKeys(n.keys[:], n.children, int(n.count))
			}
			n.count++
			return n
		}
		grown := newArtNode(artNode48, int(n.prefixLen))
		for i := 0; i < int(n.count); i++ {
			grown.index[n.keys[i]] = byte(i)
			grown.children[i] = n.children[i]
		}
		copyArtPrefix(n, grown)
		grown.count = n.count
		return insertChild(grown, c, k)
	case artNode48:
		if n.count < 48 {
			pos := int(n.count)
			if n.children[pos] != nil {
				pos = 0
				for n.children[pos] != nil {
					pos++
				}
			}
			n.children[pos] = c
			n.index[k] = byte(pos)
			n.count++
			return n
		}
		grown := newArtNode(artNode256, int(n.prefixLen))
		for _, pos := range n.positions() {
			grown.children[pos] = n.child(pos)
			grown.mask[pos>>6] |= 1 << (pos & 63)
		}
		grown.count = n.count
		copyArtPrefix(n, grown)
		return insertChild(grown, c, k)
	}
	n.count++
	n.children[k] = c
	n.mask[k>>6] |= 1 << (k & 63)
	return n
}

// sortArtKeys is Node.sortSmallByteArray over keys[0..right]: an insertion
// sort by unsigned byte that moves the children along.
func sortArtKeys(keys []byte, children []*artNode, right int) {
	for i := 1; i <= right; i++ {
		k, c := keys[i], children[i]
		j := i - 1
		for ; j >= 0 && k < keys[j]; j-- {
			keys[j+1], children[j+1] = keys[j], children[j]
		}
		keys[j+1], children[j+1] = k, c
	}
}

// copyArtPrefix is Node.copyPrefix: the prefix array keeps its length,
// prefixLen bytes of it are copied.
func copyArtPrefix(src, dst *artNode) {
	dst.prefixLen = src.prefixLen
	copy(dst.prefix, src.prefix[:src.prefixLen])
}

// javaMismatch is ArraysShim.mismatch (Arrays.mismatch): the first index
// where a and b differ, the shorter length when one is a prefix of the
// other, -1 when they are equal.
func javaMismatch(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return min(len(a), len(b))
}

// find is Art.findByKey: the leaf of key, or nil.
func (r *rbm64Bitmap) find(key [artKeyLen]byte) *artNode {
	n, depth := r.root, 0
	for n != nil {
		if n.kind == artLeaf {
			if depth == artKeyLen || javaMismatch(n.leafKey[depth:], key[depth:]) == -1 {
				return n
			}
			return nil
		}
		if n.prefixLen > 0 {
			if javaMismatch(key[depth:], n.prefix[:n.prefixLen]) != int(n.prefixLen) {
				return nil
			}
			depth += int(n.prefixLen)
		}
		pos := n.childPos(key[depth])
		if pos < 0 {
			return nil
		}
		n = n.child(pos)
		depth++
	}
	return nil
}

// insert is Art.insert.
func (r *rbm64Bitmap) insert(key [artKeyLen]byte, container int64) {
	r.root = artInsert(r.root, key, 0, container)
	r.keySize++
}

func artInsert(n *artNode, key [artKeyLen]byte, depth int, container int64) *artNode {
	if n == nil {
		return newArtLeaf(key, container)
	}
	if n.kind == artLeaf {
		// A leaf meets another key: a Node4 over their common prefix
		// takes both, and the old leaf loses any prefix it had.
		common := javaMismatch(n.leafKey[depth:], key[depth:])
		n.prefixLen, n.prefix = 0, nil
		split := newArtNode(artNode4, common)
		copy(split.prefix, key[depth:depth+common])
		insertChild(split, n, n.leafKey[depth+common])
		insertChild(split, newArtLeaf(key, container), key[depth+common])
		return split
	}
	if n.prefixLen > 0 {
		mismatch := javaMismatch(n.prefix[:n.prefixLen], key[depth:])
		if mismatch != int(n.prefixLen) {
			// The key leaves the compressed prefix: a Node4 over the
			// shared part takes the node, which keeps the rest of its
			// prefix past the byte it now hangs under, and the new leaf.
			split := newArtNode(artNode4, mismatch)
			copy(split.prefix, n.prefix[:mismatch])
			insertChild(split, n, n.prefix[mismatch])
			n.prefixLen -= int8(mismatch + 1)
			if n.prefixLen > 0 {
				copy(n.prefix, n.prefix[mismatch+1:mismatch+1+int(n.prefixLen)])
			} else {
				n.prefix = []byte{}
			}
			insertChild(split, newArtLeaf(key, container), key[depth+mismatch])
			return split
		}
		depth += int(n.prefixLen)
	}
	if pos := n.childPos(key[depth]); pos >= 0 {
		child := n.child(pos)
		if fresh := artInsert(child, key, depth+1, container); fresh != child {
			n.replaceChild(pos, fresh)
		}
		return n
	}
	return insertChild(n, newArtLeaf(key, container), key[depth])
}

// leaves lists the leaves in key order (Art's LeafNodeIterator).
func leaves(n *artNode, out []*artNode) []*artNode {
	if n == nil {
		return out
	}
	if n.kind == artLeaf {
		return append(out, n)
	}
	for _, pos := range n.positions() {
		out = leaves(n.child(pos), out)
	}
	return out
}

// or is Roaring64Bitmap.or: each high key of other, in order, either gets
// a copy of other's container in a new slot or has its container unioned
// in place.
func (r *rbm64Bitmap) or(other *rbm64Bitmap) error {
	for _, leaf := range leaves(other.root, nil) {
		c2, err := other.containers.get(leaf.container)
		if err != nil {
			return err
		}
		if mine := r.find(leaf.leafKey); mine != nil {
			c1, err := r.containers.get(mine.container)
			if err != nil {
				return err
			}
			r.containers.replace(mine.container, c1.ior(c2))
			continue
		}
		r.insert(leaf.leafKey, r.containers.add(c2))
	}
	return nil
}

// runOptimize is Roaring64Bitmap.runOptimize: each container takes its
// runOptimize result only when that is a run container.
func (r *rbm64Bitmap) runOptimize() {
	for _, slots := range r.containers.slots {
		for i, c := range slots {
			if c != nil && c.kind != containerRun {
				if opt := c.runOptimized(); opt != nil {
					slots[i] = opt
				}
			}
		}
	}
}

// rbm64Containers is org.roaringbitmap.art.Containers: slots in arrays of
// arrays, a container's index the first level shifted left 32 plus the
// second. New containers take the slot after the last one handed out,
// never a freed one; the second level grows by half (ArrayList's rule), and
// its empty slots are serialized too.
type rbm64Containers struct {
	slots  [][]*rbm64Container
	size   int64
	first  int32 // firstLevelIdx
	second int32 // secondLevelIdx
}

// maxJVMArrayOffset is Containers.MAX_JVM_ARRAY_OFFSET.
const maxJVMArrayOffset = 1<<31 - 1 - 8 - 1

func newRBM64Containers() rbm64Containers { return rbm64Containers{first: -1} }

func (c *rbm64Containers) get(idx int64) (*rbm64Container, error) {
	first, second := int(idx>>32), int(int32(idx))
	if first < 0 || first >= len(c.slots) || second < 0 || second >= len(c.slots[first]) || c.slots[first][second] == nil {
		return nil, fmt.Errorf("%w: rbm64 leaf points at container slot %d, which holds none", lakeerr.ErrCorruption, idx)
	}
	return c.slots[first][second], nil
}

// consistent reports whether the last slot handed out is in the last
// array, as Containers keeps it, so that add can go on from it.
func (c *rbm64Containers) consistent() bool {
	if c.first == -1 {
		return len(c.slots) == 0
	}
	last := len(c.slots) - 1
	return int(c.first) == last && c.second >= 0 && int(c.second) < len(c.slots[last])
}

func (c *rbm64Containers) replace(idx int64, fresh *rbm64Container) {
	c.slots[idx>>32][int32(idx)] = fresh
}

// add is Containers.addContainer.
func (c *rbm64Containers) add(ct *rbm64Container) int64 {
	if c.second+1 == maxJVMArrayOffset || c.first == -1 {
		c.slots = append(c.slots, make([]*rbm64Container, 1))
		c.first++
		c.second = 0
	} else {
		c.second++
	}
	level := c.slots[c.first]
	if need := int(c.second) + 1; need > len(level) {
		grown := max(len(level)+len(level)>>1, need)
		level = append(level, make([]*rbm64Container, grown-len(level))...)
		c.slots[c.first] = level
	}
	level[c.second] = ct
	c.size++
	return int64(c.first)<<32 | int64(c.second)
}

// Container kinds as Containers.serialize numbers them.
const (
	containerRun    byte = 0
	containerBitmap byte = 1
	containerArray  byte = 2
)

const (
	arrayMaxSize     = 4096 // ArrayContainer.DEFAULT_MAX_SIZE
	bitmapSizeBytes  = 8192 // BitmapContainer.serializedSizeInBytes
	containerCapBits = 1 << 16
)

// rbm64Container is a 16-bit container. A container read from the input
// keeps its serialized body (raw) and cardinality until an operation
// changes it; a computed one holds its values as a bitmap and is written in
// its kind's form: sorted values, the 1024 words, or maximal runs.
type rbm64Container struct {
	kind byte
	card int32
	raw  []byte
	bits *[1024]uint64
}

func (c *rbm64Container) values() *[1024]uint64 {
	if c.bits != nil {
		return c.bits
	}
	var b [1024]uint64
	switch c.kind {
	case containerArray:
		for i := 0; i+1 < len(c.raw); i += 2 {
			v := binary.LittleEndian.Uint16(c.raw[i:])
			b[v>>6] |= 1 << (v & 63)
		}
	case containerBitmap:
		for i := range b {
			b[i] = binary.LittleEndian.Uint64(c.raw[8*i:])
		}
	case containerRun:
		runs := int(binary.LittleEndian.Uint16(c.raw))
		for i := range runs {
			start := int(binary.LittleEndian.Uint16(c.raw[2+4*i:]))
			length := int(binary.LittleEndian.Uint16(c.raw[4+4*i:]))
			for v := start; v <= start+length; v++ {
				b[v>>6] |= 1 << (v & 63)
			}
		}
	}
	c.bits = &b
	return c.bits
}

func computedContainer(kind byte, b *[1024]uint64) *rbm64Container {
	card := 0
	for _, w := range b {
		card += bits.OnesCount64(w)
	}
	return &rbm64Container{kind: kind, card: int32(card), bits: b}
}

// isFullRun is RunContainer.isFull: one run over all 65536 values.
func (c *rbm64Container) isFullRun() bool {
	if c.kind != containerRun {
		return false
	}
	if c.raw != nil {
		return string(c.raw) == "\x01\x00\x00\x00\xff\xff"
	}
	return c.card == containerCapBits
}

// countRuns is the number of runs of consecutive values.
func countRuns(b *[1024]uint64) int {
	runs := 0
	carry := uint64(0)
	for _, w := range b {
		runs += bits.OnesCount64(w &^ (w<<1 | carry))
		carry = w >> 63
	}
	return runs
}

func runSize(runs int) int { return 2 + 4*runs }

// efficientKind is RunContainer.toEfficientContainer's choice.
func efficientKind(b *[1024]uint64, card int) byte {
	if runSize(countRuns(b)) <= min(bitmapSizeBytes, 2+2*card) {
		return containerRun
	}
	if card <= arrayMaxSize {
		return containerArray
	}
	return containerBitmap
}

// ior is Container.ior(x) of RoaringBitmap 1.2.1 for each pair of kinds,
// reduced to the kind of its result (the values are the union): an array
// with an array stays an array if the union fits 4096 values, else becomes
// a bitmap (a full run if complete); a bitmap on either side gives a bitmap (a full one becomes a
// run, except a bitmap ored in place with an array); a run with an array or
// a run (with an array, a run) gives the most compact of run, array and
// bitmap; a full run stays as it is.
func (c *rbm64Container) ior(x *rbm64Container) *rbm64Container {
	if c.isFullRun() {
		return c
	}
	var union [1024]uint64
	a, b := c.values(), x.values()
	card := 0
	for i := range union {
		union[i] = a[i] | b[i]
		card += bits.OnesCount64(union[i])
	}
	full := card == containerCapBits
	var kind byte
	switch {
	case c.kind == containerArray && x.kind == containerArray:
		kind = containerArray
		if card > arrayMaxSize {
			kind = containerBitmap
			if full {
				kind = containerRun
			}
		}
	case c.kind == containerBitmap && x.kind == containerArray:
		kind = containerBitmap
	case c.kind == containerBitmap || x.kind == containerBitmap:
		kind = containerBitmap
		if full {
			kind = containerRun
		}
	default:
		kind = efficientKind(&union, card)
	}
	return computedContainer(kind, &union)
}

// runOptimized is the run container ArrayContainer.runOptimize or
// BitmapContainer.runOptimize returns when runs are strictly smaller, or
// nil.
func (c *rbm64Container) runOptimized() *rbm64Container {
	b := c.values()
	size := bitmapSizeBytes
	if c.kind == containerArray {
		size = 2 * int(c.card)
	}
	if size > runSize(countRuns(b)) {
		return computedContainer(containerRun, b)
	}
	return nil
}

// body is the container's writeArray output.
func (c *rbm64Container) body() []byte {
	if c.raw != nil {
		return c.raw
	}
	var out []byte
	switch c.kind {
	case containerArray:
		for v := range containerCapBits {
			if c.bits[v>>6]&(1<<(v&63)) != 0 {
				out = binary.LittleEndian.AppendUint16(out, uint16(v))
			}
		}
	case containerBitmap:
		for _, w := range c.bits {
			out = binary.LittleEndian.AppendUint64(out, w)
		}
	case containerRun:
		out = binary.LittleEndian.AppendUint16(out, 0)
		runs := 0
		for v := 0; v < containerCapBits; {
			if c.bits[v>>6]&(1<<(v&63)) == 0 {
				v++
				continue
			}
			start := v
			for v < containerCapBits && c.bits[v>>6]&(1<<(v&63)) != 0 {
				v++
			}
			out = binary.LittleEndian.AppendUint16(out, uint16(start))
			out = binary.LittleEndian.AppendUint16(out, uint16(v-1-start))
			runs++
		}
		binary.LittleEndian.PutUint16(out, uint16(runs))
	}
	return out
}

// serialize is HighLowContainer.serialize(DataOutput): a tag byte (0 for
// an empty bitmap), the ART (key count, then the nodes depth first, each a
// header of kind, count and prefix and its body), the containers and the
// slot counters, all little-endian.
func (r *rbm64Bitmap) serialize() []byte {
	if r.root == nil {
		return []byte{0}
	}
	out := binary.LittleEndian.AppendUint64([]byte{1}, uint64(r.keySize))
	out = appendArtNode(out, r.root)
	c := r.containers
	out = binary.LittleEndian.AppendUint32(out, uint32(len(c.slots)))
	for _, level := range c.slots {
		out = append(out, 0xfe) // NOT_TRIMMED_MARK
		out = binary.LittleEndian.AppendUint32(out, uint32(len(level)))
		for _, ct := range level {
			if ct == nil {
				out = append(out, 0)
				continue
			}
			out = append(out, 1, ct.kind)
			out = binary.LittleEndian.AppendUint32(out, uint32(ct.cardinality()))
			out = append(out, ct.body()...)
		}
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(c.size))
	out = binary.LittleEndian.AppendUint32(out, uint32(c.first))
	return binary.LittleEndian.AppendUint32(out, uint32(c.second))
}

// cardinality is what Java's getCardinality returns: a run container
// counts its runs; the others keep the count they were read or built with.
func (c *rbm64Container) cardinality() int32 {
	if c.kind != containerRun || c.raw == nil {
		return c.card
	}
	runs := int(binary.LittleEndian.Uint16(c.raw))
	card := 0
	for i := range runs {
		card += int(binary.LittleEndian.Uint16(c.raw[4+4*i:])) + 1
	}
	return int32(card)
}

func appendArtNode(out []byte, n *artNode) []byte {
	out = append(out, n.kind)
	out = binary.LittleEndian.AppendUint16(out, uint16(n.count))
	out = append(out, byte(n.prefixLen))
	if n.prefixLen > 0 {
		out = append(out, n.prefix[:n.prefixLen]...)
	}
	switch n.kind {
	case artLeaf:
		out = append(out, n.leafKey[:]...)
		return binary.LittleEndian.AppendUint64(out, uint64(n.container))
	case artNode4:
		out = append(out, n.keys[3], n.keys[2], n.keys[1], n.keys[0])
	case artNode16:
		for i := 7; i >= 0; i-- {
			out = append(out, n.keys[i])
		}
		for i := 15; i >= 8; i-- {
			out = append(out, n.keys[i])
		}
	case artNode48:
		for w := 0; w < 256; w += 8 {
			for i := w + 7; i >= w; i-- {
				out = append(out, n.index[i])
			}
		}
	case artNode256:
		for _, m := range n.mask {
			out = binary.LittleEndian.AppendUint64(out, m)
		}
	}
	for _, pos := range n.positions() {
		out = appendArtNode(out, n.child(pos))
	}
	return out
}

// maxFixedRead is the longest read of a fixed size: the keys of a node of
// 256 children.
const maxFixedRead = 256

// rbm64Reader reads HighLowContainer.deserialize(DataInput)'s input.
type rbm64Reader struct {
	b   []byte
	err error
}

func (r *rbm64Reader) next(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		if r.err == nil {
			r.err = fmt.Errorf("%w: rbm64 value is not a serialized Roaring64Bitmap: truncated", lakeerr.ErrCorruption)
		}
		// Zeros for the reads that follow, which are discarded with the
		// error; never as many as a corrupt length asks for.
		return make([]byte, min(max(n, 0), maxFixedRead))
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *rbm64Reader) u8() byte    { return r.next(1)[0] }
func (r *rbm64Reader) u16() uint16 { return binary.LittleEndian.Uint16(r.next(2)) }
func (r *rbm64Reader) u32() uint32 { return binary.LittleEndian.Uint32(r.next(4)) }
func (r *rbm64Reader) u64() uint64 { return binary.LittleEndian.Uint64(r.next(8)) }

func (r *rbm64Reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: rbm64 value is not a serialized Roaring64Bitmap: "+format,
			append([]any{lakeerr.ErrCorruption}, args...)...)
	}
}

func readBitmap64(b []byte) (*rbm64Bitmap, error) {
	r := &rbm64Reader{b: b}
	bm := &rbm64Bitmap{containers: newRBM64Containers()}
	if r.u8() == 0 {
		return bm, r.err
	}
	bm.keySize = int64(r.u64())
	bm.root = r.node(0)
	levels := int(int32(r.u32()))
	if levels < 0 || levels > len(r.b) {
		r.fail("%d container arrays", levels)
	}
	for range max(levels, 0) {
		if r.err != nil {
			break
		}
		r.u8() // trim mark, ignored by Java too
		n := int(int32(r.u32()))
		if n < 0 || n > len(r.b) {
			r.fail("container array of %d slots", n)
			break
		}
		level := make([]*rbm64Container, n)
		for i := range level {
			level[i] = r.container()
		}
		bm.containers.slots = append(bm.containers.slots, level)
	}
	bm.containers.size = int64(r.u64())
	bm.containers.first = int32(r.u32())
	bm.containers.second = int32(r.u32())
	if r.err == nil && !bm.containers.consistent() {
		r.fail("last container slot %d/%d outside its %d arrays", bm.containers.first, bm.containers.second, len(bm.containers.slots))
	}
	return bm, r.err
}

func (r *rbm64Reader) container() *rbm64Container {
	switch mark := r.u8(); mark {
	case 0:
		return nil
	case 1:
	default:
		r.fail("null mark %d", mark)
		return nil
	}
	c := &rbm64Container{kind: r.u8(), card: int32(r.u32())}
	switch c.kind {
	case containerRun:
		runs := r.u16()
		c.raw = append(binary.LittleEndian.AppendUint16(nil, runs), r.next(4*int(runs))...)
		r.checkRuns(c.raw)
	case containerBitmap:
		c.raw = r.next(bitmapSizeBytes)
	case containerArray:
		c.raw = r.next(2 * int(c.card))
	default:
		r.fail("container type %d", c.kind)
	}
	return c
}

// checkRuns refuses a run container with a run past the container's
// 65,536 values: no valid bitmap has one, and it would index past the
// container's bitmap here.
func (r *rbm64Reader) checkRuns(raw []byte) {
	for i := 2; i+3 < len(raw); i += 4 {
		start, length := binary.LittleEndian.Uint16(raw[i:]), binary.LittleEndian.Uint16(raw[i+2:])
		if int(start)+int(length) > math.MaxUint16 {
			r.fail("run of %d values from %d", int(length)+1, start)
			return
		}
	}
}

// node reads a node and, depth first, its children (Art.deserialize).
func (r *rbm64Reader) node(depth int) *artNode {
	kind, count, prefixLen := r.u8(), int16(r.u16()), int8(r.u8())
	if kind > artLeaf || depth > artKeyLen || r.err != nil {
		r.fail("ART node of kind %d at depth %d", kind, depth)
		return nil
	}
	n := newArtNode(kind, 0)
	n.count, n.prefixLen = count, prefixLen
	if prefixLen > 0 {
		n.prefix = append([]byte(nil), r.next(int(prefixLen))...)
	}
	switch kind {
	case artLeaf:
		copy(n.leafKey[:], r.next(artKeyLen))
		n.container = int64(r.u64())
		return n
	case artNode4:
		k := r.next(4)
		n.keys[0], n.keys[1], n.keys[2], n.keys[3] = k[3], k[2], k[1], k[0]
	case artNode16:
		k := r.next(16)
		for i := range 8 {
			n.keys[i], n.keys[8+i] = k[7-i], k[15-i]
		}
	case artNode48:
		k := r.next(256)
		for w := 0; w < 256; w += 8 {
			for i := range 8 {
				n.index[w+i] = k[w+7-i]
			}
		}
	case artNode256:
		for i := range n.mask {
			n.mask[i] = r.u64()
		}
	}
	if count < 0 || int(count) > len(n.children) {
		r.fail("ART node of %d children", count)
		return nil
	}
	children := make([]*artNode, count)
	for i := range children {
		if children[i] = r.node(depth + 1); children[i] == nil {
			return nil
		}
	}
	r.placeChildren(n, children)
	return n
}

// placeChildren is Node.replaceChildren: Node4 and Node16 take the
// children in order, Node48 puts each in the slot its key's index names,
// Node256 under its key.
func (r *rbm64Reader) placeChildren(n *artNode, children []*artNode) {
	switch n.kind {
	case artNode4, artNode16:
		copy(n.children, children)
		return
	}
	positions := n.positions()
	if len(positions) != len(children) {
		r.fail("ART node of %d children with %d keys", len(children), len(positions))
		return
	}
	for i, pos := range positions {
		if n.kind == artNode48 {
			if int(n.index[pos]) >= len(n.children) {
				r.fail("Node48 slot %d", n.index[pos])
				return
			}
			n.children[n.index[pos]] = children[i]
		} else {
			n.children[pos] = children[i]
		}
	}
}
