package io.tickwork.primitives.search;

/** {@link IntSearchKind#RADIX_DIRECTORY}. */
final class RadixDirectoryIntSearch implements IntSearch {
    /** Buckets up to this long are searched by two fixed branch-free steps. */
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
        return shiftFor(min, max, buckets(n));
    }

    /** The shift that maps {@code key - min} to one of {@code buckets} (a power of 2) over [min, max]. */
    static int shiftFor(int min, int max, int buckets) {
        int spanBits = 64 - Long.numberOfLeadingZeros((long) max - min);
        return Math.max(0, spanBits - Integer.numberOfTrailingZeros(buckets));
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

    @Override
    public int size() {
        return n;
    }

    @Override
    public String toString() {
        return "RADIX_DIRECTORY[n=" + size() + "]";
    }
}
