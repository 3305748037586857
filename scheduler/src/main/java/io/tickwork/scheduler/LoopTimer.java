package io.tickwork.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import kilim.Event;
import kilim.EventPublisher;
import kilim.EventSubscriber;
import kilim.PauseReason;
import kilim.Task;
import kilim.timerservice.Timer;

/**
 * A Kilim {@link Timer} that knows its home loop (its {@link LoopOwner} and the loop's index there)
 * and its handle in that loop's {@link io.tickwork.primitives.timer.TimerQueue}. The scheduler
 * installs one in every task it adopts (the field {@code Task.timer} is public), which gives each
 * task two things without a side table: its loop affinity, and a handle so that the timer of a
 * {@code Mailbox.get(timeout)} that was answered by a message is removed from the timer queue at
 * once instead of lingering until its deadline. It also defines how a task sleeps on it
 * ({@link #SLEEPING}, {@link #FIRED}), which {@code TaskSleep} arms and the loop honours. It knows
 * its loop by index, not by reference, so it depends on nothing above it but {@link LoopOwner}.
 *
 * <p><b>Owner-only deadline writes.</b> Kilim keeps a timer's deadline in a {@code volatile} field, so
 * each {@code setLiteral} is a full fence. A {@code LoopTimer}'s deadline is read and written only by
 * its home loop's thread (a task resumed from elsewhere reaches that thread through the loop's inbox,
 * which orders everything before it), so the loop writes it with release stores ({@link #setPlain}, a
 * plain {@code mov} on x86), and fires a task whose {@code onEvent} is Kilim's own by doing what that
 * method does ({@link #firePlain}) with such a store. If the field cannot be reached (a Kilim whose
 * {@code Timer} differs from 2.0.2's), both fall back to Kilim's methods.
 *
 * <p><b>Thread safety:</b> {@link #handle}, {@link #held}, {@link #sleepMillis} and the deadline are
 * read and written only by the home loop's thread; a task moves to another loop only while none of
 * them holds state (no timer queued, not held, not sleeping), so the new home starts clean.
 */
final class LoopTimer extends Timer {
    /** Kilim's {@code Timer.nextExecutionTime}, or null if it is not where 2.0.2 keeps it. */
    private static final VarHandle DEADLINE = deadlineHandle();

