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
 * {@link KeyedSerialExecutor}'s idle-worker handshake, on a pool without a thread limit: the only
 * worker, counted idle, takes key A, whose task then holds it (as a blocking task would), while a
 * producer makes key B ready. The producer may leave B to the idle worker only if that worker,
 * on turning busy, sees B and brings in another worker. So once the producer has returned, B must
 * have a worker coming (a submission in the pool) while A's task still holds the first one.
 * r1 = B covered while A held the worker (2: the producer had not finished within the wait),
 * r2 = runs of B, r3 = runs of A.
 */
@JCStressTest
@Description("keyed: a worker turning busy vs a producer leaving a key to it")
@Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE, desc = "B had a worker coming")
@Outcome(id = "2, 1, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "the producer was still running")
@Outcome(expect = Expect.FORBIDDEN, desc = "B left behind a busy worker, or a task lost or run twice")
@State
public class KeyedIdleWorkerVersusSchedule {
    private final CapturingPool pool = new CapturingPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private final Runnable worker;
    private volatile boolean producerDone;
    private volatile boolean bRan;
    private int covered;
    private int aRuns;
    private int bRuns;

    public KeyedIdleWorkerVersusSchedule() {
        executor.execute("A", () -> {
            aRuns++;
            for (int spins = 0; !producerDone; spins++) {
                if (spins > 1_000_000) {
                    covered = 2;
                    return;
                }
                Thread.onSpinWait();
            }
            covered = pool.size() > 0 || bRan ? 1 : 0;
        });
        worker = pool.take();
    }

    @Actor
    public void worker() {
        worker.run();
    }

    @Actor
    public void producer() {
        executor.execute("B", () -> {
            bRuns++;
            bRan = true;
        });
        producerDone = true;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        pool.runAll();
        r.r1 = covered;
        r.r2 = bRuns;
        r.r3 = aRuns;
    }
}
