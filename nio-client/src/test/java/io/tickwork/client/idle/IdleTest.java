package io.tickwork.client.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tickwork.client.Cli;
import io.tickwork.client.LaunchedTool;
import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.OptionValues;
import io.tickwork.client.common.OsError;
import io.tickwork.client.common.StubHttpServer;
import io.tickwork.client.common.UsageException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

@Timeout(90)
class IdleTest {

    /** Accepts everything on a big backlog, remembering who connected. */
    static final class Acceptor implements AutoCloseable {
        final ServerSocketChannel server;
        final List<SocketChannel> accepted = Collections.synchronizedList(new ArrayList<>());
        final Set<InetAddress> sources = ConcurrentHashMap.newKeySet();
        final CountDownLatch all;
        final Thread thread;

        Acceptor(int expect) throws IOException {
            all = new CountDownLatch(expect);
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
            thread = new Thread(
                    () -> {
                        try {
                            while (true) {
                                SocketChannel c = server.accept();
                                accepted.add(c);
                                sources.add(((InetSocketAddress) c.getRemoteAddress()).getAddress());
                                all.countDown();
                            }
                        } catch (IOException e) {
                            // closed
                        }
                    },
                    "idle-test-accept");
            thread.setDaemon(true);
            thread.start();
        }

        int port() throws IOException {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (SocketChannel c : accepted) {
                c.close();
            }
        }
    }

    /** An idle command line parsed and checked as the launcher does, without running it. */
    static IdleConfig config(String... args) {
        IdleCommand c = new IdleCommand(System.out, System.err);
        OptionValues.conventions(new CommandLine(c)).parseArgs(args);
        return c.config();
    }

    static IdleResult idle(String... args) throws IOException {
        return new IdleHolder(config(args), null, null).run();
    }

    @Test
    void anEmptyCommandLineRunsTheDocumentedDefaults() throws Exception {
        IdleConfig c = config();
        assertEquals(List.of(new InetSocketAddress("127.0.0.1", 9090)), c.targets());
        int perSource = (int) (IdleCommand.portRange() * 0.9); // 10,000 fit one address on a default range
        assertEquals((10_000 + perSource - 1) / perSource, c.sources().size());
        assertEquals(InetAddress.getByName("127.0.0.2"), c.sources().get(0));
        assertEquals(10_000, c.connections());
        assertEquals(5_000, c.step());
        assertEquals(1_000, c.maxPending());
        assertEquals(Duration.ofSeconds(60), c.duration());
        assertEquals(Duration.ofSeconds(60), c.hold(), "hold defaults to the duration");
        assertEquals(Duration.ofSeconds(10), c.connectTimeout());
        assertFalse(c.workload());
        assertEquals(Duration.ofSeconds(5), c.idleMin());
        assertEquals(Duration.ofSeconds(45), c.idleMax());
        assertEquals(4096, c.maxLength());
        assertEquals("/", c.path());
        assertEquals(Duration.ofSeconds(10), c.timeout());
        assertNull(c.statsUrl());
        assertTrue(c.serverPids().isEmpty());
        assertEquals(1, c.seed());
        IdleConfig given = config("--target", "127.0.0.1:1,127.0.0.1:2", "--sources", "0", "127.0.0.1:3");
        assertEquals(List.of(new InetSocketAddress("127.0.0.1", 3)), given.targets(), "HOST:PORT wins");
        assertTrue(given.sources().isEmpty());
    }

    @Test
    void reachesNConnectionsSpreadOverSourceAddresses() throws Exception {
        int n = 1500;
        try (Acceptor a = new Acceptor(n)) {
            IdleResult r = idle(
                    "-c",
                    "" + n,
                    "--sources",
                    "4",
                    "--step",
                    "100k",
                    "--hold",
                    "0s",
                    "--duration",
                    "60s",
                    "--quiet",
                    "127.0.0.1:" + a.port());
            assertEquals(n, r.peak());
            assertEquals(n, r.connectedAtEnd());
            assertEquals(n, r.attempts());
            assertTrue(r.failures().isEmpty(), r.failures().toString());
            assertNull(r.hardLimit());
            assertTrue(a.all.await(30, TimeUnit.SECONDS), "server accepted " + a.accepted.size());
            assertEquals(
                    Set.of(
                            InetAddress.getByName("127.0.0.2"),
                            InetAddress.getByName("127.0.0.3"),
                            InetAddress.getByName("127.0.0.4"),
                            InetAddress.getByName("127.0.0.5")),
                    a.sources);
        }
    }

