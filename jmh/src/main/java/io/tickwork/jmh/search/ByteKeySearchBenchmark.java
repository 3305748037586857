package io.tickwork.jmh.search;

import io.tickwork.primitives.search.ByteKeyIndex;
import it.unimi.dsi.fastutil.bytes.ByteArrays;
import it.unimi.dsi.fastutil.objects.Object2IntOpenCustomHashMap;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
 * One exact lookup per operation of a string key that arrives as UTF-8 bytes (as it does off a
 * socket): {@link ByteKeyIndex} on a heap image and on a direct buffer (what a memory-mapped file
 * gives the server), beside {@link Arrays#binarySearch(Object[], Object)} over a sorted
 * {@code String[]}, {@code HashMap<String,Integer>}, and fastutil's
 * {@code Object2IntOpenCustomHashMap<byte[]>} with {@code ByteArrays.HASH_STRATEGY}, the peer that
 * also looks the bytes up as they are (default load factor, pre-sized to n, as its docs advise).
 *
 * <p>Measures: for the String peers, decoding the query bytes into a {@code String}
 * ({@code new String(bytes, UTF_8)}, which also recomputes the hash for the HashMap, as a real
 * lookup must) plus the lookup; for the index and the byte-array map, the lookup straight on the
 * bytes (the map hashes every byte of the query, then compares it with a key). Keys
 * ({@code keys}): {@code WORDS}, n random strings of 2 to 15 lowercase ASCII letters, whose first
 * 8 bytes almost always tell them apart (the index's best case); {@code URLS}, n addresses
 * {@code https://example.org/<section>/<word>} over 64 sections, which all share their first 8
 * bytes and a section's share 20 to 35 (the index then compares whole keys along the run of its
 * shared prefix, the case its class comment prices). Half of the queries are keys, half are
 * random strings of the same shape that are not keys, shuffled. Result returned to JMH.
 *
 * <p>Avoids measuring: building the structures and generating the queries (in {@link Setup}: 2^17
 * pre-encoded query arrays, read by a counter masked to the array size). Each {@code impl} runs in
 * its own forked JVM so the call site is monomorphic.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ByteKeySearchBenchmark {

    @Param({"200000"})
    int n;

    /** The shape of the keys: see the class comment. */
    public enum Keys {
        WORDS,
        URLS
    }

    @Param
    Keys keys;

    @Param({"BYTE_KEY_INDEX", "BYTE_KEY_INDEX_DIRECT", "STRING_BINARY_SEARCH", "STRING_HASH_MAP", "FASTUTIL_BYTES_MAP"})
    String impl;

    static final int QUERIES = 1 << 17;

    /** A lookup of a UTF-8 query; answers an index or a negative value when absent. */
    interface BytesLookup {
        int find(byte[] utf8);
    }

    byte[][] queries;
    int counter;
    BytesLookup lookup;

    static String randomWord(SplittableRandom r) {
        char[] c = new char[r.nextInt(2, 16)];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) ('a' + r.nextInt(26));
        }
        return new String(c);
    }

    /** The sorted keys (ASCII, so String order is UTF-8 byte order) and the encoded queries. */
    static final class Workload {
        final String[] sorted;
        final byte[][] queries;

        Workload(String[] sorted, byte[][] queries) {
            this.sorted = sorted;
            this.queries = queries;
        }
    }

    static final int URL_SECTIONS = 64;

    /** A random key of the given shape; {@code sections} are the URL sections to draw from. */
    static String randomKey(Keys keys, String[] sections, SplittableRandom r) {
        return keys == Keys.WORDS
                ? randomWord(r)
                : "https://example.org/" + sections[r.nextInt(sections.length)] + "/" + randomWord(r);
    }

    /** n random keys and {@code queryCount} shuffled queries, half keys, half absent keys of the same shape. */
    static Workload workload(Keys keys, int n, int queryCount) {
        SplittableRandom r = new SplittableRandom(42);
        String[] sections = new String[URL_SECTIONS];
        for (int i = 0; i < sections.length; i++) {
            sections[i] = randomWord(r);
        }
        HashSet<String> set = new HashSet<>();
        while (set.size() < n) {
            set.add(randomKey(keys, sections, r));
        }
        String[] sorted = set.toArray(new String[0]);
        Arrays.sort(sorted); // ASCII: String order equals UTF-8 byte order
        byte[][] queries = new byte[queryCount][];
        for (int i = 0; i < queryCount; i++) {
            String q;
            if ((i & 1) == 0) {
                q = sorted[r.nextInt(n)];
            } else {
                do {
                    q = randomKey(keys, sections, r);
                } while (set.contains(q));
            }
            queries[i] = q.getBytes(StandardCharsets.UTF_8);
        }
        for (int i = queryCount - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            byte[] t = queries[i];
            queries[i] = queries[j];
            queries[j] = t;
        }
        return new Workload(sorted, queries);
    }

    /**
     * Subject {@code impl} over {@code sorted}: the index and the String binary search answer
     * {@link Arrays#binarySearch}'s contract, the two maps the key's sorted index or -1.
     */
    static BytesLookup subject(String impl, String[] sorted) {
        switch (impl) {
            case "BYTE_KEY_INDEX":
            case "BYTE_KEY_INDEX_DIRECT": {
                List<byte[]> keys = new ArrayList<>(sorted.length);
                for (String s : sorted) {
                    keys.add(s.getBytes(StandardCharsets.UTF_8));
                }
                ByteKeyIndex built = ByteKeyIndex.build(keys, false);
                ByteKeyIndex ix = built;
                if (impl.equals("BYTE_KEY_INDEX_DIRECT")) {
                    ByteBuffer direct = ByteBuffer.allocateDirect(built.serializedSize());
                    built.writeTo(direct);
                    direct.flip();
                    ix = ByteKeyIndex.wrap(direct);
                }
                ByteKeyIndex index = ix;
                return q -> index.find(q, 0, q.length);
            }
            case "STRING_BINARY_SEARCH":
                return q -> Arrays.binarySearch(sorted, new String(q, StandardCharsets.UTF_8));
            case "STRING_HASH_MAP": {
                HashMap<String, Integer> map = new HashMap<>();
                for (int i = 0; i < sorted.length; i++) {
                    map.put(sorted[i], i);
                }
                return q -> {
                    Integer v = map.get(new String(q, StandardCharsets.UTF_8));
                    return v == null ? -1 : v;
                };
            }
            case "FASTUTIL_BYTES_MAP": {
                Object2IntOpenCustomHashMap<byte[]> map =
                        new Object2IntOpenCustomHashMap<>(sorted.length, ByteArrays.HASH_STRATEGY);
                map.defaultReturnValue(-1);
                for (int i = 0; i < sorted.length; i++) {
                    map.put(sorted[i].getBytes(StandardCharsets.UTF_8), i);
                }
                return map::getInt;
            }
            default:
                throw new IllegalArgumentException("unknown impl: " + impl);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        Workload w = workload(keys, n, QUERIES);
        queries = w.queries;
        lookup = subject(impl, w.sorted);
    }

    @Benchmark
    public int find() {
        return lookup.find(queries[counter++ & (QUERIES - 1)]);
    }
}
