package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.ForwardingTimerQueue;
import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Task;
import kilim.timerservice.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Yield order, sleep, mailbox timeouts and timer cancellation, for every timer variant. */
class SchedulerBasicsTest {

    static final long AWAIT_S = 60;

    @Test
    void testTasksAreWoven() throws Exception {
        // Kilim.isWoven answers true for any Task subclass; the weaver's marker field does not lie
        assertNotNull(Yielder.class.getDeclaredField("$isWoven"));
        assertNotNull(Sleeper.class.getDeclaredField("$isWoven"));
        // TaskSleep is not woven: its woven form sleep(long, Fiber) is written by hand (a leaf)
        assertNotNull(TaskSleep.class.getDeclaredMethod("sleep", long.class, kilim.Fiber.class));
    }

    // ------------------------------------------------------------------ ordering

    static final class Yielder extends Task<Object> {
        final int id;
        final int rounds;
        final List<Integer> trace;
        final CountDownLatch done;

        Yielder(int id, int rounds, List<Integer> trace, CountDownLatch done) {
            this.id = id;
            this.rounds = rounds;
            this.trace = trace;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            for (int r = 0; r < rounds; r++) {
                trace.add(id); // only the loop thread writes; the latch publishes it
                Task.yield();
            }
            done.countDown();
        }
    }

    /** Starts the given tasks from inside the loop, so they enter the run queue in order. */
    static final class Starter extends Task<Object> {
        final List<Task<?>> tasks;

        Starter(List<Task<?>> tasks) {
            this.tasks = tasks;
        }

        @Override
        public void execute() throws Pausable {
            for (Task<?> t : tasks) {
                t.setScheduler(getScheduler());
                t.start();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void yieldIsFairRoundRobin(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        RunLoopScheduler s =
                RunLoopScheduler.builder().threads(1).timers(timers).build();
        try {
            int tasks = 7;
            int rounds = 5;
            List<Integer> trace = new ArrayList<>();
            CountDownLatch done = new CountDownLatch(tasks);
            List<Task<?>> list = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                list.add(new Yielder(i, rounds, trace, done));
            }
            s.start(new Starter(list));
            assertTrue(done.await(AWAIT_S, TimeUnit.SECONDS));
            List<Integer> expected = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < tasks; i++) {
                    expected.add(i);
                }
            }
            assertEquals(expected, trace);
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /** Takes one message, then records "R". */
    static final class Receiver extends Task<Object> {
        final Mailbox<String> in;
        final List<String> trace;
        final CountDownLatch done;

        Receiver(Mailbox<String> in, List<String> trace, CountDownLatch done) {
            this.in = in;
            this.trace = trace;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            in.get();
            trace.add("R");
            done.countDown();
        }
    }

    /** Records {@code name} {@code turns} times, yielding between two. */
    static final class Turns extends Task<Object> {
        final String name;
        final int turns;
        final List<String> trace;
        final CountDownLatch done;

        Turns(String name, int turns, List<String> trace, CountDownLatch done) {
            this.name = name;
            this.turns = turns;
            this.trace = trace;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < turns; i++) {
                if (i > 0) {
                    Task.yield();
                }
                trace.add(name);
            }
            done.countDown();
        }
    }

    /** Records "S", sends one message, records "S2". */
    static final class Sender extends Task<Object> {
        final Mailbox<String> out;
        final List<String> trace;
        final CountDownLatch done;

