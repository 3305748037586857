package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The usage snippet of {@link IntSearch}'s class comment, as written there, with its results checked. */
class IntSearchUsageTest {

    @Test
    void theClassCommentSnippetDoesWhatItSays() {
        int[] ids = {3, 17, 42, 1000}; // sorted, distinct or not
        String[] names = {"a", "b", "c", "d"}; // names[i] belongs to ids[i]
        IntSearch byId = IntSearch.of(ids);
        int i = byId.indexOf(42); // 2
        String name = i >= 0 ? names[i] : null; // "c"
        int[] queries = {17, 5, 1000};
        int[] found = new int[3];
        byId.indexOf(queries, 0, 3, found); // {1, -2, 3}, as three indexOf calls would give

        assertEquals(2, i);
        assertEquals("c", name);
        assertArrayEquals(new int[] {1, -2, 3}, found);
    }
}
