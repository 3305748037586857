package io.tickwork.scheduler;

import io.tickwork.primitives.timer.TimerQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import kilim.Task;
import kilim.timerservice.Timer;

/**
 * One thread's run loop: a FIFO run queue of tasks, an MPSC inbox for work handed over by other
 * threads, and a {@link TimerQueue} for the {@code sleep}/{@code get(timeout)} timers of its tasks.
 *
 * <p>Each turn the loop moves the inbox into the run queue, gives the {@code TaskSleep} timers armed
 * since its last clock read their deadlines (see {@link #armAfterClockRead}), expires due timers, then runs up to
 * {@code batch} tasks from the head of the run queue. A task that yields is appended at the tail,
 * so every runnable task runs once before any runs twice (fair round-robin). A task that a running
 * slice resumes on this loop (a mailbox message) runs right after that slice, ahead of the queue,
 * for at most {@value #MAX_HANDOFFS} hand-offs in a row ({@link #runFrom}): message passing then
 * touches lines still in cache, as Go's {@code runnext} and Tokio's LIFO slot do. A task whose
 * timer is due runs at once, inside the expire call, ahead of the run queue: its deadline has
 * passed, and the timer code has just touched its memory (with 10^5 tasks a later visit misses the
 * cache again). Each timer fires at most once per expire call, since a timer armed from inside the
 * call fires in a later one (its task may still run again in the call as a hand-off). A task
 * paused in {@link TaskSleep} that something resumes before its timer fired is held, not run (the
 * hand-written sleep, called again on resumption, can only complete its pause, not pause again),
 * and runs when the timer fires. With nothing
 * runnable the loop spins {@code idleSpins} times on the inbox, then parks until the next timer
 * deadline, or indefinitely when no timer is pending.
 *
 * <p><b>Moving home.</b> A task that a task on another loop resumed arrives through the inbox with
 * that loop's index ({@link LoopTimer#wokenBy}); this loop, its home, moves it there once that
 * loop has woken it 2^m times in a row, m its moves so far (at most 6: the first wake moves it,
 * then 2, 4, ... 64 wakes in a row), the task is unpinned and holds no timer or sleep here, and
 * that loop is home to at most an eighth more tasks than this one ({@link #accept}). Only the home loop's thread moves a task, while the task is neither running nor
 * queued, so the timer fields it owns pass to the new home empty; a thread that read the old home
 * sends the task (or a timer of it) to this loop, which passes it on.
 *
 * <p><b>Wake-up protocol</b> (no lost wake-ups): see {@link LoopInbox}. A foreign producer appends
 * to the inbox, then reads its {@code parked} flag; the loop sets the flag, then re-checks the inbox
 * before parking; one of the two always sees the other.
 *
 * <p><b>Thread safety:</b> submission ({@link #submit}, {@link #submitRemote}) and the resident
 * count ({@link #residents}, {@link #addResidents}, {@link #endResident}) may be used from any
 * thread; everything else runs on the loop's own thread.
 */
final class RunLoop implements Runnable {
    /** The thread of a loop: lets {@code schedule} find "the loop I am on" without a ThreadLocal. */
    static final class LoopThread extends Thread {
        final RunLoop loop;

        LoopThread(RunLoop loop, String name) {
            super(loop, name);
            this.loop = loop;
        }
    }

    private final LoopOwner scheduler;
    private final int index;
    private final LoopThread thread;

    private final TaskRing runQueue = new TaskRing(1024);
    /** Tasks (to run) and timers (to schedule) handed over by other threads. */
    private final LoopInbox inbox = new LoopInbox();

    private final TimerQueue<Timer> timers;
    private final Consumer<Timer> fire = this::fire;
    private final int batch;
    private final int idleSpins;

