package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.TimerKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** 200,000 live tasks; orderly and abrupt shutdown; failing tasks; wake-ups after termination. */
class LiveTasksAndShutdownTest {

    static final long AWAIT_S = 60;

    static final class Live extends Task<Object> {
        final Mailbox<Integer> in = new Mailbox<>(1, 1);
        final AtomicLong sum;
        final CountDownLatch done;

        Live(AtomicLong sum, CountDownLatch done) {
            this.sum = sum;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            int v = in.get(); // every task is alive and paused here before any message is sent
            Task.yield();
            Task.sleep(1);
            sum.addAndGet(v);
            done.countDown();
        }
    }

    @Test
    void twoHundredThousandLiveTasks() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(2)
                .timers("wheel-linked-array")
                .build();
        int n = 200_000;
        try {
            AtomicLong sum = new AtomicLong();
            CountDownLatch done = new CountDownLatch(n);
            List<Live> tasks = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                tasks.add(s.start(new Live(sum, done)));
            }
            for (int i = 0; i < n; i++) {
                tasks.get(i).in.putb(i);
            }
            assertTrue(done.await(AWAIT_S, TimeUnit.SECONDS), done.getCount() + " tasks did not finish");
            assertEquals((long) n * (n - 1) / 2, sum.get());
            // a task counts down inside its last slice, before Kilim marks it done: an orderly stop
            // ends once every slice has returned, and then every task must be done
            s.shutdown();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
            for (Live t : tasks) {
                assertTrue(t.isDone());
            }
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    static final class SleepThenCount extends Task<Object> {
        final long ms;
        final AtomicInteger count;

        SleepThenCount(long ms, AtomicInteger count) {
            this.ms = ms;
            this.count = count;
        }

        @Override
        public void execute() throws Pausable {
            Task.sleep(ms);
            Task.yield();
            count.incrementAndGet();
        }
    }

