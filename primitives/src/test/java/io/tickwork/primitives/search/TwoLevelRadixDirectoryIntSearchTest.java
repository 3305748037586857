package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link TwoLevelRadixDirectoryIntSearch} on the shapes that exercise its second level: buckets
 * cut into a few or many slots, runs of keys much narrower than their bucket (queries below a
 * bucket's first key and above its last, which the slot clamp must send to the bucket's ends),
 * several runs in one bucket, runs of consecutive values and of duplicates that no split can thin
 * to 8 keys (the binary-search fallback), a crowded bucket at each end of the int range. The
 * generic suites cover it with the other variants; these make sure each path is taken.
 */
class TwoLevelRadixDirectoryIntSearchTest {

    private static void check(int[] a, int[] probes, String what) {
        IntSearchTest.checkProbes(IntSearchKind.TWO_LEVEL_RADIX_DIRECTORY, a, probes, what);
    }

    private static void check(int[] a, String what) {
        IntSearchTest.checkAll(IntSearchKind.TWO_LEVEL_RADIX_DIRECTORY, a, new SplittableRandom(a.length), what);
    }

    /**
     * A crowded bucket that no allowed width thins to 8 keys keeps the widest width that leaves its
     * fullest slot as small as any allowed width does: narrower ones only add slots. Where
     * narrowing reaches 8 keys, the widest width that does.
     */
    @Test
    void aBucketNoWidthThinsKeepsItsWidestUsefulWidth() {
        // 9 consecutive values, then one key 2^21 above: 9 in a slot at every allowed width; 2^20
        // (3 slots), not 2^15 (65 slots)
        int[] stuck = {0, 1, 2, 3, 4, 5, 6, 7, 8, 1 << 21};
        assertEquals(20, TwoLevelRadixDirectoryIntSearch.width(stuck, 0, stuck.length));
        // 0..9, then 100, 200, ..., 3,000: the fullest slot holds 12, 11, 10, 10, 10 keys at widths
        // 2^8 down to 2^4 (the narrowest allowed); 2^6 is the widest with 10
        int[] mixed = new int[40];
        for (int i = 0; i < 40; i++) {
            mixed[i] = i < 10 ? i : 100 * (i - 9);
        }
        assertEquals(6, TwoLevelRadixDirectoryIntSearch.width(mixed, 0, mixed.length));
        // 0, 2, ..., 18, then 100, ..., 3,000: 8 keys first at width 2^4
        int[] reaches = new int[40];
        for (int i = 0; i < 40; i++) {
            reaches[i] = i < 10 ? 2 * i : 100 * (i - 9);
        }
        assertEquals(4, TwoLevelRadixDirectoryIntSearch.width(reaches, 0, reaches.length));
        // the same shape a thousand times over the int range: answers stay exact
        int[] a = new int[10_000];
        for (int g = 0; g < 1_000; g++) {
            int start = Integer.MIN_VALUE + g * (1 << 22);
            for (int j = 0; j < 9; j++) {
                a[10 * g + j] = start + j;
            }
            a[10 * g + 9] = start + (1 << 21);
        }
        check(a, "groups no width thins");
    }

    @Test
    void logUniformKeysRefineTheCrowdedLowBuckets() {
        SplittableRandom r = new SplittableRandom(5);
        int[] a = IntStream.generate(() -> (int) Math.exp(r.nextDouble() * Math.log(Integer.MAX_VALUE)))
                .limit(30_000)
                .sorted()
                .toArray();
        check(a, "log-uniform");
    }

    @Test
    void narrowRunsInWideBucketsAnswerEveryQueryAroundThem() {
        SplittableRandom r = new SplittableRandom(13);
        int[] a = new int[30_000];
        long at = Integer.MIN_VALUE;
        int i = 0;
        while (i < a.length) {
            at += r.nextLong(2, 1L << 20); // gaps wide and narrow: one run or several per bucket
            int len = Math.min(a.length - i, r.nextInt(9, 700));
            for (int j = 0; j < len; j++) {
                at += 2 * r.nextInt(1, 5);
                a[i++] = (int) at;
            }
        }
        // keys step by even values, so odd offsets stay inside a run's slots; the wider ones reach
        // past a run's last key (and below its first) while still in its bucket
        int[] offsets = {0, 1, -1, 2, -2, 3, 17, -17, 100, -100, 1_000, -1_000, 5_000, -5_000, 40_000, -40_000};
        int[] probes = new int[a.length * (offsets.length + 1)];
        int p = 0;
        for (int k = 0; k < a.length; k++) {
            for (int offset : offsets) {
                probes[p++] = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, (long) a[k] + offset));
            }
            probes[p++] = k == 0 ? a[k] : (int) (((long) a[k - 1] + a[k]) / 2); // mid-gap
        }
        check(a, probes, "narrow runs");
    }

    @Test
    void runsOfConsecutiveValuesAndDuplicatesFallBackToBinarySearch() {
        SplittableRandom r = new SplittableRandom(9);
        int[] a = new int[20_000];
        int i = 0;
        while (i < a.length) {
            int start = r.nextInt();
            int len = Math.min(a.length - i, r.nextInt(10, 2000));
            boolean duplicates = r.nextInt(4) == 0;
            for (int j = 0; j < len; j++) {
                a[i++] = duplicates ? start : (int) Math.min(Integer.MAX_VALUE, (long) start + j);
            }
        }
        Arrays.sort(a);
        check(a, "consecutive and duplicate runs");
    }

    @Test
    void crowdedBucketsAtBothEndsOfTheIntRange() {
        int[] a = IntStream.concat(
                        IntStream.range(0, 3000).map(i -> Integer.MIN_VALUE + 2 * i),
                        IntStream.range(0, 3000).map(i -> Integer.MAX_VALUE - 3 * (2999 - i)))
                .toArray();
        check(a, "both ends");
        int[] oneOutlier = IntStream.concat(IntStream.range(0, 5000).map(i -> i * 5), IntStream.of(Integer.MAX_VALUE))
                .toArray();
        check(oneOutlier, "dense block and one outlier");
    }
}
