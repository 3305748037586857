package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A pending retirement check ({@link KeyLane#retireIfIdle}) against the drainer closing the lane
 * and asking for a check ({@link KeyLane#markRetirePending}, refused while one is pending), the
 * lane alone. The check clears its mark before it reads the tail, so either it sees the lane idle
 * and retires it, or the drainer finds the mark clear and queues another check: no idle lane is
 * left unretired with no check to come. r1 = 1 if the check retired the lane, r2 = 1 if the
 * drainer queued a check, r3 = 1 if the lane ended idle.
 *
 * <p>The executor-level test ({@code KeyedRetireCheckVersusDrain}) needs a worker run per sample;
 * here the window is a store and a load.
 */
@JCStressTest
@Description("keyed: a retirement check vs the drainer closing the lane and asking for another")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "checked while busy; the drainer queued a new check")
@Outcome(
        id = {"1, 0, 0", "1, 1, 0"},
        expect = Expect.ACCEPTABLE,
        desc = "checked after the close: retired (a check queued after it finds it retired)")
@Outcome(id = "0, 0, 1", expect = Expect.FORBIDDEN, desc = "idle, not retired, and no check to come")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class KeyLaneRetireCheckVersusClose {
    private final TaskNode last = new TaskNode(() -> {});
    private final KeyLane lane = new KeyLane("k", last); // busy with one task

    public KeyLaneRetireCheckVersusClose() {
        lane.markRetirePending(); // a check is queued with some worker
    }

    @Actor
    public void check(III_Result r) {
        r.r1 = lane.retireIfIdle() ? 1 : 0;
    }

    @Actor
    public void drainer(III_Result r) {
        if (lane.close(last) == null) { // last ran, nothing after it: idle
            r.r2 = lane.markRetirePending() ? 1 : 0;
        } else {
            r.r2 = -1;
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = lane.tail == null ? 1 : 0;
    }
}
