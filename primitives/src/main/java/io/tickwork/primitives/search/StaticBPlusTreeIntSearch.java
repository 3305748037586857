package io.tickwork.primitives.search;

import java.util.Arrays;

/** {@link IntSearchKind#STATIC_BPLUS_TREE}. */
final class StaticBPlusTreeIntSearch implements IntSearch {
    /** Ints per node: 16 ints are one 64-byte cache line. */
    static final int B = 16;

    private static final int LOG_B = 4;

    /** All levels in one array, root first; the last level is the sorted keys padded with MAX_VALUE. */
    private final int[] t;
    /** Start of each level in {@link #t}, root first. */
    private final int[] levelStart;

    private final int leafStart;
    private final int n;
    private final int last;

    StaticBPlusTreeIntSearch(int[] sorted) {
        this.n = sorted.length;
        int levels = 1;
        int len = Math.max(B, roundUp(n));
        int total = len;
        while (len > B) {
            len = roundUp(len / B);
            levels++;
            total += len;
        }
        this.t = new int[total];
        this.levelStart = new int[levels];
        int[] lengths = new int[levels];
        len = Math.max(B, roundUp(n));
        for (int lv = levels - 1; lv >= 0; lv--) {
            lengths[lv] = len;
            len = roundUp(len / B);
        }
        for (int lv = 0, at = 0; lv < levels; at += lengths[lv], lv++) {
            levelStart[lv] = at;
        }
        this.leafStart = levelStart[levels - 1];
        System.arraycopy(sorted, 0, t, leafStart, n);
        Arrays.fill(t, leafStart + n, leafStart + lengths[levels - 1], Integer.MAX_VALUE);
        // each upper entry is the largest key (the last slot) of its child node one level down
        for (int lv = levels - 2; lv >= 0; lv--) {
            int children = lengths[lv + 1] / B;
            for (int e = 0; e < lengths[lv]; e++) {
                t[levelStart[lv] + e] = e < children ? t[levelStart[lv + 1] + e * B + B - 1] : Integer.MAX_VALUE;
            }
        }
        this.last = n == 0 ? 0 : sorted[n - 1];
    }

    private static int roundUp(int x) {
        return (x + B - 1) & -B;
    }

    @Override
    public int indexOf(int key) {
        if (n == 0) {
            return -1;
        }
        if (key > last) {
            return -(n + 1);
        }
        // key <= last real key, so at every level the first entry >= key is a real one and the
        // child it names exists; padding (MAX_VALUE) is never counted as smaller than key
        final int[] t = this.t;
        int e = 0;
        for (int start : levelStart) {
            int node = start + (e << LOG_B);
            // The node's last slot is >= key (it is the max of the entry that led here, or padding),
            // so the number of slots < key is in [0, 15]: four branch-free halvings find it.
            // Fewer instructions than comparing all 16 lets the CPU overlap consecutive lookups.
            int p = lt(t[node + 7], key) << 3;
            p += lt(t[node + p + 3], key) << 2;
            p += lt(t[node + p + 1], key) << 1;
            p += lt(t[node + p], key);
            e = (e << LOG_B) + p;
        }
        return t[leafStart + e] == key ? e : -(e + 1);
    }

    /**
     * Lockstep over groups of {@link Lockstep#GROUP} queries, one tree level at a time for the whole
     * group. A query above the largest key descends as that key would (so every step stays inside
     * the tree) and is answered {@code -(n + 1)} at the end. An empty set's one node is all
     * padding, so every query there ends at index 0 and is answered -1.
     */
    @Override
    public void indexOf(int[] queries, int from, int to, int[] out) {
        Lockstep.check(queries, from, to, out);
        final int[] t = this.t;
        final int last = this.last;
        int[] q = new int[Lockstep.GROUP];
        int[] e = new int[Lockstep.GROUP];
        for (int base = from, end; base < to; base = end) {
            end = Lockstep.groupEnd(base, to);
            int g = end - base;
            for (int i = 0; i < g; i++) {
                q[i] = Math.min(queries[base + i], last);
                e[i] = 0;
            }
            for (int start : levelStart) {
                for (int i = 0; i < g; i++) {
                    int key = q[i];
                    int ei = e[i];
                    int node = start + (ei << LOG_B);
                    int p = lt(t[node + 7], key) << 3;
                    p += lt(t[node + p + 3], key) << 2;
                    p += lt(t[node + p + 1], key) << 1;
                    p += lt(t[node + p], key);
                    e[i] = (ei << LOG_B) + p;
                }
            }
            for (int i = 0; i < g; i++) {
                int key = queries[base + i];
                int ei = e[i];
                out[base + i] = key > last ? -(n + 1) : t[leafStart + ei] == key ? ei : -(ei + 1);
            }
        }
    }

    /** 1 if x < key else 0, without a branch. */
    private static int lt(int x, int key) {
        return (int) (((long) x - key) >>> 63);
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    public String toString() {
        return "STATIC_BPLUS_TREE[n=" + size() + "]";
    }
}
