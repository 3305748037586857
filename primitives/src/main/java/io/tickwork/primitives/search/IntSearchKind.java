package io.tickwork.primitives.search;

import java.util.Objects;

/**
 * The {@link IntSearch} variants, each a factory from a sorted array. All of them copy the input
 * (later changes to the caller's array do not affect the search) and reject unsorted input with an
 * {@link IllegalArgumentException} naming the first index where {@code a[i] > a[i + 1]} and both
 * values; duplicates are allowed. Building is O(n) time on top of that O(n) check.
 *
 * <p>{@link IntSearch#of(int[])} chooses among these from the keys; name a kind when the choice
 * must be fixed or memory decides. Which to use (measured per size and key distribution, with the
 * numbers, in {@code docs/results/search.md}):
 * <ul>
 *   <li>{@link #RADIX_DIRECTORY} for keys spread over their range (ids, random or sequential
 *       numbers): two dependent reads, the fastest variant there at every size, 5 to 6 bytes
 *       per key; two to three times slower on keys that crowd a few of its buckets.</li>
 *   <li>{@link #LOG_RADIX_DIRECTORY} for keys dense at the low end of their range (log-uniform,
 *       power-law sizes, counts, latencies): the same two reads on a logarithmic bucket scale,
 *       5 to 13 bytes per key from 36 keys on.</li>
 *   <li>{@link #TWO_LEVEL_RADIX_DIRECTORY} when neither fits (clusters, mixtures): a second
 *       level cuts crowded buckets into short slots, three reads there (the first in a level of at
 *       most 1 MiB), 7 to 9.4 bytes per key on the benchmark's clustered keys; up to about 45
 *       on keys built against it (short runs that need its 8 slots per key: 4 bytes for the key,
 *       up to 8 for level 1 below 8,192 keys, up to 32 for the slots).</li>
 *   <li>{@link #RADIX_SPLINE} when memory counts: 4.3 to 5.4 bytes per key on the benchmark's
 *       distributions from 2,000 keys on, about twice the directories' time; more on short runs of
 *       consecutive keys (two knots a run: 9.6 bytes per key on runs of 10), on small sets (6 to
 *       7.5 measured at 100 to 1,000 keys) and on other shapes (6.6 on a mixture of 65,536).</li>
 *   <li>{@link #STATIC_BPLUS_TREE} and {@link #EYTZINGER}: comparison layouts, insensitive to the
 *       distribution, 4 to 4.3 bytes per key (from about 65,000 keys; more in small trees); slower
 *       per lookup than the directories. Their batched lookups walk 16 queries in lockstep, which
 *       overlaps those queries' misses but still leaves them behind a directory's plain loop.</li>
 *   <li>{@link #BRANCHLESS} when the plain sorted array must remain the storage.</li>
 * </ul>
 *
 * <p>Bytes per key count the arrays' contents, not their 16-byte headers (which add
 * 16 * arrays / n: a few bytes per key below 100 keys, nothing that shows above 1,000).
 */
public enum IntSearchKind {

    /**
     * Branchless lower-bound search: the loop runs exactly ceil(log2(n)) times (none for one key;
     * each step halves the remaining length, rounding up, until it is 1), then one more comparison
     * picks between the last candidate and the one after it. Each step moves its base
     * by {@code half & mask} where the mask is the sign of {@code a[mid] - key} computed in
     * {@code long}; no data-dependent branch, so no mispredictions, and the next load address
     * depends only on arithmetic. Memory: one copy.
     */
    BRANCHLESS {
        @Override
        public IntSearch build(int[] sorted) {
            return new BranchlessIntSearch(copySorted(sorted));
        }
    },