    /** Owner only: no pending deadline is earlier than this (wall-clock ms); NO_DEADLINE if none. */
    private long nextDue = TimerQueue.NO_DEADLINE;
    /** Owner only: the {@code now} of the running {@code expire} call. */
    private long expireNow;
    /** Owner only: LoopTimers with a handle in {@link #timers}; 0 lets a slice skip the cancel check. */
    private int armed;
    /** Owner only (read by {@code schedule} on the owner thread): the task whose slice is running. */
    private Task<?> current;
    /** Owner only: true while {@link #fire} resumes a timer's task, so {@link #submit} hands it back. */
    private boolean firing;
    /** Owner only: the loop has left its run loop and is reporting what it held. */
    private boolean leaving;
    /** Owner only: the task {@link #fire} just resumed, to run at once while it is in cache. */
    private Task<?> fired;
    /**
     * Owner only: the first task the running slice resumed on this loop (a mailbox message), to run
     * right after the slice, ahead of the run queue, while the lines the slice just wrote are in cache.
     */
    private Task<?> next;
    /**
     * What the loop had in hand when its machinery failed placing it: the task or timer
     * {@link #drainInbox} had taken from the inbox, or a fired timer {@link #fire} was queueing
     * again; null otherwise. Loop thread only.
     */
    private Object takenOnDeath;
    /**
     * Hand-offs in a row (a slice resuming a task that runs next) before the run queue's head runs:
     * message passing between two tasks stays on warm lines, and a pair that passes messages forever
     * still lets every queued task run after at most this many of its slices. Why 16 (Tokio's LIFO
     * slot allows 3; Go's {@code runnext} lets a pair run out the time slice): each burst starts on
     * cold lines and, under G1, dirties again the cards the pair's last burst left to refinement,
     * so longer bursts amortise that start; a queued task still waits at most 17 slices of a pair.
     * The measurements behind the number are in {@code docs/results/scheduler.md}.
     */
    static final int MAX_HANDOFFS = 16;

    /**
     * Owner only: {@code TaskSleep} timers armed since the loop last read the clock, whose deadline
     * is fixed at the next read ({@link #flushPending}); see {@link #armAfterClockRead}.
     */
    private LoopTimer[] pending = new LoopTimer[PENDING_MAX];

    private int pendingCount;
    /** Owner only: task slices run since the last {@link #flushPending}. */
    private int slicesSinceFlush;
    /** A pending timer waits at most this many task slices for its clock read. */
    static final int FLUSH_SLICES = 16;

    private static final int PENDING_MAX = 64;

    /**
     * Tasks homed here and not ended (see {@link #residents}), on cache lines of their own: other
     * threads add to it when they start a task here or move one here, and must not make the
     * loop's own fields miss.
     */
    private final Residents residents = new Residents();
    /** Whether tasks may move between loops (more than one loop), so {@link #residents} is kept. */
    private final boolean countResidents;

    /** True while the loop has nothing runnable, no timer and (as far as it knows) an empty inbox. */
    private volatile boolean quiescent;
    /** Incremented by the owner each time it leaves a quiescent park; lets termination detect churn. */
    private volatile long wakeups;
    /** Reports the tasks left when the loop exits, and those that reach the inbox after that. */
    private final LoopExit exit;

    RunLoop(
            LoopOwner scheduler,
            int index,
            boolean countResidents,
            TimerQueue<Timer> timers,
            int batch,
            int idleSpins,
            String threadName,
            boolean daemon) {
        this.scheduler = scheduler;
        this.index = index;
        this.countResidents = countResidents;
        this.timers = timers;
        this.batch = batch;
        this.idleSpins = idleSpins;
        this.thread = new LoopThread(this, threadName);
        this.exit = new LoopExit(scheduler, inbox, threadName, this::endResident);
        thread.setDaemon(daemon);
    }

    // ---------------------------------------------------------------- submission (any thread)

    /**
     * Makes {@code task} runnable on this loop; called from whichever thread resumed it. {@code wake}:
     * a resumption (which may move the task to the resuming loop, see {@link #accept}), not a start.
     */
    void submit(Task<?> task, boolean wake) {
        submit(task, wake, false);
    }

