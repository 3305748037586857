package io.tickwork.primitives.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayDeque;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link RingQueue} against an {@link ArrayDeque} model, over random operations and capacities. */
class RingQueueTest {

    @Test
    void matchesArrayDequeModel() {
        for (long seed = 0; seed < 500; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int capacity = 1 + rnd.nextInt(17); // includes non-powers of 2
            RingQueue q = new RingQueue(capacity);
            ArrayDeque<Long> model = new ArrayDeque<>();
            String where = "seed=" + seed + " capacity=" + capacity;
            for (int op = 0; op < 500; op++) {
                int r = rnd.nextInt(100);
                if (r < 45) {
                    long v = rnd.nextLong();
                    boolean accepted = model.size() < capacity;
                    assertEquals(accepted, q.offer(v), where + " offer at size " + model.size());
                    if (accepted) {
                        model.addLast(v);
                    }
                } else if (r < 75) {
                    if (model.isEmpty()) {
                        assertThrows(NoSuchElementException.class, q::poll, where);
                    } else {
                        assertEquals((long) model.pollFirst(), q.poll(), where + " poll");
                    }
                } else if (r < 85) {
                    if (model.isEmpty()) {
                        assertThrows(NoSuchElementException.class, q::removeLast, where);
                    } else {
                        assertEquals((long) model.pollLast(), q.removeLast(), where + " removeLast");
                    }
                } else if (r < 95) {
                    if (!model.isEmpty()) {
                        assertEquals((long) model.peekFirst(), q.peek(), where + " peek");
                        assertEquals((long) model.peekLast(), q.peekLast(), where + " peekLast");
                    } else {
                        assertThrows(NoSuchElementException.class, q::peek, where);
                        assertThrows(NoSuchElementException.class, q::peekLast, where);
                    }
                } else {
                    q.clear();
                    model.clear();
                }
                assertEquals(model.size(), q.size(), where + " size");
                assertEquals(model.isEmpty(), q.isEmpty(), where + " isEmpty");
            }
        }
    }

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
    }
}
