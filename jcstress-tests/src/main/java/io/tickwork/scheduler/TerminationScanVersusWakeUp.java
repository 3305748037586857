package io.tickwork.scheduler;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An orderly shutdown's last moment ({@link SchedulerState}, used as is by
 * {@code RunLoopScheduler}): one loop's termination scan finds another loop quiescent and switches
 * the scheduler to TERMINATED, while a start from a foreign thread wakes that other loop, which
 * leaves quiescence (its flag cleared, then {@code leaveQuiescence}) and runs the task only if the
 * scheduler is still shutting down. r1 = 1 when the scan terminated the scheduler; r2 = 1 when the
 * woken loop runs the task. Both (1, 1) is the task running on a terminated scheduler (it would be
 * rejected after its slice, or abandoned if the slice paused on a mailbox); neither (0, 0) is a
 * task nobody runs or rejects.
 *
 * <p>The scan is the scheduler's own ({@link SchedulerState#terminateIfQuiescent}), over one loop
 * whose mark this test keeps as {@code RunLoop} does. Power check (by hand, see
 * docs/results/scheduler.md): with the loop reading the state instead of calling {@code
 * leaveQuiescence} (the protocol without the epoch), this test reports (1, 1); so it does with the
 * scan reading the word after the loops' marks.
 */
@JCStressTest
@Description("termination scan + CAS vs a quiescent loop woken by a foreign start")
@Outcome(
        id = "1, 0",
        expect = Expect.ACCEPTABLE,
        desc = "terminated first: the loop runs nothing, the start is rejected")
@Outcome(
        id = "0, 1",
        expect = Expect.ACCEPTABLE,
        desc = "the loop left quiescence first: it runs the task, no termination")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "the task runs while the scheduler terminates beneath it")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "neither terminated nor run: the task is lost")
@State
public class TerminationScanVersusWakeUp {
    private final SchedulerState state = new SchedulerState();
    /** The woken loop's quiescent flag and wake-up count, as {@code RunLoop.quiescentMark} gives them. */
    private volatile boolean quiescent = true;

    private volatile long wakeups;

    private final SchedulerState.QuiescenceMarks marks = new SchedulerState.QuiescenceMarks() {
        @Override
        public int loops() {
            return 1;
        }

        @Override
        public long mark(int i) {
            return quiescent ? wakeups : -1;
        }
    };

    public TerminationScanVersusWakeUp() {
        state.shutdown();
    }

    @Actor
    public void terminator(II_Result r) {
        r.r1 = state.terminateIfQuiescent(marks) ? 1 : 0;
    }

    @Actor
    public void wokenLoop(II_Result r) {
        quiescent = false;
        wakeups = wakeups + 1; // the loop is its only writer
        r.r2 = state.leaveQuiescence() && state.state() == LoopOwner.SHUTDOWN ? 1 : 0;
    }
}
