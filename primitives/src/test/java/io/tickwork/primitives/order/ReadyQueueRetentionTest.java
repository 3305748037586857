package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher's ready queue of lanes keeps nothing alive once a lane leaves it: a popped lane's
 * link is cleared, so a lane that stays reachable for long (its task blocks, a worker holds it to
 * check later) does not hold every lane, and key, queued after it.
 */
class ReadyQueueRetentionTest {

    @Test
    void aPoppedLaneLinksToNoOtherLane() {
        LaneDispatcher d = new LaneDispatcher(null, 1, 1, false, null, null, new ConcurrentHashMap<>());
        KeyLane a = new KeyLane("a", null);
        KeyLane b = new KeyLane("b", null);
        KeyLane c = new KeyLane("c", null);
        d.enqueue(a);
        d.enqueue(b);
        d.enqueue(c);
        assertSame(a, d.poll());
        assertNull(a.readyNext, "a popped lane still links to the lane queued after it");
        assertSame(b, d.poll());
        assertNull(b.readyNext);
        assertSame(c, d.poll()); // the last lane: the stub goes behind it so it can leave
        assertNull(c.readyNext);
        assertNull(d.poll());
        d.enqueue(a); // queued again after it ran: the queue works on
        assertSame(a, d.poll());
        assertNull(a.readyNext);
    }
}
