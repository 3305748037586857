package io.tickwork.primitives.order;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The last busy key going idle ({@link Lifecycle#busyEnded}) against {@link Lifecycle#shutdown},
 * the busy count alone: whichever comes second sees the first, so the executor terminates.
 * {@code busyEnded} subtracts before it reads the state and {@code shutdown} writes the state
 * before it sums; either read taken first would let each miss the other, and the executor never
 * terminate. r1 = the state at the end (2: terminated).
 *
 * <p>The executor-level test ({@code KeyedShutdownVersusIdle}) needs a worker run per sample;
 * here the window is the add and the read.
 */
@JCStressTest
@Description("keyed: the last key going idle vs shutdown, on the busy count")
@Outcome(id = "2", expect = Expect.ACCEPTABLE, desc = "terminated")
@Outcome(expect = Expect.FORBIDDEN, desc = "shut down with no key busy, and not terminated")
@State
public class KeyedLastIdleVersusShutdown {
    private final Lifecycle lifecycle = new Lifecycle();

    public KeyedLastIdleVersusShutdown() {
        lifecycle.tryBeginBusy(); // one key busy
    }

    @Actor
    public void lastKeyGoesIdle() {
        lifecycle.busyEnded(1);
    }

    @Actor
    public void shutdown() {
        lifecycle.shutdown();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = lifecycle.state();
    }
}
