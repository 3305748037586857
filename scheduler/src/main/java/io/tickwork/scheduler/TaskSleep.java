package io.tickwork.scheduler;

import kilim.Pausable;
import kilim.PauseReason;
import kilim.Task;
import kilim.timerservice.Timer;

/**
 * {@code Task.sleep} without the mailbox: pauses the current Kilim task for at least
 * {@code millis} ms on its own timer.
 *
 * <p>Kilim's {@code Task.sleep(ms)} allocates a one-slot {@code Mailbox} per call and waits on it
 * with a timeout (two {@code synchronized} blocks and a subscriber registration). This pauses on the
 * task's {@link Timer} directly: one {@code currentTimeMillis()}, one timer-queue insert, one pause.
 * Same guarantee on {@link RunLoopScheduler}: never early, typically 1-2 ms late. It works on any
 * Kilim scheduler (the timer goes through {@code Scheduler.scheduleTimer}).
 *
 * <p>This class contains pausable code and is woven at build time, like every Kilim task.
 */
public final class TaskSleep {
    private TaskSleep() {
    }

    /** Kilim's Task.onEvent marks a timer that fired with this execution time. */
    private static final long FIRED = -2;

    /** Valid (keep the task paused) until its timer fired. */
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

    private static final PauseReason SLEEPING = new Sleeping();

    /**
     * Pauses the calling task for at least {@code millis} ms; {@code millis <= 0} just yields.
     * A stray resumption (a stale mailbox notification) does not end the sleep early.
     */
    public static void sleep(long millis) throws Pausable {
        if (millis <= 0) {
            Task.yield();
            return;
        }
        Task<?> task = Task.getCurrentTask();
        Timer timer = task.timer;
        timer.setTimer(millis);
        if (timer instanceof LoopTimer) {
            ((LoopTimer) timer).loop.submitTimer(timer); // on the home loop: a direct insert
        } else {
            task.getScheduler().scheduleTimer(timer);
        }
        do {
            Task.pause(SLEEPING);
        } while (timer.getExecutionTime() != FIRED);
    }
}
