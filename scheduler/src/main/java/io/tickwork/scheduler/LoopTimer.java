package io.tickwork.scheduler;

import kilim.EventSubscriber;
import kilim.timerservice.Timer;

/**
 * A Kilim {@link Timer} that knows its home {@link RunLoop} and its handle in that loop's
 * {@link io.tickwork.primitives.timer.TimerQueue}. {@link RunLoopScheduler} installs one in every
 * task it adopts (the field {@code Task.timer} is public), which gives each task two things without a
 * side table: its loop affinity, and a handle so that the timer of a {@code Mailbox.get(timeout)}
 * that was answered by a message is removed from the timer queue at once instead of lingering until
 * its deadline.
 *
 * <p><b>Thread safety:</b> {@link #handle} and {@link #held} are read and written only by the home loop's thread.
 */
final class LoopTimer extends Timer {
    final RunLoopScheduler scheduler;
    final RunLoop loop;
    /** Handle in {@code loop}'s timer queue while pending, 0 when not queued. */
    long handle;
    /** A stray resumption of the task's TaskSleep sleep was held; fire() runs the task. */
    boolean held;
    /** The length of the TaskSleep waiting for the loop's next clock read ({@link RunLoop#armAfterClockRead}). */
    long sleepMillis;

    LoopTimer(EventSubscriber task, RunLoop loop) {
        super(task);
        this.scheduler = loop.scheduler;
        this.loop = loop;
    }
}
