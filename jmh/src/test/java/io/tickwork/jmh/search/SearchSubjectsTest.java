package io.tickwork.jmh.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tickwork.primitives.search.IntSearch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jmh.annotations.Param;

/**
 * Every subject the search benchmarks time answers every one of the benchmark's queries as a
 * {@link TreeMap} over the same keys does: a present key gets its sorted index, an absent one
 * {@code -(insertion point) - 1} from the ordered subjects and -1 from the hash maps. The int
 * subjects run on each distribution at n = 2,000 and 20,000 with the benchmark's full stream of
 * 2^20 queries singly, and its first 2^16 in the batch benchmark's batch sizes; the byte-key subjects at n = 20,000. Also checks that the workloads are what the
 * benchmark comments say (distinct even keys, half the queries present, odd absent ones inside
 * the key range) and that each benchmark's {@code impl} list names exactly the subjects tested.
 */
class SearchSubjectsTest {

    static Stream<Arguments> intSubjects() {
        return SearchSubjects.names().stream().map(Arguments::of);
    }

    @ParameterizedTest
    @MethodSource("intSubjects")
    void everyIntSubjectAnswersEveryQueryAsTheTreeMap(String name) {
        for (SearchSubjects.Dist dist : SearchSubjects.Dist.values()) {
            for (int n : new int[] {2_000, 20_000}) {
                SearchSubjects.Workload w = SearchSubjects.workload(dist, n, IntSearchBenchmark.QUERIES);
                TreeMap<Integer, Integer> index = new TreeMap<>();
                for (int i = 0; i < n; i++) {
                    index.put(w.sorted[i], i);
                }
                IntSearch s = SearchSubjects.build(name, w.sorted).search;
                assertEquals(n, s.size(), name + " " + dist + " n=" + n);
                boolean ordered = SearchSubjects.ordered(name);
                for (int q : w.queries) {
                    Integer at = index.get(q);
                    int want;
                    if (at != null) {
                        want = at;
                    } else if (ordered) {
                        Map.Entry<Integer, Integer> ceiling = index.ceilingEntry(q);
                        want = -((ceiling == null ? n : ceiling.getValue()) + 1);
                    } else {
                        want = -1;
                    }
                    int got = s.indexOf(q);
                    if (got != want) {
                        fail(name + " " + dist + " n=" + n + " query " + q + ": expected " + want + ", got " + got);
                    }
                }
                // the batched path the batch benchmark times answers as the single lookups do
                for (int batch : new int[] {1, 16, 256, 4096}) {
                    int[] out = new int[1 << 16]; // the stream's first 2^16 queries
                    for (int from = 0; from < out.length; from += batch) {
                        s.indexOf(w.queries, from, Math.min(from + batch, out.length), out);
                    }
                    for (int i = 0; i < out.length; i++) {
                        if (out[i] != s.indexOf(w.queries[i])) {
                            fail(name + " " + dist + " n=" + n + " batch " + batch + " query " + w.queries[i]
                                    + ": batch " + out[i] + ", single " + s.indexOf(w.queries[i]));
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SearchSubjects.Dist.class)
    void workloadsAreDistinctEvenKeysAndHalfHits(SearchSubjects.Dist dist) {
        int n = 20_000;
        SearchSubjects.Workload w = SearchSubjects.workload(dist, n, 1 << 16);
        assertEquals(n, w.sorted.length);
        for (int i = 0; i < n; i++) {
            assertEquals(0, w.sorted[i] & 1, dist + " key " + w.sorted[i] + " is odd");
            if (i > 0) {
                assertTrue(w.sorted[i - 1] < w.sorted[i], dist + " keys not strictly ascending at " + i);
            }
        }
        int hits = 0;
        int inside = 0;
        for (int q : w.queries) {
            if (Arrays.binarySearch(w.sorted, q) >= 0) {
                hits++;
            } else {
                assertEquals(1, q & 1, dist + " absent query " + q + " is even");
                if (q > w.sorted[0] && q < w.sorted[n - 1]) {
                    inside++;
                }
            }
        }
        assertEquals(w.queries.length / 2, hits, dist + ": half the queries are keys");
        assertTrue(inside > w.queries.length / 2 * 0.9, dist + ": absent queries inside the key range: " + inside);
        assertArrayEquals(
                w.sorted, SearchSubjects.workload(dist, n, 0).sorted, dist + ": keys depend on the random seed only");
    }

    @Test
    void clusteredKeysComeInDenseRunsBetweenLargeGaps() {
        int[] a = SearchSubjects.workload(SearchSubjects.Dist.CLUSTERED, 200_000, 0).sorted;
        int runs = 1;
        for (int i = 1; i < a.length; i++) {
            long step = (long) a[i] - a[i - 1];
            if (step > 8) {
                assertTrue(step >= 1 << 16, "gap " + step + " at " + i);
                runs++;
            }
        }
        double mean = (double) a.length / runs;
        assertTrue(mean > 400 && mean < 700, "mean run length " + mean + " of " + runs + " runs");
    }

    @Test
    void benchmarkParametersNameExactlyTheSubjects() throws Exception {
        String[] impls = IntSearchBenchmark.class
                .getDeclaredField("impl")
                .getAnnotation(Param.class)
                .value();
        assertEquals(SearchSubjects.names(), Arrays.asList(impls));
        String[] dists = IntSearchBenchmark.class
                .getDeclaredField("dist")
                .getAnnotation(Param.class)
                .value();
        assertEquals(
                Arrays.asList(
                        Stream.of(SearchSubjects.Dist.values()).map(Enum::name).toArray(String[]::new)),
                Arrays.asList(dists));
    }

    static Stream<Arguments> byteKeySubjects() throws Exception {
        return Stream.of(ByteKeySearchBenchmark.class
                        .getDeclaredField("impl")
                        .getAnnotation(Param.class)
                        .value())
                .flatMap(impl -> Stream.of(ByteKeySearchBenchmark.Keys.values()).map(keys -> Arguments.of(impl, keys)));
    }

    @ParameterizedTest
    @MethodSource("byteKeySubjects")
    void everyByteKeySubjectAnswersEveryQueryAsTheTreeMap(String impl, ByteKeySearchBenchmark.Keys keys) {
        int n = 20_000;
        ByteKeySearchBenchmark.Workload w = ByteKeySearchBenchmark.workload(keys, n, ByteKeySearchBenchmark.QUERIES);
        TreeMap<String, Integer> index = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            index.put(w.sorted[i], i);
        }
        boolean ordered = !impl.endsWith("_MAP");
        ByteKeySearchBenchmark.BytesLookup lookup = ByteKeySearchBenchmark.subject(impl, w.sorted);
        int hits = 0;
        for (byte[] q : w.queries) {
            String key = new String(q, StandardCharsets.UTF_8);
            Integer at = index.get(key);
            int want;
            if (at != null) {
                want = at;
                hits++;
            } else if (ordered) {
                Map.Entry<String, Integer> ceiling = index.ceilingEntry(key);
                want = -((ceiling == null ? n : ceiling.getValue()) + 1);
            } else {
                want = -1;
            }
            int got = lookup.find(q);
            if (got != want) {
                fail(impl + " query " + key + ": expected " + want + ", got " + got);
            }
        }
        assertEquals(w.queries.length / 2, hits);
    }
}
