/**
 * Searching sorted data. {@link io.tickwork.primitives.search.IntSearch} is one contract
 * ({@link java.util.Arrays#binarySearch(int[], int)}'s, with the first of equal keys) over a set of
 * int-key variants that {@link io.tickwork.primitives.search.IntSearchKind} enumerates: a branchless
 * binary search, the Eytzinger layout, a static B+ tree with cache-line nodes, a sorted array with
 * a radix directory, the same on a logarithmic scale (for keys dense at the low end of their
 * range), the same with a second directory level over its crowded buckets (short
 * lookups on skewed and clustered keys too), and RadixSpline, a learned index whose error-bounded
 * spline keeps the final search short on any distribution. {@code IntSearch.of(sorted)} picks one
 * from the keys; every variant answers one lookup or a batch. {@link io.tickwork.primitives.search.ByteKeyIndex}
 * is a sorted index over UTF-8 (or any byte-string) keys stored back to back, with exact and prefix
 * lookups that allocate nothing, and a binary format the dictionary server memory-maps and searches
 * in place. Measurements and which variant to use when: {@code docs/results/search.md}.
 */
package io.tickwork.primitives.search;