    /**
     * Eytzinger (BFS, heap-order) layout after Khuong &amp; Morin, "Array Layouts for
     * Comparison-Based Searching" (2017): node k's children are 2k and 2k+1, so the first levels
     * share a few cache lines and each step is a branch-free {@code k = 2k + (b[k] < key)}. The
     * answer is mapped back to the sorted index arithmetically (no rank table). Build: O(n) in-order
     * fill. Memory: n + 1 ints, no copy of the sorted array kept. At most 2^30 - 1 keys (a node's
     * children must have int indexes); more is an {@link IllegalArgumentException}.
     */
    EYTZINGER {
        @Override
        public IntSearch build(int[] sorted) {
            EytzingerIntSearch.requireFits(Objects.requireNonNull(sorted, "sorted").length); // before the copy
            return new EytzingerIntSearch(copySorted(sorted));
        }
    },

    /**
     * Static B+ tree (an "S+ tree", after Algorithmica's "Static B-Trees"): the sorted array
     * padded to 16-int (64-byte, one cache line) nodes is the leaf level, and above it each level
     * holds the largest key of every node below. A lookup descends max(1, ceil(log16(n))) nodes, counting in
     * each, without branches, how many of its 16 keys are smaller than the key; so it touches about
     * log16(n) cache lines instead of binary search's log2(n). Build: O(n). Memory: about
     * n * 16/15 ints plus padding, under 7% over the sorted array from about 65,000 keys; each
     * upper level is padded to whole 16-entry nodes, which costs more in a small tree (8% over at
     * 4,097 keys, 25% at 257).
     */
    STATIC_BPLUS_TREE {
        @Override
        public IntSearch build(int[] sorted) {
            return new StaticBPlusTreeIntSearch(copySorted(sorted));
        }
    },

    /**
     * The sorted array plus a one-level radix directory, the radix layer of learned indexes
     * (Kipf et al., "RadixSpline", 2020): the key range {@code [min, max]} is cut into buckets
     * of one width, the narrowest power of two that makes at most n/2 of them (so between n/4 and
     * n/2, unless the range is narrower), and {@code dir[b]} holds the index of the first key in
     * bucket {@code b} or later. A lookup computes the bucket with a subtraction and a shift, reads two
     * adjacent directory slots, and searches only that bucket: with at most 8 keys, two
     * branch-free steps over a fixed window; longer buckets fall back to branchless binary search.
     * So a lookup touches two cache lines (directory, keys) however large n is. Not a
     * hash: order is kept, so it answers insertion points and ranges like the others.
     * <b>Distribution-sensitive</b>: uniform keys give 2-4 keys per bucket; heavily clustered keys
     * crowd a few buckets and degrade towards one binary search over the crowded bucket (never
     * worse than O(log n)). Build: O(n). Memory: n + 8 + (n/4 .. n/2) + 1 ints: 5 to 6 + 36/n
     * bytes per key.
     */
    RADIX_DIRECTORY {
        @Override
        public IntSearch build(int[] sorted) {
            return new RadixDirectoryIntSearch(copySorted(sorted));
        }
    },

    /**
     * {@link #RADIX_DIRECTORY} on a logarithmic scale: a key's bucket is the bit length of its
     * distance from the smallest key, then the next m bits of that distance, so every power-of-two
     * range of distances gets as many buckets. Keys whose density falls with their size
     * (log-uniform, power-law sizes, counts, latencies) spread evenly over these buckets and are
     * found with two dependent reads, as evenly spread keys by {@link #RADIX_DIRECTORY}; evenly
     * spread keys crowd its top buckets. Build: O(n). Memory: n + 8 + 33 × 2^m + 1 ints, 2^m
     * sized for at most 3 keys per bucket in the fullest power-of-two range (at most 2n buckets, but
     * never fewer than 33):
     * 5 to 12 + 36/n bytes per key from 17 keys on (13 from 36 keys on; the 33 buckets cost more
     * below: 4 + 168/n, 21 at 10 keys),
     * about 8.5 on log-uniform keys.
     */
    LOG_RADIX_DIRECTORY {
        @Override
        public IntSearch build(int[] sorted) {
            return new LogRadixDirectoryIntSearch(copySorted(sorted));
        }
    },