    /**
     * As {@link #submit(Task, boolean)}; {@code started}: the task is being handed over by a
     * {@code RunLoopScheduler.start}, which tells its fate itself ({@link LoopTimer#settleStart}):
     * it is never marked as a late wake-up, so an exit lists it as dropped if a loop took it, and
     * otherwise leaves it to the start.
     */
    void submit(Task<?> task, boolean wake, boolean started) {
        if (Thread.currentThread() == thread && !leaving) {
            if (firing && fired == null) {
                fired = task; // fire() runs it right away
                return;
            }
            if (current != null && next == null && task != current) {
                next = task; // runs when the current slice ends (runFrom)
                return;
            }
            // the running task resuming itself (a pinned task's yield comes here, not through
            // requeueIfRunning) goes behind the tasks already queued, as a yield must
            runQueue.add(task);
        } else {
            RunLoop waker = wake ? onCurrentThread() : null;
            if (waker != null && waker.scheduler == scheduler && task.timer instanceof LoopTimer) {
                LoopTimer lt = (LoopTimer) task.timer;
                if (!lt.pinned) {
                    lt.wokenBy = waker.index; // published by the inbox offer
                }
            }
            submitRemote(task, !started);
        }
    }

    /**
     * The running task resumes itself (yield): if {@code task}'s slice is running on this loop and
     * the loop belongs to {@code o}, appends it to the tail of the run queue and returns true. Call
     * on the loop's thread.
     */
    boolean requeueIfRunning(Task<?> task, LoopOwner o) {
        if (current != task || scheduler != o) {
            return false;
        }
        runQueue.add(task);
        return true;
    }

    /** Hands a task or a timer to this loop from another thread. */
    void submitRemote(Object taskOrTimer) {
        submitRemote(taskOrTimer, true);
    }

    /** {@code mayBeLate}: false for a task a {@code start} hands over ({@link #submit(Task, boolean, boolean)}). */
    private void submitRemote(Object taskOrTimer, boolean mayBeLate) {
        if (inbox.offer(taskOrTimer)) { // true: the loop announced a park and we claimed its wake-up
            LockSupport.unpark(thread);
        }
        if (scheduler.state() >= LoopOwner.TERMINATED) {
            // a task started or woken by a thread outside the loops after the stop is late; one a
            // loop forwards or moves was accepted before it
            RunLoop on = onCurrentThread();
            boolean foreign = on == null || on.scheduler != scheduler;
            exit.rejectLate(mayBeLate && foreign && taskOrTimer instanceof Task<?> t ? t : null);
        }
    }

    /** Schedules a timer; on the loop thread directly, from elsewhere through the inbox. */
    void submitTimer(Timer timer) {
        if (Thread.currentThread() == thread) {
            addTimer(timer);
        } else {
            submitRemote(timer);
        }
    }

    // ---------------------------------------------------------------- the loop (owner thread)

    @Override
    public void run() {
        Throwable death = null;
        try {
            loop();
        } catch (Throwable fatal) {
            death = fatal; // our own machinery failed (task failures are caught in runSlice)
        } finally {
            // from here a wake-up on this thread (a logger the exit report calls) goes through the
            // inbox, whose late items are reported, not to a run queue nobody will read again
            leaving = true;
            try {
                try {
                    if (death != null) {
                        // before the exit report: the whole scheduler stops (shutdownNow), so the
                        // tasks queued here and every later wake-up are reported, not left to a
                        // dead loop
                        scheduler.loopDied(thread.getName(), death);
                    }
                } finally {
                    // whatever the death report threw (a second OutOfMemoryError printing the
                    // first): the exit still runs, or later wake-ups would wait in the inbox of a
                    // loop that never marked itself exited, neither run nor reported
                    List<Task<?>> held = new ArrayList<>(); // the exit adds the inbox's tasks to it
                    try {
                        held = heldTasks();
                    } finally {
                        exit.exit(held); // with what could be listed: it must mark the loop exited
                    }
                }
            } finally {
                scheduler.loopEnded(); // whatever the reports threw: awaitTermination must not hang
            }
        }
    }

