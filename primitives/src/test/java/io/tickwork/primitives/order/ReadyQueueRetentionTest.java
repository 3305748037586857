package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * What a lane keeps alive. The dispatcher's ready queue keeps nothing once a lane leaves it: a
 * popped lane's link is cleared, so a lane that stays reachable for long (its task blocks, a
 * worker holds it to check later) does not hold every lane, and key, queued after it. And a lane
 * that deferred going idle forgets the node it rested at once its drain moves past it: that node
 * links to every node run after it while the key stays busy.
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

    @Test
    void aLaneForgetsTheNodeItRestedAtOnceItsDrainMovesOn() throws Exception {
        ExecutorService pool = Pools.threadPool(1); // one worker: the order below is the worker's
        KeyedSerialExecutor<String> keyed = KeyedSerialExecutor.create(pool);
        try {
            CountDownLatch releaseB = new CountDownLatch(1);
            CountDownLatch cRunning = new CountDownLatch(1);
            CountDownLatch releaseC = new CountDownLatch(1);
            CountDownLatch aDone = new CountDownLatch(1);
            keyed.execute("B", () -> SerialGuaranteesTest.awaitUninterruptibly(releaseB)); // holds the worker
            keyed.execute("A", () -> {});
            keyed.execute("C", () -> {
                cRunning.countDown();
                SerialGuaranteesTest.awaitUninterruptibly(releaseC);
            });
            KeyLane a = keyed.dispatcher.lanes.get("A");
            // B ends; A runs its task and, with C waiting, defers going idle (rests at that node);
            // then C holds the worker while A's chain grows behind the node it rests at
            releaseB.countDown();
            assertTrue(cRunning.await(60, TimeUnit.SECONDS));
            TaskNode rest = a.restingAt();
            assertNotNull(rest, "A did not defer: the scenario did not happen");
            AtomicBoolean stillResting = new AtomicBoolean(true);
            for (int i = 0; i < 1_000; i++) {
                keyed.execute("A", () -> {});
            }
            // runs while A is still busy, past the node it rested at (a later deferral, when its
            // chain runs dry at the end, rests at the then last node, which links to nothing)
            keyed.execute("A", () -> stillResting.set(a.restingAt() == rest));
            keyed.execute("A", aDone::countDown);
            releaseC.countDown();
            assertTrue(aDone.await(60, TimeUnit.SECONDS));
            assertFalse(stillResting.get(), "A still rests at a node its drain has moved past");
        } finally {
            keyed.close();
            Pools.shutdownAndAwait(pool);
        }
    }
}
