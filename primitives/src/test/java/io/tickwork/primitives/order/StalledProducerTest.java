package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A producer that swapped itself in as a key's tail and then stalled before linking its node (a
 * descheduled thread) leaves the drainer nothing to follow. The drainer must not call the lane
 * idle then, since its tail is that unlinked node: after spinning and yielding a while it hands
 * the lane back open, resting at the last task run, and the stalled task runs once its link
 * comes. The stall is played here by doing the producer's two steps by hand, so the drainer's
 * patience runs out on every run (a real stall outlasting 128 spins and 256 yields is rare).
 */
class StalledProducerTest {

    @Test
    @Timeout(30)
    void aTaskWhoseProducerStalledBeforeLinkingRunsOnceLinked() throws Exception {
        Pools.Manual pool = new Pools.Manual();
        KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
        AtomicInteger ran = new AtomicInteger();
        executor.execute("k", () -> ran.compareAndSet(0, 1));
        KeyLane lane = executor.dispatcher.lanes.get("k");
        TaskNode first = lane.tail;
        TaskNode stalled = new TaskNode(() -> ran.compareAndSet(1, 2)); // runs second, once
        stalled.seq = first.seq + 1;
        assertTrue(lane.casTail(first, stalled)); // the producer's swap; its link not made yet

        Thread drainer = new Thread(pool::runAll, "drainer");
        drainer.start();
        while (!lane.restsAt(first)) { // the first task ran, and the lane was handed back open
            assertTrue(drainer.isAlive(), "the drainer ended with the stalled task unlinked");
            Thread.onSpinWait();
        }
        assertEquals(1, ran.get());
        first.linkReleased(stalled); // the producer resumes
        drainer.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(drainer.isAlive(), "the drainer never finished");
        assertEquals(2, ran.get(), "the stalled task ran once, after the first");
        assertEquals(0, executor.registeredKeys(), "the idle key was retired");
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    }
}
