package io.tickwork.primitives.search;

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
 * than {@code key}, or {@code a.length} if none. Layout variants (Eytzinger, B+ tree, radix directory) store the
 * keys in another layout and map the answer back to the index in {@code a}. All {@code int} values,
 * including {@link Integer#MIN_VALUE} and {@link Integer#MAX_VALUE}, are valid keys and queries.
 *
 * <p><b>Cost</b>: every variant answers in O(log n) comparisons without allocating; constants and
 * memory differ, see {@link IntSearchKind}.
 *
 * <p><b>Thread safety:</b> immutable after construction (the input is copied); any number of
 * threads may query one instance concurrently once it is safely published.
 */
public interface IntSearch {

    /**
     * The index of the first occurrence of {@code key} in the sorted array this was built from, or
     * {@code -(insertion point) - 1} if absent (see the interface comment).
     */
    int indexOf(int key);

    /** Number of keys (the length of the array this was built from). */
    int size();
}