    /**
     * Leaving: every task this loop still holds, each once, for the exit report: the run queue, a
     * hand-off or a fired task the last turn had not run yet, the task (or timer) taken from the
     * inbox when the loop's machinery failed, and every task waiting on a timer of this loop (a
     * sleep, a timed wait, a {@code TaskSleep} not yet given its deadline), which the loop will
     * never fire: without this they would be lost unreported. Cold code.
     */
    private List<Task<?>> heldTasks() {
        Set<Task<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Task<?>> held = new ArrayList<>();
        for (Task<?> t; (t = runQueue.poll()) != null; ) {
            if (seen.add(t)) {
                held.add(t);
            }
        }
        Object taken = takenOnDeath;
        for (Task<?> t : new Task<?>[] {next, fired, taken instanceof Task ? (Task<?>) taken : null}) {
            if (t != null && seen.add(t)) {
                held.add(t);
            }
        }
        Consumer<Timer> add = timer -> {
            // -1: cancelled (a timed wait answered first); -2: fired and already handled
            if (timer.getExecutionTime() >= 0 && timer.es instanceof Task && seen.add((Task<?>) timer.es)) {
                held.add((Task<?>) timer.es);
            }
        };
        try {
            if (taken instanceof Timer) {
                add.accept((Timer) taken);
            }
            for (int i = 0; i < pendingCount; i++) {
                add.accept(pending[i]);
            }
            pendingCount = 0;
            timers.expire(Long.MAX_VALUE, add);
        } catch (Throwable broken) { // the timer queue itself may be what ended the loop
            scheduler.reportInternal(thread.getName() + ": tasks waiting on its timers could not be listed", broken);
        }
        return held;
    }

    private void loop() {
        for (; ; ) {
            int state = scheduler.state();
            if (state >= LoopOwner.TERMINATED) {
                return;
            }
            if (!inbox.isEmpty()) {
                drainInbox();
            }
            if (pendingCount != 0) {
                long now = System.currentTimeMillis();
                flushPending(now);
                expireTimers(now);
            } else if (nextDue != TimerQueue.NO_DEADLINE) {
                expireTimers(System.currentTimeMillis());
            }
            int runnable = runQueue.size();
            if (runnable > 0) {
                runBatch(Math.min(runnable, batch));
            } else {
                idle(state);
            }
        }
    }

    private void drainInbox() {
        // bounded, so a flood from other threads cannot starve the run queue and the timers
        for (int i = 0; i < 4096; i++) {
            Object o = inbox.poll();
            if (o == null) {
                return;
            }
            try {
                if (o instanceof Task) {
                    accept((Task<?>) o);
                } else {
                    addTimer((Timer) o);
                }
            } catch (Throwable fatal) { // out of memory as the run queue or the timers grew: the loop dies
                takenOnDeath = o; // taken from the inbox and placed nowhere: the exit report lists it
                throw fatal;
            }
        }
    }

    /**
     * Queues a task another thread resumed. One that moved home meanwhile is passed on. One that
     * tasks on another of our loops woke 2^m times in a row, m its moves so far
     * ({@link LoopTimer#moves}: its first wake, then 2, 4, up to 64; wakes from this loop's own
     * tasks do not count), moves to that loop if it may ({@link #mayMove}) and that
     * loop is home to at most an eighth more tasks than this one ({@link #residents}; the slack
     * lets thousands of pairs pull together at once instead of one move per move the other way):
     * partners that pass messages end up on one loop, where the hand-off slot runs them back to
     * back; a task that two loops wake in turn (seen here as wakes from the other one only, since
     * wakes on its own loop are not seen) moves a few times, each move needing twice the wakes of
     * the last, then at most once per 64 of them; and a task waking many others stops attracting
     * them once its loop is home to more.
     */
    private void accept(Task<?> task) {
        if (task.timer instanceof LoopTimer) {
            LoopTimer lt = (LoopTimer) task.timer;
            int home = lt.homeIn(scheduler);
            if (home != index && home >= 0) {
                scheduler.forward(task, home);
                return;
            }
            int waker = lt.wokenBy;
            if (waker >= 0) {
                lt.wokenBy = -1;
                if (waker != index && mayMove(task, lt)) {
                    int mine = residents.value;
                    int streak = lt.lastWaker == waker ? lt.wakeStreak + 1 : 1;
                    if (streak >= 1 << lt.moves && scheduler.residents(waker) <= mine + (mine >>> 3)) {
                        lt.lastWaker = -1;
                        lt.wakeStreak = 0;
                        lt.moves = Math.min(lt.moves + 1, LoopTimer.MAX_MOVE_SHIFT);
                        lt.moveHome(waker);
                        scheduler.move(task, index, waker);
                        return;
                    }
                    lt.lastWaker = waker;
                    lt.wakeStreak = streak;
                }
            }
            if (!lt.takenToRun()) {
                endResident(task); // its start threw: the caller was told, and it never runs
                return;
            }
        }
        runQueue.add(task);
    }

