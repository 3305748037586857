package io.tickwork.scheduler;

import kilim.Task;
import kilim.timerservice.Timer;

/**
 * What a {@link RunLoop} and a {@link LoopTimer} see of the scheduler that owns them: the shared
 * lifecycle state, where a loop reports the tasks it could not run or that failed, the termination
 * scan, and the route of a timer to its task's home loop. {@link RunLoopScheduler} implements it
 * with a private object, so these calls stay out of its public API; the loops depend on this
 * interface and never on the scheduler class.
 *
 * <p><b>Cost:</b> one implementation, so the JIT binds every call statically (monomorphic) and
 * inlines it; nothing here allocates on the hot paths ({@link #state()} is one volatile load).
 *
 * <p><b>Thread safety:</b> every method may be called from any thread.
 */
interface LoopOwner {
    /** {@link #state()}: running; tasks are accepted and run. */
    int RUNNING = 0;
    /** {@link #state()}: orderly shutdown; loops run what is runnable and end when all are idle. */
    int SHUTDOWN = 1;
    /** {@link #state()}: every loop ends at its next turn; tasks woken now are rejected. */
    int TERMINATED = 2;
    /** {@link #state()}: {@code shutdownNow}; queued tasks are dropped, not run. */
    int STOPPED = 3;

    /** The lifecycle state, one of the constants above; it only ever grows. A volatile load. */
    int state();

    /**
     * Termination scan, run by a loop that has just become quiescent during shutdown; true when the
     * scheduler is (now) terminated.
     */
    boolean tryTerminate();

    /**
     * A loop that was quiescent during an orderly shutdown is about to look at its inbox again;
     * false if the scheduler terminated (or stopped) first, and the loop must then run nothing
     * more. A termination scan that saw the loop quiescent before this call fails.
     */
    boolean leaveQuiescence();

    /** A loop thread has left its run loop. */
    void loopEnded();

    /**
     * Loop {@code loopName}'s own machinery threw {@code fatal} (not a task: an {@code Error} such
     * as {@code OutOfMemoryError}, or a bug): reports it and stops the scheduler as
     * {@code shutdownNow} does, so that no task waits for the dead loop. Called on that loop's
     * thread, before it reports what it leaves queued.
     */
    void loopDied(String loopName, Throwable fatal);

    /** {@code task} ended by throwing {@code failure}; called on the loop thread that ran it. */
    void taskFailed(Task<?> task, Throwable failure);

    /** {@code task} was started or woken too late: after its loop had ended, or from outside the loops after {@code shutdownNow}. */
    void rejected(Task<?> task, Throwable why);

    /** {@code task} was runnable but is not run because of {@code shutdownNow}. */
    void dropped(Task<?> task);

    /** The loop's own machinery (not a task) caught {@code t} while doing {@code what}. */
    void reportInternal(String what, Throwable t);

    /** Queues {@code timer} on its task's home loop (from whichever thread calls). */
    void scheduleTimer(Timer timer);

    /** Hands {@code taskOrTimer} to loop {@code loop}'s inbox (from whichever thread calls). */
    void forward(Object taskOrTimer, int loop);

    /**
     * Hands {@code task}, whose home just became loop {@code loop} instead of the calling loop
     * {@code from}, to that loop, moving it between the two loops' resident counts first.
     */
    void move(Task<?> task, int from, int loop);

    /** Tasks whose home is loop {@code loop} and that have not ended: a hint for placement only. */
    int residents(int loop);

    /**
     * A task whose home is loop {@code loop} has ended, or was dropped or refused by another loop
     * (one it was sent to by a thread that read its old home): one fewer resident there. Any
     * thread.
     */
    void residentLeft(int loop);
}
