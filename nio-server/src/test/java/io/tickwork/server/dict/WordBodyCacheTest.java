package io.tickwork.server.dict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.server.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The per-thread body cache: hits only on the exact key, overwrites on a shared slot, size bound. */
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

    private static String hit(WordBodyCache c, String key) {
        byte[] k = b(key);
        int slot = c.slot(k, k.length);
        byte[] body = c.get(slot, k, k.length);
        return body == null ? null : new String(body, 0, c.length(slot), StandardCharsets.UTF_8);
    }

    private static void put(WordBodyCache c, String key, HttpResponse r, int from) {
        byte[] k = b(key);
        c.put(c.slot(k, k.length), k, k.length, r, from);
    }

    @Test
    void aKeptBodyIsFoundByItsExactKeyOnly() {
        WordBodyCache c = new WordBodyCache(1, 4096); // one slot: every key below meets the kept one
        assertNull(hit(c, "door"));
        put(c, "door", response("xx", "{\"word\":\"door\"}"), 2);
        assertEquals("{\"word\":\"door\"}", hit(c, "door"));
        assertNull(hit(c, "doo"));
        assertNull(hit(c, "doors"));
        assertNull(hit(c, "Door"));
    }

    @Test
    void aKeyInAnOccupiedSlotReplacesItAndAShorterBodyReusesTheArray() {
        WordBodyCache c = new WordBodyCache(1, 4096);
        put(c, "door", response("", "a long body for door"), 0);
        byte[] first = c.get(0, b("door"), 4);
        assertNotNull(first);
        put(c, "dog", response("", "dog"), 0);
        assertNull(hit(c, "door"), "evicted by the word sharing its slot");
        assertEquals("dog", hit(c, "dog"));
        assertTrue(first == c.get(0, b("dog"), 3), "the slot's array is reused when the body fits");
    }

    @Test
    void aBodyOverTheBoundIsNotKept() {
        WordBodyCache c = new WordBodyCache(8, 10);
        put(c, "short", response("", "0123456789"), 0);
        put(c, "long", response("", "0123456789A"), 0);
        assertEquals("0123456789", hit(c, "short"));
        assertNull(hit(c, "long"));
    }

    @Test
    void slotsSpreadOverTheTable() {
        WordBodyCache c = new WordBodyCache(256, 4096);
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 256; i++) {
            byte[] k = b("word" + i);
            int s = c.slot(k, k.length);
            assertTrue(s >= 0 && s < 256, "slot " + s);
            used.add(s);
        }
        // 256 keys into 256 slots at random fill about 1 - 1/e of them (162); a weak hash far fewer
        assertTrue(used.size() > 140, "slots used: " + used.size());
    }

    @Test
    void keyBytesAreCopiedNotReferenced() {
        WordBodyCache c = new WordBodyCache(4, 4096);
        byte[] k = b("door");
        int slot = c.slot(k, 4);
        c.put(slot, k, 4, response("", "body"), 0);
        Arrays.fill(k, (byte) 'x');
        assertNull(c.get(slot, k, 4));
        assertArrayEquals(b("body"), Arrays.copyOf(c.get(slot, b("door"), 4), 4));
    }

    @Test
    void aSlotCountThatIsNotAPowerOfTwoIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WordBodyCache(3, 10));
        assertThrows(IllegalArgumentException.class, () -> new WordBodyCache(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new WordBodyCache(4, -1));
    }
}