        Sender(Mailbox<String> out, List<String> trace, CountDownLatch done) {
            this.out = out;
            this.trace = trace;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            trace.add("S");
            out.put("m");
            trace.add("S2");
            done.countDown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void aMessageRunsItsReceiverRightAfterTheSendersSlice(String name, Supplier<TimerQueue<Timer>> timers)
            throws Exception {
        RunLoopScheduler s =
                RunLoopScheduler.builder().threads(1).timers(timers).build();
        try {
            List<String> trace = new ArrayList<>();
            CountDownLatch done = new CountDownLatch(4);
            Mailbox<String> box = new Mailbox<>();
            // R waits first; Y1 and Y2 are queued before the sender and yield once each
            s.start(new Starter(List.of(
                    new Receiver(box, trace, done),
                    new Turns("Y1", 2, trace, done),
                    new Turns("Y2", 2, trace, done),
                    new Sender(box, trace, done))));
            assertTrue(done.await(AWAIT_S, TimeUnit.SECONDS));
            // without the hand-off R would run after the yielders' second turns
            assertEquals(List.of("Y1", "Y2", "S", "S2", "R", "Y1", "Y2"), trace);
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /** Passes one token back and forth {@code rounds} times, recording {@code name} once per slice. */
    static final class Passer extends Task<Object> {
        final String name;
        final Mailbox<String> in;
        final Mailbox<String> out;
        final boolean serves;
        final int rounds;
        final List<String> trace;
        final CountDownLatch done;

        Passer(
                String name,
                Mailbox<String> in,
                Mailbox<String> out,
                boolean serves,
                int rounds,
                List<String> trace,
                CountDownLatch done) {
            this.name = name;
            this.in = in;
            this.out = out;
            this.serves = serves;
            this.rounds = rounds;
            this.trace = trace;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            if (serves) {
                out.put("t");
            }
            for (int r = 0; r < rounds; r++) {
                String t = in.get();
                trace.add(name);
                if (serves && r == rounds - 1) {
                    break;
                }
                out.put(t);
            }
            done.countDown();
        }
    }

    /**
     * Two tasks passing a message forever would run only each other if every hand-off ran next:
     * after {@value RunLoop#MAX_HANDOFFS} in a row the run queue's head runs, so a yielding task
     * between them gets a turn at least every {@value RunLoop#MAX_HANDOFFS} + 1 of their slices.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void handOffsInARowAreBoundedSoQueuedTasksRun(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        RunLoopScheduler s =
                RunLoopScheduler.builder().threads(1).timers(timers).build();
        try {
            List<String> trace = new ArrayList<>();
            CountDownLatch done = new CountDownLatch(3);
            Mailbox<String> ab = new Mailbox<>();
            Mailbox<String> ba = new Mailbox<>();
            int rounds = 200;
            s.start(new Starter(List.of(
                    new Passer("A", ba, ab, true, rounds, trace, done),
                    new Passer("B", ab, ba, false, rounds, trace, done),
                    new Turns("Y", rounds, trace, done))));
            assertTrue(done.await(AWAIT_S, TimeUnit.SECONDS));
            int run = 0, longest = 0, lastY = trace.lastIndexOf("Y");
            for (int i = 0; i < lastY; i++) {
                run = trace.get(i).equals("Y") ? 0 : run + 1;
                longest = Math.max(longest, run);
            }
            // the bound RunLoopScheduler's class comment states: 16 hand-offs, 17 slices
            assertEquals(RunLoop.MAX_HANDOFFS + 1, longest, "the pair's longest run of slices while Y waits");
            assertEquals(17, longest, "the documented bound");
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    // ------------------------------------------------------------------ sleep

    /**
     * Sleeps each of {@code millis} in turn ({@link TaskSleep} if {@code lean}, else Kilim's
     * {@code Task.sleep}) and records every sleep that ended early by {@code nanoTime}. With
     * {@code armLate}, each sleep is armed 0.8 ms into a millisecond of {@code currentTimeMillis()}:
     * that clock then lags the true time by ~0.8 ms, which is what a timer that fires when the clock
     * merely reaches its deadline (not passes it) gets wrong.
     */
    static final class Sleeper extends Task<Object> {
        final long[] millis;
        final ConcurrentLinkedQueue<String> early;
        final CountDownLatch done;
        final boolean lean;
        final boolean armLate;

        Sleeper(long[] millis, boolean lean, ConcurrentLinkedQueue<String> early, CountDownLatch done) {
            this(millis, lean, early, done, false);
        }

        Sleeper(
                long[] millis,
                boolean lean,
                ConcurrentLinkedQueue<String> early,
                CountDownLatch done,
                boolean armLate) {
            this.millis = millis;
            this.lean = lean;
            this.early = early;
            this.done = done;
            this.armLate = armLate;
        }

        @Override
        public void execute() throws Pausable {
            for (long ms : millis) {
                long t0 = armLate ? lateInAMillisecond() : System.nanoTime();
                if (lean) {
                    TaskSleep.sleep(ms);
                } else {
                    Task.sleep(ms);
                }
                long slept = System.nanoTime() - t0;
                if (slept < TimeUnit.MILLISECONDS.toNanos(ms)) {
                    early.add((lean ? "TaskSleep" : "Task") + ".sleep(" + ms + ") returned after " + slept + " ns");
                }
            }
            done.countDown();
        }

        /** Busy-waits (not a sleep: this is the thing under test) to 0.8 ms into a millisecond; returns nanoTime then. */
        private static long lateInAMillisecond() {
            for (; ; ) {
                long ms = System.currentTimeMillis();
                long next;
                while ((next = System.currentTimeMillis()) == ms) {
                    Thread.onSpinWait();
                }
                long start = System.nanoTime();
                long now;
                while ((now = System.nanoTime()) - start < 800_000) {
                    Thread.onSpinWait();
                }
                if (System.currentTimeMillis() == next) {
                    return now; // still in the same millisecond: the clock lags the truth by ~0.8 ms
                }
            }
        }
    }

    /** A test body that uses a fresh scheduler. */
    interface SchedulerBody {
        void run(RunLoopScheduler s) throws Exception;
    }

    /** Runs {@code body} on a fresh scheduler, then stops it (bounded) whatever happened. */
    static void withScheduler(int threads, Supplier<TimerQueue<Timer>> timers, SchedulerBody body) throws Exception {
        RunLoopScheduler s =
                RunLoopScheduler.builder().threads(threads).timers(timers).build();
        try {
            body.run(s);
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /** Waits for the sleepers' latch, then fails if any of their sleeps ended early. */
    static void assertNoSleepEnded(CountDownLatch done, ConcurrentLinkedQueue<String> early)
            throws InterruptedException {
        assertTrue(done.await(AWAIT_S, TimeUnit.SECONDS), "sleepers did not finish");
        assertEquals(List.of(), new ArrayList<>(early));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void sleepIsNeverEarly(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        withScheduler(2, timers, s -> {
            int tasks = 200;
            ConcurrentLinkedQueue<String> early = new ConcurrentLinkedQueue<>();
            CountDownLatch done = new CountDownLatch(tasks);
            java.util.Random rnd = new java.util.Random(42);
            for (int i = 0; i < tasks; i++) {
                long[] ms = new long[4];
                for (int k = 0; k < ms.length; k++) {
                    ms[k] = rnd.nextInt(12); // includes sleep(0)
                }
                s.start(new Sleeper(ms, i % 2 == 0, early, done)); // half Task.sleep, half TaskSleep
            }
            assertNoSleepEnded(done, early);
        });
    }

    /** No {@code timers(..)} given: millisecond queues on Kilim's clock, so sleeps are never early and end. */
    @Test
    void aSchedulerWithDefaultTimersRunsSleepsNeverEarly() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder().threads(2).build();
        try {
            ConcurrentLinkedQueue<String> early = new ConcurrentLinkedQueue<>();
            CountDownLatch done = new CountDownLatch(20);
            for (int i = 0; i < 20; i++) {
                s.start(new Sleeper(new long[] {1, 3, 5}, i % 2 == 0, early, done));
            }
            assertNoSleepEnded(done, early);
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /** Keeps its loop busy for {@code nanos} in one slice (a long computation, not a wait). */
    static final class Spinner extends Task<Object> {
        final long nanos;

        Spinner(long nanos) {
            this.nanos = nanos;
        }

        @Override
        public void execute() throws Pausable {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void taskSleepAfterALongSliceIsNeverEarly(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        // TaskSleep takes its deadline from a clock read after the arm (RunLoop.armAfterClockRead). A
        // 30 ms slice runs first in the same turn, so a deadline from any clock read before the arm
        // (the turn's, the last expire call's) would be 30 ms stale and the first sleep would end early.
        withScheduler(1, timers, s -> {
            ConcurrentLinkedQueue<String> early = new ConcurrentLinkedQueue<>();
            CountDownLatch done = new CountDownLatch(1);
            List<Task<?>> list = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                list.add(new Spinner(TimeUnit.MILLISECONDS.toNanos(30)));
            }
            list.add(new Sleeper(new long[] {5, 5, 5}, true, early, done));
            s.start(new Starter(list));
            assertNoSleepEnded(done, early);
        });
    }

    /** Yields until told to stop: keeps its loop turning, so the loop checks its timers every turn. */
    static final class Busy extends Task<Object> {
        volatile boolean stop;

        @Override
        public void execute() throws Pausable {
            while (!stop) {
                Task.yield();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void sleepArmedLateInAMillisecondIsNeverEarly(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        // A busy task keeps the loop turning, so a timer that fired as soon as the clock reached its
        // deadline would end the sleep ~0.2 ms after it began; with deadline + 1 it lasts >= 1 ms.
        withScheduler(1, timers, s -> {
            ConcurrentLinkedQueue<String> early = new ConcurrentLinkedQueue<>();
            CountDownLatch done = new CountDownLatch(2);
            Busy busy = new Busy();
            long[] ones = new long[20];
            java.util.Arrays.fill(ones, 1);
            s.start(new Starter(List.of(
                    busy, new Sleeper(ones, true, early, done, true), new Sleeper(ones, false, early, done, true))));
            try {
                assertNoSleepEnded(done, early);
            } finally {
                busy.stop = true;
            }
        });
    }

    /** Sleeps once with TaskSleep, several frames down, and records how long it slept. */
    static final class DeepSleeper extends Task<Object> {
        final long ms;
        volatile long sleptNanos = -1;
        final CountDownLatch sleeping = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);

        DeepSleeper(long ms) {
            this.ms = ms;
        }

        @Override
        public void execute() throws Pausable {
            int depth = descend(3);
            sleptNanos = depth == 3 ? sleptNanos : -2; // locals of every frame survive the pauses
            done.countDown();
        }

        private int descend(int n) throws Pausable {
            if (n > 0) {
                return 1 + descend(n - 1);
            }
            long t0 = System.nanoTime();
            sleeping.countDown();
            TaskSleep.sleep(ms);
            sleptNanos = System.nanoTime() - t0;
            return 0;
        }
    }

    /** Resumes a sleeping {@link DeepSleeper} until it is done; returns how often that found it paused. */
    interface StrayWaker {
        long resumeUntilDone(RunLoopScheduler s, DeepSleeper sleeper) throws Exception;
    }

    /**
     * A 200 ms {@code TaskSleep} on a one-loop scheduler, resumed by {@code waker} while it sleeps:
     * every resumption that finds it paused runs it before its timer fired, and it must pause again,
     * so the sleep lasts its full time. 200 ms, so that a waker the machine holds up for a while
     * still resumes it at least once.
     */
    private static void strayResumptionsDoNotShortenASleep(Supplier<TimerQueue<Timer>> timers, StrayWaker waker)
            throws Exception {
        RunLoopScheduler s =
                RunLoopScheduler.builder().threads(1).timers(timers).build();
        try {
            DeepSleeper t = new DeepSleeper(200);
            s.start(t);
            assertTrue(t.sleeping.await(AWAIT_S, TimeUnit.SECONDS));
            long strays = waker.resumeUntilDone(s, t);
            assertTrue(
                    t.sleptNanos >= TimeUnit.MILLISECONDS.toNanos(200),
                    "slept " + t.sleptNanos + " ns, " + strays + " stray resumptions");
            assertTrue(strays > 0, "no stray resumption happened");
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /** Stray resumptions from a thread that is not a loop's: they come through the inbox. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void taskSleepIgnoresStrayResumptions(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        strayResumptionsDoNotShortenASleep(timers, (s, t) -> {
            long strays = 0;
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_S); // the spin cannot hang the run
            while (t.done.getCount() != 0) {
                assertTrue(System.nanoTime() < giveUp, "the sleeper never finished; " + strays + " stray resumptions");
                if (t.resume()) {
                    strays++;
                }
                Thread.onSpinWait();
            }
            return strays;
        });
    }

    /** Resumes {@code sleeper} at every slice until it is done, from a task on the sleeper's own loop. */
    static final class Poker extends Task<Object> {
        final DeepSleeper sleeper;
        volatile long strays;
        final CountDownLatch done = new CountDownLatch(1);

        Poker(DeepSleeper sleeper) {
            this.sleeper = sleeper;
        }

        @Override
        public void execute() throws Pausable {
            long n = 0;
            for (int i = 0; i < 100_000_000 && sleeper.done.getCount() != 0; i++) {
                if (sleeper.resume()) {
                    n++; // a hand-off on this loop: the sleeper would run right after this slice
                }
                Task.yield();
            }
            strays = n;
            done.countDown();
        }
    }

    /**
     * Stray resumptions from a task on the sleeper's own loop: each is a hand-off, run right after
     * the waker's slice, and is held as one from another thread is.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void taskSleepIgnoresStrayResumptionsFromItsOwnLoop(String name, Supplier<TimerQueue<Timer>> timers)
            throws Exception {
        strayResumptionsDoNotShortenASleep(timers, (s, t) -> {
            Poker poker = s.start(new Poker(t));
            assertTrue(poker.done.await(AWAIT_S, TimeUnit.SECONDS), "the poker never finished");
            assertTrue(t.done.await(AWAIT_S, TimeUnit.SECONDS), "the sleeper never finished");
            return poker.strays;
        });
    }

    /** Overrides {@code onEvent}: the loop must call it, not its own shortcut of Kilim's. */
    static final class ListeningSleeper extends Task<Object> {
        final AtomicInteger timedOut = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(1);
        final int sleeps;

        ListeningSleeper(int sleeps) {
            this.sleeps = sleeps;
        }

        @Override
        public void onEvent(kilim.EventPublisher ep, kilim.Event e) {
            if (e == Timer.timedOut) {
                timedOut.incrementAndGet();
            }
            super.onEvent(ep, e);
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < sleeps; i++) {
                TaskSleep.sleep(2);
            }
            done.countDown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void timerFiringCallsAnOverriddenOnEvent(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        // the fence-free fire path must be reachable on the pinned Kilim (else it silently falls back)
        assertTrue(LoopTimer.fencelessWrites(), "Timer.nextExecutionTime not reachable");
        withScheduler(1, timers, s -> {
            ListeningSleeper t = new ListeningSleeper(5);
            ConcurrentLinkedQueue<String> early = new ConcurrentLinkedQueue<>();
            CountDownLatch plainDone = new CountDownLatch(1);
            s.start(t);
            s.start(new Sleeper(new long[] {2, 2, 2}, true, early, plainDone)); // stock onEvent, beside it
            assertTrue(t.done.await(AWAIT_S, TimeUnit.SECONDS));
            assertNoSleepEnded(plainDone, early);
            assertEquals(5, t.timedOut.get(), "onEvent(timedOut) calls");
        });
    }

    // ------------------------------------------------------------------ mailbox timeouts

    static final class TimedGetter extends Task<Object> {
        final Mailbox<Integer> in;
        final long timeoutMs;
        volatile Integer got = -1;
        volatile long elapsedNanos;
        final CountDownLatch done = new CountDownLatch(1);

        TimedGetter(Mailbox<Integer> in, long timeoutMs) {
            this.in = in;
            this.timeoutMs = timeoutMs;
        }

        @Override
        public void execute() throws Pausable {
            long t0 = System.nanoTime();
            got = in.get(timeoutMs);
            elapsedNanos = System.nanoTime() - t0;
            done.countDown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void getWithTimeoutTimesOut(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        CountingTimerQueue<Timer>[] q = newQueues(1);
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(counting(timers, q))
                .build();
        try {
            TimedGetter g = s.start(new TimedGetter(new Mailbox<>(), 15));
            assertTrue(g.done.await(AWAIT_S, TimeUnit.SECONDS));
            assertNull(g.got);
            assertTrue(g.elapsedNanos >= TimeUnit.MILLISECONDS.toNanos(15), "early: " + g.elapsedNanos);
            // the getter may run inside the expire call that fired it: let that call finish
            CountDownLatch barrier = new CountDownLatch(1);
            s.start(new Barrier(barrier));
            assertTrue(barrier.await(AWAIT_S, TimeUnit.SECONDS));
            assertTrue(q[0].fired.get() >= 1);
            assertEquals(0, q[0].size.get());
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /**
     * A queue whose {@code nextDeadline} answers a time already passed while nothing is due, as a
     * wheel answers the start of the tick that holds its next timer. Counts its {@code expire}
     * calls.
     */
    static final class PassedTickQueue extends ForwardingTimerQueue<Timer> {
        final AtomicInteger expireCalls = new AtomicInteger();
        private long lastNow = Long.MIN_VALUE;

        PassedTickQueue(TimerQueue<Timer> inner) {
            super(inner);
        }

        @Override
        public int expire(long now, Consumer<? super Timer> consumer, int limit) {
            expireCalls.incrementAndGet();
            lastNow = now;
            return inner.expire(now, consumer, limit);
        }

        @Override
        public long nextDeadline() {
            long next = inner.nextDeadline();
            return next == NO_DEADLINE ? next : Math.min(next, lastNow);
        }
    }

    /**
     * The idle loop waits a millisecond when its queue answers a passed time and nothing fires:
     * it does not spin on {@code expire} until the timer is really due. A loop that spins calls it
     * tens of thousands of times in the 35 ms between the two; one that waits, about once a
     * millisecond.
     */
    @Test
    void anIdleLoopWaitsAMillisecondWhenItsQueueAnswersAPassedTick() throws Exception {
        PassedTickQueue[] q = new PassedTickQueue[1];
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(() -> q[0] = new PassedTickQueue(TimerKind.WHEEL_LIST.create()))
                .build();
        try {
            // the loop sleeps until the first deadline it arms; once the short timer has fired the
            // queue answers a passed time for the long one, which is due only 35 ms later
            long t0 = System.nanoTime();
            TimedGetter long40 = s.start(new TimedGetter(new Mailbox<>(), 40));
            TimedGetter short5 = s.start(new TimedGetter(new Mailbox<>(), 5));
            assertTrue(long40.done.await(AWAIT_S, TimeUnit.SECONDS));
            assertTrue(short5.done.await(AWAIT_S, TimeUnit.SECONDS));
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertNull(long40.got);
            assertNull(short5.got);
            int calls = q[0].expireCalls.get();
            assertTrue(calls <= 3 * elapsedMs + 20, calls + " expire calls in " + elapsedMs + " ms: the loop spun");
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /** Answers every request with the same message, each through a get with a long timeout. */
    static final class TimedEcho extends Task<Object> {
        final Mailbox<Integer> in;
        final Mailbox<Integer> out;
        final int n;

        TimedEcho(Mailbox<Integer> in, Mailbox<Integer> out, int n) {
            this.in = in;
            this.out = out;
            this.n = n;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < n; i++) {
                Integer m = in.get(60_000);
                out.putnb(m == null ? -1 : m);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.tickwork.scheduler.TimerSources#all")
    void deliveryCancelsTheTimer(String name, Supplier<TimerQueue<Timer>> timers) throws Exception {
        CountingTimerQueue<Timer>[] q = newQueues(1);
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .idleSpins(0)
                .timers(counting(timers, q))
                .build();
        try {
            Mailbox<Integer> in = new Mailbox<>();
            Mailbox<Integer> out = new Mailbox<>();
            int n = 2_000;
            s.start(new TimedEcho(in, out, n));
            for (int i = 0; i < n; i++) {
                in.putb(i);
                assertEquals(i, out.getb(TimeUnit.SECONDS.toMillis(AWAIT_S)));
            }
            // the echo's last slice ends after its last reply: let a later task run on the same loop
            CountDownLatch barrier = new CountDownLatch(1);
            s.start(new Barrier(barrier));
            assertTrue(barrier.await(AWAIT_S, TimeUnit.SECONDS));
            // every armed timer was taken out of the queue when the message won; none fired
            assertEquals(0, q[0].fired.get());
            assertTrue(q[0].scheduled.get() > 0, "the test never armed a timer");
            assertEquals(q[0].scheduled.get(), q[0].cancelled.get());
            assertEquals(0, q[0].size.get());
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        }
    }

    /** Counts down when it runs: everything the loop did before picking it up is done. */
    static final class Barrier extends Task<Object> {
        final CountDownLatch latch;

        Barrier(CountDownLatch latch) {
            this.latch = latch;
        }

        @Override
        public void execute() throws Pausable {
            latch.countDown();
        }
    }

    @SuppressWarnings("unchecked")
    static CountingTimerQueue<Timer>[] newQueues(int n) {
        return new CountingTimerQueue[n];
    }

    /** Wraps each loop's queue, recording it in {@code slots} in creation (= loop) order. */
    static Supplier<TimerQueue<Timer>> counting(Supplier<TimerQueue<Timer>> timers, CountingTimerQueue<Timer>[] slots) {
        int[] next = {0};
        return () -> {
            CountingTimerQueue<Timer> c = new CountingTimerQueue<>(timers.get());
            slots[next[0]++] = c;
            return c;
        };
    }
}
