import java.io.*;
import java.math.*;
import java.util.*;
import org.apache.paimon.data.*;
import org.apache.paimon.types.*;
import org.apache.paimon.utils.RoaringBitmap64;
import org.apache.paimon.mergetree.compact.aggregate.*;
import org.apache.paimon.shade.org.roaringbitmap.longlong.Roaring64Bitmap;

PrintStream rbm = new PrintStream(new FileOutputStream(System.getProperty("out") + "/rbm64_java.txt"));
PrintStream hash = new PrintStream(new FileOutputStream(System.getProperty("out") + "/javahash_java.jsonl"));
PrintStream kt = new PrintStream(new FileOutputStream(System.getProperty("out") + "/merge_map_keytime_java.jsonl"));
PrintStream npu = new PrintStream(new FileOutputStream(System.getProperty("out") + "/nested_partial_update_java.jsonl"));

String hex(byte[] b) { StringBuilder s = new StringBuilder(); for (byte x : b) s.append(String.format("%02x", x)); return s.toString(); }

byte[] bm(long... v) throws Exception { return RoaringBitmap64.bitmapOf(v).serialize(); }

// raw serializes without runOptimize, as a writer other than Paimon's may.
byte[] raw(Roaring64Bitmap r) throws Exception {
  ByteArrayOutputStream bos = new ByteArrayOutputStream();
  DataOutputStream dos = new DataOutputStream(bos);
  r.serialize(dos); dos.flush(); return bos.toByteArray();
}

Roaring64Bitmap range(long from, long to) { Roaring64Bitmap r = new Roaring64Bitmap(); r.addRange(from, to); return r; }
long[] stepped(long from, long to, long step) { long[] v = new long[(int) ((to - from + step - 1) / step)]; for (int i = 0; i < v.length; i++) v[i] = from + i * step; return v; }
long[] highs(long base, int n, long stride) { long[] v = new long[n]; for (int i = 0; i < n; i++) v[i] = base + i * stride; return v; }
long[] random(long seed, int n, long bound) { Random r = new Random(seed); long[] v = new long[n]; for (int i = 0; i < n; i++) v[i] = (r.nextLong() % bound + bound) % bound; return v; }

FieldRoaringBitmap64Agg rbmAgg = new FieldRoaringBitmap64Agg("rbm64", DataTypes.VARBINARY(Integer.MAX_VALUE));
void rcase(String name, byte[] acc, byte[] in) { rbm.println(name + " " + hex(acc) + " " + hex(in) + " " + hex((byte[]) rbmAgg.agg(acc, in))); }

