package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two producers race the drainer of a multi-producer {@link SerialExecutor} made by
 * {@link #newExecutor}: producer X submits 2 then 3 while thread Y submits 4 and then drains the
 * chain from task 1 (two actors, so it runs on a 2-CPU machine): X races Y on the tail swap and X
 * races the drainer's closing CAS of the tail. r1 = the order in which tasks 2..4 ran (digits),
 * r2 = pool submissions made after the first. Every task must run exactly once, 2 before 3 (same
 * producer), and at most one new submission can be needed (only one producer can displace the idle
 * tail). Each subclass is one jcstress test: jcstress reads the actors, the
 * arbiter, {@code @State} and {@code @Description} from the test class itself, so a subclass declares
 * them (each actor one call to the code here), and inherits the outcomes declared here ({@code @Outcome}
 * is {@code @Inherited}).
 */
@Outcome(
        id = {"234, 0", "243, 0", "423, 0"},
        expect = Expect.ACCEPTABLE,
        desc = "all linked while draining")
@Outcome(
        id = {"234, 1", "243, 1", "423, 1"},
        expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "drainer went idle; one producer restarted the chain")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, duplicated or reordered task, or two chains started")
public abstract class TwoProducerExecuteVersusDrain {
    private final CapturingPool pool = new CapturingPool();
    private final SerialExecutor executor = newExecutor(pool);
    private int order; // plain: written only by tasks, which the executor orders
    private final Runnable first;

    protected TwoProducerExecuteVersusDrain() {
        executor.execute(() -> {});
        first = pool.take();
    }

    /** The executor under test, submitting its drains to {@code pool}; called once, from the constructor. */
    protected abstract SerialExecutor newExecutor(CapturingPool pool);

    /** Actor Y: submits 4, then drains the chain from task 1. */
    protected final void submitFourThenDrain() {
        executor.execute(() -> order = order * 10 + 4);
        first.run();
    }

    /** Actor X: submits 2, then 3. */
    protected final void submitTwoThenThree() {
        executor.execute(() -> order = order * 10 + 2);
        executor.execute(() -> order = order * 10 + 3);
    }

    /** Arbiter: runs the recorded submissions, then reads the order. */
    protected final void collect(II_Result r) {
        r.r2 = pool.runAll();
        r.r1 = order;
    }
}
