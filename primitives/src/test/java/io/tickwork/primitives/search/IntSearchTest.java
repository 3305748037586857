package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every {@link IntSearchKind} against a {@link TreeMap} model (key to first index) and against
 * {@link Arrays#binarySearch}'s contract, on random arrays of many sizes and value spreads.
 * Failures name the variant, size, spread and seed.
 */
class IntSearchTest {

    /** 0, 1, 2, powers of two +- 1 (16 is the B+ tree node, 2^k-1 a perfect Eytzinger tree), larger. */
    static final int[] SIZES = sizes();

    private static int[] sizes() {
        IntStream.Builder b = IntStream.builder().add(0).add(1).add(2).add(3);
        for (int p = 2; p <= 1 << 12; p <<= 1) {
            b.add(p - 1).add(p).add(p + 1);
        }
        b.add(16 * 16 + 5).add(16 * 16 * 16 + 1).add(10_000).add(65_537).add(100_003);
        return b.build().distinct().sorted().toArray();
    }

    /**
     * Value spreads: many duplicates, sparse, full int range with extremes, and clustered (half
     * the keys in a range of width n, so one radix bucket holds them: its slow path).
     */
    enum Spread {
        DUPLICATES,
        SPARSE,
        FULL_RANGE_WITH_EXTREMES,
        CLUSTERED
    }

    static int[] randomSorted(SplittableRandom r, int n, Spread spread) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            switch (spread) {
                case DUPLICATES:
                    a[i] = r.nextInt(Math.max(1, n / 3)) - n / 6;
                    break;
                case SPARSE:
                    a[i] = r.nextInt(-1 << 30, 1 << 30);
                    break;
                case CLUSTERED:
                    a[i] = r.nextBoolean() ? 1000 + r.nextInt(n) : r.nextInt();
                    break;
                default:
                    int c = r.nextInt(8);
                    a[i] = c == 0 ? Integer.MIN_VALUE : c == 1 ? Integer.MAX_VALUE : r.nextInt();
            }
        }
        Arrays.sort(a);
        return a;
    }

    /** The reference: lower bound from a TreeMap of value to first index. */
    static int expected(TreeMap<Integer, Integer> firstIndex, int n, int key) {
        Integer i = firstIndex.get(key);
        if (i != null) {
            return i;
        }
        Map.Entry<Integer, Integer> ceil = firstIndex.ceilingEntry(key);
        return -((ceil == null ? n : ceil.getValue()) + 1);
    }

    static void checkAll(IntSearchKind kind, int[] a, SplittableRandom r, String what) {
        int[] probes = IntStream.concat(
                        IntStream.of(
                                Integer.MIN_VALUE,
                                Integer.MIN_VALUE + 1,
                                -1,
                                0,
                                1,
                                Integer.MAX_VALUE - 1,
                                Integer.MAX_VALUE),
                        IntStream.range(0, Math.min(a.length, 20_000)).flatMap(i -> {
                            int v = a[r.nextInt(a.length)];
                            return IntStream.of(v, v - 1, v + 1, r.nextInt());
                        }))
                .toArray();
        checkProbes(kind, a, probes, what);
    }

    /** Builds {@code kind} over {@code a} and checks every probe against the model and the JDK's contract. */
    static void checkProbes(IntSearchKind kind, int[] a, int[] probes, String what) {
        IntSearch s = kind.build(a);
        assertEquals(a.length, s.size(), what);
        TreeMap<Integer, Integer> first = new TreeMap<>();
        for (int i = a.length - 1; i >= 0; i--) {
            first.put(a[i], i);
        }
        for (int key : probes) {
            int want = expected(first, a.length, key);
            int got = s.indexOf(key);
            if (want != got) {
                assertEquals(want, got, what + " key=" + key);
            }
            // and Arrays.binarySearch's contract, of which ours is the deterministic case
            int jdk = Arrays.binarySearch(a, key);
            assertEquals(jdk >= 0, got >= 0, what + " key=" + key);
            if (jdk < 0) {
                assertEquals(jdk, got, what + " key=" + key);
            } else {
                assertEquals(key, a[got], what + " key=" + key);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(IntSearchKind.class)
    void matchesTreeMapModelOnRandomArraysOfManySizes(IntSearchKind kind) {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        for (int n : SIZES) {
            for (Spread spread : Spread.values()) {
                checkAll(kind, randomSorted(r, n, spread), r, kind + " n=" + n + " spread=" + spread + " seed=" + seed);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(IntSearchKind.class)
    void allEqualKeysAnswerTheFirstIndex(IntSearchKind kind) {
        for (int v : new int[] {Integer.MIN_VALUE, 0, Integer.MAX_VALUE}) {
            for (int n : new int[] {1, 2, 15, 16, 17, 33, 1000}) {
                int[] a = new int[n];
                Arrays.fill(a, v);
                IntSearch s = kind.build(a);
                assertEquals(0, s.indexOf(v), kind + " n=" + n + " v=" + v);
                if (v != Integer.MIN_VALUE) {
                    assertEquals(-1, s.indexOf(v - 1), kind + " n=" + n + " v=" + v);
                }
                if (v != Integer.MAX_VALUE) {
                    assertEquals(-(n + 1), s.indexOf(v + 1), kind + " n=" + n + " v=" + v);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(IntSearchKind.class)
    void emptyAnswersInsertionPointZero(IntSearchKind kind) {
        IntSearch s = kind.build(new int[0]);
        assertEquals(0, s.size());
        for (int k : new int[] {Integer.MIN_VALUE, 0, Integer.MAX_VALUE}) {
            assertEquals(-1, s.indexOf(k));
        }
    }

    @ParameterizedTest
    @EnumSource(IntSearchKind.class)
    void extremesAreOrdinaryKeys(IntSearchKind kind) {
        IntSearch s = kind.build(new int[] {Integer.MIN_VALUE, -1, 0, Integer.MAX_VALUE});
        assertEquals(0, s.indexOf(Integer.MIN_VALUE));
        assertEquals(-2, s.indexOf(Integer.MIN_VALUE + 1));
        assertEquals(3, s.indexOf(Integer.MAX_VALUE));
        assertEquals(-4, s.indexOf(Integer.MAX_VALUE - 1));
        IntSearch noMax = kind.build(new int[] {Integer.MIN_VALUE, 5});
        assertEquals(-3, noMax.indexOf(Integer.MAX_VALUE));
    }

    @ParameterizedTest
    @EnumSource(IntSearchKind.class)
    void rejectsUnsortedInputNamingIndexAndValues(IntSearchKind kind) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> kind.build(new int[] {1, 2, 7, 3, 9}));
        assertTrue(
                e.getMessage().contains("index 2")
                        && e.getMessage().contains("a[2] = 7")
                        && e.getMessage().contains("a[3] = 3"),
                e.getMessage());
        assertThrows(
                IllegalArgumentException.class, () -> kind.build(new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE}));
        assertEquals(
                "sorted",
                assertThrows(NullPointerException.class, () -> kind.build(null)).getMessage());
    }

    @ParameterizedTest
    @EnumSource(IntSearchKind.class)
    void copiesItsInput(IntSearchKind kind) {
        int[] a = {10, 20, 30};
        IntSearch s = kind.build(a);
        a[1] = 25;
        assertEquals(1, s.indexOf(20));
        assertEquals(-3, s.indexOf(25));
    }

    @org.junit.jupiter.api.Test
    void eytzingerRankMatchesAnExplicitInOrderWalk() {
        for (int n = 1; n <= 600; n++) {
            int[] a = IntStream.range(0, n).toArray(); // value == sorted index
            EytzingerIntSearch e = new EytzingerIntSearch(a);
            int[] b = new int[n + 1];
            walk(b, n, 1, new int[1]);
            for (int k = 1; k <= n; k++) {
                assertEquals(b[k], e.rank(k), "n=" + n + " k=" + k);
            }
        }
    }

    private static void walk(int[] rankOf, int n, int k, int[] next) {
        if (k <= n) {
            walk(rankOf, n, 2 * k, next);
            rankOf[k] = next[0]++;
            walk(rankOf, n, 2 * k + 1, next);
        }
    }
}
