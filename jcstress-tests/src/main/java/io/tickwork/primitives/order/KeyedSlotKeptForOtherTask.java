package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Two workers of {@link KeyedSerialExecutor} (limit 2) about to run another pool task in place,
 * with no key waiting, ask at once whether to keep their slots meanwhile. Exactly one may: if both
 * kept them, a key the other tasks make ready and wait for would have no worker; if neither did,
 * the pool's other work would lose its share for nothing. r1, r2 = whether each kept its slot.
 */
@JCStressTest
@Description("keyed: two workers keeping their slots for tasks run in place, limit 2")
@Outcome(
        id = {"true, false", "false, true"},
        expect = Expect.ACCEPTABLE,
        desc = "one kept its slot")
@Outcome(expect = Expect.FORBIDDEN, desc = "both kept their slots, or neither did")
@State
public class KeyedSlotKeptForOtherTask {
    private final LaneDispatcher dispatcher = KeyedSerialExecutor.builder(new CapturingThreadPool())
            .maxConcurrentKeys(2)
            .build()
            .dispatcher;

    @Actor
    public void first(ZZ_Result r) {
        r.r1 = dispatcher.keepSlotForOtherTask();
    }

    @Actor
    public void second(ZZ_Result r) {
        r.r2 = dispatcher.keepSlotForOtherTask();
    }
}