    /**
     * Whether {@code task} may leave this loop: not pinned, and nothing of it held here (no timer in
     * this loop's queue, not a {@code TaskSleep} sleeper, whose timer and hold live here).
     */
    private static boolean mayMove(Task<?> task, LoopTimer lt) {
        return !lt.pinned
                && lt.handle == 0
                && !lt.held
                && task.getPauseReason() != LoopTimer.SLEEPING
                && !task.isDone();
    }

    /**
     * Tasks whose home is this loop and that have not ended: the load a move compares. Not the run
     * queue's length, which says little at the moment a loop drains its inbox: a loop that serves
     * wakes one at a time always finds its own queue empty, and a waker's loop looks empty while
     * the waker's slice runs, so by queue length a dispatcher's loop would take every task it
     * wakes. A volatile read.
     */
    int residents() {
        return residents.value;
    }

    /** {@code delta} tasks made this loop their home (positive) or left it or ended (negative); any thread. */
    void addResidents(int delta) {
        Residents.VALUE.getAndAdd(residents, delta);
    }

    /**
     * Runs up to {@code n} queued tasks, each with its hand-offs; stops as soon as
     * {@code shutdownNow} is seen, so that at most the slice checked just before the stop starts
     * after it (the rest stay queued, for the exit report).
     */
    private void runBatch(int n) {
        for (int i = 0; i < n; i++) {
            if (scheduler.state() == LoopOwner.STOPPED) {
                return;
            }
            runFrom(runQueue.poll(), true);
        }
    }

    /**
     * Runs a slice of {@code task}, then of the task that slice resumed on this loop ({@link #next}),
     * and so on, up to {@link #MAX_HANDOFFS} hand-offs; the hand-off still pending after the last
     * goes to the tail of the run queue. {@code check}: {@code task} may be a stray resumption of a
     * {@code TaskSleep} sleeper, which is held instead (hand-offs are always checked).
     */
    private void runFrom(Task<?> task, boolean check) {
        for (int handoffs = 0; ; handoffs++) {
            if (check && LoopTimer.sleepingUntilFired(task)) {
                // a stray resumption of a TaskSleep sleeper: the resumed leaf cannot pause again, so
                // hold the task (Kilim's running flag stays set) until fire() runs it
                ((LoopTimer) task.timer).held = true;
            } else {
                if (task.getPauseReason() == LoopTimer.SLEEPING) {
                    LoopTimer.endSleep(task);
                }
                runSlice(task);
            }
            task = next;
            if (task == null) {
                return;
            }
            if (handoffs == MAX_HANDOFFS || scheduler.state() == LoopOwner.STOPPED) {
                runQueue.add(task); // the next turn runs it, or the exit reports it
                next = null; // after the add: if it throws (out of memory), the exit still finds it
                return;
            }
            next = null;
            check = true;
        }
    }

    /**
     * Set when the running task's failure was reported (Kilim's {@code Task.run} reports what
     * {@code execute()} threw through {@code Scheduler.log}); loop thread only.
     */
    boolean failureReported;

    /** Out of line, as every cold path of the slice: what escaped {@code Task.run}. */
    private void escaped(Task<?> task, Throwable escaped) {
        if (task.isDone()) {
            // Kilim marked the task done (it returned, or its failure was reported), then telling
            // its exit mailboxes threw (a listener of one): not the task's failure, and the rest
            // are not told
            scheduler.reportInternal(
                    "task " + task.id() + " ended; telling its exit mailboxes threw, and the rest were not told",
                    escaped);
        } else if (failureReported) {
            // Kilim reported the task's failure, then threw on its way out: a task that ends
            // pinned (pinToThread, a kilim.ReentrantLock held) fails Kilim's check for active
            // pins, and Kilim leaves it unfinished (not done, its exit mailboxes not told).
            // One failure, reported once; this is Kilim's aftermath.
            scheduler.reportInternal(
                    "task " + task.id() + " ended by throwing while pinned; Kilim leaves it unfinished", escaped);
        } else {
            scheduler.taskFailed(task, escaped);
        }
        endResident(task); // it never runs again either way
    }

