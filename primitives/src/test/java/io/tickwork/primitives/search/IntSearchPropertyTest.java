package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Property-based: jqwik shrinks any failing array and query to a minimal case for each variant. */
class IntSearchPropertyTest {

    @Property(tries = 400)
    void anyVariantAgreesWithTheModel(
            @ForAll IntSearchKind kind,
            @ForAll @Size(max = 300) List<@IntRange(min = -50, max = 50) Integer> small,
            @ForAll @Size(max = 40) List<Integer> wide,
            @ForAll List<Integer> queries) {
        int[] a = java.util.stream.Stream.concat(small.stream(), wide.stream())
                .mapToInt(Integer::intValue)
                .sorted()
                .toArray();
        IntSearch s = kind.build(a);
        TreeMap<Integer, Integer> first = new TreeMap<>();
        for (int i = a.length - 1; i >= 0; i--) {
            first.put(a[i], i);
        }
        for (int q : queries) {
            assertEquals(
                    IntSearchTest.expected(first, a.length, q),
                    s.indexOf(q),
                    kind + " " + Arrays.toString(a) + " q=" + q);
        }
        for (int v : a) {
            assertEquals(IntSearchTest.expected(first, a.length, v), s.indexOf(v));
            assertEquals(IntSearchTest.expected(first, a.length, v - 1), s.indexOf(v - 1));
        }
    }
}
