package io.tickwork.primitives.search;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The usage snippet of {@link ByteKeyIndex}'s class comment, as written there, with its results checked. */
class ByteKeyIndexUsageTest {

    @Test
    void theClassCommentSnippetDoesWhatItSays() {
        List<byte[]> keys = new ArrayList<>(); // UTF-8 keys, in the index's order
        for (String w : List.of("apple", "door", "doorbell", "Doors")) keys.add(w.getBytes(UTF_8));
        keys.sort(ByteKeyIndex.order(true)); // the order build checks
        ByteKeyIndex words = ByteKeyIndex.build(keys, true); // or ByteKeyIndex.wrap(mappedSlice)
        int i = words.find("Door".getBytes(UTF_8)); // 1: "door" is key 1
        byte[] p = "door".getBytes(UTF_8);
        int from = words.lowerBound(p, 0, p.length); // 1: keys starting with p are
        int to = words.prefixEnd(p, 0, p.length); // 4: indexes from .. to - 1

        assertEquals(1, i);
        assertEquals("door", words.keyString(i));
        assertEquals(1, from);
        assertEquals(4, to);
        assertEquals("Doors", words.keyString(3));
    }
}