    @Test
    void orderlyShutdownRunsEverythingPendingThenEndsThreads() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(2)
                .timers("wheel-linked-array")
                .build();
        AtomicInteger count = new AtomicInteger();
        int n = 2_000;
        for (int i = 0; i < n; i++) {
            s.start(new SleepThenCount(1 + i % 30, count));
        }
        s.shutdown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        assertEquals(n, count.get(), "tasks lost by shutdown");
        assertTrue(s.isTerminated());
        assertTrue(s.isEmptyish(), "a terminated scheduler runs nothing");
        for (Thread t : loopThreads(s)) {
            t.join(TimeUnit.SECONDS.toMillis(AWAIT_S));
            assertFalse(t.isAlive(), t.getName() + " still alive");
        }
        assertEquals(0, s.rejectedCount());
    }

    static final class YieldForever extends Task<Object> {
        @Override
        public void execute() throws Pausable {
            for (; ; ) {
                Task.yield();
            }
        }
    }

    @Test
    void shutdownNowEndsLoopsWithTasksThatNeverFinish() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(2)
                .timers("wheel-linked-array")
                .build();
        int n = 1_000;
        for (int i = 0; i < n; i++) {
            s.start(new YieldForever());
        }
        s.shutdownNow();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        for (Thread t : loopThreads(s)) {
            t.join(TimeUnit.SECONDS.toMillis(AWAIT_S));
            assertFalse(t.isAlive());
        }
        int dropped = s.droppedTasks().size();
        assertTrue(dropped > 0 && dropped <= n, "dropped " + dropped);
        assertTrue(s.isEmptyish(), "a terminated scheduler runs nothing");
    }

    /** Sleeps a minute, by Kilim's {@code Task.sleep} or by {@link TaskSleep} (armed at the next clock read). */
    static final class LongSleeper extends Task<Object> {
        final CountDownLatch running;
        final boolean taskSleep;

        LongSleeper(CountDownLatch running, boolean taskSleep) {
            this.running = running;
            this.taskSleep = taskSleep;
        }

        @Override
        public void execute() throws Pausable {
            running.countDown();
            if (taskSleep) {
                TaskSleep.sleep(60_000);
            } else {
                Task.sleep(60_000);
            }
        }
    }

    /**
     * Tasks asleep on their timers when {@code shutdownNow} comes will never run: each is listed by
     * {@code droppedTasks} once, whether its timer was in the queue or still waiting for the loop's
     * clock read.
     */
    @Test
    void shutdownNowListsTheTasksAsleepOnTheirTimers() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(2)
                .timers("wheel-linked-array")
                .build();
        int n = 200;
        CountDownLatch running = new CountDownLatch(n);
        List<Task<?>> started = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            started.add(s.start(new LongSleeper(running, i % 2 == 0)));
        }
        assertTrue(running.await(AWAIT_S, TimeUnit.SECONDS));
        s.shutdownNow();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        List<Task<?>> dropped = s.droppedTasks();
        assertEquals(n, dropped.size(), "dropped");
        for (Task<?> t : started) {
            assertTrue(dropped.stream().anyMatch(d -> d == t), "task " + t.id() + " not listed");
        }
        assertEquals(0, s.rejectedCount());
    }

    /** Waits for one message, at most a minute: its timer stays queued until it runs again. */
    static final class TimedReceiver extends Task<Object> {
        final Mailbox<Integer> mb = new Mailbox<>(1, 1);
        final CountDownLatch waiting;

        TimedReceiver(CountDownLatch waiting) {
            this.waiting = waiting;
        }

        @Override
        public void execute() throws Pausable {
            waiting.countDown();
            mb.get(60_000);
        }
    }

    /** Holds its loop's thread until released: what the loop has queued meanwhile waits. */
    static final class ThreadBlocker extends Task<Object> {
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void execute() throws Pausable {
            blocked.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A task woken from outside while it waits on a timed receive is then both in its loop's
     * inbox and waiting on the loop's timer: if {@code shutdownNow} comes before the loop takes it
     * from the inbox, {@code droppedTasks} lists it once.
     */
    @Test
    void aTaskWokenWhileItsTimerIsQueuedIsListedOnce() throws Exception {
        RunLoopScheduler s = oneLoop();
        CountDownLatch waiting = new CountDownLatch(1);
        TimedReceiver receiver = new TimedReceiver(waiting);
        s.start(receiver);
        assertTrue(waiting.await(AWAIT_S, TimeUnit.SECONDS));
        ThreadBlocker blocker = new ThreadBlocker();
        s.start(blocker); // runs after the receiver's slice, which ends in its timed wait
        assertTrue(blocker.blocked.await(AWAIT_S, TimeUnit.SECONDS));
        assertTrue(receiver.mb.putnb(1)); // the receiver goes to the blocked loop's inbox
        s.shutdownNow();
        blocker.release.countDown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        List<Task<?>> dropped = s.droppedTasks();
        assertEquals(1, dropped.stream().filter(t -> t == receiver).count(), "listed " + dropped);
        assertEquals(1, dropped.size(), "only the receiver was held: " + dropped);
        assertEquals(0, s.rejectedCount());
    }

    /**
     * After {@code shutdownNow} returned, while the loop still finishes its slice: a start is
     * refused where it is made; a task woken from outside is rejected (logged and counted), not
     * listed as dropped: the list stays what the stop left. A woken task that waited on a timer
     * when the stop came is both.
     */
    @Test
    void aStartOrWakeUpAfterShutdownNowIsRejectedEvenBeforeTheLoopEnds() throws Exception {
        RunLoopScheduler s = oneLoop();
        List<Object> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        s.setLogger((src, obj) -> logged.add(obj));
        CountDownLatch waiting = new CountDownLatch(1);
        TimedReceiver receiver = new TimedReceiver(waiting);
        s.start(receiver);
        assertTrue(waiting.await(AWAIT_S, TimeUnit.SECONDS));
        LiveTasksAndShutdownTest.WaitForever untimed = s.start(new WaitForever());
        assertTrue(untimed.paused.await(AWAIT_S, TimeUnit.SECONDS));
        ThreadBlocker blocker = new ThreadBlocker();
        s.start(blocker);
        assertTrue(blocker.blocked.await(AWAIT_S, TimeUnit.SECONDS));
        s.shutdownNow();
        Counted late = new Counted(new AtomicInteger());
        // the loop is still in the blocker's slice
        RejectedExecutionException refused = assertThrows(RejectedExecutionException.class, () -> s.start(late));
        assertTrue(
                refused.getMessage().contains("was stopped (shutdownNow(), or a loop failed)"), refused.getMessage());
        assertThrows(RejectedExecutionException.class, () -> s.start(new Counted(new AtomicInteger()), 0));
        assertTrue(receiver.mb.putnb(1)); // waited on a timer when the stop came
        assertTrue(untimed.in.putnb(1)); // waited on a mailbox alone: abandoned by the stop
        blocker.release.countDown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        List<Task<?>> dropped = s.droppedTasks();
        assertEquals(List.of(receiver), dropped, "what the stop left");
        assertEquals(0, late.ran.get());
        assertEquals(2, s.rejectedCount(), "both late wake-ups: " + logged);
        for (Object o : logged) {
            assertTrue(o.toString().contains("was stopped (shutdownNow, or a loop failed)"), o.toString());
        }
    }

    /** Counts its one slice. */
    static final class Counted extends Task<Object> {
        final AtomicInteger ran;

        Counted(AtomicInteger ran) {
            this.ran = ran;
        }

        @Override
        public void execute() throws Pausable {
            ran.incrementAndGet();
        }
    }

    /** Queues, from its loop, a no-op, then {@code blocker}, then {@code after}. */
    static final class Starter extends Task<Object> {
        final RunLoopScheduler s;
        final Task<?> blocker;
        final List<Task<?>> after;

        Starter(RunLoopScheduler s, Task<?> blocker, List<Task<?>> after) {
            this.s = s;
            this.blocker = blocker;
            this.after = after;
        }

        @Override
        public void execute() throws Pausable {
            s.start(new Counted(new AtomicInteger())); // may take the hand-off slot
            s.start(blocker);
            for (Task<?> t : after) {
                s.start(t);
            }
        }
    }

    /**
     * Tasks queued behind the one running when {@code shutdownNow} is called do not start, even
     * within the batch the loop is running: they are listed by {@code droppedTasks}.
     */
    @Test
    void shutdownNowStopsTheRunningBatch() throws Exception {
        RunLoopScheduler s = oneLoop();
        ThreadBlocker blocker = new ThreadBlocker();
        AtomicInteger ran = new AtomicInteger();
        List<Task<?>> after = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            after.add(new Counted(ran));
        }
        s.start(new Starter(s, blocker, after));
        assertTrue(blocker.blocked.await(AWAIT_S, TimeUnit.SECONDS));
        s.shutdownNow();
        blocker.release.countDown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        assertEquals(0, ran.get(), "tasks run after shutdownNow returned");
        List<Task<?>> dropped = s.droppedTasks();
        for (Task<?> t : after) {
            assertEquals(1, dropped.stream().filter(d -> d == t).count(), "task " + t.id() + " in " + dropped);
        }
    }

    /** A scheduler of one loop on the list wheel. */
    private static RunLoopScheduler oneLoop() {
        return RunLoopScheduler.builder().threads(1).timers("wheel-list").build();
    }

    /** Marks that it ran, yields once, then ends. */
    static final class RanOnce extends Task<Object> {
        volatile boolean ran;

        @Override
        public void execute() throws Pausable {
            ran = true;
            Task.yield();
        }
    }

    /**
     * Starts from a foreign thread racing an orderly shutdown's end, on a loop that is idle: each
     * start either returns and its task runs to its end (the loops end only once idle again), or
     * throws {@code RejectedExecutionException} and the task never runs; none returns for a task
     * that is then refused (reported and counted instead of thrown), and none runs a slice and is
     * then left unfinished (the race the termination epoch closes).
     */
    @Test
    void aStartRacingTheLastMomentOfAShutdownRunsWholeOrNotAtAll() throws Exception {
        for (int round = 0; round < 200; round++) {
            RunLoopScheduler s = RunLoopScheduler.builder()
                    .threads(2)
                    .idleSpins(0)
                    .timers("wheel-list")
                    .build();
            List<RanOnce> started = new ArrayList<>();
            RanOnce refusedTask = null;
            s.shutdown();
            try {
                while (started.size() < 10_000) {
                    RanOnce t = new RanOnce();
                    refusedTask = t;
                    s.start(t, started.size() & 1); // refused once the shutdown found every loop idle
                    started.add(t);
                    refusedTask = null;
                }
            } catch (RejectedExecutionException refused) {
                // the loops end at their next turn ("ending"), or have ended; read once, as the
                // last loop may end between two reads
                String state = s.toString();
                assertTrue(
                        state.contains(", ending") || state.contains(", terminated"),
                        "round " + round + ": refused before termination: " + state);
            }
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
            for (RanOnce t : started) {
                assertFalse(
                        t.ran && !t.isDone(),
                        "round " + round + ": task " + t.id() + " ran a slice, then was left unfinished");
                assertTrue(t.isDone(), "round " + round + ": start returned, and task " + t.id() + " never ran");
            }
            assertEquals(0, s.rejectedCount(), "round " + round + ": refusals are thrown, not reported");
            if (refusedTask != null) {
                assertFalse(refusedTask.ran, "round " + round + ": start threw, and task " + refusedTask.id() + " ran");
            }
        }
    }

    /**
     * Starts from three foreign threads racing {@code shutdownNow()}: a start that returned has a
     * task that ended or is listed by {@code droppedTasks()}; a start that threw has a task that
     * never ran and is not listed; none is reported as a refused wake-up. Each round the stop comes
     * once the starters have started 2,000 tasks between them, while they go on.
     */
    @Test
    void startsRacingShutdownNowEitherRunOrListOrThrow() throws Exception {
        for (int round = 0; round < 60; round++) {
            RunLoopScheduler s = RunLoopScheduler.builder()
                    .threads(2)
                    .idleSpins(0)
                    .timers("wheel-list")
                    .build();
            int starters = 3;
            List<List<RanOnce>> returned = new ArrayList<>();
            List<RanOnce> threw = new java.util.concurrent.CopyOnWriteArrayList<>();
            AtomicInteger count = new AtomicInteger();
            CountDownLatch enough = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < starters; t++) {
                List<RanOnce> mine = new ArrayList<>();
                returned.add(mine);
                Thread th = new Thread(() -> {
                    for (int i = 0; i < 1_000_000; i++) {
                        RanOnce task = new RanOnce();
                        try {
                            s.start(task);
                        } catch (RejectedExecutionException refused) {
                            threw.add(task);
                            return;
                        }
                        mine.add(task);
                        if (count.incrementAndGet() == 2_000) {
                            enough.countDown();
                        }
                    }
                });
                th.start();
                threads.add(th);
            }
            assertTrue(enough.await(AWAIT_S, TimeUnit.SECONDS));
            s.shutdownNow();
            for (Thread th : threads) {
                th.join(TimeUnit.SECONDS.toMillis(AWAIT_S));
                assertFalse(th.isAlive(), "round " + round + ": a starter still starting after the stop");
            }
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
            java.util.Set<Task<?>> dropped = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            dropped.addAll(s.droppedTasks());
            for (List<RanOnce> mine : returned) {
                for (RanOnce t : mine) {
                    assertTrue(
                            t.isDone() || dropped.contains(t),
                            "round " + round + ": start returned, and task " + t.id()
                                    + " neither ended nor was listed");
                }
            }
            for (RanOnce t : threw) {
                assertFalse(t.ran, "round " + round + ": start threw, and task " + t.id() + " ran");
                assertFalse(
                        dropped.contains(t), "round " + round + ": start threw, and task " + t.id() + " was listed");
            }
            assertEquals(0, s.rejectedCount(), "round " + round + ": refusals are thrown, not reported");
        }
    }

    /**
     * A loop whose run queue fails to take a task from its inbox (an {@code OutOfMemoryError} as
     * the queue grows; here the queue's array is taken away) dies, and the task it had taken is
     * listed by {@code droppedTasks}, not lost.
     */
    @Test
    void aTaskTakenFromTheInboxWhenTheLoopDiesIsListed() throws Exception {
        RunLoopScheduler s = oneLoop();
        ThreadBlocker blocker = new ThreadBlocker();
        s.start(blocker);
        assertTrue(blocker.blocked.await(AWAIT_S, TimeUnit.SECONDS));
        Object runQueue = field(
                field(s, RunLoopScheduler.class, "loops", RunLoop[].class)[0], RunLoop.class, "runQueue", Object.class);
        java.lang.reflect.Field ring = runQueue.getClass().getDeclaredField("ring");
        ring.setAccessible(true);
        Object saved = ring.get(runQueue);
        ring.set(runQueue, null); // the next add throws, as a failed growth would
        RanOnce late = s.start(new RanOnce()); // to the blocked loop's inbox
        blocker.release.countDown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        ring.set(runQueue, saved);
        assertFalse(late.ran);
        List<Task<?>> dropped = s.droppedTasks();
        assertEquals(1, dropped.stream().filter(t -> t == late).count(), "listed: " + dropped);
    }

    private static <T> T field(Object owner, Class<?> declaring, String name, Class<T> type)
            throws ReflectiveOperationException {
        java.lang.reflect.Field f = declaring.getDeclaredField(name);
        f.setAccessible(true);
        return type.cast(f.get(owner));
    }

    /** Two of these sleep to about the same deadline; the first to wake holds its loop's thread. */
    static final class DueTogether extends Task<Object> {
        final AtomicInteger woken;
        final AtomicInteger armed;
        final CountDownLatch firstRunning;
        final CountDownLatch releaseFirst;
        volatile boolean ranSecond;

        DueTogether(
                AtomicInteger woken, AtomicInteger armed, CountDownLatch firstRunning, CountDownLatch releaseFirst) {
            this.woken = woken;
            this.armed = armed;
            this.firstRunning = firstRunning;
            this.releaseFirst = releaseFirst;
        }

        @Override
        public void execute() throws Pausable {
            armed.incrementAndGet();
            Task.sleep(20);
            if (woken.getAndIncrement() == 0) {
                firstRunning.countDown();
                try {
                    releaseFirst.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } else {
                ranSecond = true;
            }
        }
    }

    /**
     * Timers fired by one expiry whose first task is running when {@code shutdownNow} is called: the
     * others' tasks do not run after it returned; they are listed by {@code droppedTasks}.
     */
    @Test
    void shutdownNowStopsTheTasksOfTimersFiredTogether() throws Exception {
        RunLoopScheduler s = oneLoop();
        AtomicInteger woken = new AtomicInteger();
        AtomicInteger armed = new AtomicInteger();
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        DueTogether a = new DueTogether(woken, armed, firstRunning, releaseFirst);
        DueTogether b = new DueTogether(woken, armed, firstRunning, releaseFirst);
        ThreadBlocker blocker = new ThreadBlocker();
        s.start(new Starter(s, a, List.of(b, blocker))); // a and b arm their sleeps, then the blocker holds the loop
        assertTrue(blocker.blocked.await(AWAIT_S, TimeUnit.SECONDS));
        assertEquals(2, armed.get());
        long bothDue = System.currentTimeMillis() + 25; // both sleeps (20 ms) were armed before now
        while (System.currentTimeMillis() < bothDue) {
            LockSupport.parkNanos(1_000_000); // the clock must pass both deadlines while the loop is held
        }
        blocker.release.countDown(); // the loop's next expiry fires both
        assertTrue(firstRunning.await(AWAIT_S, TimeUnit.SECONDS));
        s.shutdownNow();
        releaseFirst.countDown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        assertFalse(a.ranSecond || b.ranSecond, "a timer's task ran after shutdownNow returned");
        assertEquals(1, woken.get(), "only the first woke");
        List<Task<?>> dropped = s.droppedTasks();
        assertEquals(1, dropped.stream().filter(t -> t == a || t == b).count(), "the other is listed: " + dropped);
    }

    /**
     * A {@code TaskSleep} sleep waits for the loop's next clock read before it gets its deadline; if
     * the timer queue then fails (out of memory as it grows; here it is taken away), the loop dies
     * and the sleeper is listed by {@code droppedTasks}.
     */
    @Test
    void aSleepWhoseTimerCannotBeQueuedIsListedWhenTheLoopDies() throws Exception {
        RunLoopScheduler s = oneLoop();
        ThreadBlocker blocker = new ThreadBlocker();
        LongSleeper sleeper = new LongSleeper(new CountDownLatch(1), true);
        s.start(new Starter(s, sleeper, List.of(blocker))); // the sleeper arms, then the blocker holds the loop
        assertTrue(blocker.blocked.await(AWAIT_S, TimeUnit.SECONDS));
        RunLoop loop = field(s, RunLoopScheduler.class, "loops", RunLoop[].class)[0];
        java.lang.reflect.Field timers = RunLoop.class.getDeclaredField("timers");
        timers.setAccessible(true);
        timers.set(loop, null); // the flush at the next turn throws
        blocker.release.countDown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        List<Task<?>> dropped = s.droppedTasks();
        assertEquals(1, dropped.stream().filter(t -> t == sleeper).count(), "listed: " + dropped);
    }

    static final class Exploder extends Task<Object> {
        @Override
        public void execute() throws Pausable {
            Task.yield();
            explode();
        }

        private static void explode() {
            throw new IllegalStateException("boom");
        }
    }

    static final class Survivor extends Task<Object> {
        final CountDownLatch done;

        Survivor(CountDownLatch done) {
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < 100; i++) {
                Task.yield();
            }
            Task.sleep(2);
            done.countDown();
        }
    }

    @Test
    void throwingTaskIsReportedWithItsStackAndTheLoopKeepsRunning() throws Exception {
        ConcurrentLinkedQueue<Throwable> reported = new ConcurrentLinkedQueue<>();
        CountDownLatch reportedLatch = new CountDownLatch(1);
        RunLoopScheduler s = RunLoopScheduler.builder()
                .timers(TimerKind.WHEEL_LINKED_ARRAY)
                .onTaskFailure((task, failure) -> {
                    reported.add(failure);
                    reportedLatch.countDown();
                })
                .build();
        try {
            CountDownLatch survived = new CountDownLatch(1);
            s.start(new Survivor(survived));
            Exploder e = s.start(new Exploder());
            assertTrue(reportedLatch.await(AWAIT_S, TimeUnit.SECONDS));
            assertTrue(survived.await(AWAIT_S, TimeUnit.SECONDS), "the loop stopped after a task threw");
            assertEquals(1, s.failedCount());
            Throwable t = reported.peek();
            assertEquals("boom", t.getMessage());
            StringWriter sw = new StringWriter();
            t.printStackTrace(new PrintWriter(sw));
            assertTrue(sw.toString().contains("Exploder.explode"), sw.toString());
            assertTrue(e.isDone());
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /**
     * A failure handler that throws (an exception, or an {@code Error}) is reported and otherwise
     * ignored: the failed task is still done and its exit mailbox told of its failure, and the loop
     * runs on.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFailureHandlerThatThrowsIsIgnoredAndTheTaskStillEnds(boolean anError) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LINKED_ARRAY)
                .onTaskFailure((task, failure) -> {
                    handled.incrementAndGet();
                    if (anError) {
                        throw new AssertionError("the handler's own error");
                    }
                    throw new IllegalStateException("the handler's own failure");
                })
                .build();
        try {
            Mailbox<kilim.ExitMsg<Object>> exits = new Mailbox<>();
            Exploder e = new Exploder();
            e.informOnExit(exits);
            s.start(e);
            kilim.ExitMsg<Object> exit = exits.getb(TimeUnit.SECONDS.toMillis(AWAIT_S));
            assertNotNull(exit, "the failed task's exit was never told");
            assertEquals("boom", ((Throwable) exit.result).getMessage());
            assertTrue(e.isDone());
            CountDownLatch survived = new CountDownLatch(1);
            s.start(new Survivor(survived));
            assertTrue(survived.await(AWAIT_S, TimeUnit.SECONDS), "the loop stopped after the handler threw");
            assertEquals(1, handled.get());
            assertEquals(1, s.failedCount());
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    static final class WaitForever extends Task<Object> {
        final Mailbox<Integer> in = new Mailbox<>();
        final CountDownLatch paused = new CountDownLatch(1);

        @Override
        public void execute() throws Pausable {
            paused.countDown();
            in.get();
        }
    }

    /**
     * Two late wake-ups reported at once, on two loops, each through a logger that wakes a task of
     * the other loop: the reports must not hold a loop's exit lock while the logger runs, or the
     * two threads wait for each other for good.
     */
    @Test
    void loggersThatWakeTasksOfTheOtherEndedLoopDoNotDeadlock() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(2)
                .timers(TimerKind.WHEEL_LINKED_ARRAY)
                .build();
        WaitForever a = s.start(new WaitForever(), 0);
        WaitForever d = s.start(new WaitForever(), 0);
        WaitForever b = s.start(new WaitForever(), 1);
        WaitForever c = s.start(new WaitForever(), 1);
        for (WaitForever w : List.of(a, b, c, d)) {
            assertTrue(w.paused.await(AWAIT_S, TimeUnit.SECONDS));
        }
        CyclicBarrier both = new CyclicBarrier(2);
        s.setLogger((src, obj) -> {
            if (src == a || src == b) {
                try {
                    both.await(AWAIT_S, TimeUnit.SECONDS); // both reports in their loggers at once
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                (src == a ? c : d).in.putnb(1); // a task of the other loop
            }
        });
        s.shutdown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        Thread wakeA = new Thread(() -> a.in.putnb(1), "wake-a");
        Thread wakeB = new Thread(() -> b.in.putnb(1), "wake-b");
        for (Thread t : List.of(wakeA, wakeB)) {
            t.setDaemon(true); // left blocked if the reports deadlock
            t.start();
        }
        for (Thread t : List.of(wakeA, wakeB)) {
            t.join(TimeUnit.SECONDS.toMillis(AWAIT_S));
            assertFalse(t.isAlive(), t.getName() + " blocked: the reports deadlocked");
        }
        assertEquals(4, s.rejectedCount());
    }

    @Test
    void aWakeUpAfterTerminationIsReportedNotLost() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LINKED_ARRAY)
                .build();
        ConcurrentLinkedQueue<Object> logged = new ConcurrentLinkedQueue<>();
        s.setLogger((src, obj) -> logged.add(obj));
        WaitForever w = s.start(new WaitForever());
        assertTrue(w.paused.await(AWAIT_S, TimeUnit.SECONDS));
        s.shutdown(); // w is paused on a mailbox with no timer: the loop may end
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        assertTrue(w.in.putnb(1));
        assertEquals(1, s.rejectedCount());
        assertTrue(logged.peek() instanceof RejectedExecutionException, String.valueOf(logged.peek()));
    }

    static List<Thread> loopThreads(RunLoopScheduler s) {
        return s.loopThreads();
    }
}
