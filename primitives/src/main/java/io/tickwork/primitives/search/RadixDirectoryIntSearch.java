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
        this.shift = n == 0 ? 0 : shift(min, max, n);
        int buckets = n == 0 ? 1 : (int) ((((long) max - min) >>> shift) + 1);
        this.dir = new int[buckets + 1];
        for (int i = 0; i < n; i++) {
            dir[bucket(sorted[i]) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            dir[b + 1] += dir[b];
        }
    }

    /**
     * The shift for n keys over [min, max]: buckets as narrow as a power of two allows with at
     * most n/2 of them, so between n/4 and n/2 (fewer only when the range itself is narrower); on
     * uniform keys 2-4 keys per bucket, under 2 % of them above WINDOW, wherever the range ends.
     */
    static int shift(int min, int max, int n) {
        return shiftFor(min, max, Math.max(1, n / 2));
    }

    /**
     * The smallest shift that maps {@code key - min} over [min, max] to at most {@code buckets}
     * buckets ({@code >= 1}): the buckets are counted from the range's width, not from its bit
     * length, so a range just past a power of two does not leave half of them empty.
     */
    static int shiftFor(int min, int max, int buckets) {
        long span = (long) max - min;
        int shift = 0;
        while ((span >>> shift) >= buckets) { // (span >>> shift) + 1 buckets in use
            shift++;
        }
        return shift;
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
