package io.tickwork.scheduler;

import kilim.Task;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A task reported twice once its loop has left, by two threads at once: the loop's exit lists it
 * as dropped (it waited on a timer when {@code shutdownNow} came) while a producer's late wake-up
 * reports it rejected ({@link LoopExit}'s two paths), and each report takes it out of its loop's
 * resident count ({@link LoopTimer#leaveResidents}). Exactly one of them may: counted out twice,
 * the loop's count would go below the tasks it holds. r1, r2 = whether each thread took it out.
 *
 * <p>Power check (by hand): with {@code leaveResidents} testing the flag and then setting it with
 * a plain write instead of a compare-and-set, this test reports (1, 1).
 */
@JCStressTest
@Description("two reports of one task leave its loop's resident count")
@Outcome(
        id = {"1, 0", "0, 1"},
        expect = Expect.ACCEPTABLE,
        desc = "taken out of the count once")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "taken out twice")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "left in the count")
@State
public class ResidentCountLeftOnce {
    private final LoopTimer timer = new LoopTimer(new Task<>() {}, null, 0, false);

    @Actor
    public void loopExit(II_Result r) {
        r.r1 = timer.leaveResidents() ? 1 : 0;
    }

    @Actor
    public void lateProducer(II_Result r) {
        r.r2 = timer.leaveResidents() ? 1 : 0;
    }
}
