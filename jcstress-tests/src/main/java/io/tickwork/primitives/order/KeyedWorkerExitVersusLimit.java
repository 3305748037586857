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
 * {@link KeyedSerialExecutor}'s limit on keys running at once, while the only worker leaves: it
 * drains key A, gives its slot back, and sees key B that a producer queued meanwhile. The
 * producer, finding no slot held, starts a worker of its own; the leaving worker may take a slot
 * back only while the limit (1, the pool's one thread) leaves one free. Never two slots held at
 * once, so B's task never sees two. r1 = slots held while B ran, r2 = runs of B.
 */
@JCStressTest
@Description("keyed: a leaving worker taking its slot back vs a producer starting a worker, limit 1")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "B ran once, one slot held")
@Outcome(expect = Expect.FORBIDDEN, desc = "the limit exceeded, or B stranded or run twice")
@State
public class KeyedWorkerExitVersusLimit {
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private final Runnable worker;
    private int heldWhileB;
    private int bRuns;

    public KeyedWorkerExitVersusLimit() {
        executor.execute("A", () -> {});
        worker = pool.take();
    }

    @Actor
    public void worker() {
        worker.run();
    }

    @Actor
    public void producer() {
        executor.execute("B", () -> {
            heldWhileB = executor.dispatcher.workers();
            bRuns++;
        });
    }

    @Arbiter
    public void arbiter(II_Result r) {
        pool.runAll();
        r.r1 = heldWhileB;
        r.r2 = bRuns;
    }
}
