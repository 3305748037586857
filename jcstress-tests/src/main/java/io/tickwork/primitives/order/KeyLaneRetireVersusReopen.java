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
 * {@link KeyLane#retireIfIdle} against a producer reopening the same idle lane (the unbounded
 * path: its node numbered, then the CAS of the tail from idle), the lane alone. Exactly one wins:
 * a lane both retired and reopened would hold a task no worker drains, beside the fresh lane the
 * next producer makes. r1 = 1 if the lane retired, r2 = 1 if the producer reopened it, r3 = the
 * tail at the end (1: retired, 2: the producer's node).
 *
 * <p>The executor-level test of this race ({@code KeyedExecuteVersusRetire}) needs a whole worker
 * run before the retirement, so a retirement that checks the tail and then sets it (no CAS)
 * passed it; here the window is one load and one store.
 */
@JCStressTest
@Description("keyed: retiring an idle lane vs a producer reopening it")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "retired first; the producer found it retired")
@Outcome(id = "0, 1, 2", expect = Expect.ACCEPTABLE, desc = "reopened first; the retirement found it busy")
@Outcome(expect = Expect.FORBIDDEN, desc = "both won, or neither")
@State
public class KeyLaneRetireVersusReopen {
    private final KeyLane lane = new KeyLane("k", null); // idle
    private final TaskNode node = new TaskNode(() -> {});

    @Actor
    public void retirement(III_Result r) {
        r.r1 = lane.retireIfIdle() ? 1 : 0;
    }

    @Actor
    public void producer(III_Result r) {
        node.seq = lane.started() + 1;
        r.r2 = lane.casTail(null, node) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        TaskNode t = lane.tail;
        r.r3 = t == KeyLane.RETIRED ? 1 : t == node ? 2 : 0;
    }
}
