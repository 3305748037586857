package io.tickwork.primitives.search;

import java.util.Arrays;

/**
 * {@link IntSearchKind#RADIX_SPLINE}: a learned index after Kipf, Marcus, van Renen, Stoian,
 * Kemper, Kraska and Neumann, "RadixSpline: a single-pass learned index" (aiDM@SIGMOD 2020).
 *
 * <p><b>Model.</b> The function approximated is the lower bound {@code F(q)}: the number of keys
 * smaller than {@code q}, for every {@code int q} in {@code [min, max]}. F is a staircase; its flat
 * steps are {@code [k(j-1) + 1, k(j)]} at height {@code first index of k(j)}, so the two ends of
 * every step are the points the spline is fitted to (one point per distinct key when keys are
 * consecutive, two otherwise). A greedy spline corridor (Neumann &amp; Michel, "Smooth
 * interpolating histograms with error guarantees", 2008) walks these points once, keeping the
 * range of slopes from the last knot that passes within {@code maxError} of every point since; a
 * point whose own slope leaves that range makes the previous point a knot. Between consecutive
 * knots the spline is linear and, since the knots are among the points and F is constant between
 * the two ends of a step, {@code |spline(q) - F(q)| <= maxError} for every q in range, duplicates
 * included. Slopes are compared exactly (128-bit cross products), so the bound is not subject to
 * rounding.
 *
 * <p><b>Radix table.</b> Over the knots: {@code table[b]} for the {@code radixBits}-bit prefix b
 * of {@code key - min} is the last knot whose prefix is below b (or knot 0), so the knot segment
 * holding a query is between {@code table[b]} and {@code table[b + 1]}.
 *
 * <p><b>Lookup.</b> Range checks against min and max; prefix → two table slots → branch-free
 * binary search of that knot range for the last knot at or below the key → linear interpolation
 * in {@code double} (rounding moves the floor by at most one, so the window is widened by one on
 * each side) → branch-free lower-bound search of {@code 2 * maxError + 3} keys starting at the
 * clamped window start. The keys array is padded with that many {@code MAX_VALUE} sentinels so the
 * window never leaves it; keys past the window's true end are at least the answer's key, so the
 * padding and the neighbours do not change the lower bound.
 *
 * <p><b>Cost.</b> Build: one pass over the keys for the spline (O(n), allocation proportional to
 * the knots), one over the knots and table for the radix table. Lookup: one table line, a
 * {@code log2} search over the knots of one radix bucket (usually 0-3 steps, in a small array
 * that stays cached), one double multiply, then {@code ceil(log2(2 * maxError + 3))} steps that
 * touch about {@code (2 * maxError + 3) / 16} consecutive cache lines of the keys. No allocation.
 * Memory: the keys plus padding ({@code n + 2 * maxError + 3} ints), {@code 2^radixBits + 1}
 * ints of table and 16 bytes per knot.
 *
 * <p><b>Caveats.</b> The error bound makes the last step O(log maxError) on any distribution, so an
 * adversarial key set cannot make the final search long; it can make the model large instead:
 * on jagged data (no long stretch that a line follows within maxError) the knots approach the
 * number of distinct keys and the memory approaches 16 bytes per key on top of the array. Equal-
 * width radix buckets over the key range crowd on skewed keys, so there the knot search takes
 * more steps (over a small, cached array).
 *
 * <p>Immutable after construction; safe for concurrent queries once published.
 */
final class RadixSplineIntSearch implements IntSearch {
    /**
     * Default error bound in positions: a 19-key final window, five search steps over two or three
     * cache lines. At n = 200,000 bounds from 4 to 32 measured within noise of each other on the
     * three benchmark distributions (a smaller bound multiplies the knots, a larger one lengthens
     * the final search); a linear count over the window instead of the binary search was slower.
     */
    static final int DEFAULT_MAX_ERROR = 8;

    /** Upper limit of the default radix width: a table of at most 2^18 + 1 ints (1 MiB). */
    static final int MAX_DEFAULT_RADIX_BITS = 18;

