package io.tickwork.scheduler;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@code shutdownNow} racing an orderly shutdown's termination ({@link SchedulerState}, used as is
 * by {@code RunLoopScheduler}): one thread stops the scheduler while a loop's termination scan,
 * which found every loop quiescent, switches it to TERMINATED. r1 = 1 when the scan's
 * {@code terminate} succeeded; r2 = the final state. An orderly termination stays one (nothing
 * was dropped, so nothing may be reported dropped), and a stop that came first stays a stop: the
 * scan that believes it terminated the scheduler must find it TERMINATED, and a failed scan must
 * leave it STOPPED.
 *
 * <p>Power check (by hand): with {@code stop()} as a plain volatile store of STOPPED instead of
 * its compare-and-set loop, this test reports (1, 3).
 */
@JCStressTest
@Description("shutdownNow's stop() vs an orderly shutdown's terminate()")
@Outcome(id = "1, 2", expect = Expect.ACCEPTABLE, desc = "terminated first: the stop changes nothing")
@Outcome(id = "0, 3", expect = Expect.ACCEPTABLE, desc = "stopped first: the scan's CAS fails")
@Outcome(id = "1, 3", expect = Expect.FORBIDDEN, desc = "a termination the scan reported, overwritten by the stop")
@Outcome(id = "0, 2", expect = Expect.FORBIDDEN, desc = "terminated although the scan's CAS failed")
@State
public class StopVersusTermination {
    private final SchedulerState state = new SchedulerState();
    /** The word the scan read before it looked at the loops, all quiescent. */
    private final long scanStart;

    public StopVersusTermination() {
        state.shutdown();
        scanStart = state.scanStart();
    }

    @Actor
    public void shutdownNow() {
        state.stop();
    }

    @Actor
    public void terminationScan(II_Result r) {
        r.r1 = state.terminate(scanStart) ? 1 : 0;
    }

    @Arbiter
    public void after(II_Result r) {
        r.r2 = state.state();
    }
}
