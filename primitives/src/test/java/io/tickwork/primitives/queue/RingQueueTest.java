package io.tickwork.primitives.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** What only {@link RingQueue} promises: an exact bound; the FIFO contract is in {@link LongQueueContractTest}. */
class RingQueueTest {

    @Test
    void boundIsExactNotRoundedUp() {
        RingQueue q = new RingQueue(5);
        for (int i = 0; i < 5; i++) {
            assertEquals(true, q.offer(i));
        }
        assertEquals(false, q.offer(5));
        assertEquals(5, q.capacity());
    }

    @Test
    void rejectsBadCapacityNamingIt() {
        assertEquals(
                "capacity must be in [1, 2^30]: 0",
                assertThrows(IllegalArgumentException.class, () -> new RingQueue(0))
                        .getMessage());
        assertEquals(
                "capacity must be in [1, 2^30]: 1073741825",
                assertThrows(IllegalArgumentException.class, () -> new RingQueue((1 << 30) + 1))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RingQueue(-1));
    }
}
