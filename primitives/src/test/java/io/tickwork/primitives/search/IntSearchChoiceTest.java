package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The decision table of {@link IntSearch#of} and {@link IntSearch#compactOf} on generated key
 * sets, the shapes of the benchmark's distributions: uniform keys get the one-level directory,
 * log-uniform keys the logarithmic one, clustered keys the two-level one; compact, the spline
 * wherever the one-level directory does not fit and the spline is the smaller; {@code toString}
 * names the choice.
 */
class IntSearchChoiceTest {

    static int[] uniform(SplittableRandom r, int n) {
        return IntStream.generate(r::nextInt).distinct().limit(n).sorted().toArray();
    }

    static int[] logUniform(SplittableRandom r, int n) {
        return IntStream.generate(() -> (int) Math.exp(r.nextDouble() * Math.log(Integer.MAX_VALUE)))
                .distinct()
                .limit(n)
                .sorted()
                .toArray();
    }

    /** Runs of 64 to 1,024 keys 2 to 8 apart, separated by gaps of 2^16 to 2^20. */
    static int[] clustered(SplittableRandom r, int n) {
        int[] a = new int[n];
        long v = Integer.MIN_VALUE;
        for (int i = 0; i < n; ) {
            v += r.nextInt(1 << 16, 1 << 20);
            for (int len = r.nextInt(64, 1025); len > 0 && i < n; len--) {
                v += 2 * r.nextInt(1, 5);
                a[i++] = (int) v;
            }
        }
        return a;
    }

    @Test
    void evenlySpreadKeysGetTheOneLevelDirectory() {
        SplittableRandom r = new SplittableRandom(1);
        for (int n : new int[] {2_000, 200_000, 2_000_000}) {
            int[] keys = uniform(r, n);
            assertTrue(
                    IntSearchChoice.crowdedShare(keys) < IntSearchChoice.CROWDED_LIMIT,
                    "n=" + n + ": " + IntSearchChoice.crowdedShare(keys));
            assertEquals("RADIX_DIRECTORY[n=" + n + "]", IntSearch.of(keys).toString());
            assertEquals(
                    "RADIX_DIRECTORY[n=" + n + "]", IntSearch.compactOf(keys).toString());
        }
        int[] sequential = IntStream.range(0, 10_000).map(i -> 3 * i).toArray();
        assertEquals(IntSearchKind.RADIX_DIRECTORY, IntSearchChoice.fastest(sequential));
    }

    /**
     * Evenly spread keys whose range ends just past a power of two, or anywhere between two: the
     * buckets are cut from the range's width, so none of these leaves half of them empty and
     * crowds the rest (ids drawn from [1, 10,000,000], say).
     */
    @Test
    void evenlySpreadKeysGetTheOneLevelDirectoryWhereverTheirRangeEnds() {
        int n = 200_000;
        for (long end : new long[] {1L << 24, (1L << 24) + 1, 10_000_000, 12_000_000, 3L << 23, 1L << 25}) {
            int[] keys = new SplittableRandom(3)
                    .ints(1, (int) end)
                    .distinct()
                    .limit(n - 2)
                    .toArray();
            keys = Arrays.copyOf(keys, n);
            keys[n - 2] = 0;
            keys[n - 1] = (int) end; // the range is [0, end]
            Arrays.sort(keys);
            double share = IntSearchChoice.crowdedShare(keys);
            assertTrue(share < 0.05, "range [0, " + end + "]: " + share + " of the keys in crowded buckets");
            assertEquals("RADIX_DIRECTORY[n=" + n + "]", IntSearch.of(keys).toString(), "range [0, " + end + "]");
            assertEquals(
                    "RADIX_DIRECTORY[n=" + n + "]", IntSearch.compactOf(keys).toString(), "range [0, " + end + "]");
        }
    }

    /** The directory's buckets: at most n/2, at least n/4 unless the range is narrower. */
    @Test
    void theOneLevelDirectoryCutsItsRangeIntoAQuarterToAHalfOfNBuckets() {
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            int n = 1 + r.nextInt(1 << 20);
            int min = r.nextInt();
            int max = (int) Math.min(Integer.MAX_VALUE, min + (r.nextLong(1L << r.nextInt(33))));
            int shift = RadixDirectoryIntSearch.shift(min, max, n);
            long buckets = (((long) max - min) >>> shift) + 1;
            String at = "n=" + n + " [" + min + ", " + max + "] shift " + shift;
            assertTrue(buckets <= Math.max(1, n / 2), at);
            if (shift > 0) {
                assertTrue(buckets > n / 4, at);
            }
        }
    }

    @Test
    void keysDenseAtTheLowEndGetTheLogarithmicDirectory() {
        SplittableRandom r = new SplittableRandom(2);
        for (int n : new int[] {2_000, 200_000, 2_000_000}) {
            int[] keys = logUniform(r, n);
            assertTrue(IntSearchChoice.crowdedShare(keys) > 0.2, "n=" + n + ": " + IntSearchChoice.crowdedShare(keys));
            assertTrue(
                    IntSearchChoice.logCrowdedShare(keys) <= IntSearchChoice.CROWDED_LIMIT,
                    "n=" + n + ": " + IntSearchChoice.logCrowdedShare(keys));
            assertEquals("LOG_RADIX_DIRECTORY[n=" + n + "]", IntSearch.of(keys).toString());
            assertEquals("RADIX_SPLINE[n=" + n + "]", IntSearch.compactOf(keys).toString());
        }
    }

    @Test
    void clusteredKeysGetTheTwoLevelDirectoryOrCompactlyTheSpline() {
        SplittableRandom r = new SplittableRandom(3);
        for (int n : new int[] {2_000, 200_000, 2_000_000}) {
            int[] keys = clustered(r, n);
            assertTrue(IntSearchChoice.crowdedShare(keys) > 0.2, "n=" + n);
            assertTrue(IntSearchChoice.logCrowdedShare(keys) > 0.2, "n=" + n);
            assertEquals(
                    "TWO_LEVEL_RADIX_DIRECTORY[n=" + n + "]", IntSearch.of(keys).toString());
            assertEquals("RADIX_SPLINE[n=" + n + "]", IntSearch.compactOf(keys).toString());
        }
    }

    /** Runs of {@code run} consecutive keys, separated by gaps of 2^8 to 2^16. */
    static int[] shortRuns(SplittableRandom r, int n, int run) {
        int[] a = new int[n];
        long v = Integer.MIN_VALUE;
        for (int i = 0; i < n; ) {
            v += r.nextInt(1 << 8, 1 << 16);
            for (int len = run; len > 0 && i < n; len--) {
                a[i++] = (int) v++;
            }
        }
        return a;
    }

    /**
     * Short runs of consecutive keys cost the spline two knots a run, more than the two-level
     * directory's slots: compact keeps the directory then, and is never larger than {@code of}.
     */
    @Test
    void compactIsNeverLargerThanTheFastest() {
        SplittableRandom r = new SplittableRandom(4);
        for (int n : new int[] {20_000, 200_000}) {
            for (int run : new int[] {10, 12, 18, 200}) {
                int[] keys = shortRuns(r, n, run);
                IntSearch fastest = IntSearch.of(keys);
                IntSearch compact = IntSearch.compactOf(keys);
                IntSearch spline = IntSearchKind.RADIX_SPLINE.build(keys);
                long fastestBytes = IntSearchChoice.arrayBytes(fastest);
                long splineBytes = IntSearchChoice.arrayBytes(spline);
                String where = "n=" + n + " run=" + run + ": " + fastest + " " + fastestBytes + " B, spline "
                        + splineBytes + " B, compact " + compact;
                assertEquals(Math.min(fastestBytes, splineBytes), IntSearchChoice.arrayBytes(compact), where);
                assertEquals((splineBytes < fastestBytes ? spline : fastest).toString(), compact.toString(), where);
                assertEquals(
                        run <= 18 ? "TWO_LEVEL_RADIX_DIRECTORY" : "RADIX_SPLINE",
                        compact.toString().substring(0, compact.toString().indexOf('[')),
                        where);
            }
        }
    }

    /**
     * Copies of a key count once: no directory splits a run of equal keys, so a set that only
     * duplicates crowd keeps the one-level or logarithmic directory its distinct keys fit (the
     * two-level one would cost more bytes and time for nothing).
     */
    @Test
    void copiesOfAKeyDoNotCrowdABucket() {
        for (int n : new int[] {10_000, 100_000}) {
            int[] fifthZeros = new int[n]; // a fifth are copies of 0, the rest evenly spread
            for (int i = n / 5; i < n; i++) {
                fifthZeros[i] = (i - n / 5) * 1000;
            }
            assertEquals(
                    "RADIX_DIRECTORY[n=" + n + "]", IntSearch.of(fifthZeros).toString());
        }
        for (int n : new int[] {1_000, 4_097}) {
            // power-law sizes, as counts and lengths come: many copies of the small ones
            int[] powerLaw = IntStream.range(0, n)
                    .map(i -> (int) Math.pow((n - i) / (double) n, -3))
                    .sorted()
                    .toArray();
            int[] distinct = IntStream.of(powerLaw).distinct().toArray();
            assertEquals(IntSearchKind.LOG_RADIX_DIRECTORY, IntSearchChoice.fastest(distinct), "n=" + n);
            assertEquals(IntSearchKind.LOG_RADIX_DIRECTORY, IntSearchChoice.fastest(powerLaw), "n=" + n);
        }
        int[] oneKey = new int[5_000];
        java.util.Arrays.fill(oneKey, 7);
        assertEquals(0.0, IntSearchChoice.crowdedShare(oneKey));
        int[] nineCopiesEach =
                IntStream.of(oneBucketOf(9)).flatMap(k -> IntStream.of(k, k)).toArray();
        assertEquals(9.0 / 1024, IntSearchChoice.crowdedShare(nineCopiesEach), "a bucket of 9 keys, twice each");
    }

    @Test
    void theShareCountsKeysInBucketsOfMoreThanAWindow() {
        assertEquals(9.0 / 1024, IntSearchChoice.crowdedShare(oneBucketOf(9)), "a bucket of 9 keys is crowded");
        assertEquals(0.0, IntSearchChoice.crowdedShare(oneBucketOf(8)), "a bucket of 8 keys fits the window");
        assertEquals(0.0, IntSearchChoice.crowdedShare(new int[0]));
        assertEquals(0.0, IntSearchChoice.crowdedShare(new int[] {5}));
    }

    /**
     * 1,024 keys whose equal-width buckets hold {@code first} keys in bucket 0 and at most two in
     * any other: {@code first} keys from 0, then one every half bucket from the second bucket on.
     */
    private static int[] oneBucketOf(int first) {
        int[] keys = new int[1024];
        int width = 1 << 12;
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i < first ? i : width + (i - first) * (width / 2);
        }
        int shift = RadixDirectoryIntSearch.shift(keys[0], keys[keys.length - 1], keys.length);
        assertEquals(12, shift, "the buckets are " + width + " wide");
        return keys;
    }

    @Test
    void badInputIsRejectedAsByTheKinds() {
        assertThrows(IllegalArgumentException.class, () -> IntSearch.of(new int[] {3, 1}));
        // crowded in equal-width buckets, so the logarithmic bucketing is asked too, then rejected
        int[] unsorted = IntStream.range(0, 1000).map(i -> i < 999 ? i : -5).toArray();
        unsorted[998] = Integer.MAX_VALUE;
        assertThrows(IllegalArgumentException.class, () -> IntSearch.of(unsorted));
        assertThrows(IllegalArgumentException.class, () -> IntSearch.compactOf(unsorted));
        assertThrows(IllegalArgumentException.class, () -> IntSearch.compactOf(new int[] {3, 1}));
        assertEquals(
                "sorted",
                assertThrows(NullPointerException.class, () -> IntSearch.of(null))
                        .getMessage());
        assertEquals(
                "sorted",
                assertThrows(NullPointerException.class, () -> IntSearch.compactOf(null))
                        .getMessage());
        assertEquals(-1, IntSearch.of(new int[0]).indexOf(7));
    }

    /**
     * Keys built against the two-level directory (in each level-1 bucket, a run of 9 keys and one
     * more 632 above it, so the bucket needs 8 slots per key) stay within the about 45 bytes per
     * key that {@code of} states; below 8,192 keys, where level 1 costs up to 8 bytes per key too,
     * they come within 5 of it.
     */
    @Test
    void ofStaysWithinItsStatedBytesPerKeyOnKeysThatNeedEverySlot() {
        for (int n : new int[] {2_000, 2_048, 20_000, 200_000}) {
            int[] keys = new int[n];
            int i = 0;
            for (int g = 0; i + 10 <= n; g++) {
                int base = g * 100_000;
                for (int j = 0; j < 9; j++) {
                    keys[i++] = base + j;
                }
                keys[i++] = base + 632;
            }
            for (int last = keys[i - 1]; i < n; i++) {
                keys[i] = ++last;
            }
            IntSearch of = IntSearch.of(keys);
            assertEquals("TWO_LEVEL_RADIX_DIRECTORY[n=" + n + "]", of.toString());
            long bytes = IntSearchChoice.arrayBytes(of);
            assertTrue(bytes <= 45L * n, "n=" + n + ": " + bytes + " bytes, " + (double) bytes / n + " per key");
            assertTrue(
                    n > 8_192 || bytes >= 40L * n,
                    "n=" + n + ": the keys no longer need every slot (" + bytes + " bytes)");
        }
    }
}
