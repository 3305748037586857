package io.tickwork.primitives.search;

import java.util.Objects;

/**
 * Membership and rank queries over a fixed sorted multiset of {@code int}s, built once by an
 * {@link IntSearchKind} from a sorted array. Every implementation answers exactly the same thing;
 * they differ only in how they lay out and walk the data, so tests and benchmarks iterate over
 * {@link IntSearchKind} instead of naming a class.
 *
 * <p><b>Contract</b> of {@link #indexOf}, stated against the sorted array {@code a} the search was
 * built from: {@link java.util.Arrays#binarySearch(int[], int)}'s contract made deterministic.
 * If {@code key} occurs, the index in {@code a} of its <em>first</em> occurrence (lower-bound
 * semantics, where {@code Arrays.binarySearch} may return any of equal keys); otherwise
 * {@code -(insertion point) - 1}, the insertion point being the index of the first element greater
 * than {@code key}, or {@code a.length} if none. Either way the answer gives the rank of
 * {@code key}, the number of keys less than it: {@code i >= 0 ? i : -i - 1}; the number of keys
 * less than or equal to it is the rank of {@code key + 1} (all keys when {@code key} is
 * {@link Integer#MAX_VALUE}, where {@code key + 1} would wrap). Eytzinger stores the keys in
 * another order and maps the answer back to the index in {@code a}; the B+ tree's leaf level is
 * the sorted array, and the directories keep it beside their directory. All {@code int} values,
 * including {@link Integer#MIN_VALUE} and {@link Integer#MAX_VALUE}, are valid keys and queries.
 *
 * <p><b>Which one.</b> {@link #of(int[])} picks a fast variant for the keys it is given;
 * {@link #compactOf(int[])} a smaller one; {@link IntSearchKind} names them all. Both choices are
 * functions of the keys alone (the same keys always give the same variant), and
 * {@code toString()} names the variant an instance is, as {@code KIND[n=...]} with the
 * {@link IntSearchKind} constant's name; equality is identity. At most {@link IntSearchKind#MAX_KEYS} keys. A lookup of a value by key is a search
 * plus a read of a parallel array:
 *
 * <pre>{@code
 * int[] ids = {3, 17, 42, 1000};             // sorted, distinct or not
 * String[] names = {"a", "b", "c", "d"};     // names[i] belongs to ids[i]
 * IntSearch byId = IntSearch.of(ids);
 * int i = byId.indexOf(42);                  // 2
 * String name = i >= 0 ? names[i] : null;    // "c"
 * int[] queries = {17, 5, 1000};
 * int[] found = new int[3];
 * byId.indexOf(queries, 0, 3, found);        // {1, -2, 3}, as three indexOf calls would give
 * }</pre>
 *
 * <p><b>Cost</b>: every variant answers in O(log n) comparisons without allocating; constants and
 * memory differ, see {@link IntSearchKind}. The batch form of the comparison layouts allocates
 * two arrays of 16 ints per call, never per query.
 *
 * <p><b>Thread safety:</b> immutable after construction (the input is copied); any number of
 * threads may query one instance concurrently once it is safely published.
 */
public interface IntSearch {

    /**
     * The fastest variant for these keys: {@link IntSearchKind#RADIX_DIRECTORY} when they spread
     * evenly over their range, {@link IntSearchKind#LOG_RADIX_DIRECTORY} when they spread evenly on
     * a logarithmic scale (dense at the low end: sizes, counts, latencies), else
     * {@link IntSearchKind#TWO_LEVEL_RADIX_DIRECTORY}; "evenly" means at most 10 % of the distinct
     * keys in buckets of more than 8 distinct keys (copies of a key count once: no directory splits
     * them). All three keep order and answer the full contract. The choice costs
     * up to three passes over the keys on top of the build; it favours speed over memory (the
     * directories' sizes are in {@link IntSearchKind}: 5 to 13 bytes per key on the measured
     * distributions, up to about 45 on keys built against the two-level directory;
     * {@link #compactOf} is never larger).
     *
     * @param sorted the keys in non-decreasing order (copied)
     * @throws IllegalArgumentException if {@code sorted} is not in non-decreasing order, or holds
     *                                  more than {@link IntSearchKind#MAX_KEYS} keys
     * @throws NullPointerException     if {@code sorted} is null
     */
    static IntSearch of(int[] sorted) {
        return IntSearchChoice.fastest(Objects.requireNonNull(sorted, "sorted")).build(sorted);
    }

    /**
     * A variant never larger than {@link #of(int[])}'s, and smaller where the keys allow it, at a
     * cost in time only there: {@link IntSearchKind#RADIX_DIRECTORY} on keys spread evenly over
     * their range (the same test and the same variant as {@code of}; its directory is at most
     * max(1, n/2) + 1 ints, so about 6 bytes per key with the array, plus 36 bytes of padding and bounds); on
     * other keys {@link IntSearchKind#RADIX_SPLINE}, whose knots grow with the keys' irregularity
     * (see its cost in {@link IntSearchKind}), unless {@code of}'s directory has no more bytes of
     * arrays (a tie goes to the directory, the faster; short runs of consecutive keys can cost the
     * spline more knots than the two-level directory slots). Both candidates are built to compare
     * them: twice {@code of}'s build time and transient memory. Not always the fewest bytes: on evenly spread keys the spline can be a
     * little smaller than the directory, and slower.
     *
     * @param sorted the keys in non-decreasing order (copied)
     * @throws IllegalArgumentException if {@code sorted} is not in non-decreasing order, or holds
     *                                  more than {@link IntSearchKind#MAX_KEYS} keys
     * @throws NullPointerException     if {@code sorted} is null
     */
    static IntSearch compactOf(int[] sorted) {
        return IntSearchChoice.compact(Objects.requireNonNull(sorted, "sorted"));
    }

    /**
     * The index of the first occurrence of {@code key} in the sorted array this was built from, or
     * {@code -(insertion point) - 1} if absent (see the interface comment).
     */
    int indexOf(int key);

    /**
     * Many lookups at once: {@code out[i] = indexOf(queries[i])} for every {@code i} from
     * {@code from} (inclusive) to {@code to} (exclusive), in query order. The comparison layouts
     * ({@link IntSearchKind#EYTZINGER}, {@link IntSearchKind#STATIC_BPLUS_TREE}) walk groups of 16
     * queries in lockstep, one level of the structure for every query of the group before the
     * next, so the cache misses of independent queries overlap instead of waiting on each other
     * down a chain of levels (11 to 21 for Eytzinger, 3 to 6 nodes for the B+ tree). The other
     * variants loop over {@link #indexOf(int)}: the directories' lookups are two or three loads
     * long, and the CPU already overlaps consecutive ones; {@link IntSearchKind#BRANCHLESS}'s
     * log2(n) dependent loads and {@link IntSearchKind#RADIX_SPLINE}'s longer chain overlap only as
     * far as the CPU reaches ahead. Neither
     * sorts or reorders the queries. {@code out} may be {@code queries} itself (each answer replaces its query).
     * Elements of {@code out} outside the range are not touched. On an exception nothing has been
     * written.
     *
     * @throws NullPointerException      if {@code queries} or {@code out} is null
     * @throws IndexOutOfBoundsException if {@code from < 0}, {@code from > to}, or {@code to}
     *                                   exceeds the length of {@code queries} or of {@code out}
     */
    default void indexOf(int[] queries, int from, int to, int[] out) {
        Lockstep.check(queries, from, to, out);
        for (int i = from; i < to; i++) {
            out[i] = indexOf(queries[i]);
        }
    }

    /** Number of keys (the length of the array this was built from). */
    int size();
}
