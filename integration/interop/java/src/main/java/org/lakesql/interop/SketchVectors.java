package org.lakesql.interop;

import org.apache.paimon.mergetree.compact.aggregate.FieldAggregator;
import org.apache.paimon.mergetree.compact.aggregate.FieldHllSketchAgg;
import org.apache.paimon.mergetree.compact.aggregate.FieldThetaSketchAgg;
import org.apache.paimon.shade.org.apache.datasketches.common.Family;
import org.apache.paimon.shade.org.apache.datasketches.hll.HllSketch;
import org.apache.paimon.shade.org.apache.datasketches.hll.TgtHllType;
import org.apache.paimon.shade.org.apache.datasketches.theta.CompactSketch;
import org.apache.paimon.shade.org.apache.datasketches.theta.SetOperation;
import org.apache.paimon.shade.org.apache.datasketches.theta.Union;
import org.apache.paimon.shade.org.apache.datasketches.theta.UpdateSketch;
import org.apache.paimon.shade.org.apache.datasketches.theta.UpdateSketchBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.VarBinaryType;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * sketch-vectors --kind theta|hll: golden vectors for lakesql's sketch
 * unions (storage/sketch). Each line is "name accumulator input result",
 * hex, where result is what Paimon's FieldThetaSketchAgg or
 * FieldHllSketchAgg.agg(accumulator, input) returns, or "error:" and the
 * exception's class when it throws. The inputs are sketches the bundled
 * (shaded) datasketches-java writes: every serialized form and mode, from
 * a fixed random seed, so the output is the same on every run.
 */
final class SketchVectors {
    private static final HexFormat HEX = HexFormat.of();

    private final PrintStream out;
    private final FieldAggregator agg;
    private final Random rnd = new Random(20261214L);
    private final List<byte[]> results = new ArrayList<>();

    private SketchVectors(PrintStream out, FieldAggregator agg) {
        this.out = out;
        this.agg = agg;
    }

    /** run runs sketch-vectors; false when cmd is another subcommand. */
    static boolean run(String cmd, Map<String, String> a, PrintStream out) {
        if (!cmd.equals("sketch-vectors")) {
            return false;
        }
        VarBinaryType bytes = (VarBinaryType) DataTypes.BYTES();
        String kind = PaimonTool.need(a, "kind");
        out.println("# " + (kind.equals("hll") ? "FieldHllSketchAgg" : "FieldThetaSketchAgg")
                + ".agg of paimon-bundle " + FieldAggregator.class.getPackage().getImplementationVersion()
                + " (datasketches-java 4.2.0, shaded), written by the interop tool's sketch-vectors.");
        out.println("# name accumulator input result (hex; error:<exception> when Java throws)");
        switch (kind) {
            case "theta":
                new SketchVectors(out, new FieldThetaSketchAgg("theta_sketch", bytes)).theta();
                return true;
            case "hll":
                new SketchVectors(out, new FieldHllSketchAgg("hll_sketch", bytes)).hll();
                return true;
            default:
                throw new IllegalArgumentException("--kind must be theta or hll");
        }
    }

    private void vector(String name, byte[] acc, byte[] in) {
        String result;
        try {
            byte[] r = (byte[]) agg.agg(acc, in);
            results.add(r);
            result = HEX.formatHex(r);
        } catch (RuntimeException e) {
            result = "error:" + e.getClass().getSimpleName();
        }
        out.println(name + " " + HEX.formatHex(acc) + " " + HEX.formatHex(in) + " " + result);
    }

