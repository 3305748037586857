package io.tickwork.primitives.search;

import java.util.function.LongUnaryOperator;

/**
 * The decision behind {@link IntSearch#of(int[])} and {@link IntSearch#compactOf(int[])}.
 *
 * <p>One question, asked of two bucketings: do the keys spread evenly over the buckets? It is
 * answered exactly, in one pass over the sorted keys per bucketing: the share of distinct
 * keys that fall in a bucket holding more than {@link WindowSearch#WINDOW} distinct keys, with the
 * equal-width buckets of {@link RadixDirectoryIntSearch} and with the logarithmic ones of
 * {@link LogRadixDirectoryIntSearch}. Uniform keys leave a few percent crowded in equal-width
 * buckets (5 % at n = 2,000, where a bucket averages 3.9 keys); log-uniform keys leave as few in
 * logarithmic buckets and most of them in equal-width ones; clustered keys crowd both. Each
 * crowded key costs a directory a binary search instead of a fixed 8-key window, which is why
 * the directories are 2 to 3 times slower on the keys they do not fit, and the two-level directory
 * (which refines crowded buckets) is the choice when neither fits.
 */
final class IntSearchChoice {

    /** The largest share of keys in crowded buckets for which a bucketing fits the keys. */
    static final double CROWDED_LIMIT = 0.10;

    private IntSearchChoice() {}

    static IntSearchKind fastest(int[] sorted) {
        IntSearchKind.requireFits(sorted.length); // before the passes over the keys
        if (crowdedShare(sorted) <= CROWDED_LIMIT) {
            return IntSearchKind.RADIX_DIRECTORY;
        }
        if (logCrowdedShare(sorted) <= CROWDED_LIMIT) {
            return IntSearchKind.LOG_RADIX_DIRECTORY;
        }
        return IntSearchKind.TWO_LEVEL_RADIX_DIRECTORY;
    }

    /**
     * {@link IntSearch#compactOf}: the one-level directory where it fits (at most n/2 + 1 ints
     * beside the keys); elsewhere the spline or {@link #fastest}'s directory, whichever has fewer
     * bytes of arrays (both are built to know; a tie goes to the directory, the faster).
     */
    static IntSearch compact(int[] sorted) {
        IntSearchKind fastest = fastest(sorted);
        if (fastest == IntSearchKind.RADIX_DIRECTORY) {
            return fastest.build(sorted);
        }
        IntSearch directory = fastest.build(sorted);
        IntSearch spline = IntSearchKind.RADIX_SPLINE.build(sorted);
        return arrayBytes(spline) < arrayBytes(directory) ? spline : directory;
    }

    /** The bytes of a compact candidate's arrays, headers included. */
    static long arrayBytes(IntSearch s) {
        if (s instanceof RadixSplineIntSearch x) {
            return x.arrayBytes();
        }
        if (s instanceof TwoLevelRadixDirectoryIntSearch x) {
            return x.arrayBytes();
        }
        if (s instanceof LogRadixDirectoryIntSearch x) {
            return x.arrayBytes();
        }
        throw new IllegalArgumentException("not a compact candidate: " + s);
    }

    /** An array's bytes on a 64-bit VM with compressed class pointers: 16 of header, 8-aligned. */
    static long bytes(int[] a) {
        return align(16 + 4L * a.length);
    }

    static long bytes(long[] a) {
        return 16 + 8L * a.length;
    }

    static long bytes(double[] a) {
        return 16 + 8L * a.length;
    }

    private static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }

    /**
     * The share of keys in buckets of more than {@link WindowSearch#WINDOW} keys, with
     * {@link RadixDirectoryIntSearch}'s equal-width buckets; 0 for no keys. Unsorted input gives
     * some share (the build that follows rejects it).
     */
    static double crowdedShare(int[] sorted) {
        if (sorted.length == 0) {
            return 0;
        }
        int shift = RadixDirectoryIntSearch.shift(sorted[0], sorted[sorted.length - 1], sorted.length);
        return crowdedShare(sorted, distance -> distance >>> shift);
    }

    /** As {@link #crowdedShare(int[])}, with {@link LogRadixDirectoryIntSearch}'s logarithmic buckets. */
    static double logCrowdedShare(int[] sorted) {
        if (sorted.length == 0) {
            return 0;
        }
        int m = LogRadixDirectoryIntSearch.mantissaBits(sorted);
        return crowdedShare(sorted, distance -> LogRadixDirectoryIntSearch.bucket(distance, m));
    }

    /**
     * One pass over keys in order: the share of distinct keys that lie in buckets of more than
     * {@code WINDOW} distinct keys, the bucket a function of the distance from the first key (a
     * key below the first, in unsorted input, counts as distance 0). Copies of a key count once:
     * no directory can split a run of equal keys, the two-level one included, so duplicates are
     * no reason to leave the one-level directories (whose lookup then binary-searches the run's
     * bucket, as the two-level one would).
     */
    private static double crowdedShare(int[] sorted, LongUnaryOperator bucketOfDistance) {
        long min = sorted[0];
        long crowded = 0;
        long distinct = 0;
        long bucket = -1;
        int run = 0; // distinct keys in the current bucket
        int previous = 0;
        for (int key : sorted) {
            if (key == previous && distinct > 0) {
                continue;
            }
            previous = key;
            distinct++;
            long b = bucketOfDistance.applyAsLong(Math.max(0, key - min));
            if (b != bucket) {
                crowded += run > WindowSearch.WINDOW ? run : 0;
                bucket = b;
                run = 0;
            }
            run++;
        }
        crowded += run > WindowSearch.WINDOW ? run : 0;
        return (double) crowded / distinct;
    }
}
