package io.tickwork.primitives.order;

import java.util.concurrent.RejectedExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link KeyedSerialExecutor}'s queue bound: a key with one task waiting and room for one more
 * ({@code maxQueuedPerKey(2)}); two producers race for the place. Exactly one wins. r1, r2 = each
 * producer accepted, r3 = their tasks that ran.
 */
@JCStressTest
@Description("keyed: two producers vs the last place under maxQueuedPerKey")
@Outcome(
        id = {"1, 0, 1", "0, 1, 1"},
        expect = Expect.ACCEPTABLE,
        desc = "one accepted and ran, one rejected")
@Outcome(expect = Expect.FORBIDDEN, desc = "the bound exceeded, a place lost, or a task lost")
@State
public class KeyedBoundVersusProducers {
    private final CapturingPool pool = new CapturingPool();
    private final KeyedSerialExecutor<String> executor =
            KeyedSerialExecutor.builder(pool).maxQueuedPerKey(2).<String>build();
    private int runs;
    private boolean x;
    private boolean y;

    public KeyedBoundVersusProducers() {
        executor.execute("k", () -> {}); // waiting: its worker stays in the pool until the arbiter
    }

    private boolean submit() {
        try {
            executor.execute("k", () -> runs++);
            return true;
        } catch (RejectedExecutionException full) {
            return false;
        }
    }

    @Actor
    public void producerX() {
        x = submit();
    }

    @Actor
    public void producerY() {
        y = submit();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        pool.runAll();
        r.r1 = x ? 1 : 0;
        r.r2 = y ? 1 : 0;
        r.r3 = runs;
    }
}
