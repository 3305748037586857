package io.tickwork.server.dict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.server.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The per-thread body cache: hits only on the exact key, two keys of one set both stay, the least
 * recently used one goes, bodies over the bound are not kept, evicted arrays are reused.
 */
class WordBodyCacheTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A response whose body is {@code prefix + body}; the body starts at {@code prefix.length()}. */
    private static HttpResponse response(String prefix, String body) {
        HttpResponse r = new HttpResponse();
        r.appendAscii(prefix).appendAscii(body);
        return r;
    }

    private static int slot(WordBodyCache c, String key) {
        byte[] k = b(key);
        return c.find(c.set(k, k.length), k, k.length);
    }

    private static String hit(WordBodyCache c, String key) {
        int slot = slot(c, key);
        return slot < 0 ? null : new String(c.body(slot), 0, c.length(slot), StandardCharsets.UTF_8);
    }

    private static void put(WordBodyCache c, String key, String body) {
        byte[] k = b(key);
        c.put(c.set(k, k.length), k, k.length, response("xx", body), 2);
    }

    @Test
    void aKeptBodyIsFoundByItsExactKeyOnly() {
        WordBodyCache c = new WordBodyCache(2, 4096); // one set: every key below meets the kept one
        assertNull(hit(c, "door"));
        put(c, "door", "{\"word\":\"door\"}");
        assertEquals("{\"word\":\"door\"}", hit(c, "door"));
        assertNull(hit(c, "doo"));
        assertNull(hit(c, "doors"));
        assertNull(hit(c, "Door"));
        assertNull(hit(c, ""));
    }

    @Test
    void twoKeysOfOneSetBothStayAndANewOneEvictsTheLeastRecentlyUsed() {
        WordBodyCache c = new WordBodyCache(2, 4096);
        put(c, "door", "D");
        put(c, "dog", "G");
        assertEquals("D", hit(c, "door"));
        assertEquals("G", hit(c, "dog"));
        assertEquals("D", hit(c, "door")); // door is now the more recent
        put(c, "run", "R");
        assertNull(hit(c, "dog"), "the least recently used goes");
        assertEquals("D", hit(c, "door"));
        assertEquals("R", hit(c, "run"));
        put(c, "tree", "T"); // door was read before run: door goes
        assertNull(hit(c, "door"));
        assertEquals("R", hit(c, "run"));
        assertEquals("T", hit(c, "tree"));
    }

    @Test
    void anEvictedEntrysArraysCarryTheNextBodyWhenItFits() {
        WordBodyCache c = new WordBodyCache(2, 4096);
        put(c, "door", "a long body for door");
        byte[] doorBody = c.body(slot(c, "door"));
        put(c, "dog", "dog");
        put(c, "run", "run"); // evicts door, the least recent
        assertNull(hit(c, "door"));
        assertSame(doorBody, c.body(slot(c, "run")));
        assertEquals("run", hit(c, "run"));
    }

    @Test
    void aBodyOverTheBoundIsNotKeptAndEvictsNothing() {
        WordBodyCache c = new WordBodyCache(2, 10);
        put(c, "short", "0123456789");
        put(c, "tiny", "x");
        put(c, "long", "0123456789A");
        assertNull(hit(c, "long"));
        assertEquals("0123456789", hit(c, "short"));
        assertEquals("x", hit(c, "tiny"));
    }

    @Test
    void setsSpreadOverTheTable() {
        WordBodyCache c = new WordBodyCache(512, 4096);
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 256; i++) {
            byte[] k = b("word" + i);
            int s = c.set(k, k.length);
            assertTrue(s >= 0 && s < 512 && s % 2 == 0, "set " + s);
            used.add(s);
        }
        // 256 keys into 256 sets at random fill about 1 - 1/e of them (162); a weak hash far fewer
        assertTrue(used.size() > 140, "sets used: " + used.size());
    }

    @Test
    void keyBytesAreCopiedNotReferenced() {
        WordBodyCache c = new WordBodyCache(4, 4096);
        byte[] k = b("door");
        c.put(c.set(k, 4), k, 4, response("", "body"), 0);
        Arrays.fill(k, (byte) 'x');
        assertEquals(-1, c.find(c.set(k, 4), k, 4));
        assertEquals("body", hit(c, "door"));
    }

    @Test
    void aSlotCountThatIsNotAPowerOfTwoFromTwoIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WordBodyCache(3, 10));
        assertThrows(IllegalArgumentException.class, () -> new WordBodyCache(1, 10));
        assertThrows(IllegalArgumentException.class, () -> new WordBodyCache(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new WordBodyCache(4, -1));
    }
}
