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
 * {@link KeyedSerialExecutor}'s dispatcher handshake: the only worker drains key A, finds the
 * ready queue empty and leaves, while a producer makes key B ready. Either the worker sees B
 * before leaving, or the producer sees no worker and starts one; never neither (B stranded). The
 * pool has one thread and other work queued, so the worker leaves without lingering and no second
 * worker can be added: its leaving is the only way B can be missed.
 * r1 = runs of B, r2 = runs of A, r3 = keys still registered at the end.
 */
@JCStressTest
@Description("keyed: a leaving worker vs a producer queueing another key (Dekker handshake)")
@Outcome(
        id = "1, 1, 0",
        expect = Expect.ACCEPTABLE,
        desc = "B ran once, by the leaving worker or a new one; no key left")
@Outcome(expect = Expect.FORBIDDEN, desc = "B stranded or run twice, or a key leaked")
@State
public class KeyedWorkerExitVersusSchedule {
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private int aRuns;
    private int bRuns;
    private final Runnable worker;

    public KeyedWorkerExitVersusSchedule() {
        executor.execute("A", () -> aRuns++);
        worker = pool.take();
    }

    @Actor
    public void worker() {
        worker.run();
    }

    @Actor
    public void producer() {
        executor.execute("B", () -> bRuns++);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        pool.runAll();
        r.r1 = bRuns;
        r.r2 = aRuns;
        r.r3 = executor.registeredKeys();
    }
}
