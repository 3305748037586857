package io.tickwork.primitives.search;

/** {@link IntSearchKind#RADIX_DIRECTORY}. */
final class RadixDirectoryIntSearch implements IntSearch {
    /** Buckets up to this long are searched by four fixed branch-free steps. */
    static final int WINDOW = 8;

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
        this.a = java.util.Arrays.copyOf(sorted, n + WINDOW);
        java.util.Arrays.fill(a, n, n + WINDOW, Integer.MAX_VALUE);
        this.min = n == 0 ? 0 : sorted[0];
        this.max = n == 0 ? -1 : sorted[n - 1];
        // between n/4 and n/2 buckets: on uniform keys 2-4 keys per bucket, under 2% above WINDOW
        int buckets = Integer.highestOneBit(Math.max(1, n / 2));
        int logBuckets = Integer.numberOfTrailingZeros(buckets);
        long range = n == 0 ? 0 : (long) max - min;
        int spanBits = 64 - Long.numberOfLeadingZeros(range);
        this.shift = Math.max(0, spanBits - logBuckets);
        this.dir = new int[buckets + 1];
        for (int i = 0; i < n; i++) {
            dir[bucket(sorted[i]) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            dir[b + 1] += dir[b];
        }
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
        int p;
        // the lower bound is in [lo, lo + len]: keys from lo + len on belong to later buckets
        if (len <= WINDOW) {
            // first index >= key among lo .. lo + 8, in four steps that do not depend on len
            p = lo + (lt(a[lo + 3], key) << 2);
            p += lt(a[p + 1], key) << 1;
            p += lt(a[p], key);
            p += lt(a[p], key);
        } else {
            p = lo;
            while (len > 1) {
                int half = len >>> 1;
                p += half & -lt(a[p + half], key);
                len -= half;
            }
            p += lt(a[p], key);
        }
        return p < n && a[p] == key ? p : -(p + 1);
    }

    /** 1 if x < key else 0, without a branch. */
    private static int lt(int x, int key) {
        return (int) (((long) x - key) >>> 63);
    }

    @Override
    public int size() {
        return n;
    }
}
