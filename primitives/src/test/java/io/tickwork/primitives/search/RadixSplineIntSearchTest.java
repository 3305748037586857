package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link RadixSplineIntSearch} on the shapes that stress a learned index: every error bound and
 * radix width from degenerate to wide, huge gaps, equal gaps, runs of duplicates, the int extremes,
 * and step functions whose every integer between keys is probed. The {@link IntSearchTest} and
 * {@link IntSearchPropertyTest} suites cover it with every other variant; these check the model
 * itself: its error bound, and that the answers do not depend on the tuning.
 */
class RadixSplineIntSearchTest {

    private static final int[][] TUNINGS = {{0, 0}, {0, 4}, {1, 1}, {2, 10}, {16, -1}, {32, 20}, {64, 2}};

    /** Every tuning against the TreeMap model, probing each key, its neighbours and random ints. */
    private static void checkAllTunings(int[] a, String what) {
        TreeMap<Integer, Integer> first = new TreeMap<>();
        for (int i = a.length - 1; i >= 0; i--) {
            first.put(a[i], i);
        }
        SplittableRandom r = new SplittableRandom(a.length);
        for (int[] t : TUNINGS) {
            RadixSplineIntSearch s = new RadixSplineIntSearch(a.clone(), t[0], t[1]);
            String where = what + " maxError=" + t[0] + " radixBits=" + t[1];
            for (int v : a) {
                for (long q = (long) v - 2; q <= (long) v + 2; q++) {
                    if (q >= Integer.MIN_VALUE && q <= Integer.MAX_VALUE) {
                        assertEquals(
                                IntSearchTest.expected(first, a.length, (int) q),
                                s.indexOf((int) q),
                                where + " q=" + q);
                    }
                }
            }
            for (int i = 0; i < 2000; i++) {
                int q = r.nextInt();
                assertEquals(IntSearchTest.expected(first, a.length, q), s.indexOf(q), where + " q=" + q);
            }
            for (int q : new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1}) {
                assertEquals(IntSearchTest.expected(first, a.length, q), s.indexOf(q), where + " q=" + q);
            }
        }
    }

    @Test
    void emptyAndOneKey() {
        checkAllTunings(new int[0], "empty");
        for (int v : new int[] {Integer.MIN_VALUE, -7, 0, 7, Integer.MAX_VALUE}) {
            checkAllTunings(new int[] {v}, "one key " + v);
        }
    }

    @Test
    void extremesAndHugeGaps() {
        checkAllTunings(new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE}, "MIN, MAX");
        checkAllTunings(
                new int[] {Integer.MIN_VALUE, Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1, Integer.MAX_VALUE}, "ends");
        // dense runs at both ends of the int range and one in the middle, gaps of ~2^31
        int[] a = IntStream.concat(
                        IntStream.concat(
                                IntStream.range(0, 500).map(i -> Integer.MIN_VALUE + 3 * i),
                                IntStream.range(0, 500).map(i -> 5 * i)),
                        IntStream.range(0, 500).map(i -> Integer.MAX_VALUE - 2 * (499 - i)))
                .toArray();
        checkAllTunings(a, "three runs");
    }

    @Test
    void equalGapsNeedOnlyTwoKnots() {
        for (int gap : new int[] {1, 2, 7, 1 << 20}) {
            int n = (int) Math.min(5000, (1L << 31) / gap);
            int[] a = IntStream.range(0, n).map(i -> -n / 2 * gap + i * gap).toArray();
            checkAllTunings(a, "gap " + gap);
            // the staircase of a gap g is within 1 - 1/g of the line through its corners
            assertEquals(2, new RadixSplineIntSearch(a, gap == 1 ? 0 : 1, -1).knots(), "gap " + gap);
        }
    }

    @Test
    void runsOfDuplicatesAnswerTheFirstIndex() {
        SplittableRandom r = new SplittableRandom(7);
        int[] a = new int[6000];
        for (int i = 0; i < a.length; ) {
            int v = r.nextInt(-1_000_000, 1_000_000);
            int run = r.nextInt(1, r.nextBoolean() ? 4 : 400);
            for (int j = 0; j < run && i < a.length; j++) {
                a[i++] = v;
            }
        }
        Arrays.sort(a);
        checkAllTunings(a, "duplicate runs");
        int[] allEqual = new int[3000];
        Arrays.fill(allEqual, 42);
        checkAllTunings(allEqual, "all equal");
    }

    @Test
    void everyIntegerBetweenKeysGetsItsInsertionPoint() {
        // a jagged small set: all of [min, max] probed, so every step of the staircase is checked
        SplittableRandom r = new SplittableRandom(11);
        int[] a = IntStream.range(0, 400)
                .map(i -> r.nextInt(0, 20_000) * (r.nextInt(10) == 0 ? 1 : 0) + r.nextInt(0, 50) + 100)
                .sorted()
                .toArray();
        TreeMap<Integer, Integer> first = new TreeMap<>();
        for (int i = a.length - 1; i >= 0; i--) {
            first.put(a[i], i);
        }
        for (int[] t : TUNINGS) {
            RadixSplineIntSearch s = new RadixSplineIntSearch(a.clone(), t[0], t[1]);
            for (int q = a[0] - 3; q <= a[a.length - 1] + 3; q++) {
                assertEquals(IntSearchTest.expected(first, a.length, q), s.indexOf(q), "q=" + q + " tuning=" + t[0]);
            }
        }
    }

    @Test
    void skewedKeysNeedFewerKnotsWithALargerErrorBound() {
        SplittableRandom r = new SplittableRandom(3);
        int[] a = IntStream.generate(() -> (int) Math.exp(r.nextDouble() * Math.log(Integer.MAX_VALUE)))
                .limit(50_000)
                .sorted()
                .toArray();
        checkAllTunings(a, "log-uniform");
        int tight = new RadixSplineIntSearch(a, 2, -1).knots();
        int loose = new RadixSplineIntSearch(a, 64, -1).knots();
        assertTrue(loose < tight && loose < a.length / 20, "knots at E=2: " + tight + ", at E=64: " + loose);
    }

    @Test
    void corridorSlopeComparisonIsExactNearTheLongRange() {
        long big = 1L << 32;
        assertEquals(0, RadixSplineIntSearch.SplineCorridor.compare(Integer.MAX_VALUE, big, Integer.MAX_VALUE, big));
        assertEquals(
                1, RadixSplineIntSearch.SplineCorridor.compare(Integer.MAX_VALUE, big - 1, Integer.MAX_VALUE, big));
        assertEquals(-1, RadixSplineIntSearch.SplineCorridor.compare(-Integer.MAX_VALUE, big, 0, 1));
    }

    @Test
    void rejectsBadTuning() {
        assertThrows(IllegalArgumentException.class, () -> new RadixSplineIntSearch(new int[] {1}, -1, -1));
        assertThrows(IllegalArgumentException.class, () -> new RadixSplineIntSearch(new int[] {1}, 4, 31));
    }
}
