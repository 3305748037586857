package io.tickwork.client.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.client.common.Targets;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class HttpGetTest {

    /** A server that answers a byte at a time, one every {@code gapMillis}, until it is closed. */
    private static Thread trickle(ServerSocket server, String answer, long gapMillis, CountDownLatch done) {
        Thread t = new Thread(() -> {
            try (Socket s = server.accept()) {
                OutputStream o = s.getOutputStream();
                for (byte b : answer.getBytes(StandardCharsets.ISO_8859_1)) {
                    if (done.await(gapMillis, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                    o.write(b);
                    o.flush();
                }
            } catch (Exception e) {
                // the client went away
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static Targets.Url url(ServerSocket server) {
        return new Targets.Url(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()),
                "127.0.0.1:" + server.getLocalPort(),
                "/stats");
    }

    @Test
    void aPromptAnswersBodyIsReturned() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CountDownLatch done = new CountDownLatch(1);
            trickle(server, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{\"a\":1}", 0, done);
            assertEquals("{\"a\":1}", HttpGet.body(url(server), 10_000));
            done.countDown();
        }
    }

    /** Each byte comes within the timeout, the whole answer would take a minute: the call gives up. */
    @Test
    void theTimeoutBoundsTheWholeAnswerNotEachRead() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CountDownLatch done = new CountDownLatch(1);
            String answer = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + "x".repeat(600);
            trickle(server, answer, 100, done); // 640 bytes, 100 ms apart: over a minute
            long t0 = System.nanoTime();
            assertNull(HttpGet.body(url(server), 500));
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            done.countDown();
            assertTrue(took < 20_000, "gave up after " + took + " ms, the answer takes 64 s");
        }
    }
}
