package io.tickwork.primitives.search;

/**
 * The decision behind {@link IntSearch#of(int[])} and {@link IntSearch#compactOf(int[])}.
 *
 * <p>One question decides: do the keys spread evenly over their range? It is answered exactly, in
 * one pass over the sorted keys without allocating, with the bucketing of
 * {@link RadixDirectoryIntSearch}: the share of keys that fall in a bucket holding more than
 * {@link WindowSearch#WINDOW} keys. On uniform keys that share is a few percent (5 % at n = 2,000, where a bucket averages 3.9
 * keys); on log-uniform and clustered keys it is most of them, and each such key costs the one-level
 * directory a binary search, which is why it is 2 to 3 times slower there than the two-level one.
 */
final class IntSearchChoice {

    /** The largest share of keys in crowded buckets for which the keys count as evenly spread. */
    static final double CROWDED_LIMIT = 0.10;

    private IntSearchChoice() {}

    static IntSearchKind fastest(int[] sorted) {
        return evenlySpread(sorted) ? IntSearchKind.RADIX_DIRECTORY : IntSearchKind.TWO_LEVEL_RADIX_DIRECTORY;
    }

    static IntSearchKind compact(int[] sorted) {
        return evenlySpread(sorted) ? IntSearchKind.RADIX_DIRECTORY : IntSearchKind.RADIX_SPLINE;
    }

    /** Whether at most {@link #CROWDED_LIMIT} of the keys sit in crowded one-level buckets. */
    static boolean evenlySpread(int[] sorted) {
        return crowdedShare(sorted) <= CROWDED_LIMIT;
    }

    /**
     * The share of keys in buckets of more than {@link WindowSearch#WINDOW} keys, with
     * {@link RadixDirectoryIntSearch}'s buckets; 0 for no keys. Unsorted input gives some share
     * (the build that follows rejects it).
     */
    static double crowdedShare(int[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            return 0;
        }
        int shift = RadixDirectoryIntSearch.shift(sorted[0], sorted[n - 1], n);
        long min = sorted[0];
        long crowded = 0;
        long bucket = -1;
        int run = 0;
        for (int key : sorted) {
            long b = (key - min) >>> shift;
            if (b != bucket) {
                if (run > WindowSearch.WINDOW) {
                    crowded += run;
                }
                bucket = b;
                run = 0;
            }
            run++;
        }
        if (run > WindowSearch.WINDOW) {
            crowded += run;
        }
        return (double) crowded / n;
    }
}
