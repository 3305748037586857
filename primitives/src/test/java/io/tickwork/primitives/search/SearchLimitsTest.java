package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        // every key in one range of distances: 2^26 buckets (capped by 2n / 33), not the binary-search
        // fallback that int overflow of most + 2 and of 2n gave
        assertEquals(26, LogRadixDirectoryIntSearch.mantissaBits(Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertEquals(26, LogRadixDirectoryIntSearch.mantissaBits((1 << 30) + 1, Integer.MAX_VALUE));
    }
}
