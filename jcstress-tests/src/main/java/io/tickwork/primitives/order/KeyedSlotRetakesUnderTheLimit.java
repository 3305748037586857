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
 * Two leaving workers taking a slot back at once ({@link LaneDispatcher#retakeSlot}) with one slot
 * free under the limit (1, no slot held): exactly one gets it. A retake that checks the count and
 * then adds to it would let both in, two keys running under a limit of one. r1, r2 = 1 if that
 * worker took the slot, r3 = slots held at the end.
 *
 * <p>The executor-level test ({@code KeyedWorkerExitVersusLimit}) reaches this window only when a
 * leaving worker and a producer's new worker meet in it (about 25 samples in a million); here the
 * window is the load and the add.
 */
@JCStressTest
@Description("keyed: two slot retakes vs the limit on keys running at once")
@Outcome(
        id = {"1, 0, 1", "0, 1, 1"},
        expect = Expect.ACCEPTABLE,
        desc = "one took the slot")
@Outcome(expect = Expect.FORBIDDEN, desc = "the limit exceeded, or the free slot lost")
@State
public class KeyedSlotRetakesUnderTheLimit {
    private final LaneDispatcher dispatcher = KeyedSerialExecutor.builder(new CapturingThreadPool())
            .maxConcurrentKeys(1)
            .build()
            .dispatcher;

    @Actor
    public void leavingWorker1(III_Result r) {
        r.r1 = dispatcher.retakeSlot() ? 1 : 0;
    }

    @Actor
    public void leavingWorker2(III_Result r) {
        r.r2 = dispatcher.retakeSlot() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = dispatcher.workers();
    }
}
