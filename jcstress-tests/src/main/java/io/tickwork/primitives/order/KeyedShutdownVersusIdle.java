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
 * {@link KeyedSerialExecutor}'s lifecycle: the only worker drains the only busy key, which goes
 * idle, while another thread shuts the executor down. Whichever comes second must see the first:
 * the executor terminates. The pool has other work queued, so the worker leaves without lingering. r1 = terminated at the end, r2 = runs of the task.
 */
@JCStressTest
@Description("keyed: the last key going idle vs shutdown")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "ran, and terminated")
@Outcome(expect = Expect.FORBIDDEN, desc = "termination missed, or the task did not run once")
@State
public class KeyedShutdownVersusIdle {
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private int runs;
    private final Runnable worker;

    public KeyedShutdownVersusIdle() {
        executor.execute("k", () -> runs++);
        worker = pool.take();
    }

    @Actor
    public void worker() {
        worker.run();
    }

    @Actor
    public void closer() {
        executor.shutdown();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        pool.runAll();
        r.r1 = executor.isTerminated() ? 1 : 0;
        r.r2 = runs;
    }
}
