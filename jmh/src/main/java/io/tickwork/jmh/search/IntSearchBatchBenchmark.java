package io.tickwork.jmh.search;

import io.tickwork.primitives.search.IntSearch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Batched lookups, {@link IntSearch#indexOf(int[], int, int, int[])}: time per query when
 * {@code batch} queries are resolved by one call, beside fastutil's {@code Int2IntOpenHashMap.get}
 * in a loop over the same queries (its adapter's batch is that loop) and the single-lookup loop of
 * our variants ({@code batch = 1} is {@link IntSearchBenchmark#lookup}'s work, one call per query).
 *
 * <p>Each invocation answers {@link #PER_INVOCATION} consecutive queries of the workload's stream
 * (the same keys, distributions and queries as {@link IntSearchBenchmark}, half present), in
 * calls of {@code batch}, into one output array the benchmark keeps (so no answer can be dropped
 * by the compiler); the score is ns per query. The batch allocates its scratch arrays per call
 * ({@code gc.alloc.rate.norm} shows it per query).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IntSearchBatchBenchmark {

    static final int PER_INVOCATION = 4096;

    @Param({"2000", "200000", "2000000"})
    int n;

    @Param({
        "EYTZINGER",
        "STATIC_BPLUS_TREE",
        "RADIX_DIRECTORY",
        "TWO_LEVEL_RADIX_DIRECTORY",
        "AUTO",
        "FASTUTIL_OPEN_HASH_MAP"
    })
    String impl;

    @Param({"UNIFORM", "LOG_UNIFORM", "CLUSTERED"})
    String dist;

    @Param({"1", "16", "256", "4096"})
    int batch;

    int[] queries;
    int[] out;
    int offset;
    IntSearch search;

    @Setup(Level.Trial)
    public void setUp() {
        SearchSubjects.Workload w =
                SearchSubjects.workload(SearchSubjects.Dist.valueOf(dist), n, IntSearchBenchmark.QUERIES);
        queries = w.queries;
        out = new int[IntSearchBenchmark.QUERIES];
        search = SearchSubjects.build(impl, w.sorted).search;
    }

    @Benchmark
    @OperationsPerInvocation(PER_INVOCATION)
    public int lookups() {
        int from = offset;
        int end = from + PER_INVOCATION;
        if (batch == 1) {
            for (int i = from; i < end; i++) {
                out[i] = search.indexOf(queries[i]);
            }
        } else {
            for (int i = from; i < end; i += batch) {
                search.indexOf(queries, i, i + batch, out);
            }
        }
        offset = end & (IntSearchBenchmark.QUERIES - 1);
        return out[end - 1];
    }
}
