package io.tickwork.primitives.search;

/** {@link IntSearchKind#RADIX_DIRECTORY}. */
final class RadixDirectoryIntSearch implements IntSearch {
    /** Buckets up to this long are searched by four fixed branch-free steps. */
    static final int WINDOW = WindowSearch.WINDOW;

    /** The sorted keys followed by WINDOW sentinels (MAX_VALUE), so a window never leaves the array. */
    private final int[] a;
    /** dir[b] = index of the first key whose bucket is >= b; dir[buckets] = n. */
    private final int[] dir;

    private final int n;
    private final int min;
    private final int max;
    private final int shift;

    RadixDirectoryIntSearch(int[] sorted) {
        this.n = sorted.length;
        this.a = WindowSearch.withSentinels(sorted);
        this.min = n == 0 ? 0 : sorted[0];
        this.max = n == 0 ? -1 : sorted[n - 1];
        int buckets = buckets(n);
        this.shift = n == 0 ? 0 : shift(min, max, n);
        this.dir = new int[buckets + 1];
        for (int i = 0; i < n; i++) {
            dir[bucket(sorted[i]) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            dir[b + 1] += dir[b];
        }
    }

    /** Between n/4 and n/2 buckets: on uniform keys 2-4 keys per bucket, under 2 % above WINDOW. */
    static int buckets(int n) {
        return Integer.highestOneBit(Math.max(1, n / 2));
    }

    /** The shift that maps {@code key - min} to one of {@link #buckets}(n) buckets over [min, max]. */
    static int shift(int min, int max, int n) {
        int logBuckets = Integer.numberOfTrailingZeros(buckets(n));
        int spanBits = 64 - Long.numberOfLeadingZeros((long) max - min);
        return Math.max(0, spanBits - logBuckets);
    }

    private int bucket(int key) {
        return (int) (((long) key - min) >>> shift);
    }

    @Override
    public int indexOf(int key) {
        if (key < min) {
            return -1;
        }
        if (key > max) {
            return -(n + 1);
        }
        final int[] a = this.a;
        int b = bucket(key);
        int lo = dir[b];
        int len = dir[b + 1] - lo;
        // the lower bound is in [lo, lo + len]: keys from lo + len on belong to later buckets
        int p = WindowSearch.lowerBound(a, lo, len, key);
        return p < n && a[p] == key ? p : -(p + 1);
    }

    /**
     * In groups of {@link Lockstep#GROUP} queries: first every query's two directory slots (loads
     * independent of each other), then every query's window of keys. A query outside
     * {@code [min, max]} reads bucket 0 and is answered from its bound.
     */
    @Override
    public void indexOf(int[] queries, int from, int to, int[] out) {
        Lockstep.check(queries, from, to, out);
        final int[] a = this.a;
        final int[] dir = this.dir;
        int[] lo = new int[Lockstep.GROUP];
        int[] len = new int[Lockstep.GROUP];
        for (int base = from; base < to; base += Lockstep.GROUP) {
            int g = Math.min(Lockstep.GROUP, to - base);
            for (int i = 0; i < g; i++) {
                int key = queries[base + i];
                int b = key < min | key > max ? 0 : bucket(key);
                int l = dir[b];
                lo[i] = l;
                len[i] = dir[b + 1] - l;
            }
            for (int i = 0; i < g; i++) {
                int key = queries[base + i];
                int answer;
                if (key < min) {
                    answer = -1;
                } else if (key > max) {
                    answer = -(n + 1);
                } else {
                    int p = WindowSearch.lowerBound(a, lo[i], len[i], key);
                    answer = p < n && a[p] == key ? p : -(p + 1);
                }
                out[base + i] = answer;
            }
        }
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    public String toString() {
        return "RADIX_DIRECTORY[n=" + size() + "]";
    }
}
