package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link MultiProducerSerialExecutor}: producer X submits 2 then 3 while thread Y submits 4 and
 * then drains the chain from task 1 (two actors, so it runs on a 2-CPU machine): X races Y on
 * the tail swap and X races the drainer's closing CAS of the tail. r1 = the order in which tasks 2..4 ran (digits), r2 = pool
 * submissions made after the first. Every task must run exactly once, 2 before 3 (same producer),
 * and at most one new submission can be needed (only one producer can displace the idle tail).
 */
@JCStressTest
@Description("multi-producer tail swap + release link vs the drainer's closing CAS of the tail")
@Outcome(
        id = {"234, 0", "243, 0", "423, 0"},
        expect = Expect.ACCEPTABLE,
        desc = "all linked while draining")
@Outcome(
        id = {"234, 1", "243, 1", "423, 1"},
        expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "drainer went idle; one producer restarted the chain")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, duplicated or reordered task, or two chains started")
@State
public class MultiProducerExecuteVersusDrain {
    private final CapturingPool pool = new CapturingPool();
    private final MultiProducerSerialExecutor executor = new MultiProducerSerialExecutor(pool);
    private int order; // plain: written only by tasks, which the executor orders
    private final Runnable first;

    public MultiProducerExecuteVersusDrain() {
        executor.execute(() -> {});
        first = pool.take();
    }

    @Actor
    public void producerYThenDrainer() {
        executor.execute(() -> order = order * 10 + 4);
        first.run();
    }

    @Actor
    public void producerX() {
        executor.execute(() -> order = order * 10 + 2);
        executor.execute(() -> order = order * 10 + 3);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = pool.runAll();
        r.r1 = order;
    }
}
