package io.tickwork.primitives.search;

/**
 * {@link IntSearchKind#TWO_LEVEL_RADIX_DIRECTORY}: the sorted array under a radix directory whose
 * crowded buckets are refined by further key bits, so that skewed and clustered keys also end in
 * small buckets. The idea is the one of Crotty's Hist-Tree ("Hist-Tree: Those Who Ignore It Are
 * Doomed to Learn", CIDR 2021): equal-width bins, subdivided where they hold too many keys; here
 * with exactly two levels and a fan-out chosen per bin.
 *
 * <p><b>Layout.</b> Level 1 cuts {@code [min, max]} into 2^k equal-width buckets (n/4 &lt; 2^k
 * &lt;= n/2), as {@link RadixDirectoryIntSearch} does; {@code node[b]} is one long holding the index
 * of the bucket's first key and, for a split bucket, its first slot and s. A bucket with at most
 * {@link #WINDOW} keys is not split. A crowded bucket of c keys gets 2^s slots, one per value of
 * the next s key bits, where s is the smallest width from about c/4 slots up that leaves no slot
 * over {@link #WINDOW} keys (at most 8c slots; when even that does not, the widest is kept);
 * {@code dir} holds the index of each slot's first key, and one end slot per split bucket.
 *
 * <p><b>Lookup.</b> Range checks, one subtraction and shift, {@code node[bucket]}. Unsplit bucket:
 * the next node gives its end (the two longs are adjacent), as in the one-level directory. Split
 * bucket: the next s key bits pick a slot, and two adjacent {@code dir} ints give its range. Then
 * the lower bound inside the range: two branch-free steps over a fixed 8-key window when it holds
 * at most 8 keys (the keys array is padded with 8 {@code MAX_VALUE} sentinels), a branch-free
 * binary search otherwise. Two dependent reads (node, keys) on keys spread over their range, three
 * (node, dir, keys) in crowded regions; never worse than O(log n). The split/unsplit test is a
 * branch: well predicted when most queries land on one kind of bucket, mispredicted in part on
 * mixed data.
 *
 * <p><b>Cost.</b> Build: O(n) for the directory, plus at most eight O(c) passes over each crowded
 * bucket to choose its width. Memory: the array plus 8 sentinels, 8 bytes per bucket (2 to 4 bytes
 * per key), and 2^s + 1 ints per split bucket.
 *
 * <p><b>Caveats.</b> Keys that stay crowded under every width considered (long runs of equal or
 * consecutive values, which no radix split separates: duplicates, or more than 8 keys in a span
 * of 8) fall back to binary search inside their slot. Slot indexes are packed in 27 bits; beyond
 * 2^27 slots, buckets stay unsplit (slower, still correct). Splitting by key bits keeps the slots
 * aligned to the radix grid, so a run of keys much narrower than its bucket uses only a few of the
 * bucket's slots (the memory cost of clustered keys).
 *
 * <p>Immutable after construction; safe for concurrent queries once published.
 */
final class TwoLevelRadixDirectoryIntSearch implements IntSearch {
    /** Slots up to this long are searched by two fixed branch-free steps. */
    static final int WINDOW = WindowSearch.WINDOW;

    private static final int S_BITS = 5;
    private static final int S_MASK = (1 << S_BITS) - 1;
    private static final long MAX_SLOTS = 1L << (32 - S_BITS);

    /** The sorted keys followed by WINDOW MAX_VALUE sentinels. */
    private final int[] a;
    /**
     * node[b] = (index of the first key of bucket b) << 32 | (first slot of b) << 5 | s, s the
     * bucket's extra key bits (0: not split, no slots); node[buckets] = n << 32.
     */
    private final long[] node;
    /**
     * The slots of the split buckets in key order, each bucket's 2^s slots followed by one end
     * slot: dir[j] = index of the first key in slot j or a later slot of the same bucket.
     */
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
        int buckets = RadixDirectoryIntSearch.buckets(n); // level 1 is the one-level directory's
        this.shift = n == 0 ? 0 : RadixDirectoryIntSearch.shift(min, max, n);
        int[] first = new int[buckets + 1];
        for (int i = 0; i < n; i++) {
            first[bucket(sorted[i]) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            first[b + 1] += first[b];
        }
        this.node = new long[buckets + 1];
        long slots = 0;
        for (int b = 0; b < buckets; b++) {
            int c = first[b + 1] - first[b];
            int s = 0;
            if (c > WINDOW && slots + 8L * c + 1 < MAX_SLOTS) {
                s = width(sorted, first[b], c);
            }
            node[b] = (long) first[b] << 32 | (s == 0 ? 0 : slots << S_BITS | s);
            if (s > 0) {
                slots += (1L << s) + 1;
            }
        }
        node[buckets] = (long) n << 32;
        this.dir = new int[(int) slots];
        for (int b = 0; b < buckets; b++) {
            int s = (int) node[b] & S_MASK;
            if (s > 0) {
                int base = (int) node[b] >>> S_BITS;
                for (int i = first[b]; i < first[b + 1]; i++) {
                    dir[base + 1 + subSlot(sorted[i], s)]++;
                }
                dir[base] = first[b];
                for (int j = base; j < base + (1 << s); j++) {
                    dir[j + 1] += dir[j];
                }
            }
        }
    }

    private int bucket(int key) {
        return (int) (((long) key - min) >>> shift);
    }

    /** The next s key bits below the bucket's. */
    private int subSlot(int key, int s) {
        return (int) ((((long) key - min) >>> (shift - s)) & ((1L << s) - 1));
    }

    /**
     * The number of extra key bits for the crowded bucket {@code sorted[from .. from + c)}: the
     * smallest from about c/4 slots up to 8c slots (and at most {@link #shift} bits) whose fullest
     * slot holds at most {@link #WINDOW} keys, else the widest tried.
     */
    private int width(int[] sorted, int from, int c) {
        int s = Math.min(shift, Math.max(1, 32 - Integer.numberOfLeadingZeros(c / 4 - 1)));
        int widest = Math.min(shift, 34 - Integer.numberOfLeadingZeros(c));
        for (; s < widest; s++) {
            if (fullest(sorted, from, c, shift - s) <= WINDOW) {
                return s;
            }
        }
        return Math.max(0, widest);
    }

    /** The most keys of {@code sorted[from .. from + c)} sharing {@code (key - min) >>> sh}. */
    private int fullest(int[] sorted, int from, int c, int sh) {
        int most = 0;
        int run = 0;
        long prev = -1;
        for (int i = from; i < from + c; i++) {
            long v = ((long) sorted[i] - min) >>> sh;
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
        int b = bucket(key);
        long e = node[b];
        int s = (int) e & S_MASK;
        int lo;
        int len;
        if (s == 0) {
            // not split: the bucket's keys run to the next bucket's first
            lo = (int) (e >>> 32);
            len = (int) (node[b + 1] >>> 32) - lo;
        } else {
            int j = ((int) e >>> S_BITS) + subSlot(key, s);
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

    @Override
    public String toString() {
        return "TWO_LEVEL_RADIX_DIRECTORY[n=" + size() + "]";
    }
}
