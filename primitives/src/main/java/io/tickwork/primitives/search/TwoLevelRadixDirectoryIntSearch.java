package io.tickwork.primitives.search;

/**
 * {@link IntSearchKind#TWO_LEVEL_RADIX_DIRECTORY}: the sorted array under a small radix directory
 * whose crowded buckets are cut again into slots measured from their own first key, so that skewed
 * and clustered keys also end in short ranges. The idea is Crotty's Hist-Tree ("Hist-Tree: Those
 * Who Ignore It Are Doomed to Learn", CIDR 2021): equal-width bins, subdivided where they hold too
 * many keys; here with exactly two levels and a slot width chosen per bin.
 *
 * <p><b>Layout.</b> Level 1 cuts {@code [min, max]} into 2^k equal-width buckets of 16 bytes, about
 * one per {@link #KEYS_PER_BUCKET} keys, at least {@link #MIN_BUCKETS} (but at most n/2) and at
 * most {@link #MAX_BUCKETS}: at most 1 MiB, small enough for a core's L2 cache beside the slots and
 * keys a lookup reads next. A bucket of at most {@link #WINDOW} keys is not split. A crowded bucket
 * is cut into m slots of width 2^t counted from its first key {@code f} (slot
 * {@code (key - f) >>> t}), t the widest that leaves no slot over {@link #WINDOW} keys with at most
 * 8 slots per key (when none does, the widest whose fullest slot is as small as any width
 * allows; see {@link #width}). Measuring from the bucket's
 * first key rather than from its edge means a run of keys much narrower than its bucket gets slots
 * only over its own span: the slots cost the span over 2^t, not the bucket's width.
 * {@code node[2b]} holds the bucket's first index and first key, {@code node[2b + 1]} its first
 * slot, m - 1 and t (0 when not split); {@code dir} holds each slot's first index and one end slot
 * per split bucket.
 *
 * <p><b>Lookup.</b> Range checks, one subtraction and shift, the bucket's two adjacent longs.
 * Unsplit bucket: the next bucket's first index is its end. Split bucket: the slot of
 * {@code key - f}, clamped to {@code [0, m - 1]} without a branch (a key below the bucket's first
 * key, or above its last, lands in the first or last slot, whose search returns the bucket's start
 * or end), and two adjacent {@code dir} ints give its range. Then the lower bound inside the range:
 * two branch-free steps over a fixed 8-key window when it holds at most 8 keys (the keys array is
 * padded with 8 {@code MAX_VALUE} sentinels), a branch-free binary search otherwise. Three
 * dependent reads in crowded regions (level 1, dir, keys), the first in that small array; two where
 * a bucket is not split. The split/unsplit test is a branch: well predicted when most queries land
 * on one kind of bucket, mispredicted in part on mixed data.
 *
 * <p><b>Cost.</b> Build: O(n) for level 1, plus a few O(c) passes over each crowded bucket of c
 * keys to choose its width. Memory: the array plus 8 sentinels; 16 bytes per level-1 bucket, which
 * is 16 KiB at most below 8,192 keys (up to 8 bytes per key there), about 2 bytes per key up to
 * 524,288 keys and 1 MiB beyond; m + 1 ints per split bucket of c keys, m at most 8c. Keys spread
 * over several runs per bucket also get slots over the gaps between the runs: the cap of 8 slots
 * per key bounds that memory, at the price of longer slots (binary search) where it binds.
 *
 * <p><b>Caveats.</b> Keys that stay crowded at every width allowed (long runs of equal or
 * consecutive values: duplicates, or more than 8 keys in a span of 8) fall back to binary search
 * inside their slot. A bucket whose slots would push the directory past 2^31 ints stays unsplit
 * (slower, still correct).
 *
 * <p>Immutable after construction; safe for concurrent queries once published.
 */
final class TwoLevelRadixDirectoryIntSearch implements IntSearch {
    /** Slots up to this long are searched by two fixed branch-free steps. */
    static final int WINDOW = WindowSearch.WINDOW;

    /** About this many keys per level-1 bucket (2 bytes per key), within the two bounds below. */
    static final int KEYS_PER_BUCKET = 8;
    /** Small sets get up to n/2 buckets, at most this many (16 KiB): fewer crowded buckets, at little cost. */
    static final int MIN_BUCKETS = 1 << 10;
    /** At most this many level-1 buckets (1 MiB), so that level 1 fits in a core's L2 cache. */
    static final int MAX_BUCKETS = 1 << 16;

    private static final int T_BITS = 6;
    private static final int T_MASK = (1 << T_BITS) - 1;
    /** The largest m - 1 the low word of {@code node[2b + 1]} holds beside t. */
    private static final int MAX_LAST_SLOT = (1 << (32 - T_BITS)) - 1;
    /** The longest directory: a Java array's length, less a margin some VMs reserve. */
    private static final long MAX_DIR = Integer.MAX_VALUE - 8;

    /** The sorted keys followed by WINDOW MAX_VALUE sentinels. */
    private final int[] a;
    /**
     * Two longs per bucket: node[2b] = (index of its first key) << 32 | its first key; node[2b + 1]
     * = (its first slot) << 32 | (m - 1) << 6 | t for a split bucket, 0 otherwise. node[2 * buckets]
     * = n << 32.
     */
    private final long[] node;
    /** Each split bucket's m slots, then its end: dir[j] = index of the first key in slot j or later. */
    private final int[] dir;

    private final int n;
    private final int min;
    private final int max;
    private final int shift;

