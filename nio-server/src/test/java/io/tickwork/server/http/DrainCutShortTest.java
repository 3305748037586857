package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpServer#endDrainNow()} ends a graceful stop at once, whether it comes while the drain
 * is under way or before {@code close()} has begun it (a second signal that overtakes the first's
 * stop): a client that pipelines and never reads would otherwise hold {@code close()} for the
 * whole 60 s drain timeout.
 */
@Timeout(60)
class DrainCutShortTest {
    /** The stalled client's socket: open until the test ends (a close would reset the connection). */
    private Socket stalled;

    @org.junit.jupiter.api.AfterEach
    void closeTheClient() throws IOException {
        if (stalled != null) {
            stalled.close();
        }
    }

    @Test
    void endDrainNowBeforeCloseEndsTheDrainAtOnce() throws Exception {
        HttpServer s = serverWithAStalledClient();
        s.endDrainNow();
        long t0 = System.nanoTime();
        s.close();
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(tookMs < 20_000, "close() took " + tookMs + " ms");
    }

    @Test
    void endDrainNowDuringCloseEndsTheDrainAtOnce() throws Exception {
        HttpServer s = serverWithAStalledClient();
        Thread closer = new Thread(s::close, "closer");
        long t0 = System.nanoTime();
        closer.start();
        // until the drain is under way: the loops have closed the listener
        while (true) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), s.port()), 1_000);
            } catch (IOException refused) {
                break;
            }
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(20), "the listener stayed open");
            Thread.onSpinWait();
        }
        s.endDrainNow();
        closer.join(20_000);
        assertTrue(!closer.isAlive(), "close() still draining 20 s later");
    }

    /** A server with a 60 s drain and a client that has pipelined more than the sockets hold, reading nothing. */
    private HttpServer serverWithAStalledClient() throws Exception {
        byte[] body = "x".repeat(1024).getBytes(StandardCharsets.US_ASCII);
        HttpServer s = HttpServer.builder((req, res) -> res.append(body, 0, body.length))
                .port(0)
                .threads(1)
                .drainTimeout(Duration.ofSeconds(60))
                .start();
        stalled = new Socket();
        stalled.setReceiveBufferSize(4096);
        stalled.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), s.port()), 10_000);
        OutputStream out = stalled.getOutputStream();
        byte[] request = "GET /x HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < 200_000; i++) {
                    out.write(request); // blocks once the server, its output stuck, stops reading
                }
                out.flush();
            } catch (IOException closed) {
                // the server closed the connection at its stop
            }
        });
        writer.setDaemon(true);
        writer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (s.stats().requests() < 50) { // read and answered some: its output is held from here
            assertTrue(System.nanoTime() < deadline, "the server never read the pipelined requests");
            Thread.onSpinWait();
        }
        return s;
    }
}
