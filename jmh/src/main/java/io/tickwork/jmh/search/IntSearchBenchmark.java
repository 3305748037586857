package io.tickwork.jmh.search;

import io.tickwork.primitives.search.IntSearch;
import io.tickwork.primitives.search.IntSearchKind;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.Arrays;
import java.util.HashMap;
import java.util.SplittableRandom;
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
 * One int-key membership/rank lookup per operation: every {@link IntSearchKind} beside
 * {@link Arrays#binarySearch(int[], int)}, {@code HashMap<Integer,Integer>} and fastutil's
 * {@link Int2IntOpenHashMap}, at n keys.
 *
 * <p>Measures: the lookup of a random query, half of them present (keys are random even ints,
 * absent queries random odd ints from the same distribution, see {@code dist}), so caches and
 * branch predictors see the real access pattern for that n. The result goes back to JMH
 * (returned), so the lookup cannot be eliminated. Ops are independent, so the CPU may overlap
 * consecutive lookups: this is throughput, which rewards short instruction streams whose cache
 * misses start early (hash tables, the radix directory) over long dependent chains (binary search).
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
        "JDK_BINARY_SEARCH",
        "HASH_MAP",
        "FASTUTIL_OPEN_HASH_MAP"
    })
    String impl;

    /**
     * Key distribution. UNIFORM: random ints (the radix directory's best case). LOG_UNIFORM:
     * {@code exp(uniform(0, ln 2^31))}, crowded at small values, so equal-width radix buckets are
     * very uneven (its bad case); absent queries are drawn from the same distribution.
     */
    @Param({"UNIFORM"})
    String dist;

    static final int QUERIES = 1 << 20;

    private int draw(SplittableRandom r) {
        return dist.equals("LOG_UNIFORM") ? (int) Math.exp(r.nextDouble() * Math.log(Integer.MAX_VALUE)) : r.nextInt();
    }

    int[] queries;
    int counter;
    /** The variant, or a peer adapted to the same interface so the benchmark has one call site. */
    IntSearch search;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom r = new SplittableRandom(42);
        int[] keys = java.util.stream.IntStream.generate(() -> draw(r) & ~1)
                .distinct()
                .limit(n)
                .toArray();
        int[] sorted = keys.clone();
        Arrays.sort(sorted);
        queries = new int[QUERIES];
        for (int i = 0; i < QUERIES; i++) {
            queries[i] = (i & 1) == 0 ? keys[r.nextInt(n)] : draw(r) | 1;
        }
        // shuffle so hits and misses do not strictly alternate (no pattern to predict)
        for (int i = QUERIES - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = queries[i];
            queries[i] = queries[j];
            queries[j] = t;
        }
        search = peerOrVariant(impl, sorted);
    }

    static IntSearch peerOrVariant(String impl, int[] sorted) {
        switch (impl) {
            case "JDK_BINARY_SEARCH":
                return new IntSearch() {
                    @Override
                    public int indexOf(int key) {
                        return Arrays.binarySearch(sorted, key);
                    }

                    @Override
                    public int size() {
                        return sorted.length;
                    }
                };
            case "HASH_MAP": {
                HashMap<Integer, Integer> map = new HashMap<>();
                for (int i = 0; i < sorted.length; i++) {
                    map.put(sorted[i], i);
                }
                return new IntSearch() {
                    @Override
                    public int indexOf(int key) {
                        Integer v = map.get(key);
                        return v == null ? -1 : v;
                    }

                    @Override
                    public int size() {
                        return map.size();
                    }
                };
            }
            case "FASTUTIL_OPEN_HASH_MAP": {
                Int2IntOpenHashMap map = new Int2IntOpenHashMap(sorted.length);
                map.defaultReturnValue(-1);
                for (int i = 0; i < sorted.length; i++) {
                    map.put(sorted[i], i);
                }
                return new IntSearch() {
                    @Override
                    public int indexOf(int key) {
                        return map.get(key);
                    }

                    @Override
                    public int size() {
                        return map.size();
                    }
                };
            }
            default:
                return IntSearchKind.valueOf(impl).build(sorted);
        }
    }

    @Benchmark
    public int lookup() {
        return search.indexOf(queries[counter++ & (QUERIES - 1)]);
    }
}
