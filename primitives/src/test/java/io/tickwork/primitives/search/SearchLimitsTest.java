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
