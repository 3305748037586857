package io.tickwork.primitives.order;

import java.util.concurrent.CompletableFuture;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link KeyedSerialExecutor}: a lane that defers going idle (its chain ran dry while another
 * key waited, so it goes to the back of the ready queue still open, resting at its last node)
 * against a producer that appends task M to that key and then flushes it. Keys K (task T) and J
 * are queued; the worker runs T, defers K behind J, runs J, comes back to K and runs M if it was
 * linked meanwhile, or lets K go idle. Whatever the moment of the producer's calls: M runs once,
 * after T; the flush completes, and only after M ran (a lane resting at T's node with M appended
 * behind it is not resting). r1 = runs of M seen when the flush completed (-1 if it never did);
 * r2 = runs of M; r3 = runs of M that came before T; r4 = runs of T.
 *
 * <p>Power check (by hand): with {@code KeyLane.restsAt} answering true whenever the lane rests
 * at some node (not only at the tail read), this test reports the flush completing before M ran
 * (0, 1, 0, 1).
 */
@JCStressTest
@Description("keyed: append + flush vs a lane deferred while open (resting at its last node)")
@Outcome(id = "1, 1, 0, 1", expect = Expect.ACCEPTABLE, desc = "M ran once after T; the flush completed after M")
@Outcome(expect = Expect.FORBIDDEN, desc = "the flush completed early or never, or M lost, run twice or before T")
@State
public class KeyedFlushVersusDeferredLane {
    private final CapturingPool pool = new CapturingPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private final Runnable worker;
    private int tRuns;
    private int mRuns;
    private int mBeforeT;
    private volatile int seenAtFlush = -1;
    private CompletableFuture<Void> flushed;

    public KeyedFlushVersusDeferredLane() {
        executor.execute("K", () -> tRuns++);
        executor.execute("J", () -> {});
        worker = pool.take();
    }

    @Actor
    public void worker() {
        worker.run();
    }

    @Actor
    public void producer() {
        executor.execute("K", () -> {
            mBeforeT += tRuns == 0 ? 1 : 0;
            mRuns++;
        });
        flushed = executor.flush("K");
        flushed.thenRun(() -> seenAtFlush = mRuns);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        pool.runAll(); // a worker the producer started, if K had gone idle
        r.r1 = flushed.isDone() ? seenAtFlush : -1;
        r.r2 = mRuns;
        r.r3 = mBeforeT;
        r.r4 = tRuns;
    }
}
