package io.tickwork.client.idle;

import io.tickwork.client.common.ClientSelectorLoop;
import io.tickwork.client.common.LatencyRange;
import io.tickwork.client.common.ResponseParser;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The http-kit workload of {@code idle}: each connection idles a random time in [idleMin,
 * idleMax], sends {@code GET path?len=L} with L random in [1, maxLength], reads the response
 * (one per request; a response that closes the connection, or bytes after it, end the
 * connection) and idles again. A response not complete within {@code timeout} is a timeout and
 * ends its connection, as does a malformed one; the holder replaces ended connections, and counts
 * as closed by the server only those the server ended.
 *
 * <p>Deadlines (next request, response timeout) are in a priority queue: O(log n) per request,
 * one small record each; a deadline whose connection has moved on (a newer generation, or
 * closed) is skipped when it comes up. Confined to the holder's thread.
 */
final class IdleWorkload {
    private final IdleConfig cfg;
    private final Consumer<IdleConnection> lost;
    /** Ends a connection the client gives up on (a timeout, a bad response): not the server's close. */
    private final Consumer<IdleConnection> ended;

    private final SplittableRandom random;
    private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
    private final Histogram latency = LatencyRange.histogram();
    private long requests;
    private long timeouts;
    private long badResponses;

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

    /** A copy of the response latencies so far. */
    Histogram latency() {
        return latency.copy();
    }

    /** The earliest deadline, {@link ClientSelectorLoop#NO_DEADLINE} if none. */
    long nextDeadline() {
        Timer t = timers.peek();
        return t == null ? ClientSelectorLoop.NO_DEADLINE : t.at;
    }

    /** A new connection joins the workload: it idles first. */
    void start(IdleConnection c, long now) {
        c.parser = new ResponseParser();
        scheduleIdle(c, now);
    }

    private void scheduleIdle(IdleConnection c, long now) {
        long min = cfg.idleMin().toNanos();
        long span = cfg.idleMax().toNanos() - min;
        c.awaiting = false;
        timers.add(new Timer(now + min + (span > 0 ? random.nextLong(span + 1) : 0), c, ++c.gen));
    }

    /** Sends the requests and times out the responses that are due. */
    void runTimers(long now) {
        Timer t0;
        while ((t0 = timers.peek()) != null && t0.at <= now) {
            timers.poll();
            IdleConnection c = t0.conn;
            if (c.closed || c.gen != t0.gen) {
                continue; // superseded: a response came before its timeout, or the connection is gone
            }
            if (c.awaiting) {
                timeouts++;
                ended.accept(c);
                continue;
            }
            int len = 1 + random.nextInt(cfg.maxLength());
            String sep = cfg.path().indexOf('?') >= 0 ? "&" : "?";
            InetSocketAddress t = (InetSocketAddress) remote(c);
            byte[] req = ("GET " + cfg.path() + sep + "len=" + len + " HTTP/1.1\r\nHost: "
                            + (t == null ? "127.0.0.1" : t.getAddress().getHostAddress() + ":" + t.getPort())
                            + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1);
            c.outBuf = ByteBuffer.wrap(req);
            c.sentAt = now;
            c.awaiting = true;
            timers.add(new Timer(now + cfg.timeout().toNanos(), c, ++c.gen));
            try {
                c.flush();
            } catch (IOException e) {
                lost.accept(c);
            }
        }
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
            }
        }
    }

    private void responseDone(IdleConnection c, long now) {
        requests++;
        latency.recordValue(LatencyRange.clamp(now - c.sentAt));
        scheduleIdle(c, now);
    }

    /** A workload deadline; stale when its connection's generation has moved on. */
    private record Timer(long at, IdleConnection conn, int gen) {}
}
