package io.tickwork.primitives.order;

import java.util.concurrent.RejectedExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link KeyedSerialExecutor}'s lifecycle: a producer makes a new key busy while another thread
 * shuts the executor down (the busy count's Dekker handshake). r1 = accepted, r2 = terminated
 * before the pool ran anything, r3 = runs of the task, r4 = terminated at the end. An accepted
 * task must hold termination back until it ran; a rejected one never runs.
 */
@JCStressTest
@Description("keyed: execute on a new key vs shutdown")
@Outcome(id = "1, 0, 1, 1", expect = Expect.ACCEPTABLE, desc = "accepted before the shutdown, ran, then terminated")
@Outcome(id = "0, 1, 0, 1", expect = Expect.ACCEPTABLE, desc = "rejected after the shutdown; terminated at once")
@Outcome(
        expect = Expect.FORBIDDEN,
        desc = "terminated with an accepted task pending, a rejected task ran, or never terminated")
@State
public class KeyedShutdownVersusExecute {
    private final CapturingPool pool = new CapturingPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private int runs;
    private boolean accepted;

    @Actor
    public void producer() {
        try {
            executor.execute("k", () -> runs++);
            accepted = true;
        } catch (RejectedExecutionException e) {
            accepted = false;
        }
    }

    @Actor
    public void closer() {
        executor.shutdown();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = accepted ? 1 : 0;
        r.r2 = executor.isTerminated() ? 1 : 0;
        pool.runAll();
        r.r3 = runs;
        r.r4 = executor.isTerminated() ? 1 : 0;
    }
}