    /**
     * {@code task} has ended, or was dropped or refused once this loop had left: it no longer
     * counts as resident at its home (once, even if scheduled or reported again). Its home is
     * this loop, except for a task sent here by a thread that read its old home, before this loop
     * passed it on; the reporting thread moved it or received it, so it reads the current home.
     * Any thread.
     */
    void endResident(Task<?> task) {
        if (countResidents && task.timer instanceof LoopTimer t && t.leaveResidents()) {
            int home = t.homeIn(scheduler);
            if (home == index || home < 0) {
                addResidents(-1);
            } else {
                scheduler.residentLeft(home);
            }
        }
    }

    /** Runs one slice of {@code task}, which is not a held TaskSleep sleeper. */
    private void runSlice(Task<?> task) {
        // the interrupt policy (RunLoopScheduler): no task inherits one, whether a task left it or
        // it came from outside while the loop parked or ran its own code
        Thread.interrupted();
        current = task;
        failureReported = false;
        try {
            task.run(); // Kilim catches what execute() throws and reports it through Scheduler.log
        } catch (Throwable escaped) {
            escaped(task, escaped);
        }
        current = null;
        if (countResidents && task.isDone()) {
            endResident(task);
        }
        if (pendingCount != 0 && ++slicesSinceFlush >= FLUSH_SLICES) {
            flushPending(System.currentTimeMillis());
        }
        // Mailbox.get(timeout) cancels its timer by marking it (-1) when a message came first; take
        // it out of the timer queue now instead of carrying it until its deadline. With no timer
        // armed on this loop (the yield and ping-pong paths) the task's timer is not even touched.
        if (armed != 0) {
            Timer t = task.timer;
            if (t instanceof LoopTimer) {
                LoopTimer lt = (LoopTimer) t;
                if (lt.handle != 0 && lt.getExecutionTime() < 0) {
                    timers.cancel(lt.handle);
                    lt.handle = 0;
                    armed--;
                }
            }
        }
    }

