package io.tickwork.scheduler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import kilim.Task;

/**
 * The end of one {@link RunLoop}'s life: what becomes of the tasks it still holds when it leaves
 * its loop, and of tasks that reach its inbox after that. Each such task is reported to the
 * {@link LoopOwner} once for each way it reached the exit: a task the loop still holds when it
 * leaves (queued, or waiting on one of its timers), as dropped after {@code shutdownNow} or as
 * rejected after an orderly shutdown; a task woken after the loop left, as rejected in either case
 * (a late wake-up is refused, not something {@code shutdownNow} interrupted, and the list of
 * dropped tasks stays what the stop left), and so is a task woken from a thread outside the loops
 * (or started there by Kilim's own {@code Task.start()}) after {@code shutdownNow}, while the loop
 * has not left yet. So a task dropped while it
 * waited on a timer and then woken is reported twice, as dropped and as rejected. (A wake-up that
 * races with the stop itself may count either way.) A wake-up of a task already woken never
 * reaches the scheduler (Kilim resumes a task once per pause), so nothing is reported a third time.
 * A task that a {@code RunLoopScheduler.start} is still handing over is not reported at all: that
 * start throws for it ({@link LoopTimer#refusalToStarter}).
 *
 * <p><b>Thread safety:</b> {@link #exit} runs on the loop's thread, {@link #rejectLate} on any
 * producer's; both hold this object's lock while they empty the inbox, so an item is reported by
 * the loop's own exit or by one late producer, never twice, and both report after releasing it,
 * since a report calls the user's logger. Cold code: it runs only at the end.
 */
final class LoopExit {
    private final LoopOwner scheduler;
    private final LoopInbox inbox;
    private final String loopName;
    /** Takes a reported task out of its home loop's resident count (it never runs there again). */
    private final Consumer<Task<?>> leave;
    /** Guarded by {@code this}: the loop has left its run loop and no longer reads its inbox. */
    private boolean exited;
    /**
     * Guarded by {@code this}: tasks started or woken from outside the loops after
     * {@code shutdownNow}, before this loop exited; reported as rejected, not as dropped.
     */
    private final Set<Task<?>> late = Collections.newSetFromMap(new IdentityHashMap<>());

    LoopExit(LoopOwner scheduler, LoopInbox inbox, String loopName, Consumer<Task<?>> leave) {
        this.scheduler = scheduler;
        this.inbox = inbox;
        this.loopName = loopName;
        this.leave = leave;
    }

    /**
     * Loop thread, leaving its run loop: reports {@code held} (the tasks it still holds, runnable
     * or waiting on its timers) and the inbox. After an orderly termination a loop holds no task
     * (every loop was idle, and none runs anything once it is terminated), only late starts and
     * wake-ups in its inbox: they are rejected.
     */
    void exit(List<Task<?>> held) {
        boolean stopped;
        List<Task<?>> rejected = new ArrayList<>();
        synchronized (this) {
            exited = true;
            stopped = scheduler.state() == LoopOwner.STOPPED;
            takeInbox(held); // appended: the inbox's tasks are reported like the held ones
            if (stopped && !late.isEmpty()) {
                // a late task is rejected; dropped as well only if it was waiting on a timer when
                // the stop came (it is paused: a late wake-up found it so; its timer, still set,
                // says it waited on one)
                for (int i = held.size() - 1; i >= 0; i--) {
                    Task<?> t = held.get(i);
                    if (late.contains(t)) {
                        rejected.add(t);
                        if (t.timer == null || t.timer.getExecutionTime() <= 0) {
                            held.remove(i);
                        }
                    }
                }
                late.clear();
            }
        }
        report(held, stopped);
        report(rejected, false);
    }

    /**
     * A producer saw TERMINATED after its offer: if the loop has already exited, nobody else will
     * look at the inbox, so the producer reports what it finds there. Else, after
     * {@code shutdownNow}, {@code lateTask} (a task started or woken from outside the loops; null
     * for anything else) is marked late, for the exit to reject rather than drop.
     */
    void rejectLate(Task<?> lateTask) {
        List<Task<?>> taken = new ArrayList<>();
        synchronized (this) {
            if (!exited) {
                if (lateTask != null && scheduler.state() == LoopOwner.STOPPED) {
                    late.add(lateTask); // the loop's exit() will see it, and reject it
                }
                return; // the loop's exit() will see our item
            }
            takeInbox(taken);
        }
        report(taken, false); // woken after the loop ended: rejected, whatever ended it
    }

    /**
     * Empties the inbox into {@code into} (caller holds the lock), adding each task once and none
     * that {@code into} holds already: a task woken from another thread while it waited on one of
     * the loop's timers is both in the inbox and among the held tasks.
     */
    private void takeInbox(List<Task<?>> into) {
        Set<Task<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        seen.addAll(into);
        for (Object o; (o = inbox.poll()) != null; ) {
            if (o instanceof Task<?> t && seen.add(t)) {
                into.add(t);
            }
        }
    }

    /**
     * Reports each task as dropped or rejected, without the lock: the report reaches the user's
     * logger, which may wake tasks of other loops (whose exits take their own locks) or of this one.
     */
    private void report(List<Task<?>> tasks, boolean stopped) {
        for (Task<?> t : tasks) {
            leave.accept(t); // before the report, so a logger that prints the scheduler sees it gone
            if (t.timer instanceof LoopTimer lt && lt.refusalToStarter()) {
                continue; // a start() handing it over throws instead: told once, to its caller
            }
            if (stopped) {
                scheduler.dropped(t);
            } else {
                reject(t);
            }
        }
    }

    private void reject(Task<?> task) {
        try {
            scheduler.rejected(
                    task,
                    new RejectedExecutionException("task " + task.id() + " started or woken after " + loopName
                            + (scheduler.state() == LoopOwner.STOPPED
                                    ? " was stopped (shutdownNow, or a loop failed)"
                                    : " terminated")));
        } catch (Throwable reportFailed) { // Kilim's logger is the user's: the other tasks are still reported
            scheduler.reportInternal("reporting a rejected task threw", reportFailed);
        }
    }
}