    TwoLevelRadixDirectoryIntSearch(int[] sorted) {
        this.n = sorted.length;
        this.a = WindowSearch.withSentinels(sorted);
        this.min = n == 0 ? 0 : sorted[0];
        this.max = n == 0 ? -1 : sorted[n - 1];
        int buckets = buckets(n);
        this.shift = n == 0 ? 0 : RadixDirectoryIntSearch.shiftFor(min, max, buckets);
        int[] first = new int[buckets + 1];
        for (int i = 0; i < n; i++) {
            first[bucket(sorted[i]) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            first[b + 1] += first[b];
        }
        this.node = new long[2 * buckets + 2];
        long slots = 0;
        for (int b = 0; b < buckets; b++) {
            int from = first[b];
            int c = first[b + 1] - from;
            int base = c == 0 ? 0 : sorted[from];
            node[2 * b] = (long) from << 32 | (base & 0xFFFF_FFFFL);
            if (c > WINDOW) {
                int t = width(sorted, from, c);
                long m = t < 0 ? 1 : (((long) sorted[from + c - 1] - base) >>> t) + 1;
                if (m > 1 && slots + m + 1 <= MAX_DIR) {
                    node[2 * b + 1] = slots << 32 | (m - 1) << T_BITS | t;
                    slots += m + 1;
                }
            }
        }
        node[2 * buckets] = (long) n << 32;
        this.dir = new int[(int) slots];
        for (int b = 0; b < buckets; b++) {
            long e = node[2 * b + 1];
            if (e != 0) {
                int slot = (int) (e >>> 32);
                int t = (int) e & T_MASK;
                int m = ((int) e >>> T_BITS) + 1;
                int base = (int) node[2 * b];
                for (int i = first[b]; i < first[b + 1]; i++) {
                    dir[slot + 1 + (int) (((long) sorted[i] - base) >>> t)]++;
                }
                dir[slot] = first[b];
                for (int j = slot; j < slot + m; j++) {
                    dir[j + 1] += dir[j];
                }
            }
        }
    }

    /** One per {@link #KEYS_PER_BUCKET} keys, within [{@link #MIN_BUCKETS}, {@link #MAX_BUCKETS}], at most n/2. */
    static int buckets(int n) {
        int wanted = Math.max(MIN_BUCKETS, Math.min(MAX_BUCKETS, n / KEYS_PER_BUCKET));
        return Integer.highestOneBit(Math.max(1, Math.min(n / 2, wanted)));
    }

    private int bucket(int key) {
        return (int) (((long) key - min) >>> shift);
    }

    /**
     * The slot width 2^t for the crowded bucket {@code sorted[from .. from + c)}: among the widths
     * from about c/4 slots down to 8c slots (and at most 2^26), the widest whose fullest slot holds
     * at most {@link #WINDOW} keys; when none does, the widest whose fullest slot is as small as
     * any allows (a narrower one would only cost slots); -1 when all c keys are equal (no width
     * separates them).
     */
    static int width(int[] sorted, int from, int c) {
        long span = (long) sorted[from + c - 1] - sorted[from];
        if (span == 0) {
            return -1;
        }
        long most = Math.min(8L * c, MAX_LAST_SLOT + 1L);
        int t = Math.max(0, (64 - Long.numberOfLeadingZeros(span)) - (32 - Integer.numberOfLeadingZeros(c / 4)));
        int bestT = t;
        int best = fullest(sorted, from, c, t);
        // a narrower width splits each slot in two, so the fullest slot never grows as t falls
        while (best > WINDOW && t > 0 && (span >>> (t - 1)) + 1 <= most) {
            t--;
            int f = fullest(sorted, from, c, t);
            if (f < best) {
                best = f;
                bestT = t;
            }
        }
        return bestT;
    }

    /** The most keys of {@code sorted[from .. from + c)} sharing {@code (key - sorted[from]) >>> t}. */
    private static int fullest(int[] sorted, int from, int c, int t) {
        long base = sorted[from];
        int most = 0;
        int run = 0;
        long prev = -1;
        for (int i = from; i < from + c; i++) {
            long v = (sorted[i] - base) >>> t;
            run = v == prev ? run + 1 : 1;
            prev = v;
            most = Math.max(most, run);
        }
        return most;
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
        final long[] node = this.node;
        int b = 2 * bucket(key);
        long e = node[b];
        long split = node[b + 1];
        int lo;
        int len;
        if (split == 0) {
            // not split: the bucket's keys run to the next bucket's first
            lo = (int) (e >>> 32);
            len = (int) (node[b + 2] >>> 32) - lo;
        } else {
            long d = Math.max(0, (long) key - (int) e);
            int j = (int) (split >>> 32) + (int) Math.min(d >>> ((int) split & T_MASK), (int) split >>> T_BITS);
            lo = dir[j];
            len = dir[j + 1] - lo;
        }
        // the lower bound is in [lo, lo + len]: keys from lo + len on are in later slots
        int p = WindowSearch.lowerBound(a, lo, len, key);
        return p < n && a[p] == key ? p : -(p + 1);
    }

    @Override
    public int size() {
        return n;
    }

    /** The bytes of this instance's arrays, headers included (what {@link IntSearch#compactOf} compares). */
    long arrayBytes() {
        return IntSearchChoice.bytes(a) + IntSearchChoice.bytes(node) + IntSearchChoice.bytes(dir);
    }

    @Override
    public String toString() {
        return "TWO_LEVEL_RADIX_DIRECTORY[n=" + size() + "]";
    }
}