    /**
     * A small radix directory with a second level where it is crowded (after Crotty's Hist-Tree,
     * CIDR 2021): level 1 has about one equal-width bucket per 8 keys, at least 1,024 (at most n/2)
     * and at most 65,536 (1 MiB); a bucket of more than 8 keys is cut into slots of width 2^t
     * counted from its own first key, t chosen per bucket at build time as the widest that leaves
     * at most 8 keys in every slot (at most 8 slots per key). A lookup reads the bucket's two
     * longs, for a split bucket two adjacent slot ints, then at most 8 keys in two branch-free
     * steps: short ranges on skewed and clustered keys, for one read more than
     * {@code RADIX_DIRECTORY} in crowded regions (in the small level 1) and a branch on
     * split/unsplit. Runs no split separates (duplicates, more than 8 keys within 8 values) fall
     * back to binary search in their slot. Build: O(n). Memory: the array, 16 bytes per level-1
     * bucket (16 KiB at most below 8,192 keys, about 2 bytes per key up to 524,288, 1 MiB beyond)
     * and m + 1 ints per split bucket of m slots.
     */
    TWO_LEVEL_RADIX_DIRECTORY {
        @Override
        public IntSearch build(int[] sorted) {
            return new TwoLevelRadixDirectoryIntSearch(copySorted(sorted));
        }
    },

    /**
     * RadixSpline, a single-pass learned index (Kipf, Marcus, van Renen, Stoian, Kemper, Kraska,
     * Neumann, aiDM@SIGMOD 2020): a linear spline through the (key, position) staircase whose
     * prediction is within a fixed error bound of every key's lower bound, chosen in one pass by a
     * greedy spline corridor, and a radix table over the knots. A lookup reads a table slot pair,
     * searches the few knots of that radix bucket, interpolates, and finishes with a branch-free
     * search of a fixed window of 2E + 3 keys around the prediction (E = 8). Unlike
     * {@link #RADIX_DIRECTORY}, the last step stays O(log E) on skewed and clustered keys: the
     * spline follows the distribution, and only the number of knots (memory, and the knot search)
     * grows with its irregularity. Build: O(n). Memory: the array plus 2E + 3 ints, 16 bytes per
     * knot and a table of 4 to 16 ints per knot (at most 2^18 + 1). Slower than the directories:
     * the knot search, the interpolation and a five-step final search make a longer dependent
     * chain than their two or three reads.
     */
    RADIX_SPLINE {
        @Override
        public IntSearch build(int[] sorted) {
            return new RadixSplineIntSearch(copySorted(sorted));
        }
    };

    /**
     * Builds this variant over {@code sorted} (copied).
     *
     * @throws IllegalArgumentException if {@code sorted} is not in non-decreasing order, or holds
     *                                  more than {@link #MAX_KEYS} keys
     * @throws NullPointerException     if {@code sorted} is null
     */
    public abstract IntSearch build(int[] sorted);

    /**
     * The most keys any variant holds, {@code 2^30 - 1}: beyond it the layouts' int indexes and
     * array lengths (a directory of up to 2n entries, Eytzinger's node 2k + 1) would overflow.
     */
    public static final int MAX_KEYS = (1 << 30) - 1;

    /** Refuses more than {@link #MAX_KEYS} keys. */
    static void requireFits(int n) {
        if (n > MAX_KEYS) {
            throw new IllegalArgumentException("at most 2^30 - 1 keys: " + n);
        }
    }

    /**
     * Checks the size and non-decreasing order, naming the first violation, and returns a private
     * copy.
     */
    static int[] copySorted(int[] a) {
        requireFits(Objects.requireNonNull(a, "sorted").length); // before the copy
        int[] c = a.clone();
        for (int i = 0; i + 1 < c.length; i++) {
            if (c[i] > c[i + 1]) {
                throw new IllegalArgumentException("input not sorted at index " + i + ": a[" + i + "] = " + c[i]
                        + " > a[" + (i + 1) + "] = " + c[i + 1]);
            }
        }
        return c;
    }
}
