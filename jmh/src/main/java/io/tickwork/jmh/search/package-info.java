/**
 * Search benchmarks and measurements: {@link io.tickwork.jmh.search.IntSearchBenchmark} times one
 * int-key lookup of every {@link io.tickwork.primitives.search.IntSearchKind} beside
 * {@code Arrays.binarySearch}, {@code HashMap<Integer,Integer>} and fastutil's open hash map, on
 * uniform, log-uniform and clustered keys; {@link io.tickwork.jmh.search.SearchFootprint} weighs
 * the same structures in bytes per key with JOL; {@link io.tickwork.jmh.search.SearchSubjects} is
 * the one place that generates their keys and queries and builds them, so timing, weighing and
 * the adapter test cannot drift apart. {@link io.tickwork.jmh.search.ByteKeySearchBenchmark} times
 * exact lookups of UTF-8 keys in {@link io.tickwork.primitives.search.ByteKeyIndex} beside the
 * {@code String} peers.
 */
package io.tickwork.jmh.search;