    /** The sorted keys followed by {@link #window} MAX_VALUE sentinels. */
    private final int[] a;
    /** Knot keys, ascending; the first is min, the last is max. */
    private final int[] knotKey;
    /** Knot positions: F at the knot key. */
    private final int[] knotPos;
    /** Slope of the segment from knot i to knot i + 1 (0 for the last knot). */
    private final double[] knotSlope;
    /** table[b]: last knot whose radix prefix is below b, or 0; table[buckets] = last knot. */
    private final int[] table;

    private final int n;
    private final int min;
    private final int max;
    private final int shift;
    /** Keys searched after interpolation: 2 * maxError + 3. */
    private final int window;
    /** maxError + 1: the window starts this far below the prediction. */
    private final int below;

    RadixSplineIntSearch(int[] sorted) {
        this(sorted, DEFAULT_MAX_ERROR, -1);
    }

    /**
     * @param maxError  the spline's bound on the prediction error, in positions (>= 0)
     * @param radixBits width of the radix prefix (0 .. 30), or -1 for the default: 4 to 16 table
     *     slots per knot, capped at {@link #MAX_DEFAULT_RADIX_BITS}
     */
    RadixSplineIntSearch(int[] sorted, int maxError, int radixBits) {
        if (maxError < 0 || maxError > 1 << 20) {
            throw new IllegalArgumentException("maxError must be in [0, 2^20]: " + maxError);
        }
        if (radixBits < -1 || radixBits > 30) {
            throw new IllegalArgumentException("radixBits must be in [0, 30] or -1 for the default: " + radixBits);
        }
        this.n = sorted.length;
        this.window = 2 * maxError + 3;
        this.below = maxError + 1;
        this.a = Arrays.copyOf(sorted, n + window);
        Arrays.fill(a, n, n + window, Integer.MAX_VALUE);
        this.min = n == 0 ? 0 : sorted[0];
        this.max = n == 0 ? -1 : sorted[n - 1];

        SplineCorridor spline = new SplineCorridor(maxError);
        for (int i = 0; i < n; ) {
            int k = sorted[i];
            spline.add(k, i);
            int j = i + 1;
            while (j < n && sorted[j] == k) {
                j++;
            }
            // the left end of the next step: every q in (k, next key] has lower bound j
            if (j < n && (long) sorted[j] - k > 1) {
                spline.add((long) k + 1, j);
            }
            i = j;
        }
        spline.finish();
        int knots = spline.knots;
        this.knotKey = new int[Math.max(1, knots)];
        this.knotPos = new int[Math.max(1, knots)];
        this.knotSlope = new double[Math.max(1, knots)];
        for (int i = 0; i < knots; i++) {
            knotKey[i] = (int) spline.x[i];
            knotPos[i] = (int) spline.y[i];
        }
        for (int i = 0; i + 1 < knots; i++) {
            knotSlope[i] = (double) (knotPos[i + 1] - knotPos[i]) / ((double) knotKey[i + 1] - knotKey[i]);
        }
        if (n == 0) {
            knotKey[0] = min;
        }

        long range = n == 0 ? 0 : (long) max - min;
        int spanBits = 64 - Long.numberOfLeadingZeros(range);
        int bits = radixBits >= 0
                ? radixBits
                : Math.min(MAX_DEFAULT_RADIX_BITS, 35 - Integer.numberOfLeadingZeros(Math.max(1, knots)));
        this.shift = Math.max(0, spanBits - bits);
        int buckets = (int) (range >>> shift) + 1;
        this.table = new int[buckets + 1];
        int k = 0;
        for (int b = 0; b <= buckets; b++) {
            while (k < knots && prefix(knotKey[k]) < b) {
                k++;
            }
            table[b] = Math.max(0, k - 1);
        }
    }

    private int prefix(int key) {
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
        final int[] knotKey = this.knotKey;
        int b = prefix(key);
        // the last knot <= key is in [table[b], table[b + 1]], and knotKey[table[b]] <= key
        int seg = table[b];
        int len = table[b + 1] - seg + 1;
        while (len > 1) {
            int half = len >>> 1;
            seg += half & ~lessMask(key, knotKey[seg + half]);
            len -= half;
        }
        int pred = knotPos[seg] + (int) (((long) key - knotKey[seg]) * knotSlope[seg]);
        final int[] a = this.a;
        // the lower bound is in [pred - maxError - 1, pred + maxError + 1] and below n
        int p = Math.max(0, pred - below);
        len = window;
        while (len > 1) {
            int half = len >>> 1;
            p += half & lessMask(a[p + half], key);
            len -= half;
        }
        p += (int) (((long) a[p] - key) >>> 63);
        return a[p] == key ? p : -(p + 1);
    }

