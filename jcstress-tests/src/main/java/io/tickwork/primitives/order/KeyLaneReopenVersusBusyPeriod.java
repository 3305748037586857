package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link KeyLane#reopenNumbered} on an idle lane, the lane alone: producer X reopens it while
 * producer Y reopens it, runs its node and closes it (a whole busy period, three calls). The
 * node that reopens the lane is numbered one after the last task started, so a node X numbers
 * after Y's busy period is 2. r1 = X's number (-1: X found the lane not idle), r2 = 1 if Y reopened
 * and closed it idle (-1: Y found it not idle).
 *
 * <p>The broken order this catches: reading the started sequence before the CAS from idle (no
 * hold at {@code REOPENING}): X reads 0, Y's busy period publishes 1 and idles the lane, X's CAS
 * succeeds and numbers its node 1, the number Y's task had. The executor-level test of the same
 * race ({@code KeyedBoundVersusReopen}) needs a whole pool drain inside that window, which it does
 * not reach; here the window holds two CASes and a store, and against that order "1, 1" came in
 * 6 % of the samples.
 */
@JCStressTest
@Description("keyed: numbering a lane's reopening node across another producer's busy period")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "Y's busy period, then X reopened after it")
@Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "X reopened first; Y found the lane busy")
@Outcome(id = "-1, 1", expect = Expect.ACCEPTABLE, desc = "Y reopened first; X found it not idle")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "X numbered from before Y's busy period")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class KeyLaneReopenVersusBusyPeriod {
    private final KeyLane lane = new KeyLane("k", null); // idle, nothing started yet

    @Actor
    public void producerX(II_Result r) {
        TaskNode x = new TaskNode(() -> {});
        r.r1 = lane.reopenNumbered(x) ? x.seq : -1;
    }

    @Actor
    public void producerYAndDrainer(II_Result r) {
        TaskNode y = new TaskNode(() -> {});
        if (lane.reopenNumbered(y)) {
            r.r2 = lane.close(y) == null ? 1 : 0; // y ran, no successor: idle again
        } else {
            r.r2 = -1;
        }
    }
}
