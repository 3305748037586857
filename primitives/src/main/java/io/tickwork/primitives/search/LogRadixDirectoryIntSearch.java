package io.tickwork.primitives.search;

/**
 * {@link IntSearchKind#LOG_RADIX_DIRECTORY}: {@link RadixDirectoryIntSearch}'s layout with buckets
 * of equal width on a logarithmic scale. A key's bucket is its distance from the smallest key,
 * {@code r}, written as a binary floating-point number: the bit length of {@code r} (0 to 32), then
 * the m bits after its leading one. So every power-of-two range of distances gets 2^m buckets,
 * the range [2^k, 2^(k+1)) as many as [2^30, 2^31): keys whose density falls with their size
 * (log-uniform, power-law sizes, counts, latencies) spread evenly, where equal-width buckets crowd
 * them all into the first few.
 *
 * <p><b>Lookup.</b> Range checks, a subtraction, a leading-zero count and two shifts for the
 * bucket, two adjacent directory ints, two branch-free steps over a fixed 8-key window (a
 * branch-free binary search in a bucket of more than 8). Two dependent reads, as the linear
 * directory on evenly spread keys.
 *
 * <p><b>Cost.</b> Build: O(n). Memory: the array plus 8 sentinels, and 33 × 2^m + 1 ints of
 * directory, 2^m the smallest power of two that leaves at most 3 keys per bucket on average in the
 * fullest power-of-two range (at most 2n buckets, but never fewer than 33): 5 to 12 + 36/n bytes
 * per key in all from 17 keys on (13 from 36 keys on; 4 + 168/n below 17), about 8.5 on
 * log-uniform keys.
 *
 * <p><b>Caveats.</b> Evenly spread keys crowd its top octave (half of any uniform set lies in
 * the top power-of-two range of distances, which has 1/33 of the buckets); {@link IntSearch#of}
 * picks it only when its buckets are the even ones.
 *
 * <p>Immutable after construction; safe for concurrent queries once published.
 */
final class LogRadixDirectoryIntSearch implements IntSearch {

    private final int[] a;
    /** dir[b] = index of the first key whose bucket is >= b; dir[33 << m] = n. */
    private final int[] dir;

    private final int n;
    private final int min;
    private final int max;
    private final int m;

    LogRadixDirectoryIntSearch(int[] sorted) {
        this.n = sorted.length;
        this.a = WindowSearch.withSentinels(sorted);
        this.min = n == 0 ? 0 : sorted[0];
        this.max = n == 0 ? -1 : sorted[n - 1];
        this.m = mantissaBits(sorted);
        int buckets = 33 << m;
        this.dir = new int[buckets + 1];
        for (int key : sorted) {
            dir[bucket((long) key - min, m) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            dir[b + 1] += dir[b];
        }
    }

    /**
     * Mantissa bits for these keys: enough that the fullest power-of-two range of distances has at
     * most 3 keys per bucket on average, with at most 2n buckets in all.
     */
    static int mantissaBits(int[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            return 0;
        }
        int[] octave = new int[33];
        long min = sorted[0];
        for (int key : sorted) {
            // unsorted input (a key below the first) counts as distance 0; the build rejects it
            octave[64 - Long.numberOfLeadingZeros(Math.max(0, key - min))]++;
        }
        int most = 0;
        for (int c : octave) {
            most = Math.max(most, c);
        }
        return mantissaBits(most, n);
    }

    /**
     * Mantissa bits for {@code n} keys of which {@code most} share the fullest power-of-two range
     * of distances. In {@code long}: {@code most + 2} and {@code 2n} overflow an int past 2^30 keys.
     */
    static int mantissaBits(int most, int n) {
        long perBucket3 = (most + 2L) / 3;
        int m = perBucket3 <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(perBucket3 - 1);
        int cap = 63 - Long.numberOfLeadingZeros(Math.max(1, 2L * n / 33));
        return Math.min(m, cap);
    }

    /** The bucket of distance {@code r} in [0, 2^32): its bit length, then its next m bits. */
    static int bucket(long r, int m) {
        int z = Long.numberOfLeadingZeros(r);
        // r << z puts the leading one at bit 63 (r = 0 stays 0); the m bits after it are the mantissa
        return (64 - z) << m | (int) ((r << z) >>> (63 - m)) & ((1 << m) - 1);
    }

    @Override
    public int indexOf(int key) {
        if (key < min) {
            return -1;
        }
        if (key > max) {
            return -(n + 1);
        }
        int b = bucket((long) key - min, m);
        int lo = dir[b];
        int p = WindowSearch.lowerBound(a, lo, dir[b + 1] - lo, key);
        return p < n && a[p] == key ? p : -(p + 1);
    }

    @Override
    public int size() {
        return n;
    }

    /** The bytes of this instance's arrays, headers included (what {@link IntSearch#compactOf} compares). */
    long arrayBytes() {
        return IntSearchChoice.bytes(a) + IntSearchChoice.bytes(dir);
    }

    @Override
    public String toString() {
        return "LOG_RADIX_DIRECTORY[n=" + n + "]";
    }
}
