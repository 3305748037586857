package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.ForwardingTimerQueue;
import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import kilim.Pausable;
import kilim.Task;
import kilim.timerservice.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a loop does with what a task leaves behind (an interrupt, a far deadline, a pinned yield),
 * waits from inside a task, the end of an orderly termination, and the death of a loop.
 */
class LoopSemanticsTest {

    static final long AWAIT_S = 60;

    /** Polls {@code condition} until it holds or {@code AWAIT_S} pass: a state to reach, not a result. */
    static boolean eventually(BooleanSupplier condition) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_S);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return false;
            }
            LockSupport.parkNanos(1_000_000L);
        }
        return true;
    }

    static RunLoopScheduler oneLoop(String name) {
        return RunLoopScheduler.builder()
                .threads(1)
                .name(name)
                .timers(TimerKind.WHEEL_LINKED_ARRAY)
                .build();
    }

    // ------------------------------------------------------------------ interrupts

    static final class Interrupter extends Task<Object> {
        final AtomicReference<Thread> loop = new AtomicReference<>();
        final CountDownLatch done = new CountDownLatch(1);

        @Override
        public void execute() throws Pausable {
            loop.set(Thread.currentThread());
            Thread.currentThread().interrupt(); // as a task that caught an InterruptedException and restored it
            done.countDown();
        }
    }

    static final class FlagReader extends Task<Object> {
        final AtomicBoolean startedInterrupted = new AtomicBoolean(true);
        final CountDownLatch done = new CountDownLatch(1);

        @Override
        public void execute() throws Pausable {
            startedInterrupted.set(Thread.currentThread().isInterrupted());
            done.countDown();
        }
    }

    @Test
    void anInterruptLeftByATaskReachesNeitherTheNextTaskNorTheIdleLoop() throws Exception {
        RunLoopScheduler s = oneLoop("interrupts");
        try {
            Interrupter i = s.start(new Interrupter());
            assertTrue(i.done.await(AWAIT_S, TimeUnit.SECONDS));
            FlagReader r = s.start(new FlagReader());
            assertTrue(r.done.await(AWAIT_S, TimeUnit.SECONDS));
            assertFalse(r.startedInterrupted.get(), "the next task started with the flag set");
            Thread loop = i.loop.get();
            assertTrue(eventually(() -> loop.getState() == Thread.State.WAITING), "the idle loop did not park");
            loop.interrupt(); // from outside, while it is parked
            assertTrue(
                    eventually(() -> loop.getState() == Thread.State.WAITING && !loop.isInterrupted()),
                    "an interrupted idle loop must clear the flag and park again, not spin: " + loop.getState());
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /**
     * An interrupt sent to a parked loop from outside, then a task started at once: the loop may
     * take the task before it parks again (which clears the flag), so the flag must be cleared
     * before the task's slice too. Many rounds, since each round is a race.
     */
    @Test
    void anInterruptSentToAParkedLoopReachesNoTaskStartedAfterIt() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .name("interrupt-then-start")
                .threads(1)
                .idleSpins(0)
                .timers(TimerKind.WHEEL_LINKED_ARRAY)
                .build();
        try {
            Interrupter first = s.start(new Interrupter()); // only to learn the loop thread
            assertTrue(first.done.await(AWAIT_S, TimeUnit.SECONDS));
            Thread loop = first.loop.get();
            for (int round = 0; round < 300; round++) {
                assertTrue(eventually(() -> loop.getState() == Thread.State.WAITING), "round " + round);
                loop.interrupt();
                FlagReader r = s.start(new FlagReader());
                assertTrue(r.done.await(AWAIT_S, TimeUnit.SECONDS));
                assertFalse(r.startedInterrupted.get(), "round " + round + ": the task started interrupted");
            }
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    // ------------------------------------------------------------------ a far deadline

    static final class FarSleeper extends Task<Object> {
        final AtomicReference<Thread> loop = new AtomicReference<>();

        @Override
        public void execute() throws Pausable {
            loop.set(Thread.currentThread());
            Task.sleep(Long.MAX_VALUE / 2); // 146 million years: the park time overflows in nanoseconds
        }
    }

    @Test
    void aFarDeadlineParksTheLoopInsteadOfSpinning() throws Exception {
        RunLoopScheduler s = oneLoop("far");
        try {
            FarSleeper f = s.start(new FarSleeper());
            assertTrue(eventually(() -> f.loop.get() != null));
            Thread loop = f.loop.get();
            assertTrue(
                    eventually(() -> loop.getState() == Thread.State.TIMED_WAITING),
                    "the loop never parked until its far deadline: " + loop.getState());
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    // ------------------------------------------------------------------ a pinned task's yield

    static final class Yielder extends Task<Object> {
        final String name;
        final boolean pin;
        final StringBuffer order;
        final CountDownLatch done;

        Yielder(String name, boolean pin, StringBuffer order, CountDownLatch done) {
            this.name = name;
            this.pin = pin;
            this.order = order;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            if (pin) {
                pinToThread(); // what kilim.ReentrantLock.lock() does
            }
            for (int i = 0; i < 5; i++) {
                order.append(name);
                Task.yield();
            }
            if (pin) {
                unpinFromThread();
            }
            done.countDown();
        }
    }

    static final class TwoStarter extends Task<Object> {
        final Task<?> first;
        final Task<?> second;

        TwoStarter(Task<?> first, Task<?> second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void execute() throws Pausable {
            for (Task<?> t : new Task<?>[] {first, second}) {
                t.setScheduler(getScheduler());
                t.start(); // both queued from the loop, in this order
            }
        }
    }

    @Test
    void aPinnedTaskThatYieldsRunsAgainOnlyAfterTheTasksQueuedBeforeIt() throws Exception {
        RunLoopScheduler s = oneLoop("pinned");
        try {
            StringBuffer order = new StringBuffer();
            CountDownLatch done = new CountDownLatch(2);
            s.start(new TwoStarter(new Yielder("b", false, order, done), new Yielder("A", true, order, done)));
            assertTrue(done.await(AWAIT_S, TimeUnit.SECONDS));
            assertEquals("bAbAbAbAbA", order.toString());
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    // ------------------------------------------------------------------ waits from a task

    static final class SelfWaiter extends Task<Object> {
        final RunLoopScheduler s;
        final AtomicReference<Throwable> idledown = new AtomicReference<>();
        final AtomicReference<Throwable> await = new AtomicReference<>();
        final CountDownLatch done = new CountDownLatch(1);

        SelfWaiter(RunLoopScheduler s) {
            this.s = s;
        }

        @Override
        public void execute() throws Pausable {
            try {
                s.awaitTermination(1, TimeUnit.MILLISECONDS);
            } catch (Throwable t) {
                await.set(t);
            }
            try {
                s.idledown();
            } catch (Throwable t) {
                idledown.set(t);
            }
            done.countDown();
        }
    }

    @Test
    void waitingForTerminationFromATaskIsRefusedNotADeadlock() throws Exception {
        RunLoopScheduler s = oneLoop("self");
        SelfWaiter w = s.start(new SelfWaiter(s));
        assertTrue(w.done.await(AWAIT_S, TimeUnit.SECONDS), "the task is stuck waiting for its own loop");
        assertTrue(w.await.get() instanceof IllegalStateException, String.valueOf(w.await.get()));
        assertTrue(w.idledown.get() instanceof IllegalStateException, String.valueOf(w.idledown.get()));
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS), "idledown() still started the shutdown");
    }

    // ------------------------------------------------------------------ after an orderly termination

    @Test
    void shutdownNowAfterAnOrderlyTerminationLeavesItOrderly() throws Exception {
        RunLoopScheduler s = oneLoop("orderly");
        s.setLogger((src, obj) -> {});
        LiveTasksAndShutdownTest.WaitForever w = s.start(new LiveTasksAndShutdownTest.WaitForever());
        assertTrue(w.paused.await(AWAIT_S, TimeUnit.SECONDS));
        s.shutdown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        s.shutdownNow();
        assertTrue(w.in.putnb(1));
        assertEquals(1, s.rejectedCount(), "a wake-up after termination is rejected");
        assertEquals(0, s.droppedTasks().size(), "nothing was dropped: the termination was orderly");
    }

    /**
     * A task {@code shutdownNow} dropped and that is woken afterwards: the wake-up is refused and
     * counted as rejected, and the task stays listed as dropped, once.
     */
    @Test
    void aDroppedTaskWokenLaterIsCountedAsRejectedAndStaysDropped() throws Exception {
        RunLoopScheduler s = oneLoop("dropped-then-woken");
        s.setLogger((src, obj) -> {});
        CountDownLatch waiting = new CountDownLatch(1);
        LiveTasksAndShutdownTest.TimedReceiver r = s.start(new LiveTasksAndShutdownTest.TimedReceiver(waiting));
        assertTrue(waiting.await(AWAIT_S, TimeUnit.SECONDS));
        s.shutdownNow();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        assertEquals(List.of(r), s.droppedTasks(), "dropped while it waited on its timer");
        assertEquals(0, s.rejectedCount());
        assertTrue(r.mb.putnb(1));
        assertEquals(1, s.rejectedCount(), "the wake-up after termination is refused");
        assertEquals(List.of(r), s.droppedTasks(), "still listed once");
    }

    // ------------------------------------------------------------------ a loop that dies

    /** A timer queue that throws an {@code Error} from {@code expire} once told to: the loop's own machinery fails. */
    static final class BreakingTimerQueue extends ForwardingTimerQueue<Timer> {
        volatile boolean broken;

        BreakingTimerQueue() {
            super(TimerQueue.builder(TimeUnit.MILLISECONDS, System.currentTimeMillis())
                    .tick(Duration.ofMillis(1))
                    .<Timer>build());
        }

        @Override
        public int expire(long now, Consumer<? super Timer> consumer, int limit) {
            if (broken) {
                throw new AssertionError("the timer queue broke (on purpose)");
            }
            return inner.expire(now, consumer, limit);
        }
    }

    static final class Sleeper extends Task<Object> {
        @Override
        public void execute() throws Pausable {
            Task.sleep(1); // its timer's expiry is where the loop dies
        }
    }

    /**
     * A loop whose machinery dies stops the scheduler, and a wake-up of one of its tasks after
     * that is reported, not lost; also when the death report itself throws (a second
     * {@code OutOfMemoryError} while it prints the first, here a standard error stream that
     * throws): the loop still marks itself exited, so the wake-up is not left in its inbox.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aLoopWhoseMachineryDiesStopsTheSchedulerAndLosesNoWakeUp(boolean reportThrows) throws Exception {
        BreakingTimerQueue queue = new BreakingTimerQueue();
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .name("dies")
                .timers(() -> queue)
                .build();
        s.setLogger((src, obj) -> {});
        // paused on a mailbox, with no timer: a wake-up after the loop died must be reported
        LiveTasksAndShutdownTest.WaitForever n = s.start(new LiveTasksAndShutdownTest.WaitForever());
        assertTrue(n.paused.await(AWAIT_S, TimeUnit.SECONDS));
        java.io.PrintStream err = System.err;
        boolean terminated;
        if (reportThrows) {
            System.setErr(new java.io.PrintStream(
                    new java.io.OutputStream() {
                        @Override
                        public void write(int b) {
                            throw new OutOfMemoryError("standard error cannot take it (on purpose)");
                        }
                    },
                    true));
        }
        try {
            queue.broken = true;
            s.start(new Sleeper());
            terminated = s.awaitTermination(AWAIT_S, TimeUnit.SECONDS);
        } finally {
            System.setErr(err);
        }
        assertTrue(terminated, "a dead loop left the scheduler running");
        assertTrue(s.isTerminated());
        assertTrue(n.in.putnb(1));
        assertEquals(1, s.rejectedCount() + s.droppedTasks().size(), "the wake-up of a task of the dead loop");
    }

    // ------------------------------------------------------------------ the timer supplier

    @Test
    void aTimerSupplierThatSharesOneQueueIsRefused() {
        TimerQueue<Timer> shared = new BreakingTimerQueue();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> RunLoopScheduler.builder().threads(2).timers(() -> shared).build());
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains("same queue for loops 0 and 1"), e.getMessage());
    }
}
