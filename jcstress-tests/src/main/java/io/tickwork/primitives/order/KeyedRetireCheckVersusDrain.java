package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * An idle lane's retirement check ({@link LaneDispatcher#retireIfIdle}) against the worker that
 * drains the lane and lets it go idle. The lane is busy with one task and marked as queued for a
 * check; one actor runs that check while the other runs the worker, which drains the task, closes
 * the lane and, finding the mark set, leaves the check to whoever set it. The check clears the
 * mark before it reads the tail, so either it sees the lane idle and retires it, or the worker
 * sees the mark clear and queues a check of its own (run as it leaves). r1 = keys still
 * registered when all is done: an idle lane left registered for good is 1.
 *
 * <p>The broken order this catches: the check reading the tail (busy) before clearing the mark,
 * while the worker closes the lane and reads the mark (still set) in between: nobody retires it.
 * Power: that window is a volatile load and store wide; against that order a run of
 * {@code -f 1 -iters 3 -time 300} on 2 cores saw it once or twice in about 1.2 M samples, and
 * failed.
 */
@JCStressTest
@Description("keyed: an idle lane's retirement check vs the worker letting it go idle")
@Outcome(id = "0", expect = Expect.ACCEPTABLE, desc = "the idle key was retired")
@Outcome(expect = Expect.FORBIDDEN, desc = "an idle key left registered, nobody to retire it")
@State
public class KeyedRetireCheckVersusDrain {
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private final KeyLane lane;
    private final Runnable worker;

    public KeyedRetireCheckVersusDrain() {
        executor.execute("k", () -> {});
        lane = executor.dispatcher.lanes.get("k");
        lane.markRetirePending();
        worker = pool.take();
    }

    @Actor
    public void retirementCheck() {
        executor.dispatcher.retireIfIdle(lane);
    }

    @Actor
    public void drainer() {
        worker.run();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        pool.runAll();
        r.r1 = executor.registeredKeys();
    }
}
