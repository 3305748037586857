package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.TimerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Task;
import kilim.timerservice.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tasks at the edges of the contract: a mailbox wait after a {@code TaskSleep}, a task started
 * twice, a loop index out of range, wake-ups after a {@code shutdownNow} termination, a task started
 * after termination, a task that throws while pinned, a negative sleep, an interrupted
 * {@code idledown}; the loops' thread names; and the builder's refusals.
 */
@Timeout(120)
class TaskEdgesTest {
    private static final long AWAIT_S = 30;

    /**
     * {@code TaskSleep.sleep(long)} reached without the weaver's rewrite (here by reflection, which
     * the weaver cannot see; likewise from a plain thread's unwoven code) refuses with a message
     * that names both causes, rather than ending the JVM as Kilim's unwoven calls do.
     */
    @Test
    void aSleepOutsideAWovenTaskSaysHowToMendIt() throws Exception {
        java.lang.reflect.InvocationTargetException e = assertThrows(
                java.lang.reflect.InvocationTargetException.class,
                () -> TaskSleep.class.getMethod("sleep", long.class).invoke(null, 1L));
        assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
        String m = e.getCause().getMessage();
        assertTrue(m.contains("from inside a Kilim task") && m.contains("on the weaver's classpath"), m);
    }

    /** A scheduler of two loops on list wheels, its loops named by default. */
    private static RunLoopScheduler twoLoops() {
        return RunLoopScheduler.builder()
                .threads(2)
                .timers(TimerKind.WHEEL_LIST)
                .build();
    }

    private static void stop(RunLoopScheduler s) throws InterruptedException {
        s.shutdownNow();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
    }

    static final class SleepThenWait extends Task<Object> {
        final Mailbox<Integer> in = new Mailbox<>();
        final CountDownLatch waiting = new CountDownLatch(1);

        @Override
        public void execute() throws Pausable {
            TaskSleep.sleep(5);
            waiting.countDown();
            in.get(); // nothing ever comes: a pause until then
        }
    }