    private long[] items(int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextLong();
        }
        return v;
    }

    /** overlap returns n items of which the first shared come from base. */
    private long[] overlap(long[] base, int shared, int n) {
        long[] v = items(n);
        System.arraycopy(base, 0, v, 0, Math.min(shared, Math.min(base.length, n)));
        return v;
    }

    // --- theta

    private UpdateSketch update(UpdateSketchBuilder b, long[] items) {
        UpdateSketch s = b.build();
        for (long x : items) {
            s.update(x);
        }
        return s;
    }

    /** thetaForms serializes one update sketch every way Java can. */
    private List<Object[]> thetaForms(String name, UpdateSketch s) {
        List<Object[]> forms = new ArrayList<>();
        forms.add(new Object[] {name + "/ordered", s.compact(true, null).toByteArray()});
        forms.add(new Object[] {name + "/unordered", s.compact(false, null).toByteArray()});
        forms.add(new Object[] {name + "/updatable", s.toByteArray()});
        forms.add(new Object[] {name + "/compressed", s.compact(true, null).toByteArrayCompressed()});
        return forms;
    }

    private void theta() {
        UpdateSketchBuilder qs = UpdateSketch.builder();
        int[] sizes = {0, 1, 2, 7, 100, 1000, 3000, 4096, 4097, 5000, 20000};
        List<Object[]> inputs = new ArrayList<>();
        for (int n : sizes) {
            inputs.addAll(thetaForms("qs" + n, update(qs, items(n))));
        }
        // Small nominal entries, Alpha family, p sampling, other resize
        // factors: other thetas and hash table layouts (dirty entries).
        inputs.addAll(thetaForms("k16x200", update(UpdateSketch.builder().setNominalEntries(16), items(200))));
        inputs.addAll(thetaForms("k512x3000", update(UpdateSketch.builder().setNominalEntries(512), items(3000))));
        inputs.addAll(thetaForms("alpha512x3000",
                update(UpdateSketch.builder().setFamily(Family.ALPHA).setNominalEntries(512), items(3000))));
        inputs.addAll(thetaForms("p05x50", update(UpdateSketch.builder().setP(0.5f), items(50))));
        inputs.addAll(thetaForms("p001x0", update(UpdateSketch.builder().setP(0.01f), items(0))));
        inputs.addAll(thetaForms("p001x20", update(UpdateSketch.builder().setP(0.01f), items(20))));
        inputs.addAll(thetaForms("k8192x6000", update(UpdateSketch.builder().setNominalEntries(8192), items(6000))));
        inputs.add(new Object[] {"k8192x30000/ordered",
                update(UpdateSketch.builder().setNominalEntries(8192), items(30000)).compact().toByteArray()});

        // Empty, single-item and sampled-away sketches: every pair.
        List<Object[]> tiny = new ArrayList<>();
        long[] oneItem = items(1);
        tiny.addAll(thetaForms("empty", update(qs, items(0))));
        tiny.addAll(thetaForms("single", update(qs, oneItem)));
        tiny.addAll(thetaForms("sampled_empty", update(UpdateSketch.builder().setP(0.01f), items(0))));
        tiny.add(new Object[] {"single_again", update(qs, oneItem).compact().toByteArray()});
        for (Object[] a : tiny) {
            for (Object[] b : tiny) {
                vector(a[0] + "+" + b[0], (byte[]) a[1], (byte[]) b[1]);
            }
        }

        // Every small input against every other in its serialized form, a
        // sample of them; the large ones (thousands of hashes: estimation
        // mode, the early stop at theta) against a few.
        List<Object[]> large = new ArrayList<>();
        for (Object[] a : inputs) {
            for (Object[] b : inputs) {
                byte[] x = (byte[]) a[1];
                byte[] y = (byte[]) b[1];
                if (x.length <= 8200 && y.length <= 8200 && rnd.nextInt(18) == 0) {
                    vector(a[0] + "+" + b[0], x, y);
                }
            }
            if (((byte[]) a[1]).length > 8200) {
                large.add(a);
            }
        }
        for (int i = 0; i < 6; i++) {
            Object[] a = large.get(rnd.nextInt(large.size()));
            Object[] b = inputs.get(rnd.nextInt(inputs.size()));
            if (i % 2 == 0) {
                vector(a[0] + "+" + b[0], (byte[]) a[1], (byte[]) b[1]);
            } else {
                vector(b[0] + "+" + a[0], (byte[]) b[1], (byte[]) a[1]);
            }
        }

        // Overlapping sets around k and past the gadget's rebuild (more
        // than 7680 distinct hashes); a union's result folded again, as
        // Paimon folds a key's records.
        int[][] overlaps = {{4000, 2000, 4000}, {4096, 4096, 4096}, {7000, 3000, 6000}, {2000, 100, 7000},
                {8000, 7000, 8000}};
        for (int i = 0; i < overlaps.length; i++) {
            int[] c = overlaps[i];
            long[] base = items(c[0]);
            UpdateSketchBuilder big = UpdateSketch.builder().setNominalEntries(16384);
            UpdateSketch in = update(big, overlap(base, c[1], c[2]));
            vector("overlap" + c[0] + "_" + c[1] + "_" + c[2], update(big, base).compact().toByteArray(),
                    i % 2 == 0 ? in.compact().toByteArray() : in.compact(false, null).toByteArray());
        }
        byte[] acc = results.get(0);
        for (int i = 0; i < 8; i++) {
            byte[] in = update(qs, items(1 + rnd.nextInt(1200))).compact().toByteArray();
            vector("fold" + i, acc, in);
            acc = results.get(results.size() - 1);
        }

        // Refused by Java: another seed, a union image, garbage.
        vector("error/seed", update(qs, items(5)).compact().toByteArray(),
                update(UpdateSketch.builder().setSeed(42), items(5)).compact().toByteArray());
        Union u = SetOperation.builder().buildUnion();
        u.union(update(qs, items(5)));
        vector("error/union_family", update(qs, items(3)).compact().toByteArray(), u.toByteArray());
        CompactSketch one = update(qs, items(40)).compact();
        byte[] badVersion = one.toByteArray();
        badVersion[1] = 9;
        vector("error/version", one.toByteArray(), badVersion);
    }

    // --- hll

    private HllSketch hllSketch(int lgK, TgtHllType type, long[] items) {
        HllSketch s = new HllSketch(lgK, type);
        for (long x : items) {
            s.update(x);
        }
        return s;
    }

    /**
     * couponImage is a compact HLL_4 image (PreambleUtil's layout) of the
     * given coupons: a LIST when there are fewer than 8, else a SET.
     */
    private static byte[] couponImage(int lgK, int n, int[] coupons) {
        boolean list = n < 8;
        int start = list ? 8 : 12;
        ByteBuffer b = ByteBuffer.allocate(start + 4 * n).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) (list ? 2 : 3)).put((byte) 1).put((byte) 7).put((byte) lgK).put((byte) (list ? 3 : 5))
                .put((byte) 8).put((byte) (list ? n : 0)).put((byte) (list ? 0 : 1));
        if (!list) {
            b.putInt(n);
        }
        for (int c : coupons) {
            b.putInt(c);
        }
        return b.array();
    }

    private void hll() {
        // LIST below 8 coupons; SET from 8 coupons when lgK >= 8, up to
        // 3/4 of 2^(lgK-3); HLL above. lgK 4 and 7 go from LIST to HLL.
        int[] lgKs = {4, 7, 8, 10, 12, 14};
        TgtHllType[] types = {TgtHllType.HLL_4, TgtHllType.HLL_6, TgtHllType.HLL_8};
        List<Object[]> inputs = new ArrayList<>();
        for (int lgK : lgKs) {
            int setMax = lgK >= 8 ? 3 * (1 << (lgK - 3)) / 4 : 0;
            int[] ns = {0, 1, 7, 8, Math.max(9, setMax), setMax + 1, 2 * setMax + 20, 1 << lgK, 40 << lgK};
            for (int n : ns) {
                long[] items = items(n);
                for (TgtHllType t : types) {
                    HllSketch s = hllSketch(lgK, t, items);
                    String name = "k" + lgK + "n" + n + t;
                    inputs.add(new Object[] {name + "/compact", s.toCompactByteArray()});
                    if (rnd.nextInt(3) == 0) {
                        inputs.add(new Object[] {name + "/updatable", s.toUpdatableByteArray()});
                    }
                }
            }
        }
        // HLL_4 with exceptions above curMin + 14 (the aux table): low
        // curMin with a few large values, and many items on a small k.
        for (int[] c : new int[][] {{10, 60000}, {11, 400000}, {12, 150000}, {4, 3000000}, {5, 2000000}}) {
            HllSketch s = hllSketch(c[0], TgtHllType.HLL_4, items(c[1]));
            inputs.add(new Object[] {"aux_k" + c[0] + "n" + c[1] + "/compact", s.toCompactByteArray()});
            inputs.add(new Object[] {"aux_k" + c[0] + "n" + c[1] + "/updatable", s.toUpdatableByteArray()});
        }

        for (Object[] a : inputs) {
            for (Object[] b : inputs) {
                byte[] x = (byte[]) a[1];
                byte[] y = (byte[]) b[1];
                boolean small = x.length <= 4200 && y.length <= 4200;
                if (small ? rnd.nextInt(40) == 0 : rnd.nextInt(200) == 0) {
                    vector(a[0] + "+" + b[0], x, y);
                }
            }
        }

        // Overlaps that cross a mode change in the union, and folds of the
        // union's own results (out of order, HIP of promoted coupons).
        for (int lgK : new int[] {7, 8, 11, 12}) {
            int setMax = lgK >= 8 ? 3 * (1 << (lgK - 3)) / 4 : 7;
            for (int[] c : new int[][] {{setMax - 3, 2, setMax - 3}, {5, 0, 5}, {setMax, setMax / 2, setMax}}) {
                long[] base = items(c[0]);
                vector("cross_k" + lgK + "_" + c[0] + "_" + c[1],
                        hllSketch(lgK, TgtHllType.HLL_4, base).toCompactByteArray(),
                        hllSketch(lgK, TgtHllType.HLL_8, overlap(base, c[1], c[2])).toCompactByteArray());
            }
            byte[] acc = hllSketch(lgK, TgtHllType.HLL_4, items(0)).toCompactByteArray();
            for (int i = 0; i < 10; i++) {
                int n = rnd.nextInt(3) == 0 ? rnd.nextInt(4) : rnd.nextInt(3 << lgK);
                TgtHllType t = types[rnd.nextInt(3)];
                int inLgK = rnd.nextInt(4) == 0 ? lgK + 1 - rnd.nextInt(3) : lgK;
                vector("fold_k" + lgK + "_" + i, acc, hllSketch(inLgK, t, items(n)).toCompactByteArray());
                acc = results.get(results.size() - 1);
            }
        }

        // Registers of 15 and more above curMin are rare from real items
        // (and of 32 and more, which Java's kxq sums treat apart, rarer
        // still): images of coupons with such values, keyed so that some
        // share a slot, and HLL_8 images with such registers.
        for (int lgK : new int[] {4, 8, 10, 12}) {
            for (int i = 0; i < 4; i++) {
                int n = 3 + rnd.nextInt(lgK >= 8 ? 3 * (1 << (lgK - 3)) / 4 - 3 : 4);
                int[] coupons = new int[n];
                for (int j = 0; j < n; j++) {
                    int key = j > 0 && rnd.nextInt(4) == 0
                            ? (coupons[j - 1] & ((1 << lgK) - 1)) | (rnd.nextInt(1 << (26 - lgK)) << lgK)
                            : rnd.nextInt(1 << 26);
                    coupons[j] = (1 + rnd.nextInt(63)) << 26 | key;
                }
                byte[] crafted = couponImage(lgK, n, coupons);
                HllSketch real = hllSketch(lgK, types[i % 3], items(rnd.nextInt(4 << lgK)));
                vector("crafted_k" + lgK + "_" + i, crafted, real.toCompactByteArray());
                vector("crafted_k" + lgK + "_" + i + "/rev", real.toUpdatableByteArray(), crafted);
                byte[] hll8 = hllSketch(lgK, TgtHllType.HLL_8, items(3 << lgK)).toUpdatableByteArray();
                for (int j = 0; j < 6; j++) {
                    hll8[40 + rnd.nextInt(1 << lgK)] = (byte) (20 + rnd.nextInt(44));
                }
                vector("crafted_hll8_k" + lgK + "_" + i, hll8, real.toCompactByteArray());
                vector("crafted_hll8_k" + lgK + "_" + i + "/rev", real.toCompactByteArray(), hll8);
            }
        }
        // An updatable SET image whose table size byte is below the
        // minimum: Java sizes the table from the count instead.
        byte[] set = hllSketch(10, TgtHllType.HLL_4, items(50)).toUpdatableByteArray();
        set[4] = 0;
        vector("set_lgarr_from_count", hllSketch(10, TgtHllType.HLL_8, items(20)).toCompactByteArray(), set);

        vector("error/not_hll", hllSketch(12, TgtHllType.HLL_4, items(3)).toCompactByteArray(),
                UpdateSketch.builder().build().compact().toByteArray());
        byte[] badK = hllSketch(12, TgtHllType.HLL_4, items(3)).toCompactByteArray();
        badK[3] = 22;
        vector("error/lgk", hllSketch(12, TgtHllType.HLL_4, items(3)).toCompactByteArray(), badK);
    }
}