    private static VarHandle deadlineHandle() {
        try {
            return MethodHandles.privateLookupIn(Timer.class, MethodHandles.lookup())
                    .findVarHandle(Timer.class, "nextExecutionTime", long.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static final VarHandle ENDED;
    private static final VarHandle START;

    static {
        try {
            ENDED = MethodHandles.lookup().findVarHandle(LoopTimer.class, "ended", boolean.class);
            START = MethodHandles.lookup().findVarHandle(LoopTimer.class, "start", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@link #start}: the task's fate is decided (it runs, or no start waits to hear of it). */
    private static final int SETTLED = 0;
    /** {@link #start}: a {@code RunLoopScheduler.start} call has handed the task over and not returned yet. */
    private static final int STARTING = 1;
    /** {@link #start}: the task never runs, and the {@code start} call that handed it over throws. */
    private static final int REFUSED = 2;

    /**
     * Who tells the fate of a task that a {@code start} call is handing over: {@link #STARTING}
     * from before any loop can see the task. The first of three decides, by one CAS from
     * {@code STARTING}: the loop taking the task from its inbox to run it ({@link #takenToRun},
     * SETTLED), the start learning whether the scheduler admitted it ({@link #settleStart}), or a
     * loop's exit dropping or refusing it ({@link #refusalToStarter}, REFUSED). A REFUSED task is
     * neither run nor reported: its start throws. So a start that returns means the task runs
     * (or is dropped by a later {@code shutdownNow}, and listed), and each refusal is told once.
     */
    private volatile int start;

    /**
     * The {@code start} call of this thread hands the task over; before the task reaches a loop.
     * A plain store: the hand-over (an inbox offer, or the loop's own queue) publishes it.
     */
    void startInProgress() {
        START.set(this, STARTING);
    }

    /**
     * The start learned from the scheduler whether the task is {@code admitted}: true if the task
     * runs (admitted, or a loop took it to run before the end), false if the start must throw.
     * Any thread.
     */
    boolean settleStart(boolean admitted) {
        if (START.compareAndSet(this, STARTING, admitted ? SETTLED : REFUSED)) {
            return admitted;
        }
        return start == SETTLED; // a loop took it to run, or an exit refused it first
    }

    /** The home loop takes the task from its inbox: false if its start threw for it (do not run it). */
    boolean takenToRun() {
        int s = start;
        return s == SETTLED || (s == STARTING && START.compareAndSet(this, STARTING, SETTLED)) || start == SETTLED;
    }

    /**
     * A loop's exit drops or refuses the task: true if the start that hands it over throws for it
     * instead (the exit reports nothing), false if the exit reports it. Any thread.
     */
    boolean refusalToStarter() {
        int s = start;
        return s == REFUSED || (s == STARTING && START.compareAndSet(this, STARTING, REFUSED)) || start == REFUSED;
    }

    /**
     * True for the one call that takes the task out of its home's resident count: the home loop
     * ending it, or a loop's exit dropping or refusing it (a task dropped while it waited on a
     * timer and then woken is reported twice, by two threads).
     */
    boolean leaveResidents() {
        return !ended && ENDED.compareAndSet(this, false, true);
    }

    /**
     * The task went on to another scheduler (Kilim's {@code Task.resumeOnScheduler}, which yields
     * it there): it leaves its home's resident count here, once. Called by the scheduler adopting
     * it, on the thread of the slice that yielded it, which is its home loop's.
     */
    void leftScheduler() {
        if (leaveResidents()) {
            scheduler.residentLeft(home);
        }
    }

    /** Kilim's Task.onEvent marks a timer that fired with this execution time. */
    static final long FIRED = -2;

    /** The pause reason of a task sleeping on its own timer: valid (keep it paused) until the timer fired. */
    private static final class Sleeping implements PauseReason {
        @Override
        public boolean isValid(Task t) {
            return t.timer.getExecutionTime() != FIRED;
        }

        @Override
        public String toString() {
            return "sleeping";
        }
    }

    static final PauseReason SLEEPING = new Sleeping();

    /** True when running {@code task} now would be a stray resumption of a sleep on its timer. */
    static boolean sleepingUntilFired(Task<?> task) {
        return task.getPauseReason() == SLEEPING && task.timer.getExecutionTime() != FIRED;
    }

    /**
     * A {@code TaskSleep} sleeper is about to run again: clears its timer's fired mark. The woven
     * caller never calls the sleep again to clear it (Kilim's own timed waits cancel their timer
     * after each wait), and Kilim judges any later mailbox pause by it: a fired mark left behind
     * makes every later wait look timed out at once, and the task would be resumed for ever.
     * Home loop thread only.
     */
    static void endSleep(Task<?> task) {
        if (task.timer instanceof LoopTimer t && t.getExecutionTime() == FIRED) {
            t.setPlain(-1);
        }
    }

    /** True if the deadline writes skip Kilim's fence (the field was found). */
    static boolean fencelessWrites() {
        return DEADLINE != null;
    }

    /** Task classes whose {@code onEvent} is Kilim's own, which {@link #firePlain} may inline. */
    private static final ClassValue<Boolean> STOCK_ON_EVENT = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("onEvent", EventPublisher.class, Event.class)
                                .getDeclaringClass()
                        == Task.class;
            } catch (NoSuchMethodException e) {
                return Boolean.FALSE;
            }
        }
    };

    /** {@code setLiteral(value)} as a release store; home loop thread only. */
    void setPlain(long value) {
        if (DEADLINE != null) {
            DEADLINE.setRelease(this, value);
        } else {
            setLiteral(value);
        }
    }

    /**
     * Fires this timer: {@code es.onEvent(null, Timer.timedOut)}. For the timer of a task whose
     * {@code onEvent} is Kilim's, this does what that method does (mark the timer fired, then
     * {@code resume()}) with a release store for the mark. Home loop thread only.
     */
    void firePlain() {
        EventSubscriber subscriber = es;
        if (inlineOnEvent && subscriber == owner && owner.timer == this) {
            DEADLINE.setRelease(this, FIRED);
            owner.resume();
        } else {
            subscriber.onEvent(null, Timer.timedOut);
        }
    }

    /** The scheduler that adopted the task. */
    private final LoopOwner scheduler;
    /**
     * The index of the task's home loop in {@link #scheduler}. Written only by the home loop's
     * thread when it moves an unpinned task ({@link #moveHome}), at a point where the task is
     * neither running nor queued anywhere; the inbox hand-over to the new home publishes it, and a
     * thread that read the old value sends the task to the old home, which passes it on.
     */
    private int home;
    /** Placed with an explicit loop index: never moves. */
    final boolean pinned;
    /**
     * The loop whose task resumed this task from another loop, or -1: written by that loop's thread
     * before it hands the task to the home loop's inbox (which publishes it), read and cleared by
     * the home loop's thread.
     */
    int wokenBy = -1;
    /**
     * Home loop thread only: the other loop that last woke the task at a moment it could move (a
     * wake while it holds a timer or sleep, or is pinned, is not counted), -1 if none since its last
     * move.
     */
    int lastWaker = -1;
    /** Home loop thread only: wakes in a row from {@link #lastWaker}. */
    int wakeStreak;
    /**
     * Home loop thread only: the task's moves so far, at most {@link #MAX_MOVE_SHIFT}. A move needs
     * 2^moves wakes in a row from one other loop: the first wake moves a task at once (its home
     * was chosen blind at start, by the spread, so the first waker is the best evidence of where
     * its partner lives; waiting for a second costs a pair that swaps a few dozen messages a tenth
     * of its life), the next move needs 2, then 4, up to 64. Wakes from the task's own loop are
     * not seen, so a task that two loops wake in turn would otherwise move back and forth, an
     * inbox hand-over a move, every second wake from the other loop; this way it moves a few
     * times, then at most once per 64 such wakes.
     */
    int moves;

    /** The most doublings of the wakes a move needs: 2^6 = 64 in a row. */
    static final int MAX_MOVE_SHIFT = 6;

    /**
     * The task has left its home's resident count: it ended (set by the home loop's thread), or,
     * once its loop had left, it was dropped or refused (set by whichever thread reported it).
     * Set once, by {@link #leaveResidents}.
     */
    private boolean ended;
    /** Handle in the home loop's timer queue while pending, 0 when not queued. */
    long handle;
    /** A stray resumption of the task's TaskSleep sleep was held; fire() runs the task. */
    boolean held;
    /** The length of the TaskSleep waiting for the loop's next clock read ({@code RunLoop.armAfterClockRead}). */
    long sleepMillis;

    /** The task this timer was made for, if it is one; with {@link #inlineOnEvent}, decided once here, not per firing. */
    private final Task<?> owner;
    /** {@link #firePlain} may do the owner's {@code onEvent} itself (Kilim's own, and the field was found). */
    private final boolean inlineOnEvent;

    LoopTimer(EventSubscriber task, LoopOwner scheduler, int home, boolean pinned) {
        super(task);
        this.scheduler = scheduler;
        this.home = home;
        this.pinned = pinned;
        this.owner = task instanceof Task ? (Task<?>) task : null;
        this.inlineOnEvent = DEADLINE != null && owner != null && STOCK_ON_EVENT.get(owner.getClass());
    }

    /** The index of this timer's home loop if {@code scheduler} adopted its task, else -1. */
    int homeIn(LoopOwner scheduler) {
        return this.scheduler == scheduler ? home : -1;
    }

    /** Makes loop {@code index} the task's home; home loop thread only, with no timer of it queued. */
    void moveHome(int index) {
        home = index;
    }

    /** Queues this timer on its home loop, from any thread. */
    void submitHome() {
        scheduler.scheduleTimer(this);
    }
}