    /**
     * The sleep's fired timer must not make the task's next mailbox wait look timed out: the loop
     * would resume the task for ever, never idle, and an orderly shutdown would never end.
     */
    @Test
    void aMailboxWaitAfterASleepPausesSoTheLoopCanEnd() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .build();
        try {
            SleepThenWait t = s.start(new SleepThenWait());
            assertTrue(t.waiting.await(AWAIT_S, TimeUnit.SECONDS));
            s.shutdown(); // the only task is paused on a mailbox: abandoned, and the loops end
            assertTrue(s.awaitTermination(10, TimeUnit.SECONDS), "the loop never went idle");
        } finally {
            stop(s);
        }
    }

    /**
     * The same on Kilim's own schedulers, where the fired timer is Kilim's: the task must pause
     * on its mailbox, so the scheduler goes idle.
     */
    @ParameterizedTest
    @ValueSource(strings = {"affine", "forkjoin"})
    void aMailboxWaitAfterASleepPausesOnKilimsSchedulersToo(String which) throws Exception {
        kilim.Scheduler s = which.equals("affine") ? kilim.Scheduler.make(1) : new kilim.ForkJoinScheduler(1);
        try {
            SleepThenWait t = new SleepThenWait();
            t.setScheduler(s);
            t.start();
            assertTrue(t.waiting.await(AWAIT_S, TimeUnit.SECONDS));
            Thread idle = new Thread(s::idledown, "idledown");
            idle.setDaemon(true);
            idle.start();
            idle.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(idle.isAlive(), "the scheduler never went idle: the mailbox wait resumes for ever");
        } finally {
            s.shutdown();
        }
    }

    static final class SleepThen extends Task<Object> {
        final long millis;
        final CountDownLatch slept = new CountDownLatch(1);

        SleepThen(long millis) {
            this.millis = millis;
        }

        @Override
        public void execute() throws Pausable {
            TaskSleep.sleep(millis);
            slept.countDown();
        }
    }

    /** Starting a started task again is refused; the task goes on as before. */
    @Test
    void aTaskStartedTwiceIsRefusedAndNotLost() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .build();
        try {
            SleepThen t = s.start(new SleepThen(200), 0);
            assertThrows(IllegalStateException.class, () -> s.start(t, 0));
            assertThrows(IllegalStateException.class, () -> s.start(t));
            SleepThen u = s.start(new SleepThen(200));
            assertThrows(IllegalStateException.class, () -> s.start(u));
            assertThrows(IllegalStateException.class, () -> s.start(u, 0));
            assertTrue(t.slept.await(AWAIT_S, TimeUnit.SECONDS), "the sleeper never woke up");
            assertTrue(u.slept.await(AWAIT_S, TimeUnit.SECONDS), "the second sleeper never woke up");
        } finally {
            stop(s);
        }
    }

    /**
     * {@code start(task, i)} racing Kilim's own {@code task.start()} on a task given this
     * scheduler: one of them starts it, once; a refused {@code start(task, i)} gives it no home, so
     * every loop's count of unfinished tasks is back at 0 once all have ended.
     */
    @Test
    void aPinnedStartRacingKilimsStartLeavesNoCountBehind() throws Exception {
        RunLoopScheduler s = twoLoops();
        int n = 20_000;
        Runs[] tasks = new Runs[n];
        for (int i = 0; i < n; i++) {
            tasks[i] = new Runs();
            tasks[i].setScheduler(s);
        }
        java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        Thread pinned = new Thread(() -> {
            try {
                for (Runs t : tasks) {
                    both.await();
                    try {
                        s.start(t, 1);
                    } catch (IllegalStateException e) {
                        refused.incrementAndGet();
                    }
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        pinned.start();
        for (Runs t : tasks) {
            both.await(AWAIT_S, TimeUnit.SECONDS);
            t.start();
        }
        pinned.join(TimeUnit.SECONDS.toMillis(AWAIT_S));
        for (Runs t : tasks) {
            assertTrue(t.done.await(AWAIT_S, TimeUnit.SECONDS), "a task never ran");
        }
        s.shutdown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        assertTrue(s.toString().contains("unfinished tasks per loop [0, 0]"), s + ", refused " + refused);
    }

    private static String npeMessage(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(NullPointerException.class, call).getMessage();
    }

    /** Kilim's entry points and the wait refuse null with the parameter's name, and a loop that does not exist. */
    @Test
    void kilimsEntryPointsRefuseBadArguments() throws Exception {
        RunLoopScheduler s = twoLoops();
        try {
            assertEquals("task", npeMessage(() -> s.schedule(null)));
            assertEquals("task", npeMessage(() -> s.schedule(0, null)));
            assertEquals("timer", npeMessage(() -> s.scheduleTimer(null)));
            assertEquals("unit", npeMessage(() -> s.awaitTermination(1, null)));
            Runs nowhere = new Runs();
            nowhere.setScheduler(s);
            assertThrows(IllegalArgumentException.class, () -> s.schedule(2, nowhere));
            assertEquals(2, s.numThreads());
        } finally {
            stop(s);
        }
    }

    /** Waits on its mailbox, then notes the thread it ran on. */
    static final class WaitsThenNotes extends Task<Object> {
        final Mailbox<Integer> in = new Mailbox<>();
        final CountDownLatch waiting = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        volatile String ranOn;

        @Override
        public void execute() throws Pausable {
            waiting.countDown();
            in.get();
            ranOn = Thread.currentThread().getName();
            done.countDown();
        }
    }

    /**
     * A task started on another scheduler (Kilim's default here) is refused by both forms of start,
     * paused there or run to its end (Kilim would not run it again), and stays that scheduler's:
     * it counts on no loop, and its next wake-up runs it there. A task given this scheduler by
     * {@code setScheduler} starts.
     */
    @Test
    void aTaskOfAnotherSchedulerIsRefusedAndStaysThere() throws Exception {
        WaitsThenNotes elsewhere = new WaitsThenNotes();
        elsewhere.start(); // Kilim's default scheduler
        assertTrue(elsewhere.waiting.await(AWAIT_S, TimeUnit.SECONDS));
        RunLoopScheduler s = twoLoops();
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.start(elsewhere));
            assertTrue(e.getMessage().contains("belongs to another scheduler"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> s.start(elsewhere, 1));
            assertTrue(s.toString().contains("unfinished tasks per loop [0, 0]"), s.toString());
            assertTrue(elsewhere.in.putnb(1));
            assertTrue(elsewhere.done.await(AWAIT_S, TimeUnit.SECONDS));
            assertFalse(elsewhere.ranOn.startsWith("tickwork-"), "ran on " + elsewhere.ranOn);
            while (!elsewhere.isDone()) {
                Thread.onSpinWait(); // Kilim marks it done just after its last line
            }
            e = assertThrows(IllegalStateException.class, () -> s.start(elsewhere, 0));
            assertTrue(e.getMessage().contains("has already run to its end"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> s.start(elsewhere));
            assertTrue(s.toString().contains("unfinished tasks per loop [0, 0]"), s.toString());
            Runs given = new Runs();
            given.setScheduler(s);
            assertSame(given, s.start(given));
            assertTrue(given.done.await(AWAIT_S, TimeUnit.SECONDS));
        } finally {
            stop(s);
        }
    }

    /** No pausable method: the weaver leaves it as it is, and Kilim would end the JVM running it. */
    static final class NeverWoven extends Task<Object> {}

    /**
     * A task whose class was not woven is refused where it is started, however it is started: run,
     * Kilim's {@code Task.execute(Fiber)} would end the JVM with status 0. The scheduler goes on.
     */
    @Test
    void aTaskWhoseClassWasNotWovenIsRefused() throws Exception {
        RunLoopScheduler s = twoLoops();
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.start(new NeverWoven()));
            assertTrue(e.getMessage().contains(NeverWoven.class.getName() + " was not woven"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> s.start(new NeverWoven(), 1));
            NeverWoven viaKilim = new NeverWoven();
            viaKilim.setScheduler(s);
            assertThrows(IllegalArgumentException.class, viaKilim::start);
            Runs woven = s.start(new Runs());
            assertTrue(woven.done.await(AWAIT_S, TimeUnit.SECONDS), "a woven task after the refusals");
            assertThrows(
                    IllegalArgumentException.class, () -> s.start(new NeverWoven()), "checked after another class");
        } finally {
            stop(s);
        }
    }

    /** Stand-ins for a task hierarchy: a class below the root with execute(Fiber) is woven. */
    static class Root {}

    static class WovenBase extends Root {
        public void execute() {}

        public void execute(kilim.Fiber f) {}
    }

    /** Overrides execute() and was not woven: Kilim would run WovenBase's execute(Fiber). */
    static class UnwovenSub extends WovenBase {
        @Override
        public void execute() {}
    }

    static class InheritsWoven extends WovenBase {}

    static class WovenAgain extends UnwovenSub {
        @Override
        public void execute(kilim.Fiber f) {}
    }

    /** The check looks at the execute() Kilim would run: the most derived class that declares one. */
    @Test
    void anUnwovenOverrideOfAWovenTaskIsNotWoven() {
        assertTrue(RunLoopScheduler.executeIsWoven(WovenBase.class, Root.class));
        assertFalse(RunLoopScheduler.executeIsWoven(UnwovenSub.class, Root.class), "its own execute() not woven");
        assertTrue(RunLoopScheduler.executeIsWoven(InheritsWoven.class, Root.class), "no execute of its own");
        assertTrue(RunLoopScheduler.executeIsWoven(WovenAgain.class, Root.class));
        assertFalse(RunLoopScheduler.executeIsWoven(Root.class, Root.class));
        assertFalse(RunLoopScheduler.executeIsWoven(NeverWoven.class, Task.class));
        assertTrue(RunLoopScheduler.executeIsWoven(Runs.class, Task.class), "a task the weaver wove");
    }

    /**
     * {@code TaskSleep.sleep(long)} reached unwoven (its caller was woven without tickwork-scheduler
     * on the weaver's classpath) throws, naming the fix, where Kilim would end the JVM.
     */
    @Test
    void anUnwovenCallOfTaskSleepThrowsInsteadOfEndingTheJvm() throws Exception {
        // through reflection: a direct call here would be a weaving error (a pausable call from a
        // method that is not)
        java.lang.reflect.InvocationTargetException e = assertThrows(
                java.lang.reflect.InvocationTargetException.class,
                () -> TaskSleep.class.getMethod("sleep", long.class).invoke(null, 10L));
        assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
        assertTrue(
                e.getCause().getMessage().contains("tickwork-scheduler on the weaver's classpath"),
                e.getCause().getMessage());
    }

    static final class Runs extends Task<Object> {
        final CountDownLatch done = new CountDownLatch(1);

        @Override
        public void execute() throws Pausable {
            done.countDown();
        }
    }

    static final class NamesItsLoop extends Task<Object> {
        final CountDownLatch done = new CountDownLatch(1);
        volatile String loop;

        @Override
        public void execute() throws Pausable {
            loop = Thread.currentThread().getName();
            done.countDown();
        }
    }

    private static String loopName(RunLoopScheduler s, int index) throws InterruptedException {
        NamesItsLoop t = new NamesItsLoop();
        s.start(t, index);
        assertTrue(t.done.await(AWAIT_S, TimeUnit.SECONDS));
        return t.loop;
    }

    /**
     * Two schedulers built without a name never share a loop thread's name, so a thread dump tells
     * them apart; a name given is used as is.
     */
    @Test
    void unnamedSchedulersNameTheirLoopsApart() throws Exception {
        RunLoopScheduler a = twoLoops();
        RunLoopScheduler b = twoLoops();
        RunLoopScheduler named = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .name("orders")
                .build();
        try {
            List<String> names = List.of(loopName(a, 0), loopName(a, 1), loopName(b, 0), loopName(b, 1));
            assertEquals(4, names.stream().distinct().count(), names::toString);
            for (String n : names) {
                assertTrue(n.matches("tickwork-\\d+-loop-[01]"), n);
            }
            String prefixA = names.get(0).substring(0, names.get(0).length() - 2);
            assertTrue(a.toString().startsWith("RunLoopScheduler[" + prefixA + ","), a.toString());
            assertEquals("orders-0", loopName(named, 0));
        } finally {
            stop(a);
            stop(b);
            stop(named);
        }
    }

    /** A loop index out of range is refused by schedule as by start, not wrapped onto another loop. */
    @Test
    void aLoopIndexOutOfRangeIsRefused() throws Exception {
        RunLoopScheduler s = twoLoops();
        try {
            assertThrows(IllegalArgumentException.class, () -> s.start(new Runs(), 5));
            assertThrows(NullPointerException.class, () -> s.start(null, 5)); // the null first
            Runs r = new Runs();
            r.setScheduler(s);
            assertThrows(IllegalArgumentException.class, () -> s.schedule(5, r));
            s.schedule(1, r); // in range: runs
            assertTrue(r.done.await(AWAIT_S, TimeUnit.SECONDS));
        } finally {
            stop(s);
        }
    }

    /** Wake-ups after a shutdownNow termination are rejected, and the dropped list stays what the stop left. */
    @Test
    void wakeUpsAfterAShutdownNowTerminationAreRejected() throws Exception {
        RunLoopScheduler s = twoLoops();
        ConcurrentLinkedQueue<Object> logged = new ConcurrentLinkedQueue<>();
        s.setLogger((src, obj) -> logged.add(obj));
        int n = 100;
        List<LiveTasksAndShutdownTest.WaitForever> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ws.add(s.start(new LiveTasksAndShutdownTest.WaitForever()));
        }
        for (LiveTasksAndShutdownTest.WaitForever w : ws) {
            assertTrue(w.paused.await(AWAIT_S, TimeUnit.SECONDS));
        }
        s.shutdownNow(); // every task paused, none queued: nothing to drop
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        for (LiveTasksAndShutdownTest.WaitForever w : ws) {
            assertTrue(w.in.putnb(1));
        }
        assertEquals(
                "dropped=0 rejected=" + n + " logged=" + n,
                "dropped=" + s.droppedTasks().size() + " rejected=" + s.rejectedCount() + " logged=" + logged.size());
    }

    static final class PinnedThrower extends Task<Object> {
        @Override
        public void execute() throws Pausable {
            pinToThread(); // as a held kilim.ReentrantLock does
            Task.yield();
            throw new IllegalStateException("boom");
        }
    }

    /**
     * A task that throws while pinned is one failure, reported once. (Kilim itself then leaves the
     * task unfinished: its check for active pins throws before it marks the task done.)
     */
    @Test
    void aTaskThatThrowsWhilePinnedIsReportedOnce() throws Exception {
        ConcurrentLinkedQueue<Throwable> reported = new ConcurrentLinkedQueue<>();
        CountDownLatch failed = new CountDownLatch(1);
        AtomicBoolean more = new AtomicBoolean();
        RunLoopScheduler s = RunLoopScheduler.builder()
                .timers(TimerKind.WHEEL_LIST)
                .onTaskFailure((task, failure) -> {
                    reported.add(failure);
                    more.set(failed.getCount() == 0);
                    failed.countDown();
                })
                .build();
        try {
            s.start(new PinnedThrower());
            assertTrue(failed.await(AWAIT_S, TimeUnit.SECONDS));
            Runs after = s.start(new Runs(), 0); // the same loop runs on after it
            assertTrue(after.done.await(AWAIT_S, TimeUnit.SECONDS));
            assertEquals(1, s.failedCount(), reported.toString());
            assertTrue(reported.peek() instanceof IllegalStateException, reported.toString());
        } finally {
            stop(s);
        }
    }

    static final class Thrower extends Task<Object> {
        @Override
        public void execute() throws Pausable {
            Task.yield();
            throw new IllegalStateException("boom");
        }
    }

    /**
     * The handler runs inside Kilim's {@code Task.run}, before Kilim marks the task done and tells
     * its exit mailboxes: the task is not yet done there (so the handler must not join it), and is
     * once the loop moves on.
     */
    @Test
    void theFailureHandlerSeesTheTaskNotYetDoneAndItIsDoneAfter() throws Exception {
        AtomicBoolean doneInHandler = new AtomicBoolean(true);
        CountDownLatch failed = new CountDownLatch(1);
        RunLoopScheduler s = RunLoopScheduler.builder()
                .timers(TimerKind.WHEEL_LIST)
                .onTaskFailure((task, failure) -> {
                    doneInHandler.set(task.isDone());
                    failed.countDown();
                })
                .build();
        try {
            Thrower t = s.start(new Thrower());
            assertTrue(failed.await(AWAIT_S, TimeUnit.SECONDS));
            assertFalse(doneInHandler.get(), "the task was already done inside the handler");
            assertTrue(LoopSemanticsTest.eventually(t::isDone), "the task never became done");
        } finally {
            stop(s);
        }
    }

    /**
     * A task that returned normally is not a failure when a listener of one of its exit mailboxes
     * throws as Kilim tells it of the exit (that throw comes out of Kilim's {@code Task.run}): the
     * handler is not called, and the loop goes on.
     */
    @Test
    void anExitMailboxListenerThatThrowsIsNotTheTasksFailure() throws Exception {
        ConcurrentLinkedQueue<Throwable> reported = new ConcurrentLinkedQueue<>();
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .onTaskFailure((task, failure) -> reported.add(failure))
                .build();
        try {
            Mailbox<kilim.ExitMsg<Object>> exits = new Mailbox<>();
            CountDownLatch told = new CountDownLatch(1);
            exits.addMsgAvailableListener((publisher, event) -> {
                told.countDown();
                throw new IllegalStateException("the listener's own failure");
            });
            Runs task = new Runs();
            task.informOnExit(exits);
            s.start(task, 0);
            assertTrue(told.await(AWAIT_S, TimeUnit.SECONDS));
            Runs after = s.start(new Runs(), 0); // runs after the loop dealt with the throw
            assertTrue(after.done.await(AWAIT_S, TimeUnit.SECONDS));
            assertTrue(task.isDone());
            assertEquals(0, s.failedCount(), reported.toString());
            assertTrue(reported.isEmpty(), reported.toString());
        } finally {
            stop(s);
        }
    }

    /** Two schedulers named apart say which is which, and in what state. */
    @Test
    void toStringNamesTheSchedulerAndItsState() throws InterruptedException {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .name("orders")
                .timers(TimerKind.WHEEL_LIST)
                .build();
        assertEquals("RunLoopScheduler[orders, threads=1, spread=BLOCKS, running]", s.toString());
        s.shutdown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        assertEquals("RunLoopScheduler[orders, threads=1, spread=BLOCKS, terminated]", s.toString());
    }

    /** With two loops, toString counts the unfinished tasks homed on each. */
    @Test
    void toStringCountsTheUnfinishedTasksOfEachLoop() throws InterruptedException {
        RunLoopScheduler s = twoLoops();
        try {
            List<SleepThenWait> tasks = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                tasks.add(s.start(new SleepThenWait(), i == 0 ? 1 : 0)); // two on loop 0, one on loop 1
            }
            for (SleepThenWait t : tasks) {
                assertTrue(t.waiting.await(AWAIT_S, TimeUnit.SECONDS));
            }
            assertTrue(s.toString().endsWith(", running, unfinished tasks per loop [2, 1]]"), s::toString);
        } finally {
            stop(s);
        }
    }

    /**
     * A task the stop dropped, and a start refused once the loops ended, leave their loop's count
     * (they never run there again); a task abandoned on a mailbox with no timeout stays in it. The
     * refused start is logged as one.
     */
    @Test
    void tasksDroppedOrRefusedLeaveTheCountOfUnfinishedTasks() throws InterruptedException {
        RunLoopScheduler s = twoLoops();
        ConcurrentLinkedQueue<Object> logged = new ConcurrentLinkedQueue<>();
        s.setLogger((src, obj) -> logged.add(obj));
        SleepThen sleeper = s.start(new SleepThen(TimeUnit.HOURS.toMillis(1)), 0); // queued or on a timer: dropped
        SleepThenWait abandoned = s.start(new SleepThenWait(), 1); // on a mailbox alone: abandoned
        assertTrue(abandoned.waiting.await(AWAIT_S, TimeUnit.SECONDS));
        assertTrue(s.toString().endsWith(", running, unfinished tasks per loop [1, 1]]"), s::toString);
        stop(s);
        assertEquals(List.of(sleeper), s.droppedTasks());
        Runs late = new Runs();
        late.setScheduler(s).start(); // Kilim's own start: refused through the logger
        assertEquals(1, s.rejectedCount());
        assertTrue(s.toString().endsWith(", terminated, unfinished tasks per loop [0, 1]]"), s::toString);
        assertEquals(1, logged.size(), logged::toString);
        String why = String.valueOf(logged.peek());
        assertTrue(why.contains("task " + late.id() + " started or woken after tickwork-"), why);
        assertEquals(1, late.done.getCount());
    }

    /**
     * A task woken through a loop that is no longer its home (a thread read its old home before a
     * move), after that loop has left: the refusal takes it out of its home's count, not out of
     * the loop that refused it.
     */
    @Test
    void aTaskRefusedByALoopThatIsNotItsHomeLeavesItsHomesCount() throws InterruptedException {
        RunLoopScheduler s = twoLoops();
        s.setLogger((src, obj) -> {});
        SleepThenWait waiter = s.start(new SleepThenWait(), 1); // on a mailbox alone: abandoned by the stop
        assertTrue(waiter.waiting.await(AWAIT_S, TimeUnit.SECONDS));
        stop(s);
        assertTrue(s.toString().endsWith(", unfinished tasks per loop [0, 1]]"), s::toString);
        s.loop(0).submitRemote(waiter); // as a waker that read the task's home as loop 0
        assertEquals(1, s.rejectedCount());
        assertTrue(s.toString().endsWith(", unfinished tasks per loop [0, 0]]"), s::toString);
    }

    /** try-with-resources: close() is an orderly shutdown that waits for the loops to end. */
    @Test
    void closeEndsTheLoopsAfterTheirTasks() throws InterruptedException {
        SleepThen sleeper;
        RunLoopScheduler closed;
        try (RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(2)
                .timers(TimerKind.WHEEL_LIST)
                .build()) {
            closed = s;
            sleeper = s.start(new SleepThen(20));
        }
        assertTrue(closed.isTerminated());
        assertEquals(0, sleeper.slept.getCount(), "the sleeper woke and ran to its end first");
        assertTrue(sleeper.isDone());
    }

    /**
     * A build that fails takes no number from the default names: the next scheduler built without
     * a name follows the last one built.
     */
    @Test
    void aFailedBuildTakesNoNumberFromTheDefaultNames() throws InterruptedException {
        RunLoopScheduler before = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .build();
        assertThrows(
                NullPointerException.class,
                () -> RunLoopScheduler.builder().threads(1).timers(() -> null).build());
        RunLoopScheduler after = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .build();
        try {
            int n = number(before);
            assertEquals(n + 1, number(after), before + " then " + after); // test classes run one at a time
        } finally {
            stop(before);
            stop(after);
        }
    }

    private static int number(RunLoopScheduler s) {
        String t = s.toString(); // RunLoopScheduler[tickwork-N-loop, ...
        int from = t.indexOf("tickwork-") + "tickwork-".length();
        return Integer.parseInt(t.substring(from, t.indexOf("-loop", from)));
    }

    @Test
    void theBuilderRefusesBadOptions() {
        assertThrows(
                IllegalArgumentException.class, () -> RunLoopScheduler.builder().threads(0));
        IllegalArgumentException tooMany = assertThrows(
                IllegalArgumentException.class,
                () -> RunLoopScheduler.builder().threads(RunLoopScheduler.Builder.MAX_THREADS + 1));
        assertEquals("threads must be 1..4096: 4097", tooMany.getMessage());
        RunLoopScheduler.builder().threads(RunLoopScheduler.Builder.MAX_THREADS); // the bound itself is accepted
        IllegalArgumentException unknown = assertThrows(
                IllegalArgumentException.class, () -> RunLoopScheduler.builder().timers("nope"));
        assertTrue(unknown.getMessage().contains("wheel-list"), unknown.getMessage()); // spelt as documented
        assertThrows(
                IllegalArgumentException.class, () -> RunLoopScheduler.builder().batch(0));
        assertThrows(
                IllegalArgumentException.class, () -> RunLoopScheduler.builder().idleSpins(-1));
        assertThrows(
                IllegalArgumentException.class, () -> RunLoopScheduler.builder().timers("no-such-kind"));
        assertThrows(
                NullPointerException.class, () -> RunLoopScheduler.builder().spread(null));
        assertThrows(
                NullPointerException.class, () -> RunLoopScheduler.builder().onTaskFailure(null));
        assertThrows(
                NullPointerException.class, () -> RunLoopScheduler.builder().name(null));
        assertThrows(
                NullPointerException.class, () -> RunLoopScheduler.builder().timers((TimerKind) null));
        NullPointerException noName = assertThrows(
                NullPointerException.class, () -> RunLoopScheduler.builder().timers((String) null));
        assertEquals("kindName", noName.getMessage());
    }

    /**
     * A timer subscriber that throws is reported and skipped: the timers due beside it still fire,
     * and the loop runs on.
     */
    @Test
    void aTimerSubscriberThatThrowsDoesNotStopTheOtherTimersOrTheLoop() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .build();
        try {
            CountDownLatch others = new CountDownLatch(2);
            Timer before = new Timer((publisher, event) -> others.countDown());
            Timer throwing = new Timer((publisher, event) -> {
                throw new IllegalStateException("the subscriber's own failure");
            });
            Timer after = new Timer((publisher, event) -> others.countDown());
            for (Timer t : new Timer[] {before, throwing, after}) {
                t.setLiteral(1); // long due
                s.scheduleTimer(t);
            }
            assertTrue(others.await(AWAIT_S, TimeUnit.SECONDS), "a timer due beside the throwing one never fired");
            Runs later = s.start(new Runs());
            assertTrue(later.done.await(AWAIT_S, TimeUnit.SECONDS), "the loop stopped after the subscriber threw");
        } finally {
            stop(s);
        }
    }

    /** Without {@code threads}, a loop per core, as Kilim's own schedulers; idle loops park. */
    @Test
    void theDefaultIsALoopPerCore() throws Exception {
        RunLoopScheduler s =
                RunLoopScheduler.builder().timers(TimerKind.WHEEL_LIST).build();
        try {
            assertEquals(Runtime.getRuntime().availableProcessors(), s.numThreads());
        } finally {
            stop(s);
        }
    }

    /** A start once the scheduler has terminated is refused where it is made, on any loop, and never runs. */
    @Test
    void aTaskStartedAfterTerminationIsRefusedAndNeverRuns() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .build();
        s.shutdown();
        assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
        long before = s.rejectedCount();
        Runs late = new Runs();
        java.util.concurrent.RejectedExecutionException e =
                assertThrows(java.util.concurrent.RejectedExecutionException.class, () -> s.start(late));
        assertTrue(e.getMessage().contains("has terminated"), e.getMessage());
        assertThrows(java.util.concurrent.RejectedExecutionException.class, () -> s.start(new Runs(), 0));
        assertEquals(before, s.rejectedCount(), "refused, not accepted and reported");
        assertTrue(s.toString().endsWith(", terminated]") && !s.toString().contains("ending"), s.toString());
        assertEquals(1, late.done.getCount(), "the task ran");
    }

    @Test
    void aNegativeSleepJustYields() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .build();
        try {
            SleepThen t = s.start(new SleepThen(-5));
            assertTrue(t.slept.await(AWAIT_S, TimeUnit.SECONDS), "sleep(-5) never returned");
        } finally {
            stop(s);
        }
    }

    @Test
    void idledownReturnsWithTheFlagSetWhenInterruptedWhileATaskSleeps() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(1)
                .timers(TimerKind.WHEEL_LIST)
                .build();
        try {
            SleepThen t = s.start(new SleepThen(600_000)); // keeps the loop from ending
            Thread.currentThread().interrupt();
            s.idledown();
            assertTrue(Thread.interrupted(), "idledown() cleared the caller's interrupt");
            assertFalse(s.isTerminated(), "a task still sleeps");
            assertEquals(1, t.slept.getCount());
        } finally {
            Thread.interrupted();
            stop(s);
        }
    }

    /** Runs on its first scheduler, goes on to each of {@code then} in turn, and ends on the last. */
    static final class Hopper extends Task<Object> {
        final RunLoopScheduler[] then;
        final List<String> ranOn = new java.util.concurrent.CopyOnWriteArrayList<>();
        final CountDownLatch ending = new CountDownLatch(1);

        Hopper(RunLoopScheduler... then) {
            this.then = then;
        }

        @Override
        public void execute() throws Pausable {
            ranOn.add(Thread.currentThread().getName());
            for (RunLoopScheduler s : then) {
                resumeOnScheduler(s);
                ranOn.add(Thread.currentThread().getName());
            }
            ending.countDown();
        }
    }

    /**
     * A task that Kilim's {@code resumeOnScheduler} moves to another scheduler counts as unfinished
     * on the one it runs on, not on the one it left: after a trip there and back, and after a trip
     * there, both schedulers count nothing once it ended.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aTaskMovedToAnotherSchedulerLeavesTheCountsOfTheOneItLeft(boolean andBack) throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder().threads(2).name("from").build();
        RunLoopScheduler t = RunLoopScheduler.builder().threads(2).name("to").build();
        try {
            Hopper h = s.start(andBack ? new Hopper(t, s) : new Hopper(t));
            assertTrue(h.ending.await(AWAIT_S, TimeUnit.SECONDS), h.ranOn::toString);
            s.shutdown(); // orderly: terminated once the slice that ended the task has returned
            t.shutdown();
            assertTrue(s.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
            assertTrue(t.awaitTermination(AWAIT_S, TimeUnit.SECONDS));
            assertTrue(h.isDone());
            assertEquals(andBack ? 3 : 2, h.ranOn.size(), h.ranOn::toString);
            assertTrue(h.ranOn.get(1).startsWith("to-"), h.ranOn::toString);
            assertTrue(s.toString().contains("unfinished tasks per loop [0, 0]"), s::toString);
            assertTrue(t.toString().contains("unfinished tasks per loop [0, 0]"), t::toString);
        } finally {
            stop(s);
            stop(t);
        }
    }
}
