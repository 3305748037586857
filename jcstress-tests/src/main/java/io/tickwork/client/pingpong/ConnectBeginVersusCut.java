package io.tickwork.client.pingpong;

import java.io.Closeable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A ping-pong client loop about to start a blocking connect ({@code ConnectUnderWay.begin})
 * while a stop sets the run's flag and cuts the connect under way ({@code cut}), as
 * {@code PingPongClient.stop} does. The channel must end closed: the loop saw the flag and did not
 * connect, or the stop saw the channel and closed it (both may happen). r1: the channel's closes
 * (1 or 2; a channel closes once, a second call does nothing), r2: 1 when the loop went on to
 * connect.
 *
 * <p>Power check (by hand): with {@code begin} reading the flag before it publishes the channel,
 * this test reports (0, 1).
 */
@JCStressTest
@Description("ConnectUnderWay.begin vs stop flag + cut")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the loop saw the stop and closed the channel itself")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "the stop closed the channel of the connect under way")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "each saw the other: closed twice")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "a connect started that no stop cuts short")
@State
public class ConnectBeginVersusCut {
    private final ConnectUnderWay connect = new ConnectUnderWay();
    private volatile boolean stopped;
    private int closes;
    private boolean connected;
    private final Closeable channel = () -> {
        synchronized (this) {
            closes++;
        }
    };

    @Actor
    public void loop() {
        try {
            connected = connect.begin(channel, () -> stopped);
        } catch (java.io.IOException e) {
            throw new AssertionError(e); // this channel's close throws nothing
        }
    }

    @Actor
    public void stop() {
        stopped = true;
        connect.cut();
    }

    @Arbiter
    public void after(II_Result r) {
        synchronized (this) {
            r.r1 = closes;
        }
        r.r2 = connected ? 1 : 0;
    }
}