    @Test
    void refusedIsReportedWithAdviceAndNoStackTrace() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        IdleResult r = idle("-c", "50", "--duration", "60s", "--quiet", "127.0.0.1:" + port);
        assertTrue(r.elapsedSeconds() < 30, "nothing to hold, yet the run went on: " + r.elapsedSeconds() + " s");
        assertEquals(0, r.connectedAtEnd());
        assertEquals(OsError.ECONNREFUSED, r.hardLimit());
        assertTrue(r.failed(OsError.ECONNREFUSED) >= 1);
        assertTrue(r.attempts() <= 50, "bounded by the target: " + r.attempts());

        Cli.Run run = Cli.run("idle", "-c", "20", "--duration", "300ms", "127.0.0.1:" + port);
        assertEquals(1, run.status(), run.err()); // not one connection: a failed run, reported
        Cli.assertNoStackTrace(run);
        assertTrue(run.err().contains("idle: not one of ") && run.err().contains(" connects succeeded"), run.err());
        assertTrue(run.out().contains("ECONNREFUSED"), run.out());
        assertTrue(run.out().contains("how to raise it"), run.out());
        assertTrue(run.out().contains("0 of 20 connected"), run.out());
    }

    /**
     * A server that holds connections for a second, then closes them all and every one after at
     * once: replacements are connects like the first ones, at most --step a second (100 here)
     * beyond a burst of 100, however long the hold before, not a storm.
     */
    @Test
    void replacementsKeepToTheStep() throws Exception {
        try (ServerSocket closing = new ServerSocket(0, 512, InetAddress.getLoopbackAddress())) {
            closing.setSoTimeout(20);
            Thread closer = new Thread(() -> {
                List<java.net.Socket> held = new ArrayList<>();
                long closeFrom = Long.MAX_VALUE; // a second after the first connection came
                while (!closing.isClosed()) {
                    try {
                        try {
                            held.add(closing.accept());
                            if (closeFrom == Long.MAX_VALUE) {
                                closeFrom = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                            }
                        } catch (java.net.SocketTimeoutException none) {
                            // look at the clock again
                        }
                        if (System.nanoTime() >= closeFrom) {
                            for (java.net.Socket h : held) {
                                h.close();
                            }
                            held.clear();
                        }
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            closer.setDaemon(true);
            closer.start();
            IdleResult r = idle(
                    "-c",
                    "10",
                    "--step",
                    "100",
                    "--sources",
                    "0",
                    "--duration",
                    "2s",
                    "--quiet",
                    "127.0.0.1:" + closing.getLocalPort());
            assertTrue(r.closedByServer() > 10, "the server closed them: " + r.closedByServer());
            // 10 in the ramp, a full bucket of 100 when the closes start, 100 a second after
            assertTrue(r.attempts() <= 10 + 100 + 100 + 20, "connect attempts at --step 100: " + r.attempts());
        }
    }

    @Test
    void connectionsTheServerClosesAreReplaced() throws Exception {
        try (Acceptor a = new Acceptor(200)) {
            CountDownLatch closedSome = new CountDownLatch(1);
            Thread closer = new Thread(() -> {
                try {
                    a.all.await(30, TimeUnit.SECONDS);
                    for (int i = 0; i < 20; i++) {
                        a.accepted.get(i).close();
                    }
                } catch (InterruptedException | IOException e) {
                    Thread.currentThread().interrupt();
                }
                closedSome.countDown();
            });
            closer.start();
            IdleConfig cfg = config(
                    new String[] {"-c", "200", "--sources", "2", "--duration", "20s", "--quiet", "127.0.0.1:" + a.port()
                    });
            IdleHolder h = new IdleHolder(cfg, null, null);
            Thread stopper = new Thread(() -> {
                try {
                    closedSome.await(30, TimeUnit.SECONDS);
                    // bounded wait until the holder has seen the 20 closes and refilled to 200
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while ((h.closedSeen() < 20 || h.connectedSeen() < 200) && System.nanoTime() < until) {
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                h.stop();
            });
            stopper.start();
            IdleResult r = h.run();
            assertEquals(20, r.closedByServer());
            assertEquals(200, r.connectedAtEnd(), "replaced what the server closed");
            assertEquals(220, r.attempts());
        }
    }

    /**
     * Runs the workload (20 connections, {@code idleMax}, {@code timeout}, lengths up to 100 on
     * {@code /len}) against {@code s} until it has answered {@code requests} requests (15 s at
     * most); the holder, run and stopped.
     */
    private IdleHolder runWorkload(StubHttpServer s, String idleMax, String timeout, int requests, IdleResult[] result)
            throws Exception {
        IdleConfig cfg = config(new String[] {
            "-c",
            "20",
            "--sources",
            "0",
            "--workload",
            "--idle-min",
            "0s",
            "--idle-max",
            idleMax,
            "--timeout",
            timeout,
            "--max-length",
            "100",
            "--path",
            "/len",
            "--duration",
            "20s",
            "--quiet",
            "127.0.0.1:" + s.port()
        });
        IdleHolder h = new IdleHolder(cfg, null, null);
        Thread stopper = new Thread(() -> {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (s.requests.get() < requests && System.nanoTime() < until) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            h.stop();
        });
        stopper.start();
        result[0] = h.run();
        return h;
    }

    @Test
    void httpKitWorkloadRequestsAndReads() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> {
            int len = Integer.parseInt(p.substring(p.indexOf("len=") + 4));
            return StubHttpServer.ok("z".repeat(len));
        })) {
            IdleResult[] result = new IdleResult[1];
            runWorkload(s, "20ms", "10s", 200, result);
            IdleResult r = result[0];
            assertTrue(r.requests() >= 150, "responses " + r.requests());
            assertEquals(0, r.badResponses());
            assertEquals(0, r.timeouts());
            assertEquals(r.requests(), r.latency().getTotalCount());
            assertFalse(r.toText().isEmpty());
        }
    }

    /** A response that is not 2xx is still an answer, and is counted apart, as bench counts it. */
    @Test
    void workloadResponsesThatAreNot2xxAreCountedApart() throws Exception {
        try (StubHttpServer s = new StubHttpServer(
                (n, p) -> n % 2 == 0 ? StubHttpServer.ok("z") : StubHttpServer.response(503, "busy"))) {
            IdleResult[] result = new IdleResult[1];
            runWorkload(s, "20ms", "10s", 200, result);
            IdleResult r = result[0];
            assertTrue(r.requests() >= 150, "responses " + r.requests());
            // each connection alternates 200 and 503: at most one more 200 than 503 per connection
            assertTrue(
                    r.non2xx() >= r.requests() / 2 - 20 && r.non2xx() <= r.requests() / 2,
                    r.non2xx() + " non-2xx of " + r.requests());
            assertEquals(0, r.badResponses());
            assertTrue(r.toText().contains("(" + r.non2xx() + " non-2xx)"), r.toText());
            assertTrue(r.toJson(IdleTest.config("127.0.0.1:9")).contains("\"non2xx\":" + r.non2xx()));
        }
    }

    @Test
    void theWorkloadsHostHeaderBracketsAnIpv6Literal() throws Exception {
        assertEquals(
                "127.0.0.1:8080",
                IdleWorkload.hostHeader(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080)));
        assertEquals("[0:0:0:0:0:0:0:1]:80", IdleWorkload.hostHeader(new InetSocketAddress("::1", 80)));
        InetAddress scoped = java.net.Inet6Address.getByAddress(
                null, InetAddress.getByName("fe80::1").getAddress(), 3);
        assertEquals("[fe80:0:0:0:0:0:0:1%253]:80", IdleWorkload.hostHeader(new InetSocketAddress(scoped, 80)));
    }

    /**
     * With a long response timeout, every request leaves a timeout behind it once answered: the
     * workload re-arms one timer per connection, so however many requests ran, its timers stay
     * within the connections.
     */
    @Test
    void theWorkloadsTimersStayWithinTheConnections() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("z"))) {
            IdleResult[] result = new IdleResult[1];
            IdleHolder h = runWorkload(s, "1ms", "1h", 2_000, result);
            IdleResult r = result[0];
            assertTrue(r.requests() >= 1_000, "responses " + r.requests());
            assertTrue(h.workloadTimers() <= 20, h.workloadTimers() + " timers after " + r.requests() + " requests");
        }
    }

    /** SIGTERM (or Ctrl-C) while holding: the report comes out before the JVM exits with the signal's status. */
    @Test
    void aSignalEndsTheHoldWithItsReport() throws Exception {
        try (Acceptor a = new Acceptor(10);
                LaunchedTool idle = LaunchedTool.start(
                        "idle", "-c", "10", "--sources", "0", "--duration", "60s", "127.0.0.1:" + a.port())) {
            idle.awaitLine("connected 10 ");
            String rest = idle.terminate();
            assertEquals(143, idle.exitValue(), rest);
            assertTrue(rest.contains("idle: 10 of 10 connected at the end"), rest);
        }
    }

    /**
     * SIGTERM (or Ctrl-C) to the parent of {@code --processes}: every child ends its hold and
     * reports, and the merged report comes out before the parent exits with the signal's status;
     * the children's own exits by the signal are not failures.
     */
    @Test
    void aSignalEndsAFleetWithItsMergedReport() throws Exception {
        try (Acceptor a = new Acceptor(10);
                LaunchedTool idle = LaunchedTool.start(
                        "idle",
                        "--processes",
                        "2",
                        "-c",
                        "10",
                        "--sources",
                        "0",
                        "--duration",
                        "60s",
                        "127.0.0.1:" + a.port())) {
            idle.awaitLine("connected 10 ");
            String rest = idle.terminate();
            assertEquals(143, idle.exitValue(), rest);
            assertTrue(rest.contains("idle: 10 of 10 connected at the end"), rest);
            assertTrue(rest.contains("processes  2 child JVMs"), rest);
            assertFalse(rest.contains("no report") || rest.contains("failed, exit status"), rest);
            assertEquals(2, rest.split("exit 143", -1).length - 1, rest);
        }
    }

    /** A figure that shrank since the first reading gives no cost per connection, never a negative one. */
    @Test
    void aShrinkingMemoryFigureGivesNoPerConnectionCost() {
        assertEquals(" (+" + Fmt.bytes(1000) + ", 10 B/conn)", IdleMemory.perConn(1000, 2000, 100));
        String shrunk = IdleMemory.perConn(2000, 1000, 100);
        assertTrue(shrunk.contains("no per-connection figure") && !shrunk.contains("B/conn"), shrunk);
    }

    @Test
    void jsonReportForScripts() throws Exception {
        java.util.concurrent.atomic.AtomicInteger statsCalls = new java.util.concurrent.atomic.AtomicInteger();
        // a stats document whose heap grows by 30,000 bytes between the two reads: 100 B/conn (the
        // first call is the check that the URL answers, before the run)
        com.sun.net.httpserver.HttpServer stats = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        stats.createContext("/stats", ex -> {
            byte[] b = ("{\"openConnections\":1,\"heapUsedBytes\":" + (statsCalls.getAndIncrement() <= 1 ? 1000 : 31000)
                            + "}")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        stats.start();
        try (Acceptor a = new Acceptor(300)) {
            Cli.Run run = Cli.run(
                    "idle",
                    "-c",
                    "300",
                    "--sources",
                    "2",
                    "--step",
                    "100k",
                    "--hold",
                    "0s",
                    "--duration",
                    "30s",
                    "--json",
                    "--server-pid",
                    Long.toString(ProcessHandle.current().pid()),
                    "--stats-url",
                    "http://127.0.0.1:" + stats.getAddress().getPort() + "/stats",
                    "127.0.0.1:" + a.port());
            assertEquals(0, run.status(), run.err());
            JsonNode j = Cli.json(run.out());
            assertEquals("127.0.0.1:" + a.port(), j.get("targets").asText());
            assertEquals(300, j.get("target").asLong());
            assertEquals(300, j.get("connected").asLong());
            assertEquals(300, j.get("peak").asLong());
            assertEquals(Cli.json("{\"total\":0,\"by_kind\":{}}"), j.get("failed"));
            assertTrue(j.has("limit_hit") && j.get("limit_hit").isNull(), run.out());
            assertEquals(0, j.get("closed_by_server").asLong());
            JsonNode mem = j.get("memory");
            assertEquals(300, mem.get("connections").asLong());
            JsonNode client = mem.get("client");
            for (String k : List.of(
                    "rss_before",
                    "rss_after",
                    "rss_delta",
                    "rss_per_conn",
                    "live_heap_before",
                    "live_heap_after",
                    "live_heap_delta",
                    "live_heap_per_conn")) {
                // a cost per connection is null where the figure shrank (this JVM's RSS may)
                boolean shrank = k.endsWith("_per_conn")
                        && client.get(k.replace("_per_conn", "_delta")).asLong() < 0
                        && client.get(k).isNull();
                assertTrue(client.path(k).isNumber() || shrank, k + " in " + client);
            }
            JsonNode server = mem.get("server");
            // this JVM's RSS, which may shrink meanwhile (then null: IdleFleetTest checks that)
            assertTrue(server.has("rss_per_conn") && server.get("rss_delta").isNumber(), server.toString());
            assertEquals(30000, server.get("heap_used_delta").asLong(), server.toString());
            assertEquals(100, server.get("heap_used_per_conn").asLong(), server.toString());
            assertTrue(run.err().startsWith("idle: 300 connections"), "progress to stderr");
        } finally {
            stats.stop(0);
        }

        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Cli.Run run = Cli.run("idle", "-c", "20", "--duration", "300ms", "--json", "127.0.0.1:" + port);
        assertEquals(1, run.status(), run.err());
        JsonNode j = Cli.json(run.out());
        assertEquals(0, j.get("connected").asLong());
        JsonNode failed = j.get("failed");
        assertTrue(failed.get("total").asLong() >= 1, failed.toString());
        assertTrue(failed.get("by_kind").path("ECONNREFUSED").asLong() >= 1, failed.toString());
        JsonNode limit = j.get("limit_hit");
        assertEquals("ECONNREFUSED", limit.get("kind").asText());
        assertTrue(limit.get("advice").asText().contains("backlog"), limit.toString());
        JsonNode server = j.get("memory").get("server");
        assertTrue(
                server.has("rss_per_conn") && server.get("rss_per_conn").isNull(),
                "not measured without --server-pid: " + server);
        Cli.assertNoStackTrace(run);
    }

    /** A ramp that the duration cuts short says so, with how far it got, rather than nothing. */
    @Test
    void aRampCutShortByTheDurationSaysSo() throws Exception {
        try (Acceptor a = new Acceptor(1000)) {
            IdleResult r = idle(
                    "-c",
                    "1000",
                    "--step",
                    "100",
                    "--sources",
                    "0",
                    "--duration",
                    "1500ms",
                    "--quiet",
                    "127.0.0.1:" + a.port());
            assertTrue(r.peak() < 1000, "the ramp at 100/s finished in 1.5 s: " + r.peak());
            assertTrue(
                    r.stoppedBy() != null
                            && r.stoppedBy().startsWith("the end of the run, before the ramp's: the duration (-D) at "),
                    r.stoppedBy());
            assertTrue(r.stoppedBy().endsWith(" of 1000"), r.stoppedBy());
        }
    }

    /**
     * {@code --workload} against a server that accepts and never answers: every request times
     * out, none is answered, so nothing of the server was measured and the run exits 1 after its
     * report, which says there is no latency rather than printing zeros. The header names the
     * target as host:port.
     */
    @Test
    void aWorkloadWithNoResponseFails() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.SILENT)) {
            Cli.Run run = requestAtOnce(s.port(), "--timeout", "100ms");
            assertEquals(1, run.status(), run.out() + run.err());
            assertTrue(run.err().contains("idle: the workload got no response: "), run.err());
            assertTrue(run.out().contains("latency none (no response)"), run.out());
            assertTrue(run.out().startsWith("idle: 4 connections to 127.0.0.1:" + s.port() + " from"), run.out());
            assertTrue(run.out().contains("closed 0  rate "), run.out());
            Cli.assertNoStackTrace(run);
        }
    }

    /**
     * A server that reads each request and closes the connection without an answer: every request
     * is counted as closed unanswered, and a run in which none was answered fails as one whose
     * requests timed out does.
     */
    @Test
    void aWorkloadWhoseRequestsTheServerClosesUnansweredFails() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.CLOSE)) {
            closedUnansweredFails(s.port());
        }
    }

    /** The same with a server that resets each connection once a request arrived: a reset is a close too. */
    @Test
    void aWorkloadWhoseRequestsTheServerResetsFails() throws Exception {
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        java.net.Socket c = server.accept();
                        c.setSoLinger(true, 0); // close with a reset
                        c.getInputStream().read(new byte[4096]); // a request (or the client's end)
                        c.close();
                    } catch (IOException e) {
                        // closed by the test, or the client went first
                    }
                }
            });
            t.setDaemon(true);
            t.start();
            closedUnansweredFails(server.getLocalPort());
        }
    }

    /** {@code idle --workload} on 4 connections that send a request as soon as they can, for 1.5 s, with {@code more} options. */
    private static Cli.Run requestAtOnce(int port, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "idle",
                "-c",
                "4",
                "--sources",
                "0",
                "--workload",
                "--idle-min",
                "0s",
                "--idle-max",
                "0s",
                "--duration",
                "1500ms"));
        args.addAll(List.of(more));
        args.add("127.0.0.1:" + port);
        return Cli.run(args.toArray(new String[0]));
    }

    private static void closedUnansweredFails(int port) throws Exception {
        Cli.Run run = requestAtOnce(port);
        assertEquals(1, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("idle: the workload got no response: 0 timeouts, 0 bad responses, "), run.err());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) closed unanswered, latency none")
                .matcher(run.out());
        assertTrue(m.find(), run.out());
        assertTrue(Long.parseLong(m.group(1)) >= 4, run.out());
        Cli.assertNoStackTrace(run);
    }

    /**
     * The server goes away mid-hold (its listener and every connection closed): the refused
     * reconnects are not reported as a limit of this machine and a success, but fail the run.
     */
    @Test
    void aServerThatGoesAwayMidHoldFailsTheRun() throws Exception {
        StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("k"));
        Cli.Run[] run = new Cli.Run[1];
        Thread idle = new Thread(() -> {
            try {
                run[0] = Cli.run("idle", "-c", "20", "--sources", "0", "--duration", "20s", "127.0.0.1:" + s.port());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        idle.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (s.connections.get() < 20 && System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // the ramp, bounded
        }
        assertEquals(20, s.connections.get(), "connections held before the server went away");
        s.close();
        idle.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(idle.isAlive(), "idle still running 30 s after its server went away");
        assertEquals(1, run[0].status(), run[0].out() + run[0].err());
        assertTrue(
                run[0].err()
                        .contains("idle: connects were refused after 20 connections had been held: the server"
                                + " stopped listening"),
                run[0].err());
    }

    /**
     * A {@code --server-pid} that names no process, or a {@code --stats-url} that does not answer
     * with a JSON object, is refused before the run: it would otherwise end with no server figures
     * and no word why.
     */
    @Test
    void serverProbesThatCannotBeReadAreRefusedUpFront() throws Exception {
        Cli.Run pid = Cli.run("idle", "-c", "1", "--server-pid", "999999999", "127.0.0.1:9");
        assertEquals(2, pid.status(), pid.err());
        assertTrue(pid.err().contains("--server-pid 999999999: no such process"), pid.err());
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort(); // nothing listens there once closed
        }
        Cli.Run refused =
                Cli.run("idle", "-c", "1", "--stats-url", "http://127.0.0.1:" + closed + "/stats", "127.0.0.1:9");
        assertEquals(2, refused.status(), refused.err());
        assertTrue(
                refused.err().contains("--stats-url http://127.0.0.1:" + closed + "/stats: no 2xx answer within 2 s"),
                refused.err());
        com.sun.net.httpserver.HttpServer text = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        text.createContext("/d/time", ex -> {
            byte[] b = "time: the indefinite continued progress of existence"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        text.start();
        try {
            Cli.Run notJson = Cli.run(
                    "idle",
                    "-c",
                    "1",
                    "--stats-url",
                    "http://127.0.0.1:" + text.getAddress().getPort() + "/d/time",
                    "127.0.0.1:9");
            assertEquals(2, notJson.status(), notJson.err());
            assertTrue(notJson.err().contains("the answer is not a JSON object: time: the indefinite"), notJson.err());
        } finally {
            text.stop(0);
        }
        Cli.assertNoStackTrace(pid);
    }

    @Test
    void serverPidsAreAListAndTheirRssIsSummed() throws Exception {
        assertEquals(
                List.of(12L, 13L),
                config("--server-pid", "12, 13,12", "127.0.0.1:9").serverPids());
        UsageException e = assertThrows(UsageException.class, () -> config("--server-pid", "12,x", "127.0.0.1:9"));
        assertEquals("--server-pid must be a pid or pids separated by commas: 12,x", e.getMessage());
        // a process that does nothing, so its RSS stays put between the readings (this JVM's may not)
        Process idle = new ProcessBuilder("sleep", "60").start();
        try {
            long pid = idle.pid();
            long one;
            long two;
            long again;
            int tries = 0;
            do { // until no reading falls within its start-up (exec, the loader mapping pages)
                one = ProcMemory.rssBytes(List.of(pid));
                assumeTrue(one > 0, "no /proc/PID/status");
                two = ProcMemory.rssBytes(List.of(pid, pid));
                again = ProcMemory.rssBytes(List.of(pid));
            } while (one != again && ++tries < 10_000);
            assertEquals(2 * one, two, one + " twice is not " + two);
        } finally {
            idle.destroyForcibly();
        }
        assertEquals(-1, ProcMemory.rssBytes(List.of()));
    }

    @Test
    void serverStatsNumbersFeedThePerConnectionArithmetic() {
        String before = "{\"openConnections\":1,\"heapUsedBytes\":1000}";
        String after = "{\"openConnections\":101, \"heapUsedBytes\" : 21000}";
        assertEquals(21000, IdleMemory.statsNumber(after, "heapUsedBytes"));
        assertEquals(-1, IdleMemory.statsNumber(after, "nope"));
        String line = new IdleMemory(-1, 0, -1, after).describe(new IdleMemory(-1, 0, -1, before), 100);
        assertTrue(line.contains("server heap") && line.contains("200 B/conn"), line);
    }

    /**
     * A run that ends with connects still pending (a listener whose accept queue is full drops
     * their SYNs) closes them too: an in-process caller gets back every descriptor the run took.
     */
    @Test
    void connectsStillPendingWhenTheRunEndsAreClosed() throws Exception {
        java.nio.file.Path fds = java.nio.file.Path.of("/proc/self/fd");
        assumeTrue(java.nio.file.Files.isDirectory(fds), "needs /proc/self/fd");
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            long before = openSockets(fds);
            Cli.Run run = Cli.run(
                    "idle",
                    "-c",
                    "30",
                    "--connect-timeout",
                    "60s",
                    "--duration",
                    "1s",
                    "127.0.0.1:" + full.getLocalPort());
            Cli.assertNoStackTrace(run);
            long after = openSockets(fds);
            assertTrue(after <= before + 3, "sockets before " + before + ", after " + after + "\n" + run.err());
        }
    }

    /**
     * Sockets this JVM holds open: the run's connects are sockets, while jars the class loader
     * opens meanwhile are not, so those cannot pass for a leak.
     */
    private static long openSockets(java.nio.file.Path fds) throws IOException {
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(fds)) {
            return s.filter(fd -> {
                        try {
                            return java.nio.file.Files.readSymbolicLink(fd)
                                    .toString()
                                    .startsWith("socket:");
                        } catch (IOException gone) {
                            return false; // the listing's own descriptor, closed since
                        }
                    })
                    .count();
        }
    }
}
