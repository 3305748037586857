package io.tickwork.jmh.search;

import io.tickwork.primitives.search.IntSearch;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One int-key membership/rank lookup per operation: every {@link io.tickwork.primitives.search.IntSearchKind} beside
 * {@link Arrays#binarySearch(int[], int)}, {@code HashMap<Integer,Integer>} and fastutil's
 * {@link it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap}, at n keys.
 *
 * <p>Measures: the lookup of a random query, half of them present (keys are even ints, absent
 * queries odd ints from the same distribution), so caches and branch predictors see the real
 * access pattern for that n. Three key distributions at every n ({@code dist}, defined in
 * {@link SearchSubjects.Dist}): UNIFORM random ints; LOG_UNIFORM, log-uniform over [1, 2^31), dense
 * at small values and sparse at large ones; CLUSTERED, dense runs of 64-1024 keys (steps of 2-8)
 * separated by gaps of 2^16-2^24. Keys, queries and subjects come from {@link SearchSubjects}, the
 * code {@link SearchFootprint} weighs and the adapter test proves correct. The result goes back to JMH
 * (returned), so the lookup cannot be eliminated. Ops are independent, so the CPU may overlap
 * consecutive lookups: this is throughput, which rewards short instruction streams whose cache
 * misses start early (hash tables, the radix directory) over long dependent chains (binary search).
 *
 * <p>{@link #chained} is the latency mode beside it: each query's position depends on the previous
 * answer, so the lookups cannot overlap. The link is the answer's sign bit; a subject that decides
 * a miss by a branch (the maps' default value, a binary search moving its bounds) lets a
 * correctly predicted branch start the next lookup before the data arrives, while the radix
 * directories and the Eytzinger layout compute the answer from the loaded key. So the chain is
 * strict for ours and looser for those peers: the chained rows lean their way.
 *
 * <p>Avoids measuring: building the structure and generating keys (in {@link Setup}); query
 * generation (a pre-generated array of 2^20 queries, 4 MiB, read sequentially by a counter masked
 * to the array size, which the hardware prefetcher hides; a million distinct queries so repeats
 * do not keep their paths cached). Each {@code impl} runs in its own forked JVM, so every
 * call site is monomorphic. The HashMap peer boxes the query as a user's {@code map.get(key)} does
 * (values above 127 are not cached, escape analysis may or may not remove the box: that is part of
 * the peer's real cost).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IntSearchBenchmark {

    @Param({"2000", "200000", "2000000"})
    int n;

    @Param({
        "RECURSIVE",
        "THREE_BRANCH",
        "TWO_BRANCH",
        "BRANCHLESS",
        "EYTZINGER",
        "STATIC_BPLUS_TREE",
        "RADIX_DIRECTORY",
        "LOG_RADIX_DIRECTORY",
        "TWO_LEVEL_RADIX_DIRECTORY",
        "RADIX_SPLINE",
        "AUTO",
        "AUTO_COMPACT",
        "JDK_BINARY_SEARCH",
        "HASH_MAP",
        "FASTUTIL_OPEN_HASH_MAP"
    })
    String impl;

    /** Key distribution: see {@link SearchSubjects.Dist} for each one's definition. */
    @Param({"UNIFORM", "LOG_UNIFORM", "CLUSTERED"})
    String dist;

    static final int QUERIES = 1 << 20;

    int[] queries;
    int counter;
    /** The variant, or a peer adapted to the same interface so the benchmark has one call site. */
    IntSearch search;

    @Setup(Level.Trial)
    public void setUp() {
        SearchSubjects.Workload w = SearchSubjects.workload(SearchSubjects.Dist.valueOf(dist), n, QUERIES);
        queries = w.queries;
        search = SearchSubjects.build(impl, w.sorted).search;
    }

    /** Throughput: independent lookups, which the CPU may overlap. */
    @Benchmark
    public int lookup() {
        return search.indexOf(queries[counter++ & (QUERIES - 1)]);
    }

    /**
     * Latency: a chain of dependent lookups. Which query comes next depends on this answer (one
     * further on when the key is absent), so a lookup cannot start before the previous one has
     * finished and nothing overlaps; the time is one lookup's latency, cache misses in full. Every
     * subject walks the same query sequence (all answer a negative number exactly when the key is
     * absent).
     */
    @Benchmark
    public int chained() {
        int r = search.indexOf(queries[counter & (QUERIES - 1)]);
        counter += 1 + (r >>> 31);
        return r;
    }
}
