package io.tickwork.client.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A blocking ping-pong server that cannot give a connection its thread stops serving and says
 * why: its failure is recorded, the connection is closed rather than left unanswered, and its
 * listening socket is closed so later clients are refused instead of waiting in a backlog.
 */
@Timeout(60)
class BlockingPingPongServerTest {

    @ParameterizedTest
    @ValueSource(strings = {"throws", "returns null"})
    void aConnectionWithoutAThreadStopsTheServerAndIsReported(String refusal) throws Exception {
        OutOfMemoryError noThread = new OutOfMemoryError("unable to create native thread: possibly out of memory");
        AtomicInteger made = new AtomicInteger();
        ThreadFactory factory = r -> {
            if (made.getAndIncrement() < 2) { // the accept thread and the first connection's
                return new Thread(r);
            }
            if (refusal.equals("throws")) {
                throw noThread;
            }
            return null;
        };
        BlockingPingPongServer server = new BlockingPingPongServer("threads", factory);
        try {
            InetSocketAddress at = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (Socket served = new Socket(at.getAddress(), at.getPort())) {
                served.setSoTimeout(10_000);
                pingPong(served);
                assertNull(server.failure());

                try (Socket refused = new Socket(at.getAddress(), at.getPort())) {
                    refused.setSoTimeout(10_000);
                    // closed by the server, not left waiting: end of stream or a reset
                    int read;
                    try {
                        refused.getOutputStream().write("Ping".getBytes(StandardCharsets.US_ASCII));
                        read = refused.getInputStream().read();
                    } catch (SocketException reset) {
                        read = -1;
                    }
                    assertEquals(-1, read);
                }
                // the served connection was closed with the server
                int read;
                try {
                    read = served.getInputStream().read();
                } catch (SocketException reset) {
                    read = -1;
                }
                assertEquals(-1, read);
            }
            Throwable failure = server.failure();
            assertNotNull(failure);
            if (refusal.equals("throws")) {
                assertSame(noThread, failure);
            } else {
                assertEquals(IllegalStateException.class, failure.getClass());
            }
            assertThrows(ConnectException.class, () -> new Socket(at.getAddress(), at.getPort()).close());
        } finally {
            server.close();
        }
    }

    private static void pingPong(Socket s) throws IOException {
        s.getOutputStream().write("Ping".getBytes(StandardCharsets.US_ASCII));
        assertEquals("Pong", new String(s.getInputStream().readNBytes(4), StandardCharsets.US_ASCII));
    }
}
