package io.tickwork.jmh.search;

import io.tickwork.primitives.search.IntSearch;
import io.tickwork.primitives.search.IntSearchKind;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * The int-key search workloads and subjects, in one place for {@link IntSearchBenchmark},
 * {@link SearchFootprint} and the adapter test, so what is timed, what is weighed and what is
 * proven correct are built by the same code from the same seed.
 *
 * <p>{@code RECURSIVE}, {@code THREE_BRANCH} and {@code TWO_BRANCH} are the textbook binary searches
 * the variants are measured against, kept here as baselines, not in the artifact.
 * {@code AUTO} and {@code AUTO_COMPACT} are {@link IntSearch#of} and {@link IntSearch#compactOf}:
 * the variant they pick, as a user who does not read the tables gets it.
 *
 * <p>A {@link Workload} is n distinct keys (all even, so an odd query is certainly absent) and a
 * shuffled query stream, half of it keys drawn uniformly from the set, half absent (odd) values
 * drawn from the same distribution as the keys. A subject is every {@link IntSearchKind} plus the
 * peers {@code Arrays.binarySearch}, {@code HashMap<Integer,Integer>} and fastutil's
 * {@link Int2IntOpenHashMap}, each behind {@link IntSearch} so the benchmark has one call site.
 * The sorted subjects answer {@link IntSearch}'s full contract; the two hash maps map a key to its
 * sorted index and answer -1 when absent (they know no insertion point).
 *
 * <p>Not thread safe (plain static factories; each call builds fresh objects).
 */
final class SearchSubjects {

    /** Seed of every workload: the benchmark, the footprint tool and the test see the same keys. */
    static final long SEED = 42;

    /**
     * Key distributions.
     *
     * <ul>
     *   <li>UNIFORM: random ints (the radix directory's best case).
     *   <li>LOG_UNIFORM: {@code (int) exp(uniform(0, ln(2^31 - 1)))}, log-uniform over [1, 2^31):
     *       every power-of-two range holds about as many keys, so the small values are dense (all
     *       even values below ~10^4 at n = 200,000) and the large ones sparse; equal-width radix
     *       buckets are very uneven.
     *   <li>CLUSTERED: runs of 64-1024 keys (uniform) whose consecutive keys differ by 2, 4, 6 or 8
     *       (uniform, so the runs are dense but not arithmetic), separated by gaps drawn
     *       log-uniformly from [2^16, 2^24]; when the runs and gaps would not fit the int range
     *       (n = 2,000,000 does not), every gap is scaled down by the same factor. Absent queries
     *       are odd values uniform over the span of the run of a random key, so they land inside
     *       the runs as the keys do.
     * </ul>
     */
    enum Dist {
        UNIFORM,
        LOG_UNIFORM,
        CLUSTERED
    }

    /** The keys in ascending order and the query stream of one workload. */
    static final class Workload {
        final int[] sorted;
        final int[] queries;

        Workload(int[] sorted, int[] queries) {
            this.sorted = sorted;
            this.queries = queries;
        }
    }

    private SearchSubjects() {}

    /** n keys of {@code dist} and {@code queryCount} queries, from {@link #SEED}. */
    static Workload workload(Dist dist, int n, int queryCount) {
        SplittableRandom r = new SplittableRandom(SEED);
        int[] keys;
        int[] sorted;
        int[] runStart = null;
        if (dist == Dist.CLUSTERED) {
            sorted = new int[n];
            List<Integer> starts = new ArrayList<>();
            clustered(r, sorted, starts);
            runStart = starts.stream().mapToInt(Integer::intValue).toArray();
            keys = sorted;
        } else {
            keys = IntStream.generate(() -> draw(dist, r) & ~1)
                    .distinct()
                    .limit(n)
                    .toArray();
            sorted = keys.clone();
            Arrays.sort(sorted);
        }
        int[] queries = new int[queryCount];
        for (int i = 0; i < queryCount; i++) {
            if ((i & 1) == 0) {
                queries[i] = keys[r.nextInt(n)];
            } else if (dist == Dist.CLUSTERED) {
                int k = r.nextInt(n);
                int run = Arrays.binarySearch(runStart, k);
                run = run >= 0 ? run : -run - 2;
                int first = sorted[runStart[run]];
                int last = sorted[run + 1 < runStart.length ? runStart[run + 1] - 1 : n - 1];
                queries[i] = (int) (first + r.nextLong((long) last - first + 1)) | 1;
            } else {
                queries[i] = draw(dist, r) | 1;
            }
        }
        // shuffle so hits and misses do not strictly alternate (no pattern to predict)
        for (int i = queryCount - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = queries[i];
            queries[i] = queries[j];
            queries[j] = t;
        }
        return new Workload(sorted, queries);
    }

    private static int draw(Dist dist, SplittableRandom r) {
        return dist == Dist.LOG_UNIFORM ? (int) Math.exp(r.nextDouble() * Math.log(Integer.MAX_VALUE)) : r.nextInt();
    }

    /** Fills {@code out} with clustered even keys, ascending; adds each run's first index to starts. */
    private static void clustered(SplittableRandom r, int[] out, List<Integer> starts) {
        int n = out.length;
        List<int[]> steps = new ArrayList<>(); // per run: the steps between its keys
        long span = 0;
        for (int placed = 0; placed < n; ) {
            int len = Math.min(r.nextInt(64, 1025), n - placed);
            int[] s = new int[len];
            for (int i = 1; i < len; i++) {
                s[i] = 2 * r.nextInt(1, 5);
                span += s[i];
            }
            steps.add(s);
            placed += len;
        }
        double[] gaps = new double[steps.size()]; // gaps[0] is the offset of the first run
        double gapSum = 0;
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = Math.exp(r.nextDouble(Math.log(1 << 16), Math.log(1 << 24)));
            gapSum += gaps[i];
        }
        // every gap is at least 2, so runs never touch; the rest of the int range is shared out
        double room = (double) (1L << 32) - 2 - span - 2.0 * gaps.length;
        double scale = Math.min(1, room / gapSum);
        long at = Integer.MIN_VALUE;
        int k = 0;
        for (int run = 0; run < steps.size(); run++) {
            at += 2 + ((long) (gaps[run] * scale) & ~1L);
            starts.add(k);
            for (int step : steps.get(run)) {
                at += step;
                out[k++] = (int) at;
            }
        }
    }

    /** Every subject name, in the order of {@link IntSearchBenchmark}'s {@code impl} parameter. */
    static List<String> names() {
        List<String> names = new ArrayList<>(List.of("RECURSIVE", "THREE_BRANCH", "TWO_BRANCH"));
        for (IntSearchKind kind : IntSearchKind.values()) {
            names.add(kind.name());
        }
        Collections.addAll(names, "AUTO", "AUTO_COMPACT", "JDK_BINARY_SEARCH", "HASH_MAP", "FASTUTIL_OPEN_HASH_MAP");
        return names;
    }

    /** Whether the subject answers insertion points for absent keys (the hash maps answer -1). */
    static boolean ordered(String name) {
        return !name.equals("HASH_MAP") && !name.equals("FASTUTIL_OPEN_HASH_MAP");
    }

    /** A built subject: the lookup and the object graph that holds its data. */
    static final class Built {
        final IntSearch search;
        /** The structure whose retained size is the subject's memory (for JOL). */
        final Object structure;

        Built(IntSearch search, Object structure) {
            this.search = search;
            this.structure = structure;
        }
    }

    /** Builds subject {@code name} over {@code sorted} (distinct keys, ascending). */
    static Built build(String name, int[] sorted) {
        switch (name) {
            case "RECURSIVE": {
                IntSearch s = new RecursiveIntSearch(sorted.clone());
                return new Built(s, s);
            }
            case "THREE_BRANCH": {
                IntSearch s = new ThreeBranchIntSearch(sorted.clone());
                return new Built(s, s);
            }
            case "TWO_BRANCH": {
                IntSearch s = new TwoBranchIntSearch(sorted.clone());
                return new Built(s, s);
            }
            case "AUTO": {
                IntSearch s = IntSearch.of(sorted);
                return new Built(s, s);
            }
            case "AUTO_COMPACT": {
                IntSearch s = IntSearch.compactOf(sorted);
                return new Built(s, s);
            }
            case "JDK_BINARY_SEARCH": {
                int[] a = sorted.clone();
                return new Built(
                        new IntSearch() {
                            @Override
                            public int indexOf(int key) {
                                return Arrays.binarySearch(a, key);
                            }

                            @Override
                            public int size() {
                                return a.length;
                            }
                        },
                        a);
            }
            case "HASH_MAP": {
                HashMap<Integer, Integer> map = new HashMap<>();
                for (int i = 0; i < sorted.length; i++) {
                    map.put(sorted[i], i);
                }
                return new Built(
                        new IntSearch() {
                            @Override
                            public int indexOf(int key) {
                                Integer v = map.get(key);
                                return v == null ? -1 : v;
                            }

                            @Override
                            public int size() {
                                return map.size();
                            }
                        },
                        map);
            }
            case "FASTUTIL_OPEN_HASH_MAP": {
                // sized for n at the default load factor 0.75, as fastutil's docs advise
                Int2IntOpenHashMap map = new Int2IntOpenHashMap(sorted.length);
                map.defaultReturnValue(-1);
                for (int i = 0; i < sorted.length; i++) {
                    map.put(sorted[i], i);
                }
                return new Built(
                        new IntSearch() {
                            @Override
                            public int indexOf(int key) {
                                return map.get(key);
                            }

                            @Override
                            public int size() {
                                return map.size();
                            }
                        },
                        map);
            }
            default: {
                IntSearch s = IntSearchKind.valueOf(name).build(sorted);
                return new Built(s, s);
            }
        }
    }
}
