package io.tickwork.client.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

    @Test
    void readsBackWhatTheWriterWrites() {
        JsonWriter w = new JsonWriter();
        w.begin();
        w.field("s", "a \"q\" \\ \n\t\u0001 é");
        w.field("n", 42);
        w.field("d", 1.5);
        w.nullField("z");
        w.object("o");
        w.field("k", -7);
        w.end();
        w.array("a");
        w.element();
        w.field("x", 1);
        w.end();
        w.element();
        w.end();
        w.endArray();
        w.end();
        Map<String, Object> m = JsonReader.parseObject(w.toString());
        assertEquals("a \"q\" \\ \n\t\u0001 é", m.get("s"));
        assertEquals(42L, m.get("n"));
        assertEquals(1.5, m.get("d"));
        assertTrue(m.containsKey("z") && m.get("z") == null);
        assertEquals(Map.of("k", -7L), m.get("o"));
        assertEquals(List.of(Map.of("x", 1L), Map.of()), m.get("a"));
        assertEquals(List.of(true, false), JsonReader.parse(" [ true , false ] "));
    }

    @Test
    void malformedInputSaysWhere() {
        for (String bad :
                new String[] {"", "{", "{\"a\":}", "{\"a\":1,}", "[1 2]", "{\"a\":1} x", "\"open", "nul", "{a:1}"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonReader.parse(bad), bad);
            assertTrue(e.getMessage().contains("offset"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parseObject("[1]"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("[".repeat(100)));
    }
}
