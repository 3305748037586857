package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.TimerKind;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import kilim.Pausable;
import kilim.Task;
import org.junit.jupiter.api.Test;

/** Which loop {@link RunLoopScheduler#start(Task)} gives a task, for each {@link RunLoopScheduler.Spread}. */
class SpreadTest {

    /** Records the index of the loop it runs on, then ends: it never pauses, so it never moves. */
    static final class WhereAmI extends Task<Object> {
        final List<Thread> loops;
        final int[] ranOn;
        final int index;
        final CountDownLatch done;

        WhereAmI(List<Thread> loops, int[] ranOn, int index, CountDownLatch done) {
            this.loops = loops;
            this.ranOn = ranOn;
            this.index = index;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            ranOn[index] = loops.indexOf(Thread.currentThread()); // the latch publishes it
            done.countDown();
        }
    }

    /** Starts {@code n} tasks from this (non-loop) thread; the loop index each ran on. */
    static int[] placements(RunLoopScheduler.Builder builder, int n) throws Exception {
        RunLoopScheduler s = builder.timers(() -> TimerKind.WHEEL_LIST.create()).build();
        try {
            int[] ranOn = new int[n];
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                s.start(new WhereAmI(s.loopThreads(), ranOn, i, done));
            }
            assertTrue(done.await(SchedulerBasicsTest.AWAIT_S, TimeUnit.SECONDS));
            return ranOn;
        } finally {
            s.shutdown();
            assertTrue(s.awaitTermination(SchedulerBasicsTest.AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /**
     * The blocks spelled out by turns, independently of {@code blockIndex}'s arithmetic: turn
     * {@code r} gives each loop in order a block of {@code min(2^r, BLOCK)} tasks.
     */
    static int[] blocks(int loops, int n) {
        int[] expected = new int[n];
        int k = 0;
        for (int size = 1; k < n; size = Math.min(2 * size, RunLoopScheduler.BLOCK)) {
            for (int loop = 0; loop < loops && k < n; loop++) {
                for (int i = 0; i < size && k < n; i++) {
                    expected[k++] = loop;
                }
            }
        }
        return expected;
    }

    @Test
    void blocksDoubleFromOneTaskPerLoopToBlock() {
        assertArrayEquals(new int[] {0, 1, 2, 0, 0, 1, 1, 2, 2, 0, 0, 0, 0}, blocks(3, 13)); // the rule, by hand
        for (int loops = 1; loops <= 9; loops++) {
            int n = loops * 5 * RunLoopScheduler.BLOCK;
            int[] expected = blocks(loops, n);
            int[] held = new int[loops];
            for (int k = 0; k < n; k++) {
                assertEquals(
                        expected[k], RunLoopScheduler.blockIndex(k, loops), "task " + k + " of " + loops + " loops");
                held[expected[k]]++;
                int min = Arrays.stream(held).min().getAsInt();
                int max = Arrays.stream(held).max().getAsInt();
                int bound = min < RunLoopScheduler.BLOCK - 1 ? 2 * min + 1 : min + RunLoopScheduler.BLOCK;
                assertTrue(
                        max <= bound, "after " + (k + 1) + " tasks on " + loops + " loops: " + Arrays.toString(held));
            }
        }
    }

    /** The count of tasks placed is a long: past 2^31 the blocks go on, they do not start again. */
    @Test
    void blocksGoOnPastTwoToThe31Tasks() {
        for (int loops = 1; loops <= 5; loops++) {
            long growing = (long) loops * (RunLoopScheduler.BLOCK - 1);
            for (long k = (1L << 31) - 200; k < (1L << 31) + 200; k++) {
                long expected = ((k - growing) / RunLoopScheduler.BLOCK) % loops;
                assertEquals(expected, RunLoopScheduler.blockIndex(k, loops), "task " + k + " of " + loops + " loops");
            }
            int last = RunLoopScheduler.blockIndex(Long.MAX_VALUE, loops);
            assertTrue(last >= 0 && last < loops, "the last task's loop: " + last);
        }
    }

    @Test
    void byDefaultTasksGoInDoublingBlocks() throws Exception {
        int n = 3 * (RunLoopScheduler.BLOCK - 1) + 4 * RunLoopScheduler.BLOCK;
        int[] ranOn = placements(RunLoopScheduler.builder().threads(3), n);
        assertArrayEquals(blocks(3, n), ranOn);
    }

    @Test
    void roundRobinGivesOneTaskPerLoopInTurn() throws Exception {
        int[] ranOn = placements(RunLoopScheduler.builder().threads(2).spread(RunLoopScheduler.Spread.ROUND_ROBIN), 40);
        for (int k = 0; k < ranOn.length; k++) {
            assertTrue(ranOn[k] == k % 2, "task " + k + " ran on loop " + ranOn[k]);
        }
    }

    @Test
    void callerLoopFromAnotherThreadSpreadsAsBlocks() throws Exception {
        int n = 2 * (RunLoopScheduler.BLOCK - 1) + 3 * RunLoopScheduler.BLOCK;
        int[] ranOn = placements(RunLoopScheduler.builder().threads(2).spread(RunLoopScheduler.Spread.CALLER_LOOP), n);
        assertArrayEquals(blocks(2, n), ranOn);
    }
}