rbm.println("# FieldRoaringBitmap64Agg.agg of paimon-bundle 1.4.2 (record_aggs.jsh, see NOTICE): name, accumulator, input, result as hex.");
rcase("small", bm(1, 5, 9), bm(3, 65536L * 3 + 7, 1L << 40));
rcase("negative", bm(-1, -2, Long.MIN_VALUE), bm(0, Long.MAX_VALUE, -65536));
rcase("prefix_split", bm(0x0102030405060001L, 0x0102030405070002L), bm(0x0102030499000003L, 0x0102AA0000000004L, 0x0102030405060005L));
rcase("node4_to_node16", bm(highs(0, 3, 65536)), bm(highs(65536 * 3, 10, 65536)));
rcase("node16_to_node48", bm(highs(0, 12, 65536)), bm(highs(65536 * 12, 30, 65536)));
rcase("node48_to_node256", bm(highs(0, 40, 65536)), bm(highs(65536 * 40, 100, 65536)));
rcase("deep_levels", bm(highs(0, 5, 1L << 24)), bm(highs(1L << 23, 7, 1L << 32)));
rcase("random_wide", bm(random(1, 2000, 1L << 36)), bm(random(2, 3000, 1L << 36)));
rcase("array_array_small", bm(stepped(1, 100, 3)), bm(stepped(2, 200, 5)));
rcase("array_array_sum_over_4096_union_array", bm(stepped(0, 6000, 2)), bm(stepped(0, 6200, 2)));
rcase("array_array_union_bitmap", bm(stepped(0, 9000, 2)), bm(stepped(1, 9000, 2)));
rcase("array_becomes_run", bm(1, 2, 3, 7), bm(stepped(4, 21, 1)));
rcase("array_bitmap", bm(5, 70000), bm(stepped(0, 30000, 3)));
rcase("bitmap_array", bm(stepped(0, 30000, 3)), bm(5, 7, 1L << 33));
rcase("bitmap_bitmap", bm(stepped(0, 40000, 3)), bm(stepped(1, 40000, 3)));
rcase("bitmap_bitmap_full", bm(stepped(0, 65536, 2)), bm(stepped(1, 65536, 2)));
rcase("array_run", bm(1, 9, 5000), bm(stepped(100, 3000, 1)));
rcase("run_array", bm(stepped(100, 3000, 1)), bm(1, 9, 5000));
rcase("run_array_to_array", bm(0, 1, 2, 3), bm(10, 20, 30));
rcase("run_bitmap", bm(stepped(100, 3000, 1)), bm(stepped(0, 30000, 3)));
rcase("bitmap_run", bm(stepped(0, 30000, 3)), bm(stepped(100, 3000, 1)));
rcase("run_run", bm(stepped(100, 3000, 1)), bm(stepped(2000, 9000, 1)));
rcase("run_full", raw(range(0, 65536)), bm(stepped(2000, 9000, 1)));
rcase("empty_acc", bm(), bm(1, 1L << 50));
rcase("empty_input", bm(1, 1L << 50), bm());
rcase("both_empty", bm(), bm());
Roaring64Bitmap unopt = new Roaring64Bitmap(); unopt.add(stepped(0, 500, 1)); unopt.add(1L << 20);
rcase("unoptimized_input", bm(3, 1L << 20), raw(unopt));
rcase("unoptimized_acc_untouched", raw(unopt), bm(1L << 45));
Roaring64Bitmap shrunk = new Roaring64Bitmap(); shrunk.add(highs(7, 20, 65536));
for (int i = 1; i < 20; i += 2) shrunk.removeLong(7 + i * 65536L);
for (int i = 0; i < 14; i += 2) shrunk.removeLong(7 + i * 65536L);
rcase("removed_keys_acc", raw(shrunk), bm(highs(3, 6, 65536 * 3)));
rcase("removed_keys_input", bm(highs(1L << 40, 3, 65536)), raw(shrunk));
Roaring64Bitmap shrunk48 = new Roaring64Bitmap(); shrunk48.add(highs(1, 60, 65536));
for (int i = 0; i < 50; i++) shrunk48.removeLong(1 + i * 65536L);
rcase("node256_shrunk", raw(shrunk48), bm(highs(1 + 65536L * 200, 3, 65536)));
byte[] chain = bm(1);
for (int i = 0; i < 6; i++) {
  byte[] next = bm(random(10 + i, 40, 1L << 26));
  rcase("chain_" + i, chain, next);
  chain = (byte[]) rbmAgg.agg(chain, next);
}
rbm.close();

String json(Object v) {
  if (v == null) return "null";
  if (v instanceof Decimal) return "\"" + v + "\"";
  if (v instanceof Timestamp) { Timestamp t = (Timestamp) v; return "\"" + t.getMillisecond() + ":" + t.getNanoOfMillisecond() + "\""; }
  if (v instanceof BinaryString) return "\"" + v.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  if (v instanceof InternalArray) {
    InternalArray a = (InternalArray) v; StringBuilder s = new StringBuilder("[");
    Object[] o = ((GenericArray) a).toObjectArray();
    for (int i = 0; i < o.length; i++) { if (i > 0) s.append(","); s.append(json(o[i])); }
    return s.append("]").toString();
  }
  if (v instanceof InternalMap) {
    InternalMap m = (InternalMap) v; StringBuilder s = new StringBuilder("[");
    Object[] k = ((GenericArray) m.keyArray()).toObjectArray(), x = ((GenericArray) m.valueArray()).toObjectArray();
    for (int i = 0; i < k.length; i++) { if (i > 0) s.append(","); s.append("[" + json(k[i]) + "," + json(x[i]) + "]"); }
    return s.append("]").toString();
  }
  if (v instanceof GenericRow) {
    GenericRow r = (GenericRow) v; StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < r.getFieldCount(); i++) { if (i > 0) s.append(","); s.append(json(r.getField(i))); }
    return s.append("]").toString();
  }
  return v.toString();
}

GenericArray arr(Object... v) { return new GenericArray(v); }
GenericMap map(Object... kv) { Map<Object, Object> m = new LinkedHashMap<>(); for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]); return new GenericMap(m); }

