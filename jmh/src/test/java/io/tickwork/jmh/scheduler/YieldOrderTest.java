package io.tickwork.jmh.scheduler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import kilim.Scheduler;
import org.junit.jupiter.api.Test;

/** The order in which each scheduler of the suite runs three yielding tasks on one thread. */
class YieldOrderTest {
    /**
     * Three {@code TurnTaker}s on one thread of {@code scheduler}, released together; with
     * {@code afterAllStarted} only once each has run its first slice (so none is still on its way
     * to the scheduler's queue when they start recording).
     */
    static int[] turns(String scheduler, boolean afterAllStarted) throws Exception {
        Scheduler s = SchedulerSubjects.create(scheduler, 1);
        int tasks = 3, yields = 3;
        int[] turns = new int[tasks * (yields + 1)];
        AtomicInteger next = new AtomicInteger();
        AtomicBoolean go = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(tasks);
        CountDownLatch done = new CountDownLatch(tasks);
        Coroutines.TurnTaker[] t = new Coroutines.TurnTaker[tasks];
        for (int i = 0; i < tasks; i++) {
            t[i] = new Coroutines.TurnTaker(i, yields, turns, next, go, started, done);
        }
        // each yields until released, then records its turns
        for (int i = 0; i < tasks; i++) {
            SchedulerSubjects.start(s, t[i], i, false);
        }
        if (afterAllStarted) {
            assertTrue(started.await(30, TimeUnit.SECONDS), scheduler);
        }
        go.set(true);
        assertTrue(done.await(30, TimeUnit.SECONDS), scheduler);
        SchedulerSubjects.stop(s);
        return turns;
    }

    /** The run loop's yield is a round-robin turn: every queued task runs before the yielder again. */
    @Test
    void tickworkYieldsInRoundRobin() throws Exception {
        int[] t = turns("tickwork-wheel-list", true);
        assertEquals(3, IntStream.of(t[0], t[1], t[2]).distinct().count(), Arrays.toString(t));
        for (int i = 3; i < t.length; i++) {
            assertEquals(t[i - 3], t[i], Arrays.toString(t));
        }
    }

    /**
     * Kilim's {@code ForkJoinScheduler} pushes a yielding task onto its worker's own deque, which the
     * worker pops last-in first-out: on one thread a task's yields run it again at once, and it
     * runs to completion before the next task starts. Its yield rows therefore measure resuming one
     * task whose lines are in cache, not a turn through the queue: see the scheduler results.
     * Released without waiting for the others to start: on one ForkJoin thread they do not start
     * while the first task yields.
     */
    @Test
    void forkJoinRunsAYieldingTaskToCompletionFirst() throws Exception {
        assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, turns("kilim-forkjoin", false));
    }
}
