package io.tickwork.primitives.search;

/** {@link IntSearchKind#EYTZINGER}. */
final class EytzingerIntSearch implements IntSearch {
    /** b[1..n] in BFS order of the implicit complete binary search tree; b[0] unused. */
    private final int[] b;

    private final int n;
    /** Levels of the tree: floor(log2(n)) + 1 (0 when empty). */
    private final int height;
    /** Nodes present on the last level. */
    private final int lastLevel;

    /** The most keys: node {@code 2k + 1} of the deepest node must fit an {@code int}. */
    static final int MAX_KEYS = (1 << 30) - 1;

    /** {@code sorted}'s length has passed {@link #requireFits} (checked before the copy). */
    EytzingerIntSearch(int[] sorted) {
        this.n = sorted.length;
        this.b = new int[n + 1];
        fill(sorted, 0, 1);
        this.height = 32 - Integer.numberOfLeadingZeros(n);
        this.lastLevel = height == 0 ? 0 : n - ((1 << (height - 1)) - 1);
    }

    /** Throws {@link IllegalArgumentException} if {@code n} keys do not fit the layout. */
    static void requireFits(int n) {
        if (n > MAX_KEYS) {
            throw new IllegalArgumentException("EYTZINGER holds at most 2^30 - 1 keys: " + n);
        }
    }

    /** In-order traversal writes the sorted keys into BFS positions; returns the next sorted index. */
    private int fill(int[] sorted, int i, int k) {
        if (k <= n) {
            i = fill(sorted, i, 2 * k);
            b[k] = sorted[i++];
            i = fill(sorted, i, 2 * k + 1);
        }
        return i;
    }

    @Override
    public int indexOf(int key) {
        final int[] b = this.b;
        final int n = this.n;
        int k = 1;
        while (k <= n) {
            k = (k << 1) + (int) (((long) b[k] - key) >>> 63); // right child iff b[k] < key
        }
        return answer(k, key);
    }

    /**
     * Lockstep over groups of {@link Lockstep#GROUP} queries: the first {@code height - 1} levels
     * exist for every query (the tree is complete above its last level), so the group takes them
     * together without a bound check; the partial last level and the mapping back to the sorted
     * index are per query. An empty set takes no step and answers -1.
     */
    @Override
    public void indexOf(int[] queries, int from, int to, int[] out) {
        Lockstep.check(queries, from, to, out);
        final int[] b = this.b;
        final int n = this.n;
        int[] q = new int[Lockstep.GROUP];
        int[] k = new int[Lockstep.GROUP];
        for (int base = from, end; base < to; base = end) {
            end = Lockstep.groupEnd(base, to);
            int g = end - base;
            for (int i = 0; i < g; i++) {
                q[i] = queries[base + i];
                k[i] = 1;
            }
            for (int level = 1; level < height; level++) {
                for (int i = 0; i < g; i++) {
                    int ki = k[i];
                    k[i] = (ki << 1) + (int) (((long) b[ki] - q[i]) >>> 63);
                }
            }
            for (int i = 0; i < g; i++) {
                int ki = k[i];
                int key = q[i];
                if (ki <= n) {
                    ki = (ki << 1) + (int) (((long) b[ki] - key) >>> 63);
                }
                out[base + i] = answer(ki, key);
            }
        }
    }

    /** The answer for the node {@code k > n} where the descent for {@code key} left the tree. */
    private int answer(int k, int key) {
        k = lowerBoundNode(k);
        if (k == 0) {
            return -(n + 1);
        }
        int r = rank(k);
        return b[k] == key ? r : -(r + 1);
    }

    /**
     * The node where a descent that left the tree at {@code k} turned left last (the lower bound),
     * 0 if it only ever turned right: the trailing right turns and that left turn undone. In two
     * shifts: after 31 right turns (the largest tree, a query above every key) the count is 32,
     * and a single int shift by 32 would shift by nothing.
     */
    static int lowerBoundNode(int k) {
        return (k >>> Integer.numberOfTrailingZeros(~k)) >>> 1;
    }

    /**
     * Sorted index of BFS node k. In a perfect tree of {@code height} levels, node k at depth d
     * has in-order rank (2(k - 2^d) + 1) 2^(height-1-d) - 1; the last level's positions have the
     * even ranks 0, 2, 4, ..., and the missing last-level nodes (all at its right end) that precede
     * rank r are subtracted.
     */
    int rank(int k) {
        int d = 31 - Integer.numberOfLeadingZeros(k);
        int r = ((2 * (k - (1 << d)) + 1) << (height - 1 - d)) - 1;
        return r - Math.max(0, ((r + 1) >> 1) - lastLevel);
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    public String toString() {
        return "EYTZINGER[n=" + size() + "]";
    }
}
