package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The batch contract of {@link IntSearch#indexOf(int[], int, int, int[])} for every variant and
 * for {@link IntSearch#of} and {@link IntSearch#compactOf}: each answer equals the single lookup of
 * its query, in query order, for batches that end inside, at and past a lockstep group; only
 * {@code out[from..to)} is written; {@code out} may be {@code queries}; bad bounds throw before
 * anything is written.
 */
class IntSearchBatchTest {

    static final int[] BATCHES = {0, 1, Lockstep.GROUP - 1, Lockstep.GROUP, Lockstep.GROUP + 1, 100, 1000};

    static List<Function<int[], IntSearch>> factories() {
        List<Function<int[], IntSearch>> f = new ArrayList<>();
        for (IntSearchKind kind : IntSearchKind.values()) {
            f.add(kind::build);
        }
        f.add(IntSearch::of);
        f.add(IntSearch::compactOf);
        return f;
    }

    /** Queries: present keys, their neighbours, random ints and the int extremes, shuffled. */
    static int[] queries(SplittableRandom r, int[] a, int count) {
        int[] q = new int[count];
        for (int i = 0; i < count; i++) {
            int c = r.nextInt(6);
            if (a.length > 0 && c < 3) {
                q[i] = a[r.nextInt(a.length)] + (c - 1);
            } else if (c == 3) {
                q[i] = Integer.MIN_VALUE;
            } else if (c == 4) {
                q[i] = Integer.MAX_VALUE;
            } else {
                q[i] = r.nextInt();
            }
        }
        return q;
    }

    @Test
    void everyAnswerIsTheSingleLookupOfItsQuery() {
        SplittableRandom r = new SplittableRandom(7);
        for (int n : new int[] {0, 1, 2, 15, 16, 17, 255, 4097, 65_537}) {
            for (IntSearchTest.Spread spread : IntSearchTest.Spread.values()) {
                int[] a = IntSearchTest.randomSorted(r, n, spread);
                for (Function<int[], IntSearch> factory : factories()) {
                    IntSearch s = factory.apply(a);
                    for (int batch : BATCHES) {
                        int[] q = queries(r, a, batch + 6);
                        int from = 3;
                        int to = from + batch;
                        int[] out = new int[q.length];
                        Arrays.fill(out, 12345);
                        s.indexOf(q, from, to, out);
                        String what = s + " " + spread + " batch=" + batch;
                        for (int i = 0; i < q.length; i++) {
                            int want = i >= from && i < to ? s.indexOf(q[i]) : 12345;
                            if (out[i] != want) {
                                assertEquals(want, out[i], what + " i=" + i + " query=" + q[i]);
                            }
                        }
                        // in place: each answer replaces its query
                        int[] inPlace = q.clone();
                        s.indexOf(inPlace, from, to, inPlace);
                        for (int i = 0; i < q.length; i++) {
                            int want = i >= from && i < to ? s.indexOf(q[i]) : q[i];
                            if (inPlace[i] != want) {
                                assertEquals(want, inPlace[i], what + " in place, i=" + i);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void badBoundsThrowBeforeAnythingIsWritten() {
        int[] a = {1, 3, 5, 7};
        int unwritten = Integer.MIN_VALUE + 7; // no answer for these keys
        for (Function<int[], IntSearch> factory : factories()) {
            IntSearch s = factory.apply(a);
            int[] q = {1, 2, 3, 4};
            int[] out = new int[4];
            Arrays.fill(out, unwritten);
            int[] shortOut = new int[3];
            Arrays.fill(shortOut, unwritten);
            int[] none = out.clone();
            assertThrows(IndexOutOfBoundsException.class, () -> s.indexOf(q, -1, 2, out), s.toString());
            assertThrows(IndexOutOfBoundsException.class, () -> s.indexOf(q, 3, 2, out), s.toString());
            assertThrows(IndexOutOfBoundsException.class, () -> s.indexOf(q, 0, 5, out), s.toString());
            IndexOutOfBoundsException shortOutFails =
                    assertThrows(IndexOutOfBoundsException.class, () -> s.indexOf(q, 0, 4, shortOut), s.toString());
            assertEquals(
                    "range [0, 4) out of bounds for queries of length 4 and out of length 3 (out is indexed like queries)",
                    shortOutFails.getMessage());
            assertThrows(NullPointerException.class, () -> s.indexOf(null, 0, 0, out), s.toString());
            assertEquals(
                    "out",
                    assertThrows(NullPointerException.class, () -> s.indexOf(q, 0, 0, null), s.toString())
                            .getMessage());
            assertArrayEquals(none, out, s.toString());
            assertArrayEquals(new int[] {unwritten, unwritten, unwritten}, shortOut, s.toString());
            assertArrayEquals(new int[] {1, 2, 3, 4}, q, s.toString());
        }
    }

    /**
     * The lockstep loops' step ends every group at {@code to}, also within a group of
     * {@code Integer.MAX_VALUE}, where adding the group size would wrap and the loop never end.
     * (An array that long needs 8 GiB, so the step is checked alone.)
     */
    @Test
    void groupsEndAtTheBoundEvenNearTheLargestIndex() {
        for (int from : new int[] {0, Integer.MAX_VALUE - 40, Integer.MAX_VALUE - 15, Integer.MAX_VALUE - 1}) {
            int to = from == 0 ? 40 : Integer.MAX_VALUE;
            long covered = 0;
            int groups = 0;
            for (int base = from, end; base < to; base = end) {
                end = Lockstep.groupEnd(base, to);
                assertTrue(end > base && end <= to && end - base <= Lockstep.GROUP, base + ".." + end);
                covered += end - base;
                groups++;
                assertTrue(groups <= 3, "from " + from + ": more groups than the range holds");
            }
            assertEquals((long) to - from, covered, "from " + from);
        }
    }
}
