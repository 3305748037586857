package io.tickwork.server.dict;

import io.tickwork.server.http.HttpResponse;
import java.util.Arrays;

/**
 * The JSON bodies of recently answered {@code /d/{word}} lookups, keyed by the normalized query,
 * so that a hot word costs one hash, one or two key compares and one copy instead of an index
 * search and a walk over its senses in the mapped file.
 *
 * <p>Two-way set associative with least-recently-used replacement, as in a CPU cache: the key's
 * hash picks a set of two slots; a hit in the second slot swaps the two, so the first always
 * holds the more recent key, and a new body replaces the second. Two hot words that hash to the
 * same set therefore both stay, where a direct-mapped table would have them evict each other on
 * every request. 100,000 random requests over the bench's built-in list of 335 common words,
 * replayed through 256 slots, were 66 % hits when uniform (59 % direct-mapped, same hash and
 * size) and 86 % under a Zipf law of exponent 1 in list order (81 %). Bodies over
 * {@code maxBody} bytes are not kept, so that a slot's arrays stay bounded.
 *
 * <p>Correct without invalidation because a dictionary is immutable once opened and a
 * {@code /d} body depends on nothing but the normalized query. Memory: a slot holds a body array
 * of at most {@code maxBody} bytes and a key array of at least 32 bytes, longer only for a longer
 * key (the handler's keys are at most {@code Dictionary.MAX_QUERY} bytes), plus their two array
 * headers, a 32-byte entry and its reference; they are allocated as slots fill and an evicted
 * entry is refilled in place when the body fits, so a warm cache allocates nothing.
 *
 * <p>Not thread safe: one instance per thread (the handler keeps one in its per-thread scratch).
 */
final class WordBodyCache {
    /** One slot's key and body; an evicted entry is refilled in place, arrays and all. */
    private static final class Entry {
        byte[] key = new byte[32];
        int keyLength = -1; // matches no key: a fresh entry is empty
        byte[] body;
        int bodyLength;
    }

    private final int setMask;
    private final int maxBody;
    private final Entry[] slots;

    /** {@code slots}: a power of two &gt;= 2; {@code maxBody}: the largest body kept, &gt;= 0. */
    WordBodyCache(int slots, int maxBody) {
        if (slots < 2 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two >= 2: " + slots);
        }
        if (maxBody < 0) {
            throw new IllegalArgumentException("maxBody must be >= 0: " + maxBody);
        }
        this.setMask = slots / 2 - 1;
        this.maxBody = maxBody;
        this.slots = new Entry[slots];
    }

    /** The first slot of the set of {@code key[0, len)}: a multiplicative hash, high bits folded in. */
    int set(byte[] key, int len) {
        int h = len;
        for (int i = 0; i < len; i++) {
            h = 31 * h + key[i];
        }
        h *= 0x9E3779B9;
        return ((h ^ (h >>> 16)) & setMask) << 1;
    }

    private boolean holds(int slot, byte[] key, int len) {
        Entry e = slots[slot];
        return e != null && e.keyLength == len && Arrays.equals(e.key, 0, len, key, 0, len);
    }

    /**
     * The slot holding the body of {@code key[0, len)}, whose {@link #set} is {@code first}, now
     * the most recent of its set, or -1; read it with {@link #body} and {@link #length}.
     */
    int find(int first, byte[] key, int len) {
        if (holds(first, key, len)) {
            return first;
        }
        if (holds(first + 1, key, len)) {
            swap(first);
            return first;
        }
        return -1;
    }

    /** The body array of {@code slot} (only its first {@link #length} bytes are the body). */
    byte[] body(int slot) {
        return slots[slot].body;
    }

    /** Length of the body in {@code slot}. */
    int length(int slot) {
        return slots[slot].bodyLength;
    }

    /**
     * Keeps the body {@code res} holds from index {@code from} for {@code key[0, len)}, whose
     * {@link #set} is {@code slot} and which {@link #find} has just missed, as the most recent of
     * its set, evicting the least recent; a body over {@code maxBody} bytes is not kept.
     */
    void put(int slot, byte[] key, int len, HttpResponse res, int from) {
        int bodyLen = res.length() - from;
        if (bodyLen > maxBody) {
            return;
        }
        swap(slot); // the most recent entry moves second; the evicted one comes first, to be refilled
        Entry e = slots[slot];
        if (e == null) {
            e = slots[slot] = new Entry();
        }
        if (e.key.length < len) {
            e.key = new byte[len];
        }
        if (e.body == null || e.body.length < bodyLen) {
            e.body = new byte[Math.min(maxBody, Math.max(bodyLen, 1024))];
        }
        System.arraycopy(key, 0, e.key, 0, len);
        e.keyLength = len;
        res.copyBody(from, bodyLen, e.body, 0);
        e.bodyLength = bodyLen;
    }

    /** Exchanges the two entries of the set starting at {@code first}. */
    private void swap(int first) {
        Entry e = slots[first];
        slots[first] = slots[first + 1];
        slots[first + 1] = e;
    }
}
