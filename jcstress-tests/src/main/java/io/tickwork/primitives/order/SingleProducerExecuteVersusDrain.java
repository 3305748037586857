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
 * {@link SingleProducerSerialExecutor} with its one producer: a pool thread drains task 1 while
 * the producer submits 2 then 3. r1 = run order of 2 and 3, r2 = pool submissions made after the
 * first.
 */
@JCStressTest
@Description("single-producer link CAS vs the drainer's tombstone CAS")
@Outcome(id = "23, 0", expect = Expect.ACCEPTABLE, desc = "both linked while draining")
@Outcome(
        id = "23, 1",
        expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "drainer went idle; the producer restarted the chain")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, duplicated or reordered task")
@State
public class SingleProducerExecuteVersusDrain {
    private final CapturingPool pool = new CapturingPool();
    private final SingleProducerSerialExecutor executor = new SingleProducerSerialExecutor(pool);
    private int order;
    private final Runnable first;

    public SingleProducerExecuteVersusDrain() {
        executor.execute(() -> {});
        first = pool.take();
    }

    @Actor
    public void drainer() {
        first.run();
    }

    @Actor
    public void producer() {
        executor.execute(() -> order = order * 10 + 2);
        executor.execute(() -> order = order * 10 + 3);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = pool.runAll();
        r.r1 = order;
    }
}
