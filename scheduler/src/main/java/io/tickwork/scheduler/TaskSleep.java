package io.tickwork.scheduler;

import kilim.Fiber;
import kilim.Pausable;
import kilim.Task;
import kilim.timerservice.Timer;

/**
 * {@code Task.sleep} without the mailbox: pauses the current Kilim task for at least
 * {@code millis} ms on its own timer.
 *
 * <p>Kilim's {@code Task.sleep(ms)} allocates a one-slot {@code Mailbox} per call and waits on it
 * with a timeout (two {@code synchronized} blocks and a subscriber registration). This pauses on the
 * task's {@link Timer} directly: one timer-queue insert and one pause. On {@link RunLoopScheduler} it
 * does not even read the clock: the loop reads it at most {@value RunLoop#FLUSH_SLICES} task slices
 * later and takes the deadline from that read ({@link RunLoop#armAfterClockRead}), one read for many
 * sleeps.
 * Same guarantee on {@link RunLoopScheduler}: never early, typically 1-2 ms late, also when
 * something resumes the task early (the loop holds such a resumption until the timer fired), as
 * long as the wall clock does not step (see the caveat in {@link RunLoopScheduler}). Unlike
 * {@code Task.sleep}, whose deadline is read at the call, a slice that runs on the loop between the
 * call and the loop's clock read adds its length: a task computing 100 ms there makes a 50 ms sleep
 * last about 150 ms, where {@code Task.sleep(50)} lasts about 100. It works on Kilim's own
 * schedulers too (the timer goes through {@code Scheduler.scheduleTimer}), with their timing: there
 * it may end up to 1 ms early, as {@code Task.sleep} does (their timer service fires a timer in the
 * millisecond its deadline falls in), or earlier on a stray resumption.
 *
 * <p><b>Interrupts and shutdown.</b> A thread interrupt does not end a sleep (a Kilim task has no
 * interrupt; the loop clears the flag before each slice). An orderly {@code shutdown()},
 * {@code idledown()} or {@code close()} waits for the sleep's timer, so a task sleeping an hour
 * keeps the scheduler an hour; {@code shutdownNow()} drops the sleeping task, listed by
 * {@code droppedTasks()} (see "Shutdown" in {@link RunLoopScheduler}).
 *
 * <p>Not woven: the woven form {@link #sleep(long, Fiber)} is written by hand (see there).
 *
 * <p><b>Thread safety:</b> call only from inside a running Kilim task; it arms that task's own
 * timer, which the task's home loop owns.
 */
public final class TaskSleep {
    private TaskSleep() {}

    /**
     * Pauses the calling task for at least {@code millis} ms; {@code millis <= 0} just yields.
     * A stray resumption (a stale mailbox notification) does not end the sleep early. A
     * {@code millis} so large that the wall-clock deadline overflows a {@code long} (more than
     * {@code Long.MAX_VALUE} minus now) is not timed at all, as with Kilim's own {@code setTimer}: on
     * {@link RunLoopScheduler} the task stays paused for good (a stray resumption is held, as for
     * any sleep).
     *
     * <p>This is the signature callers compile against; the weaver rewrites their calls to
     * {@link #sleep(long, Fiber)}, so this body never runs in woven code.
     *
     * @throws IllegalStateException if the call was not rewritten: the caller was woven without
     *     tickwork-scheduler on the weaver's classpath, or not at all (a plain thread's code, say,
     *     or a reflective call)
     */
    public static void sleep(long millis) throws Pausable {
        // Kilim's errNotWoven() would end the JVM with status 0: a task class woven by a weaver that
        // could not see this class (tickwork-scheduler missing from its classpath) gets here
        throw new IllegalStateException("TaskSleep.sleep(long) was called from code Kilim's weaver did not"
                + " rewrite: call it from inside a Kilim task (a woven Pausable method), and weave the caller with"
                + " tickwork-scheduler on the weaver's classpath (a dependency of the kilim Maven plugin, or on"
                + " kilim.tools.Weaver's -cp), so that it knows this method pauses");
    }

    /**
     * The woven form of {@link #sleep(long)}, written by hand as a leaf like Kilim's own
     * {@code Task.pause(PauseReason, Fiber)}: it adds no frame of its own to the fiber. A woven
     * {@code sleep} pushes a frame that allocates a {@code kilim.State} (24-32 B) and runs
     * {@code Fiber.down/up/setState} on every sleep and every wake-up; as a leaf, a sleep costs a
     * yield plus the timer.
     *
     * <p>A woven caller calls the leaf again when it resumes ({@code f.pc != 0}, with dummy
     * arguments), which completes the pause. {@link RunLoop} holds a stray resumption (a stale
     * notification that resumes the task before its timer fired) instead of running the task,
     * and runs the task when the timer fires, so on {@link RunLoopScheduler} the leaf only ever
     * resumes after its timer. On Kilim's
     * own schedulers a stray resumption ends the sleep early; there the resumed leaf cancels the
     * task's timer, as Kilim's timed waits do, so the task's next wait is not taken for timed
     * out.
     */
    public static void sleep(long millis, Fiber f) {
        if (f.pc != 0) {
            // resumed: the woven caller calls again with dummy arguments (millis is 0 here,
            // whatever the first call asked), so only the fiber decides. On one of Kilim's
            // schedulers, take the timer out of its "fired" state (or cancel it, after a stray
            // resumption), as Kilim's own timed waits do after their pause: left fired, it makes
            // the task's next untimed wait look timed out, and that wait resumes at once, for ever
            if (!(f.task.timer instanceof LoopTimer)) {
                f.task.timer.cancel();
            }
            Task.pause(LoopTimer.SLEEPING, f); // pc != 0: completes the pause
            return;
        }
        if (millis <= 0) {
            Task.yield(f);
            return;
        }
        arm(f.task, millis);
        Task.pause(LoopTimer.SLEEPING, f); // pc 0: marks the fiber as pausing, with SLEEPING as the reason
    }

    private static void arm(Task<?> task, long millis) {
        Timer timer = task.timer;
        if (!(timer instanceof LoopTimer)) {
            timer.setTimer(millis);
            task.getScheduler().scheduleTimer(timer);
            return;
        }
        LoopTimer home = (LoopTimer) timer;
        RunLoop loop = RunLoop.onCurrentThread();
        if (loop != null && loop.isHomeOf(home)) {
            loop.armAfterClockRead(home, millis); // no clock read here
            return;
        }
        timer.setTimer(millis);
        home.submitHome();
    }
}