// Each line: {"fn", "type", "op": "agg" | "retract", "acc", "in", "out"}, values as json() prints them.
void hcase(String fn, String type, DataType t, String op, Object acc, Object in) {
  FieldAggregator a = fn.equals("collect") ? new FieldCollectAgg("collect", (ArrayType) t, true) : new FieldMergeMapAgg("merge_map", (MapType) t);
  Object out = op.equals("agg") ? a.agg(acc, in) : a.retract(acc, in);
  hash.println("{\"fn\": \"" + fn + "\", \"type\": \"" + type + "\", \"op\": \"" + op + "\", \"acc\": " + json(acc) + ", \"in\": " + json(in) + ", \"out\": " + json(out) + "}");
}
Object[] decimals(long seed, int n, int p, int s, boolean big) {
  Random r = new Random(seed); Object[] v = new Object[n];
  for (int i = 0; i < n; i++) {
    BigInteger u = big ? new BigInteger(100, r).subtract(BigInteger.ONE.shiftLeft(99)) : BigInteger.valueOf(r.nextInt(2000) - 1000);
    if (i % 7 == 3) u = BigInteger.valueOf(r.nextInt(10));
    v[i] = Decimal.fromBigDecimal(new BigDecimal(u, s), p, s);
  }
  return v;
}
Object[] timestamps(long seed, int n, boolean nanos) {
  Random r = new Random(seed); Object[] v = new Object[n];
  for (int i = 0; i < n; i++) v[i] = Timestamp.fromEpochMillis(r.nextLong() % 4000000000000L, nanos ? r.nextInt(1000000) : 0);
  return v;
}
Object[] times(long seed, int n) { Random r = new Random(seed); Object[] v = new Object[n]; for (int i = 0; i < n; i++) v[i] = r.nextInt(86400000); return v; }
Object[] dup(Object[] a, Object[] b) { Object[] v = Arrays.copyOf(a, a.length + b.length); System.arraycopy(b, 0, v, a.length, b.length); return v; }
Object[] mapOf(Object[] keys, int base) { Object[] kv = new Object[keys.length * 2]; for (int i = 0; i < keys.length; i++) { kv[2 * i] = keys[i]; kv[2 * i + 1] = base + i; } return kv; }

for (Object[] c : new Object[][] {
    {"DECIMAL(10,2)", DataTypes.DECIMAL(10, 2), decimals(1, 9, 10, 2, false), decimals(2, 30, 10, 2, false)},
    {"DECIMAL(38,4)", DataTypes.DECIMAL(38, 4), decimals(3, 9, 38, 4, true), decimals(4, 40, 38, 4, true)},
    {"DECIMAL(19,0)", DataTypes.DECIMAL(19, 0), new Object[] {Decimal.fromBigDecimal(new BigDecimal(Long.MIN_VALUE), 19, 0), Decimal.fromBigDecimal(new BigDecimal(Long.MAX_VALUE), 19, 0)}, new Object[] {Decimal.fromBigDecimal(new BigDecimal("-9223372036854775809"), 19, 0), Decimal.fromBigDecimal(BigDecimal.ZERO, 19, 0), Decimal.fromBigDecimal(new BigDecimal(Long.MIN_VALUE), 19, 0)}},
    {"TIMESTAMP(3)", DataTypes.TIMESTAMP(3), timestamps(5, 9, false), timestamps(6, 30, false)},
    {"TIMESTAMP(9)", DataTypes.TIMESTAMP(9), timestamps(7, 9, true), timestamps(8, 120, true)},
    {"TIMESTAMP_LTZ(6)", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6), timestamps(9, 5, true), timestamps(10, 14, true)},
    {"TIME(3)", DataTypes.TIME(3), times(11, 9), times(12, 30)},
}) {
  String type = (String) c[0]; DataType t = (DataType) c[1]; Object[] a = (Object[]) c[2], b = (Object[]) c[3];
  hcase("collect", "ARRAY<" + type + ">", DataTypes.ARRAY(t), "agg", arr(dup(a, a)), arr(dup(b, a)));
  hcase("collect", "ARRAY<" + type + ">", DataTypes.ARRAY(t), "agg", null, arr(dup(b, new Object[] {null, b[0]})));
  hcase("collect", "ARRAY<" + type + ">", DataTypes.ARRAY(t), "retract", arr(dup(a, b)), arr(Arrays.copyOf(b, 3)));
  hcase("merge_map", "MAP<" + type + ",INT>", DataTypes.MAP(t, DataTypes.INT()), "agg", map(mapOf(a, 0)), map(mapOf(b, 100)));
  hcase("merge_map", "MAP<" + type + ",INT>", DataTypes.MAP(t, DataTypes.INT()), "retract", map(mapOf(dup(a, b), 0)), map(mapOf(Arrays.copyOf(b, 4), 7)));
}
hash.close();

