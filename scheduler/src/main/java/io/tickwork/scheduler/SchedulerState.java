package io.tickwork.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A scheduler's lifecycle word: the state ({@link LoopOwner#RUNNING} to {@link LoopOwner#STOPPED})
 * in the low 32 bits and, during an orderly shutdown, an epoch in the high 32 bits.
 *
 * <p><b>Why an epoch.</b> An orderly shutdown terminates once every loop is quiescent (idle, inbox
 * empty, no timers), seen twice in a row by one loop's termination scan. A start or wake-up from a
 * thread that is not a loop's can reach a quiescent loop between that scan and the switch to
 * TERMINATED: the loop wakes, reads SHUTDOWN and runs the task, and the scheduler terminates
 * beneath it. So a loop that leaves quiescence first moves the epoch on ({@link
 * #leaveQuiescence}), and a scan terminates only by a compare-and-set from the word it read before
 * it looked at the loops ({@link #terminate}): one of the two CASes fails. Either the loop leaves
 * first, and the scan's CAS fails (the loop scans again once it is idle); or the scan's CAS comes
 * first, and the loop sees TERMINATED and runs nothing, its inbox reported as rejected. A
 * {@code start} moves the epoch on too, once its task is handed over ({@link #admitStarted}): so
 * it learns which came first, and throws for a task that will not run instead of returning as if
 * it would.
 *
 * <p><b>Cost:</b> {@link #state} is one volatile load. The CAS of {@link #leaveQuiescence} happens
 * only while a shutdown is in progress, once per wake-up of an idle loop and once per start
 * ({@link #admitStarted}; before the shutdown a start reads the word only).
 *
 * <p><b>Thread safety:</b> every method may be called from any thread.
 */
class SchedulerState {
    /** One epoch, in the high half of the word. */
    private static final long EPOCH = 1L << 32;

    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(SchedulerState.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The state in the low half, the shutdown's epoch in the high half; starts RUNNING. */
    private volatile long word = LoopOwner.RUNNING;

    /** The lifecycle state, one of {@link LoopOwner}'s constants; it only ever grows. */
    public final int state() {
        return (int) word;
    }

    /** RUNNING to SHUTDOWN; true if this call made the change. */
    final boolean shutdown() {
        return WORD.compareAndSet(this, (long) LoopOwner.RUNNING, (long) LoopOwner.SHUTDOWN);
    }

    /** To STOPPED, unless terminated already: an orderly termination stays one (nothing was dropped). */
    final void stop() {
        for (long w; (int) (w = word) < LoopOwner.TERMINATED; ) {
            if (WORD.compareAndSet(this, w, (long) LoopOwner.STOPPED)) {
                return;
            }
        }
    }

    /** What a termination scan reads of each loop. */
    interface QuiescenceMarks {
        int loops();

        /**
         * Negative unless loop {@code i} is quiescent with an empty inbox; then the number of times
         * it has left quiescence, so two equal reads saw no wake-up in between.
         */
        long mark(int i);
    }

    /**
     * An orderly shutdown's termination scan: reads the word, then every loop's mark twice; if each
     * loop was quiescent and none woke between its two reads, SHUTDOWN to TERMINATED by a CAS from
     * the word read first ({@link #terminate}), which a loop leaving quiescence meanwhile has
     * moved on. True if this call terminated the scheduler.
     */
    final boolean terminateIfQuiescent(QuiescenceMarks loops) {
        long start = scanStart(); // before the scans: the order the epoch's argument rests on
        if ((int) start != LoopOwner.SHUTDOWN) {
            return false;
        }
        int n = loops.loops();
        long[] seen = new long[n];
        for (int i = 0; i < n; i++) {
            if ((seen[i] = loops.mark(i)) < 0) {
                return false;
            }
        }
        for (int i = 0; i < n; i++) {
            if (loops.mark(i) != seen[i]) {
                return false;
            }
        }
        return terminate(start);
    }

    /** The word a termination scan starts from: read before the scan looks at any loop. */
    final long scanStart() {
        return word;
    }

    /**
     * SHUTDOWN to TERMINATED, if the word is still {@code scanStart}: no loop left quiescence since
     * the scan began. True if this call made the change.
     */
    final boolean terminate(long scanStart) {
        return (int) scanStart == LoopOwner.SHUTDOWN
                && WORD.compareAndSet(this, scanStart, (long) LoopOwner.TERMINATED);
    }

    /**
     * A start has just handed its task to a loop (its inbox, or the starting loop's own queue):
     * true if the scheduler had not terminated or stopped, and a termination scan that began before
     * the hand-over now fails, as after {@link #leaveQuiescence}; false if the end came first.
     */
    public final boolean admitStarted() {
        return leaveQuiescence();
    }

    /**
     * A loop that was quiescent during a shutdown is about to look at its inbox again: moves the
     * epoch on, so that a termination scan that saw the loop quiescent cannot complete. False if
     * the scheduler terminated (or stopped) first: the loop must run nothing more.
     */
    public final boolean leaveQuiescence() {
        for (; ; ) {
            long w = word;
            if ((int) w != LoopOwner.SHUTDOWN) {
                return (int) w < LoopOwner.TERMINATED;
            }
            if (WORD.compareAndSet(this, w, w + EPOCH)) {
                return true;
            }
        }
    }
}