    /** -1 if x < y else 0, without a branch. */
    private static int lessMask(int x, int y) {
        return (int) (((long) x - y) >> 63);
    }

    @Override
    public int size() {
        return n;
    }

    /** Number of spline knots (for tests and footprint reports). */
    int knots() {
        return n == 0 ? 0 : knotKey.length;
    }

    /**
     * The greedy spline corridor over points with strictly increasing x: keeps the knots in
     * growing arrays. Slopes are rationals {@code dy / dx} with {@code dx > 0}, compared by exact
     * 128-bit cross products.
     */
    static final class SplineCorridor {
        private final long maxError;
        long[] x = new long[16];
        long[] y = new long[16];
        int knots;

        private long baseX;
        private long baseY;
        private long prevX;
        private long prevY;
        private boolean hasPrev;
        /** Upper and lower slope limits from the base: dyUp / dxUp and dyLo / dxLo. */
        private long dyUp;

        private long dxUp;
        private long dyLo;
        private long dxLo;

        SplineCorridor(int maxError) {
            this.maxError = maxError;
        }

        void add(long px, long py) {
            if (knots == 0) {
                knot(px, py);
                baseX = px;
                baseY = py;
                return;
            }
            long dx = px - baseX;
            long dy = py - baseY;
            if (hasPrev && (compare(dy, dx, dyUp, dxUp) > 0 || compare(dy, dx, dyLo, dxLo) < 0)) {
                // the line from the base cannot reach this point within the corridor: the
                // previous point ends the segment and becomes the new base
                knot(prevX, prevY);
                baseX = prevX;
                baseY = prevY;
                hasPrev = false;
                dx = px - baseX;
                dy = py - baseY;
            }
            if (!hasPrev) {
                dyUp = dy + maxError;
                dxUp = dx;
                dyLo = dy - maxError;
                dxLo = dx;
            } else {
                if (compare(dy + maxError, dx, dyUp, dxUp) < 0) {
                    dyUp = dy + maxError;
                    dxUp = dx;
                }
                if (compare(dy - maxError, dx, dyLo, dxLo) > 0) {
                    dyLo = dy - maxError;
                    dxLo = dx;
                }
            }
            prevX = px;
            prevY = py;
            hasPrev = true;
        }

        void finish() {
            if (hasPrev) {
                knot(prevX, prevY);
                hasPrev = false;
            }
        }

        private void knot(long kx, long ky) {
            if (knots == x.length) {
                x = Arrays.copyOf(x, knots * 2);
                y = Arrays.copyOf(y, knots * 2);
            }
            x[knots] = kx;
            y[knots] = ky;
            knots++;
        }

        /** Sign of {@code dy1 / dx1 - dy2 / dx2} for {@code dx1, dx2 > 0}, exactly. */
        static int compare(long dy1, long dx1, long dy2, long dx2) {
            long hi1 = Math.multiplyHigh(dy1, dx2);
            long hi2 = Math.multiplyHigh(dy2, dx1);
            if (hi1 != hi2) {
                return hi1 < hi2 ? -1 : 1;
            }
            return Long.compareUnsigned(dy1 * dx2, dy2 * dx1);
        }
    }

    /** The bytes of this instance's arrays, headers included (what {@link IntSearch#compactOf} compares). */
    long arrayBytes() {
        return IntSearchChoice.bytes(a)
                + IntSearchChoice.bytes(knotKey)
                + IntSearchChoice.bytes(knotPos)
                + IntSearchChoice.bytes(knotSlope)
                + IntSearchChoice.bytes(table);
    }

    @Override
    public String toString() {
        return "RADIX_SPLINE[n=" + size() + "]";
    }
}