BinaryString str(String s) { return s == null ? null : BinaryString.fromString(s); }
GenericRow kv(String v, String ts) { return GenericRow.of(str(v), str(ts)); }
void ktcase(DataType keyType, String type, Object acc, Object in) {
  FieldMergeMapWithKeyTimeAgg a = new FieldMergeMapWithKeyTimeAgg("merge_map_with_keytime", DataTypes.MAP(keyType, DataTypes.ROW(DataTypes.STRING(), DataTypes.STRING())), 1);
  kt.println("{\"type\": \"" + type + "\", \"acc\": " + json(acc) + ", \"in\": " + json(in) + ", \"out\": " + json(a.agg(acc, in)) + "}");
}
ktcase(DataTypes.STRING(), "STRING", map(str("product_name"), kv("iPhone", "100"), str("color"), kv("Black", "100")), map(str("product_name"), kv("iPad", "200"), str("price"), kv("999", "200"), str("color"), kv("White", "50")));
ktcase(DataTypes.STRING(), "STRING", map(str("a"), kv("1", "5"), str("b"), kv("2", null), str("c"), null), map(str("a"), kv("x", null), str("b"), kv("y", "0"), str("c"), kv("z", "1"), str("d"), null, str("a"), kv("w", "5")));
ktcase(DataTypes.STRING(), "STRING", map(str("u"), kv("bmp", "\uffff"), str("v"), kv("astral", "\ud83d\ude00")), map(str("u"), kv("astral", "\ud83d\ude00"), str("v"), kv("bmp", "\uffff")));
Object[] many = new Object[40];
for (int i = 0; i < 20; i++) { many[2 * i] = i; many[2 * i + 1] = kv("v" + i, "t" + (i % 3)); }
Object[] upd = new Object[30];
for (int i = 0; i < 15; i++) { upd[2 * i] = (i * 7) % 26; upd[2 * i + 1] = i % 4 == 0 ? null : kv("n" + i, "t" + (i % 5)); }
ktcase(DataTypes.INT(), "INT", map(many), map(upd));
Object[] removeReadd = new Object[26];
for (int i = 0; i < 13; i++) { removeReadd[2 * i] = (i * 16) % 208; removeReadd[2 * i + 1] = kv("s" + i, "1"); }
Object[] thenRemove = new Object[] {0, null, 16, null, 32, kv("back", "2"), 1000, kv("new", "1"), 0, kv("again", "3")};
ktcase(DataTypes.INT(), "INT", map(removeReadd), new GenericMap(new LinkedHashMap<>()));
{
  FieldMergeMapWithKeyTimeAgg a = new FieldMergeMapWithKeyTimeAgg("merge_map_with_keytime", DataTypes.MAP(DataTypes.INT(), DataTypes.ROW(DataTypes.STRING(), DataTypes.STRING())), 1);
  // GenericMap keeps one entry a key: the removal and the re-put of key 0 go in two inputs.
  Object step1 = a.agg(map(removeReadd), map(0, null, 16, null, 32, kv("back", "2"), 1000, kv("new", "1")));
  kt.println("{\"type\": \"INT\", \"acc\": " + json(map(removeReadd)) + ", \"in\": " + json(map(0, null, 16, null, 32, kv("back", "2"), 1000, kv("new", "1"))) + ", \"out\": " + json(step1) + "}");
  kt.println("{\"type\": \"INT\", \"acc\": " + json(step1) + ", \"in\": " + json(map(0, kv("again", "3"))) + ", \"out\": " + json(a.agg(step1, map(0, kv("again", "3")))) + "}");
}
kt.close();

GenericRow nr(Object... f) { return GenericRow.of(f); }
void npcase(String keys, Object acc, Object in) {
  RowType rt = DataTypes.ROW(DataTypes.FIELD(0, "k", DataTypes.INT()), DataTypes.FIELD(1, "a", DataTypes.STRING()), DataTypes.FIELD(2, "b", DataTypes.INT()));
  FieldNestedPartialUpdateAgg a = new FieldNestedPartialUpdateAgg("nested_partial_update", DataTypes.ARRAY(rt), Arrays.asList(keys.split(",")));
  npu.println("{\"keys\": \"" + keys + "\", \"acc\": " + json(acc) + ", \"in\": " + json(in) + ", \"out\": " + json(a.agg(acc, in)) + "}");
}
npcase("k", arr(nr(1, str("a"), null), nr(17, str("b"), 2)), arr(nr(1, null, 5), nr(2, str("c"), null), null, nr(17, str("z"), null)));
npcase("k", arr(nr(1, str("a"), 1), null, nr(1, null, 9)), arr(nr(null, str("nk"), 3), nr(null, null, 4)));
npcase("k,a", arr(nr(1, str("x"), 1), nr(1, str("y"), 2)), arr(nr(1, str("x"), 10), nr(1, null, 11), nr(1, null, 12)));
Object[] rows = new Object[14];
for (int i = 0; i < 14; i++) rows[i] = nr(i * 16, str("r" + i), i);
npcase("k", arr(Arrays.copyOf(rows, 12)), arr(Arrays.copyOfRange(rows, 12, 14)));
npcase("k", arr(Arrays.copyOf(rows, 13)), arr(nr(5, null, 5)));
Object[] wide = new Object[40];
for (int i = 0; i < 40; i++) wide[i] = nr(i * 3 - 20, i % 2 == 0 ? str("w" + i) : null, i % 3 == 0 ? null : i);
npcase("k", arr(Arrays.copyOf(wide, 25)), arr(Arrays.copyOfRange(wide, 15, 40)));
npu.close();
/exit
