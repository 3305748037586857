package io.tickwork.primitives.order;

import java.util.concurrent.CompletableFuture;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link KeyedSerialExecutor#flush} against the worker that drains the key's only task, lets the
 * lane go idle and, leaving, retires it. The flush appends a marker behind the task, or finds the
 * lane idle, or finds it retired and looks the key up again: in every case its future completes,
 * after the task ran. r1 = 1 if the future completed once all is done, r2 = 1 if the task had run
 * when it completed, r3 = keys still registered.
 *
 * <p>The broken flush this catches: one that does not re-read a retired lane and appends its
 * marker behind the shared retired sentinel, whose future then never completes. Power: the window
 * is the retirement's CAS to its removal from the map; against that flush a run of
 * {@code -f 1 -iters 3 -time 300} on 2 cores saw it 1 to 3 times in about 0.5 M samples, and
 * failed.
 */
@JCStressTest
@Description("keyed: flush vs the drainer retiring the idle key")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "completed after the task; the key retired")
@Outcome(expect = Expect.FORBIDDEN, desc = "a flush never completed or completed early, or a leaked key")
@State
public class KeyedFlushVersusRetire {
    private final CapturingThreadPool pool = new CapturingThreadPool();
    private final KeyedSerialExecutor<String> executor = KeyedSerialExecutor.create(pool);
    private final Runnable worker;
    private boolean ran;
    private volatile int ranWhenFlushed = -1;
    private CompletableFuture<Void> flushed;

    public KeyedFlushVersusRetire() {
        executor.execute("k", () -> ran = true);
        worker = pool.take();
    }

    @Actor
    public void drainer() {
        worker.run();
    }

    @Actor
    public void flusher() {
        flushed = executor.flush("k");
        flushed.thenRun(() -> ranWhenFlushed = ran ? 1 : 0);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        pool.runAll();
        r.r1 = flushed.isDone() ? 1 : 0;
        r.r2 = ranWhenFlushed;
        r.r3 = executor.registeredKeys();
    }
}
