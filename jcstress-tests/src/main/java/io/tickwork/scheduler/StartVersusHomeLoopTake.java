package io.tickwork.scheduler;

import kilim.Task;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The fate of a task that {@code RunLoopScheduler.start} is handing over
 * ({@link LoopTimer#settleStart}): the start learns that the scheduler's end came first (not
 * admitted) while the task's home loop takes it from its inbox to run it; afterwards a loop's exit
 * meets the task. r1 = the start returns (1) or throws (0), r2 = the loop runs the task, r3 = the
 * exit leaves the telling to the start (1) or would report the task itself (0). The start returns
 * exactly when the loop runs the task, and a task that does not run is told once, by the start.
 *
 * <p>Power check (by hand): with {@code takenToRun} answering true for a task still
 * {@code STARTING} without its compare-and-set, this test reports (0, 1, 1).
 */
@JCStressTest
@Description("a start refused at the end versus its loop taking the task: run and returned, or thrown, never both")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "the loop took it first: it runs, the start returns")
@Outcome(id = "0, 0, 1", expect = Expect.ACCEPTABLE, desc = "the start refused it first: not run, thrown")
@Outcome(expect = Expect.FORBIDDEN, desc = "run but thrown, or returned but not run")
@State
public class StartVersusHomeLoopTake {
    private final LoopTimer timer = new LoopTimer(new Task<>() {}, null, 0, false);

    public StartVersusHomeLoopTake() {
        timer.startInProgress();
    }

    @Actor
    public void starter(III_Result r) {
        r.r1 = timer.settleStart(false) ? 1 : 0;
    }

    @Actor
    public void homeLoop(III_Result r) {
        r.r2 = timer.takenToRun() ? 1 : 0;
    }

    @Arbiter
    public void loopExit(III_Result r) {
        r.r3 = timer.refusalToStarter() ? 1 : 0;
    }
}
