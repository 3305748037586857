package io.tickwork.primitives.search;

import java.util.Arrays;

/**
 * The last step both radix directories share: the lower bound of {@code key} (the first index whose
 * key is not less than it) when the directory has narrowed it to {@code [lo, lo + len]}. Up to
 * {@link #WINDOW} keys it takes two branch-free steps whose count does not depend on {@code len}:
 * the key array carries {@link #WINDOW} {@code MAX_VALUE} sentinels past its last key
 * ({@link #withSentinels}), so a window never leaves it. A longer range gets a branch-free halving.
 * Static and small, so C2 inlines it into each caller's {@code indexOf}. Stateless, thread safe.
 */
final class WindowSearch {
    /** The longest range searched by the two fixed steps. */
    static final int WINDOW = 8;

    private WindowSearch() {}

    /** {@code sorted} followed by {@link #WINDOW} {@code Integer.MAX_VALUE} sentinels. */
    static int[] withSentinels(int[] sorted) {
        int n = sorted.length;
        int[] a = Arrays.copyOf(sorted, n + WINDOW);
        Arrays.fill(a, n, n + WINDOW, Integer.MAX_VALUE);
        return a;
    }

    /** The lower bound of {@code key} in {@code a}, known to lie in {@code [lo, lo + len]}. */
    static int lowerBound(int[] a, int lo, int len, int key) {
        int p;
        if (len <= WINDOW) {
            // first index >= key among lo .. lo + 8: one step picks the half, then the keys of
            // that half below the key are counted, four independent loads issued together, so a
            // lookup waits for two loads in a row, not four
            p = lo + (lt(a[lo + 3], key) << 2);
            p += (lt(a[p], key) + lt(a[p + 1], key)) + (lt(a[p + 2], key) + lt(a[p + 3], key));
        } else {
            p = lo;
            while (len > 1) {
                int half = len >>> 1;
                p += half & -lt(a[p + half], key);
                len -= half;
            }
            p += lt(a[p], key);
        }
        return p;
    }

    /** 1 if {@code x < key} else 0, without a branch. */
    private static int lt(int x, int key) {
        return (int) (((long) x - key) >>> 63);
    }
}
