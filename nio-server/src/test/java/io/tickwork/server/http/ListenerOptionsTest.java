package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The listener's connection cap and {@code SO_REUSEPORT}, over real sockets on loopback. */
@Timeout(60)
class ListenerOptionsTest {
    private final List<HttpServer> servers = new ArrayList<>();
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

    @AfterEach
    void stop() {
        servers.forEach(HttpServer::close);
    }

    private HttpServer start(HttpServer.Builder b) throws IOException {
        HttpServer s = b.log(log::add).start();
        servers.add(s);
        return s;
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n";
    }

    /**
     * Loops racing for the cap's last places never hold more than the cap: four threads claim and
     * release places at once, a million times each, with the cap below their number, and count
     * the places held at every moment; at the end every place is free again. Its power: with the
     * claim's compare-and-set replaced by a read and a write, two threads take the last place
     * together and the count passes the cap.
     */
    @Test
    void racingClaimsNeverPassTheCapAndEveryReleaseGivesAPlaceBack() throws Exception {
        int cap = 3;
        HttpServer server = start(
                HttpServer.builder(HttpServerTest.HANDLER).port(0).threads(1).maxConnections(cap));
        AtomicInteger held = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(4);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < 1_000_000; i++) {
                    if (server.claimConnection()) {
                        most.accumulateAndGet(held.incrementAndGet(), Math::max);
                        held.decrementAndGet();
                        server.releaseConnection();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(most.get() <= cap, "places held at once: " + most.get() + ", the cap " + cap);
        for (int i = 0; i < cap; i++) {
            assertTrue(server.claimConnection(), "a place lost: " + i + " of " + cap + " free at the end");
        }
        assertFalse(server.claimConnection(), "more places than the cap at the end");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void atTheCapANewConnectionWaitsInTheBacklogUntilOneCloses(int threads) throws IOException {
        HttpServer server = start(HttpServer.builder(HttpServerTest.HANDLER)
                .port(0)
                .threads(threads)
                .maxConnections(2));
        RawClient a = new RawClient(server.port());
        try (RawClient b = new RawClient(server.port())) {
            a.send(get("/echo/a"));
            assertEquals("a", a.read().text());
            b.send(get("/echo/b"));
            assertEquals("b", b.read().text());
            try (RawClient c = new RawClient(server.port(), 300)) { // the kernel completes the handshake
                c.send(get("/echo/c"));
                assertThrows(SocketTimeoutException.class, c::read, "a third connection accepted at the cap");
                a.close();
                c.socket.setSoTimeout(10_000);
                assertEquals("c", c.read().text(), "accepted once a connection closed");
                b.send(get("/echo/b2"));
                assertEquals("b2", b.read().text(), "connections under the cap served throughout");
            }
        } finally {
            a.close();
        }
        assertEquals(3, server.stats().acceptedConnections());
        assertEquals(
                1,
                log.stream()
                        .filter(l -> l.startsWith("2 connections open, the cap"))
                        .count(),
                log.toString());
    }

    @Test
    void listenersWithReusePortShareThePortAndTheKernelSpreadsConnections() throws IOException {
        HttpServer one = start(HttpServer.builder((req, res) -> res.appendAscii("one"))
                .port(0)
                .threads(1)
                .reusePort(true));
        HttpServer two = start(HttpServer.builder((req, res) -> res.appendAscii("two"))
                .port(one.port())
                .threads(1)
                .reusePort(true));
        assertThrows(
                BindException.class,
                () -> start(HttpServer.builder(HttpServerTest.HANDLER).port(one.port())),
                "without the option the port is taken");
        int n = 64;
        int toOne = 0;
        for (int i = 0; i < n; i++) {
            try (RawClient c = new RawClient(one.port())) {
                c.send(get("/"));
                toOne += c.read().text().equals("one") ? 1 : 0;
            }
        }
        // The kernel picks a listener by a hash of each connection's addresses and ports: with 64
        // connections from distinct client ports, both get some but with chance 2 * 2^-64.
        assertTrue(toOne > 0 && toOne < n, toOne + " of " + n + " connections to the first listener");
    }

    /**
     * A server keeps the settings it was started with: the cap and the log set on its builder
     * afterwards go to the next server the builder starts, not to this one.
     */
    @Test
    void aBuilderChangedAfterStartLeavesTheRunningServerAlone() throws IOException {
        ConcurrentLinkedQueue<String> later = new ConcurrentLinkedQueue<>();
        HttpServer.Builder b = HttpServer.builder((req, res) -> {
                    throw new IllegalStateException("boom"); // logged by the server
                })
                .port(0)
                .threads(1)
                .maxConnections(2)
                .log(log::add);
        HttpServer server = b.start();
        servers.add(server);
        b.maxConnections(1).log(later::add);
        RawClient first = new RawClient(server.port());
        try (RawClient second = new RawClient(server.port())) {
            second.send(get("/x"));
            assertEquals(500, second.read().status(), "the second of a cap of 2 is served");
        } finally {
            first.close();
        }
        assertTrue(log.stream().anyMatch(l -> l.contains("boom")), log.toString());
        assertTrue(later.isEmpty(), "the running server logged to the new sink: " + later);
    }

    /** A start that fails with an {@code Error} gives the port back: the next start can bind it. */
    @Test
    void aStartThatFailsWithAnErrorLeavesThePortFree() throws IOException {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Error broken = new Error("no timers for this loop");
        HttpServer.Builder failing = HttpServer.builder(HttpServerTest.HANDLER)
                .port(port)
                .threads(2)
                .timers(() -> {
                    throw broken;
                });
        Error e = assertThrows(Error.class, failing::start);
        assertTrue(e == broken, String.valueOf(e));
        HttpServer server =
                start(HttpServer.builder(HttpServerTest.HANDLER).port(port).threads(1));
        assertEquals(port, server.port());
    }
}
