package io.tickwork.client.idle;

import io.tickwork.client.common.ClientSelectorLoop;
import io.tickwork.client.common.LatencyRange;
import io.tickwork.client.common.ResponseParser;
import io.tickwork.client.common.Targets;
import io.tickwork.primitives.timer.TimerQueue;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The http-kit workload of {@code idle}: each connection idles a random time in [idleMin,
 * idleMax], sends {@code GET path?len=L} with L random in [1, maxLength], reads the response
 * (one per request; a response that closes the connection, or bytes after it, end the
 * connection) and idles again. Every complete response counts as a request answered and records
 * its latency; one whose status is not 2xx is also counted apart ({@link #non2xx}), as {@code
 * bench} does. A request the server closes its connection on without a complete response is
 * counted as closed unanswered. A response not complete within {@code timeout} is a timeout and
 * ends its connection, as does a malformed one; the holder replaces ended connections, and counts
 * as closed by the server only those the server ended.
 *
 * <p>Deadlines: one timer per connection (its next request, or its response's timeout) on a
 * {@link TimerQueue} wheel of 1 ms ticks, re-armed in place ({@code reschedule}) and cancelled
 * when the connection closes, so the queue holds one timer per open connection however long the
 * run, O(1) a request; a timer fires at most a tick (1 ms) late, never early. Confined to the
 * holder's thread.
 */
final class IdleWorkload {
    private final IdleConfig cfg;
    private final Consumer<IdleConnection> lost;
    /** Ends a connection the client gives up on (a timeout, a bad response): not the server's close. */
    private final Consumer<IdleConnection> ended;

    private final SplittableRandom random;
    private final TimerQueue<IdleConnection> timers = TimerQueue.builder(TimeUnit.NANOSECONDS, System.nanoTime())
            .tick(Duration.ofMillis(1))
            .build();
    private final Consumer<IdleConnection> fire = this::fire;
    private final Histogram latency = LatencyRange.histogram();
    private long requests;
    private long timeouts;
    private long badResponses;
    private long closedUnanswered;
    private long non2xx;

    IdleWorkload(IdleConfig cfg, Consumer<IdleConnection> lost, Consumer<IdleConnection> ended) {
        this.ended = ended;
        this.cfg = cfg;
        this.lost = lost;
        this.random = new SplittableRandom(cfg.seed());
    }

    long requests() {
        return requests;
    }

    long timeouts() {
        return timeouts;
    }

    long badResponses() {
        return badResponses;
    }

    /** Requests the server closed the connection on without a complete response. */
    long closedUnanswered() {
        return closedUnanswered;
    }

    /** Complete responses whose status was not 2xx (included in {@link #requests}). */
    long non2xx() {
        return non2xx;
    }

    /** A copy of the response latencies so far. */
    Histogram latency() {
        return latency.copy();
    }

    /** The earliest deadline, {@link ClientSelectorLoop#NO_DEADLINE} if none. */
    long nextDeadline() {
        long next = timers.nextDeadline();
        return next == TimerQueue.NO_DEADLINE ? ClientSelectorLoop.NO_DEADLINE : next;
    }

    /** Timers pending: at most one per connection that joined and has not closed. */
    int pendingTimers() {
        return timers.size();
    }

    /** A connection closes: its timer goes with it. */
    void stop(IdleConnection c) {
        if (c.timer != 0) {
            timers.cancel(c.timer);
            c.timer = 0;
        }
    }

    /** Sets {@code c}'s one timer to {@code at}, re-arming it in place if it is pending. */
    private void arm(IdleConnection c, long at) {
        if (c.timer == 0 || !timers.reschedule(c.timer, at)) {
            c.timer = timers.schedule(at, c);
        }
    }

    /** A new connection joins the workload: it idles first. */
    void start(IdleConnection c, long now) {
        c.parser = new ResponseParser();
        InetSocketAddress t = (InetSocketAddress) remote(c);
        c.host = t == null ? "127.0.0.1" : hostHeader(t);
        scheduleIdle(c, now);
    }

    private void scheduleIdle(IdleConnection c, long now) {
        long min = cfg.idleMin().toNanos();
        long span = cfg.idleMax().toNanos() - min;
        c.awaiting = false;
        arm(c, now + min + (span > 0 ? random.nextLong(span + 1) : 0));
    }

    /** Sends the requests and times out the responses that are due. */
    void runTimers(long now) {
        this.now = now;
        timers.expire(now, fire);
    }

    /** The time of the {@link #runTimers} call in progress, for {@link #fire}. */
    private long now;

    /** {@code c}'s timer is due: its response timed out, or its next request is to be sent. */
    private void fire(IdleConnection c) {
        c.timer = 0; // handed out: no longer pending
        if (c.closed) {
            return;
        }
        if (c.awaiting) {
            timeouts++;
            ended.accept(c);
            return;
        }
        int len = 1 + random.nextInt(cfg.maxLength());
        String sep = cfg.path().indexOf('?') >= 0 ? "&" : "?";
        byte[] req = ("GET " + cfg.path() + sep + "len=" + len + " HTTP/1.1\r\nHost: " + c.host + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        c.outBuf = ByteBuffer.wrap(req);
        c.sentAt = now;
        c.awaiting = true;
        arm(c, now + cfg.timeout().toNanos());
        try {
            c.flush();
        } catch (IOException e) {
            lost.accept(c);
        }
    }

    /**
     * The Host header's value for {@code address} (RFC 9110, 7.2): an IPv6 literal goes in
     * brackets, its zone's {@code %} written {@code %25} (RFC 6874), then the port.
     */
    static String hostHeader(InetSocketAddress address) {
        return Targets.text(address).replace("%", "%25"); // only an IPv6 zone holds a '%'
    }

    private static Object remote(IdleConnection c) {
        try {
            return c.ch.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** Bytes of the awaited response, {@code buf} flipped for reading. */
    void read(IdleConnection c, ByteBuffer buf, long now) {
        try {
            if (c.parser.parse(buf)) {
                responseDone(c, now);
                if (c.parser.close()) {
                    lost.accept(c); // the server ends it
                } else if (buf.hasRemaining()) {
                    ended.accept(c); // bytes nobody asked for: we end it
                }
            }
        } catch (ResponseParser.ParseException e) {
            badResponses++;
            ended.accept(c);
        }
    }

    /** The server closed the connection: that may complete a response that runs to the end. */
    void endOfInput(IdleConnection c, long now) {
        if (c.parser != null && c.awaiting) {
            try {
                if (c.parser.endOfInput()) {
                    responseDone(c, now);
                }
            } catch (ResponseParser.ParseException e) {
                badResponses++;
                c.awaiting = false; // counted: a bad response
            }
        }
    }

    /**
     * The server ended the connection (a close, a reset, a failed write): a request still awaited
     * was closed unanswered.
     */
    void lostByServer(IdleConnection c) {
        if (c.parser != null && c.awaiting) {
            closedUnanswered++;
            c.awaiting = false;
        }
    }

    private void responseDone(IdleConnection c, long now) {
        requests++;
        int status = c.parser.status();
        if (status < 200 || status > 299) {
            non2xx++;
        }
        latency.recordValue(LatencyRange.clamp(now - c.sentAt));
        scheduleIdle(c, now);
    }
}
