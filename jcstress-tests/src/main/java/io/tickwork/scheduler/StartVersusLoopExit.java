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
 * ({@link LoopTimer#settleStart}): the start learns that the scheduler admitted it while a
 * {@code shutdownNow} ends the home loop, whose exit drops the task from its inbox; afterwards the
 * loop would take it. r1 = the start returns (1) or throws (0), r2 = the exit leaves the telling to
 * the start (1) or reports the task as dropped itself (0), r3 = the loop would run it. Each
 * outcome is told once: a start that returns leaves the drop to the exit's report (listed by
 * {@code droppedTasks}); a start that throws is the only one told, and the task never runs.
 *
 * <p>Power check (by hand): with {@code refusalToStarter} answering true for a task still
 * {@code STARTING} without its compare-and-set, this test reports (1, 1, 1).
 */
@JCStressTest
@Description("an admitted start versus its loop's exit dropping the task: told once, by the start or the exit")
@Outcome(
        id = "1, 0, 1",
        expect = Expect.ACCEPTABLE,
        desc = "admitted first: the start returns, the exit reports the drop")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the exit came first: the start throws, nothing else tells")
@Outcome(expect = Expect.FORBIDDEN, desc = "told twice or never, or run after a refusal")
@State
public class StartVersusLoopExit {
    private final LoopTimer timer = new LoopTimer(new Task<>() {}, null, 0, false);

    public StartVersusLoopExit() {
        timer.startInProgress();
    }

    @Actor
    public void starter(III_Result r) {
        r.r1 = timer.settleStart(true) ? 1 : 0;
    }

    @Actor
    public void loopExit(III_Result r) {
        r.r2 = timer.refusalToStarter() ? 1 : 0;
    }

    @Arbiter
    public void homeLoopLater(III_Result r) {
        r.r3 = timer.takenToRun() ? 1 : 0;
    }
}
