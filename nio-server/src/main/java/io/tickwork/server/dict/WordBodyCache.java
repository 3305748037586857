package io.tickwork.server.dict;

import io.tickwork.server.http.HttpResponse;
import java.util.Arrays;

/**
 * The JSON bodies of recently answered {@code /d/{word}} lookups, keyed by the normalized query,
 * so that a hot word costs one hash, one key compare and one copy instead of an index search and
 * a walk over its senses in the mapped file.
 *
 * <p>Direct-mapped: the key's hash picks one slot, and keeping a body there replaces whatever was
 * there. No recency bookkeeping, so a hit writes nothing but the copy; the price is that two hot
 * words sharing a slot evict each other on every request (a slot count of a few hundred makes
 * that rare for the few dozen words that make up most of a natural-language workload). Bodies
 * over {@code maxBody} bytes are not kept, so that a slot's arrays stay bounded.
 *
 * <p>Correct without invalidation because a dictionary is immutable once opened and a
 * {@code /d} body depends on nothing but the normalized query. Memory: a slot holds a body array
 * of at most {@code maxBody} bytes and a key array as long as the longest key kept there (the
 * handler's keys are at most {@code Dictionary.MAX_QUERY + 1} bytes), plus two array headers and
 * 16 bytes of the slot tables; arrays are allocated as slots fill and reused when the next body
 * fits, so a warm cache allocates nothing.
 *
 * <p>Not thread safe: one instance per thread (the handler keeps one in its per-thread scratch).
 */
final class WordBodyCache {
    private final int mask;
    private final int maxBody;
    private final byte[][] keys;
    private final int[] keyLengths;
    private final byte[][] bodies;
    private final int[] bodyLengths;

    /** {@code slots}: a power of two &gt;= 1; {@code maxBody}: the largest body kept, &gt;= 0. */
    WordBodyCache(int slots, int maxBody) {
        if (slots < 1 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two >= 1: " + slots);
        }
        if (maxBody < 0) {
            throw new IllegalArgumentException("maxBody must be >= 0: " + maxBody);
        }
        this.mask = slots - 1;
        this.maxBody = maxBody;
        this.keys = new byte[slots][];
        this.keyLengths = new int[slots];
        this.bodies = new byte[slots][];
        this.bodyLengths = new int[slots];
    }

    /** The slot of {@code key[0, len)}: a multiplicative hash, high bits folded into the low ones. */
    int slot(byte[] key, int len) {
        int h = len;
        for (int i = 0; i < len; i++) {
            h = 31 * h + key[i];
        }
        h *= 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    /** The body kept for {@code key[0, len)} in {@code slot}, or null; its length is {@link #length}. */
    byte[] get(int slot, byte[] key, int len) {
        byte[] k = keys[slot];
        if (k == null || keyLengths[slot] != len || !Arrays.equals(k, 0, len, key, 0, len)) {
            return null;
        }
        return bodies[slot];
    }

    /** Length of the body in {@code slot} (valid after a {@link #get} that returned non-null). */
    int length(int slot) {
        return bodyLengths[slot];
    }

    /** Keeps the body {@code res} holds from index {@code from} for {@code key[0, len)} in {@code slot}, unless too long. */
    void put(int slot, byte[] key, int len, HttpResponse res, int from) {
        int bodyLen = res.length() - from;
        if (bodyLen > maxBody) {
            return;
        }
        byte[] k = keys[slot];
        if (k == null || k.length < len) {
            k = new byte[Math.max(len, 32)];
        }
        byte[] b = bodies[slot];
        if (b == null || b.length < bodyLen) {
            b = new byte[Math.min(maxBody, Math.max(bodyLen, 1024))];
        }
        System.arraycopy(key, 0, k, 0, len);
        res.copyBody(from, bodyLen, b, 0);
        keys[slot] = k;
        keyLengths[slot] = len;
        bodies[slot] = b;
        bodyLengths[slot] = bodyLen;
    }
}
