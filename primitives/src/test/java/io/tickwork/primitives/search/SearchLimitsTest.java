package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The layouts' limits near {@code 2^30} keys, checked on the arithmetic that decides them (an
 * array of that many keys needs 4 GB or more, too much for a unit test).
 */
class SearchLimitsTest {

    @Test
    void eytzingerRefusesMoreKeysThanItsNodeIndexesCanCount() {
        EytzingerIntSearch.requireFits(EytzingerIntSearch.MAX_KEYS); // node 2k + 1 of the last is 2^31 - 1
        assertEquals(
                "EYTZINGER holds at most 2^30 - 1 keys: 1073741824",
                assertThrows(IllegalArgumentException.class, () -> EytzingerIntSearch.requireFits(1 << 30))
                        .getMessage());
    }

    /**
     * At the largest tree, a query above every key leaves it at node 2^31 - 1 after 31 right
     * turns: no left turn, so no lower bound (node 0, answer {@code -(n + 1)}). One shift by 32
     * would leave the node as it is, and its rank would index past the array.
     */
    @Test
    void eytzingerFindsNoLowerBoundAfterOnlyRightTurnsAtItsLargestTree() {
        assertEquals(0, EytzingerIntSearch.lowerBoundNode(Integer.MAX_VALUE));
        assertEquals(0, EytzingerIntSearch.lowerBoundNode(0b111));
        assertEquals(0b1, EytzingerIntSearch.lowerBoundNode(0b10)); // left at the root
        assertEquals(0b101, EytzingerIntSearch.lowerBoundNode(0b1010)); // left, right, then left at node 5
        assertEquals(0b1, EytzingerIntSearch.lowerBoundNode(0b1011)); // left at the root, then right twice
        // left at the root, then 29 right turns: the deepest path with a lower bound
        assertEquals(1, EytzingerIntSearch.lowerBoundNode((1 << 30) + (1 << 29) - 1));
    }

    @Test
    void logRadixDirectoryKeepsItsBucketsPast2To30Keys() {
        assertEquals(
                5, LogRadixDirectoryIntSearch.mantissaBits(100, 1000)); // 3 a bucket needs 6 bits; 2n / 33 caps at 5
        // every key in one range of distances at the most keys a search holds: 33 * 2^25 buckets
        // (capped by 2n / 33), a directory whose length still fits an array, and no int overflow
        // of most + 2 or of 2n
        int n = IntSearchKind.MAX_KEYS;
        int m = LogRadixDirectoryIntSearch.mantissaBits(n, n);
        assertEquals(25, m);
        assertTrue((33L << m) + 1 <= Integer.MAX_VALUE - 8);
    }

    @Test
    void everyKindRefusesMoreKeysThanItsIndexesCanCount() {
        IntSearchKind.requireFits(IntSearchKind.MAX_KEYS);
        assertEquals(
                "at most 2^30 - 1 keys: 1073741824",
                assertThrows(IllegalArgumentException.class, () -> IntSearchKind.requireFits(1 << 30))
                        .getMessage());
        assertEquals(EytzingerIntSearch.MAX_KEYS, IntSearchKind.MAX_KEYS);
    }
}
