package io.tickwork.client.pingpong;

import java.net.InetSocketAddress;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The ping-pong tool's signal hook stopping the run ({@code RunControl.stop}) while the run starts
 * its next client ({@code RunControl.start}: the measured run after the warm-up). Each side writes
 * its own volatile, then reads the other's: the start sees the stop, or the stop sees the client,
 * so the client started is always told to stop. r1 = 1 when it was.
 *
 * <p>Power check (by hand): with {@code start} reading the flag before it publishes the client,
 * this test reports 0.
 */
@JCStressTest
@Description("RunControl.start(client) vs RunControl.stop()")
@Outcome(id = "1", expect = Expect.ACCEPTABLE, desc = "the client started is told to stop")
@Outcome(id = "0", expect = Expect.FORBIDDEN, desc = "a client started while the run stopped runs on")
@State
public class RunControlStartVersusStop {
    private final PingPongCommand.RunControl control = new PingPongCommand.RunControl();
    private final PingPongClient client = new PingPongClient(new InetSocketAddress("127.0.0.1", 9), 1, 1);

    @Actor
    public void start() {
        control.start(client);
    }

    @Actor
    public void stop() {
        control.stop();
    }

    @Arbiter
    public void after(I_Result r) {
        r.r1 = client.stopRequested() ? 1 : 0;
    }
}