    private void idle(int state) {
        if (pendingCount != 0) {
            flushPending(System.currentTimeMillis()); // a sleeper armed in this turn's expiry
            return;
        }
        for (int i = 0; i < idleSpins; i++) {
            if (!inbox.isEmpty()) {
                return;
            }
            Thread.onSpinWait();
        }
        boolean noTimers = timers.isEmpty();
        if (state == LoopOwner.SHUTDOWN && noTimers) {
            quiescent = true;
            if (scheduler.tryTerminate()) {
                return;
            }
        }
        Thread.interrupted(); // a stray interrupt would end every park at once: the loop would spin
        // announce, then re-check the inbox (LoopInbox): a producer that offers after the check
        // sees the announcement and unparks us
        if (inbox.announcePark() && scheduler.state() == state) {
            if (noTimers) {
                LockSupport.park(this);
            } else {
                long now = System.currentTimeMillis();
                if (now < nextDue) {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(nextDue - now)); // saturates
                } else {
                    // the queue answered a tick start at or before now: nothing is due before the
                    // next millisecond, so wait one instead of spinning through the tick. Not
                    // parked while the timers that did fire run their slices (isIdle tells the
                    // truth), and no wait if they left work: a run queue, or sleeps to arm now
                    inbox.parkEnded();
                    expireTimers(now);
                    if (runQueue.isEmpty() && pendingCount == 0 && inbox.announcePark()) {
                        Thread.interrupted();
                        LockSupport.parkNanos(this, 1_000_000L);
                    }
                }
            }
        }
        inbox.parkEnded();
        if (quiescent) {
            quiescent = false;
            wakeups = wakeups + 1; // owner is the only writer
            // before the inbox is read: a termination scan that saw this loop quiescent now fails,
            // or it succeeded first, and loop() sees TERMINATED and runs nothing (SchedulerState)
            scheduler.leaveQuiescence();
        }
    }

    // ---------------------------------------------------------------- timers (owner thread)

    /**
     * Arms a {@code TaskSleep} of {@code millis} for the task running on this loop without reading
     * the clock: the timer waits in {@link #pending} until the loop's next clock read, at most
     * {@value #FLUSH_SLICES} task slices later (or at the end of the turn), and its deadline is taken
     * from that read. Why: a {@code currentTimeMillis()} costs ~29 ns on the 2-core VM, a quarter of
     * a whole expiration, and one read can serve 16 sleeps. Why it is never early: that read happens
     * after the arm, so {@code read + millis + 1} (see {@link #addTimer}) is no earlier than the true
     * arm time plus {@code millis}. The cost is lateness: a sleep's deadline moves later by the time
     * between its arm and the read, that is at most 16 slices (microseconds for typical slices; a
     * slice that computes for a long time delays the deadlines armed before it by as much).
     */
    void armAfterClockRead(LoopTimer timer, long millis) {
        timer.sleepMillis = millis;
        timer.setPlain(PENDING); // not FIRED, so the sleep stays valid; the deadline comes at the flush
        if (pendingCount == pending.length) {
            flushPending(System.currentTimeMillis());
        }
        pending[pendingCount++] = timer;
    }

    /** Placeholder deadline of a pending timer: never fires if it reached the queue unflushed. */
    static final long PENDING = Long.MAX_VALUE - 1;

    /** Gives every pending timer its deadline from {@code now}, a clock read taken after its arm. */
    private void flushPending(long now) {
        LoopTimer[] p = pending;
        int n = pendingCount;
        int i = 0;
        try {
            for (; i < n; i++) {
                LoopTimer timer = p[i];
                long when = now + timer.sleepMillis; // negative on overflow: never fires, as with Kilim's setTimer
                timer.setPlain(when);
                insert(timer, when);
                p[i] = null;
            }
        } finally {
            if (i < n) {
                // the insert of p[i] threw (out of memory as the timer queue grew): the timers not
                // yet queued move to the front, for a later flush or the exit report
                System.arraycopy(p, i, p, 0, n - i);
                Arrays.fill(p, n - i, n, null);
                pendingCount = n - i;
            }
        }
        pendingCount = 0;
        slicesSinceFlush = 0;
    }

    private void addTimer(Timer timer) {
        insert(timer, timer.getExecutionTime());
    }

    /** Queues {@code timer}, whose Kilim deadline is {@code when}, unless {@code when} is negative. */
    private void insert(Timer timer, long when) {
        if (when < 0) {
            return; // cancelled (-1) or already fired (-2) before we got to it
        }
        // Kilim's deadline is a wall-clock millisecond taken with currentTimeMillis(), which may be
        // up to 1 ms behind the true time; firing once the clock has passed it (not reached it) is
        // what makes sleep(d) never shorter than d.
        long deadline = when == Long.MAX_VALUE ? when : when + 1;
        if (timer instanceof LoopTimer) {
            LoopTimer lt = (LoopTimer) timer;
            int home = lt.homeIn(scheduler);
            if (home != index && home >= 0) {
                scheduler.forward(timer, home); // its task moved: a task's timers live on its home loop
                return;
            }
            if (lt.handle == 0) {
                armed++;
                lt.handle = timers.schedule(deadline, timer);
            } else if (!timers.reschedule(lt.handle, deadline)) { // Mailbox.get(timeout) re-arms the same timer
                lt.handle = timers.schedule(deadline, timer);
            }
        } else {
            timers.schedule(deadline, timer);
        }
        if (deadline < nextDue) {
            nextDue = deadline;
        }
    }

    private void expireTimers(long now) {
        if (now < nextDue) {
            return;
        }
        expireNow = now;
        timers.expire(now, fire);
        nextDue = timers.nextDeadline();
    }

    private void fire(Timer timer) {
        if (timer instanceof LoopTimer) {
            ((LoopTimer) timer).handle = 0;
            armed--;
        }
        long when = timer.getExecutionTime();
        if (when < 0) {
            return;
        }
        if (when != Long.MAX_VALUE && when + 1 > expireNow) {
            try {
                addTimer(timer); // moved later without a new scheduleTimer: keep waiting
            } catch (Throwable fatal) { // out of memory as the timer queue grew: the loop dies
                takenOnDeath = timer; // out of the queue and in it nowhere: the exit report lists it
                throw fatal;
            }
            return;
        }
        Task<?> wake;
        firing = true;
        try {
            if (timer instanceof LoopTimer) {
                ((LoopTimer) timer).firePlain();
            } else {
                timer.es.onEvent(null, Timer.timedOut); // a Task resumes itself: back to us via submit
            }
        } catch (Throwable t) {
            // the subscriber's class, not its toString: that may throw too, and kill the loop
            scheduler.reportInternal("timer subscriber " + describe(timer.es) + " threw", t);
        } finally {
            firing = false;
        }
        // not in the finally: if the report threw, the loop dies with the woken task in fired,
        // where the exit report finds it
        wake = fired;
        fired = null;
        if (wake == null && timer instanceof LoopTimer && ((LoopTimer) timer).held) {
            // a TaskSleep sleeper whose stray resumption runFrom held: its resume() in onEvent
            // found it still marked running, so run it here
            ((LoopTimer) timer).held = false;
            wake = (Task<?>) timer.es;
        }
        if (wake != null) {
            // Run it now, inside expire (the TimerQueue contract allows the consumer to schedule
            // and cancel): onEvent has just pulled the task's lines into cache, and with 10^5
            // sleepers a later visit from the run queue would miss on all of them again. A due
            // timer's task thus runs before tasks already queued; a task that sleeps again fires
            // in a later expire call, so one call fires each timer at most once (with the slices
            // it hands off to, at most 1 + MAX_HANDOFFS slices per fired timer).
            // the timer's own task, just fired, is not a stray resumption; one resumed by some other
            // subscriber may be a TaskSleep sleeper to hold
            if (scheduler.state() == LoopOwner.STOPPED) {
                try {
                    runQueue.add(wake); // shutdownNow returned: not run; the exit report lists it
                } catch (Throwable fatal) { // out of memory as the run queue grew: the loop dies
                    takenOnDeath = wake;
                    throw fatal;
                }
                return;
            }
            runFrom(wake, wake != timer.es);
        }
    }

    // ---------------------------------------------------------------- what the scheduler asks

    /** Names {@code o} by class and identity, without calling its {@code toString}. */
    private static String describe(Object o) {
        return o == null ? "null" : o.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(o));
    }

    /** The loop whose thread is calling, or null when the caller is not a loop thread. */
    static RunLoop onCurrentThread() {
        Thread t = Thread.currentThread();
        return t instanceof LoopThread ? ((LoopThread) t).loop : null;
    }

    boolean ownedBy(LoopOwner o) {
        return scheduler == o;
    }

    /** This loop is {@code timer}'s home. */
    boolean isHomeOf(LoopTimer timer) {
        return timer.homeIn(scheduler) == index;
    }

    int index() {
        return index;
    }

    Thread thread() {
        return thread;
    }

    /**
     * For the termination scan: when the loop is quiescent (nothing runnable, no timer) and its inbox
     * is empty, the number of times it has left a quiescent park (a scan that reads the same number
     * twice saw no wake-up in between); otherwise -1.
     */
    long quiescentMark() {
        return quiescent && inbox.isEmpty() ? wakeups : -1;
    }

    /** Parked, about to park (no producer has claimed the wake-up yet) or quiescent, with an empty inbox. */
    boolean isIdle() {
        return (inbox.isParked() || quiescent) && inbox.isEmpty();
    }

    /** A counter padded by inheritance (superclass fields are laid out first) to 128 bytes each side. */
    @SuppressWarnings("unused")
    private static class ResidentsPad {
        int p; // fills the gap after the object header, which the JVM would otherwise give to value
        long p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15;
    }

    private static class ResidentsValue extends ResidentsPad {
        volatile int value;
    }

    @SuppressWarnings("unused")
    private static final class Residents extends ResidentsValue {
        static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(ResidentsValue.class, "value", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        long q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15;
    }
}
