package io.tickwork.client.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.client.Cli;
import io.tickwork.client.LaunchedTool;
import io.tickwork.client.common.Targets;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(120)
class PingPongTest {

    static List<PingPongModel> models() {
        return PingPongModel.available();
    }

    @ParameterizedTest
    @MethodSource("models")
    void everyRoundTripCompletes(PingPongModel model) throws Exception {
        PingPongClient.Result r = PingPongCommand.runModel(
                model,
                1,
                new PingPongCommand.Workload(50, 1, 30_000, 0),
                Duration.ofSeconds(60),
                false,
                new PingPongCommand.RunControl(),
                System.out);
        assertEquals(30_000, r.pings(), model.id());
        assertEquals(0, r.errors());
        assertEquals(30_000, r.rtt().getTotalCount());
        assertTrue(r.microsPerPing() > 0);
    }

    @Test
    void nioWithSeveralSelectorsOnBothSides() throws Exception {
        PingPongClient.Result r = PingPongCommand.runModel(
                PingPongModel.NIO,
                3,
                new PingPongCommand.Workload(64, 2, 20_001, 100),
                Duration.ofSeconds(60),
                false,
                new PingPongCommand.RunControl(),
                System.out);
        assertEquals(20_001, r.pings());
        assertEquals(0, r.errors());
    }

    @Test
    void aListenerThatNeverAcceptsHoldsTheClientNoLongerThanItsTimeLimit() throws Exception {
        againstAFullListener(at -> {
            long start = System.nanoTime();
            PingPongClient client = new PingPongClient(at, 2, 1);
            assertThrows(IOException.class, () -> client.run(10, TimeUnit.SECONDS.toNanos(2)));
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(tookMillis < 20_000, "a 2 s run took " + tookMillis + " ms");
        });
    }

    /** What a test does with the address of a listener that drops SYNs. */
    private interface AgainstAddress {
        void run(InetSocketAddress at) throws Exception;
    }

    /**
     * Runs {@code test} against a listener that never accepts and whose accept queue is full: the
     * kernel then drops further SYNs, and a plain connect() waits through its retries, minutes.
     */
    private static void againstAFullListener(AgainstAddress test) throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort());
            List<Socket> queued = fillAcceptQueue(at);
            try {
                test.run(at);
            } finally {
                for (Socket s : queued) {
                    s.close();
                }
            }
        }
    }

    /**
     * Where one client thread cannot connect, the run fails with that thread's error, not with
     * the other thread's giving up on it. The listener has room for one connection of the two
     * (usually: see below); either thread may get it.
     */
    @Test
    void aRunThatCannotConnectFailsWithTheConnectError() throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort());
            List<Socket> queued = fillAcceptQueue(at);
            try {
                queued.add(full.accept()); // room for one more: one of the client's two
                PingPongClient client = new PingPongClient(at, 2, 2);
                IOException e = null;
                try {
                    client.run(10, TimeUnit.SECONDS.toNanos(1));
                } catch (IOException thrown) {
                    e = thrown;
                }
                // the kernel may complete both handshakes (a full queue drops the final ACK, not
                // always the SYN); runFailure's choice is tested on its own below
                org.junit.jupiter.api.Assumptions.assumeTrue(e != null, "both connections got in this time");
                assertTrue(
                        e instanceof java.net.SocketTimeoutException,
                        e + (e.getCause() == null ? "" : ", cause " + e.getCause()));
            } finally {
                for (Socket s : queued) {
                    s.close();
                }
            }
        }
    }

    /** {@code client.run(pings, nanos)} on another thread. */
    private static java.util.concurrent.CompletableFuture<PingPongClient.Result> runAsync(
            PingPongClient client, long pings, long nanos) {
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return client.run(pings, nanos);
            } catch (IOException | InterruptedException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    /** Connects to {@code at} until a connect is dropped: its accept queue is then full. */
    private static List<Socket> fillAcceptQueue(InetSocketAddress at) throws IOException {
        List<Socket> queued = new ArrayList<>();
        io.tickwork.client.common.FullListener.fillAcceptQueue(at, queued);
        return queued;
    }

    @Test
    void theRunsFailureIsTheOneThatStoppedIt() {
        IOException refused = new java.net.ConnectException("Connection refused");
        IOException gaveUp = new PingPongClient.OtherLoopFailed("client threads did not all connect in time", null);
        assertEquals(refused, PingPongClient.runFailure(java.util.Arrays.asList(gaveUp, null, refused)));
        assertEquals(refused, PingPongClient.runFailure(java.util.Arrays.asList(refused, gaveUp)));
        assertEquals(gaveUp, PingPongClient.runFailure(java.util.Arrays.asList(null, gaveUp)));
        assertNull(PingPongClient.runFailure(java.util.Arrays.asList(null, null)));
    }

    @Test
    void aRunCutByItsTimeLimitSaysSo() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort());
            PingPongClient.Result r = new PingPongClient(at, 2, 1).run(10, TimeUnit.MILLISECONDS.toNanos(300));
            assertEquals(0, r.pings());
            assertEquals(10, r.asked());
            assertTrue(
                    r.toText("x").contains("incomplete: 0 of 10 pings answered: the time limit (--duration) passed"),
                    r.toText("x"));
            assertTrue(r.toText("x").contains(": - us/ping, 0 pings/s"), r.toText("x")); // not NaN
            assertTrue(r.toText("x").contains("0 pings over 2 connections"), r.toText("x"));
            assertTrue(r.toText("x").contains("round trip p50 -  p90 -  p99 -  p99.9 -  max -"), r.toText("x"));
        }
    }

    /** A server that accepts and never answers: the warm-up's time limit ends the run, with why. */
    @Test
    void aWarmUpThatGetsNoAnswerInItsTimeLimitEndsTheRun() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort());
            IOException e = assertThrows(
                    IOException.class,
                    () -> new PingPongCommand.Workload(2, 1, 10, 10)
                            .measure(at, Duration.ofMillis(300), false, new PingPongCommand.RunControl(), System.out));
            assertTrue(e.getMessage().contains("the warm-up got no ping answered in its time limit"), e.getMessage());
        }
    }

    /** A server that closes every connection: the report blames the connections, not the time limit. */
    @Test
    void aRunWhoseConnectionsAllFailSaysSo() throws Exception {
        try (ServerSocket closing = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = closeTheNextConnections(closing, 2);
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), closing.getLocalPort());
            PingPongClient.Result r = new PingPongClient(at, 2, 1).run(10, TimeUnit.SECONDS.toNanos(10));
            acceptor.join(10_000);
            assertEquals(0, r.pings());
            assertEquals(2, r.errors());
            assertTrue(
                    r.toText("x")
                            .contains("incomplete: 0 of 10 pings answered: 2 of 2 connections ended in an" + " error"),
                    r.toText("x"));

            // from the command line, the warm-up finds it and the run stops there
            Thread again = closeTheNextConnections(closing, 2);
            Cli.Run run = Cli.run(
                    "pingpong",
                    "client",
                    "-c",
                    "2",
                    "-n",
                    "10",
                    "--warmup",
                    "10",
                    "-D",
                    "10s",
                    "127.0.0.1:" + closing.getLocalPort());
            again.join(10_000);
            assertEquals(1, run.status(), run.out() + run.err());
            assertTrue(
                    run.err().contains("the warm-up got no ping answered: 2 of 2 connections ended in an error"),
                    run.err());
        }
    }

    /** A thread that accepts {@code n} connections on {@code listener} and closes each at once. */
    private static Thread closeTheNextConnections(ServerSocket listener, int n) {
        Thread t = new Thread(() -> {
            try {
                for (int i = 0; i < n; i++) {
                    listener.accept().close();
                }
            } catch (IOException ignored) {
                // the test closed the listener
            }
        });
        t.start();
        return t;
    }

    /** {@code pingpong server} on a port another process holds: refused naming the port, not the ramp's advice. */
    @Test
    void aServerOnATakenPortIsRefusedNamingIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Cli.Run run = Cli.run("pingpong", "server", "--port", Integer.toString(port), "-D", "1s");
            assertEquals(2, run.status(), run.out() + run.err());
            assertTrue(run.err().contains("cannot listen on 127.0.0.1:" + port), run.err());
            assertTrue(!run.err().contains("--sources"), run.err());
            Cli.assertNoStackTrace(run);
        }
    }

    @Test
    void nioBusyPollOnBothSides() throws Exception {
        PingPongClient.Result r = PingPongCommand.runModel(
                PingPongModel.NIO,
                1,
                new PingPongCommand.Workload(20, 1, 10_000, 0),
                Duration.ofSeconds(60),
                true,
                new PingPongCommand.RunControl(),
                System.out);
        assertEquals(10_000, r.pings());
        assertEquals(0, r.errors());
        assertEquals(10_000, r.rtt().getTotalCount());
    }

    @Test
    void virtualThreadsAreAvailableExactlyFromJdk21() {
        if (Runtime.version().feature() >= 21) {
            assertNull(PingPongModel.VIRTUAL.unavailableReason());
        } else {
            assertNotNull(PingPongModel.VIRTUAL.unavailableReason());
            Cli.Run run = Cli.run("pingpong", "run", "--model", "virtual", "-c", "2", "-n", "10");
            assertEquals(1, run.status(), run.err()); // the one model asked for: nothing measured
            assertTrue(run.out().contains("unavailable"), run.out());
        }
    }

    @Test
    void commandLineRunReportsMicrosPerPing() {
        Cli.Run run = Cli.run("pingpong", "run", "--model", "all", "-c", "10", "-n", "2000", "--warmup", "0");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("nio: 2000 pings"), run.out());
        assertTrue(run.out().contains("threads: 2000 pings"), run.out());
        assertTrue(run.out().contains("us/ping"), run.out());
        Cli.Run models = Cli.run("pingpong", "models");
        assertTrue(models.out().contains("nio") && models.out().contains("kilim"), models.out());
    }

    @Test
    void eachSideDefaultsToHalfTheCoresAndHelpSaysHowMany() {
        long half = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        for (String command : new String[] {"run", "server", "client"}) {
            Cli.Run help = Cli.run("pingpong", command, "--help");
            assertEquals(0, help.status(), help.err());
            String text = help.out().replaceAll("\\s+", " "); // picocli wraps long descriptions
            assertTrue(text.contains("(default " + half + ", half the cores)"), command + ": " + help.out());
        }
        Cli.Run bench = Cli.run("bench", "--help");
        assertTrue(bench.out().replaceAll("\\s+", " ").contains("(default " + half + ", half the cores"), bench.out());
    }

    /**
     * A stub pingpong server: a thread per connection answering each 4-byte ping with Pong, and
     * a latch counted down once per answer.
     */
    private static final class CountingPongServer implements AutoCloseable {
        final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final java.util.concurrent.CountDownLatch answered;
        /** What it writes for each ping: one Pong, or a broken server's two. */
        final byte[] reply;

        CountingPongServer(int answers) throws IOException {
            this(answers, 1);
        }

        CountingPongServer(int answers, int pongsPerPing) throws IOException {
            answered = new java.util.concurrent.CountDownLatch(answers);
            reply = "Pong".repeat(pongsPerPing).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket c = listener.accept();
                        Thread t = new Thread(() -> answer(c));
                        t.setDaemon(true);
                        t.start();
                    }
                } catch (IOException closed) {
                    // the test closed the listener
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void answer(Socket c) {
            try (c) {
                byte[] ping = new byte[4];
                while (true) {
                    c.getInputStream().readNBytes(ping, 0, 4);
                    c.getOutputStream().write(reply);
                    answered.countDown();
                }
            } catch (IOException closed) {
                // the client closed
            }
        }

        String target() {
            return "127.0.0.1:" + listener.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }

    /**
     * A server that answers each ping with two pongs: the second is a reply nobody asked for, an
     * error on its connection, never a round trip (nor the answer to the next ping).
     */
    @Test
    void aPongNobodyAskedForIsAnErrorNotARoundTrip() throws Exception {
        try (CountingPongServer server = new CountingPongServer(0, 2)) {
            PingPongClient client = new PingPongClient(Targets.hostPort("at", server.target()), 4, 1);
            PingPongClient.Result r = client.run(2_000, TimeUnit.SECONDS.toNanos(30));
            assertEquals(4, r.errors(), r.toText("broken"));
            assertTrue(r.pings() <= 4, r.toText("broken")); // at most each connection's first
            assertTrue(r.toText("broken").contains("a reply other than one Pong per ping"), r.toText("broken"));
        }
    }

    /**
     * A connection the warm-up loses to an error is said, though the measured run, on connections
     * of its own, goes well: the server that broke it is not passed off as sound.
     */
    @Test
    void aWarmUpErrorIsSaid() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket c = listener.accept();
                        boolean broken = accepted.getAndIncrement() == 0; // the warm-up's first connection
                        Thread t = new Thread(() -> {
                            try (c) {
                                byte[] ping = new byte[4];
                                for (int i = 0; ; i++) {
                                    c.getInputStream().readNBytes(ping, 0, 4);
                                    c.getOutputStream()
                                            .write((broken && i == 10 ? "PongPong" : "Pong")
                                                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                                }
                            } catch (IOException closed) {
                                // the client closed
                            }
                        });
                        t.setDaemon(true);
                        t.start();
                    }
                } catch (IOException closed) {
                    // the test closed the listener
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            var notes = new java.io.ByteArrayOutputStream();
            PingPongClient.Result r = new PingPongCommand.Workload(4, 1, 2_000, 400)
                    .measure(
                            Targets.hostPort("at", "127.0.0.1:" + listener.getLocalPort()),
                            Duration.ofSeconds(30),
                            false,
                            new PingPongCommand.RunControl(),
                            new java.io.PrintStream(notes, true, java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(2_000, r.pings(), r.toText("measured"));
            assertEquals(0, r.errors(), r.toText("measured"));
            assertTrue(
                    notes.toString(java.nio.charset.StandardCharsets.UTF_8)
                            .contains("warm-up: 1 of 4 connections ended in an error"),
                    notes.toString(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** A loop's share of the pings follows its connections: three over two loops is two to one. */
    @Test
    void eachLoopPingsInProportionToItsConnections() {
        assertEquals(66_667, PingPongClient.share(100_000, 3, 0, 2));
        assertEquals(33_333, PingPongClient.share(100_000, 3, 2, 1));
        for (int connections : new int[] {1, 3, 7, 19_000}) {
            for (long pings : new long[] {connections, connections + 1L, 1_000_003, Long.MAX_VALUE / 2}) {
                long sum = 0;
                int first = 0;
                for (int threads = Math.min(4, connections), i = 0; i < threads; i++) {
                    int conns = connections / threads + (i < connections % threads ? 1 : 0);
                    long share = PingPongClient.share(pings, connections, first, conns);
                    assertTrue(share >= conns, "every connection pings at least once");
                    sum += share;
                    first += conns;
                }
                assertEquals(pings, sum, connections + " connections, " + pings + " pings");
            }
        }
    }

    /** Stopped mid-run, from another thread: the run returns what it measured and says why it ended. */
    @Test
    void aStoppedRunReturnsWhatItMeasuredAndSaysSo() throws Exception {
        try (CountingPongServer server = new CountingPongServer(1_000)) {
            PingPongClient client = new PingPongClient(Targets.hostPort("at", server.target()), 2, 1);
            java.util.concurrent.CompletableFuture<PingPongClient.Result> run =
                    runAsync(client, 1_000_000_000L, TimeUnit.SECONDS.toNanos(60));
            assertTrue(server.answered.await(30, TimeUnit.SECONDS), "the run never got going");
            client.stop();
            PingPongClient.Result r = run.get(30, TimeUnit.SECONDS);
            assertTrue(r.stopped());
            assertTrue(r.pings() >= 1_000 - 2 && r.pings() < r.asked(), r.toText("x"));
            assertEquals(r.pings(), r.rtt().getTotalCount());
            assertTrue(r.toText("x").contains("pings answered: stopped (a signal) before the end"), r.toText("x"));
        }
    }

    /**
     * A stop that lands while a connect waits on a listener that drops SYNs ends the connect at
     * once: the run returns stopped, not after its time limit, and not as a failure.
     */
    @Test
    void aStopCutsAConnectUnderWayShort() throws Exception {
        againstAFullListener(at -> {
            PingPongClient client = new PingPongClient(at, 1, 1);
            java.util.concurrent.CompletableFuture<PingPongClient.Result> run =
                    runAsync(client, 10, TimeUnit.SECONDS.toNanos(120));
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!client.connectUnderWay()) {
                assertTrue(System.nanoTime() < giveUp, "the client never started to connect");
                assertFalse(run.isDone(), "the run ended before it connected");
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // polls the client
            }
            long stoppedAt = System.nanoTime();
            client.stop();
            PingPongClient.Result r = run.get(60, TimeUnit.SECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
            assertTrue(r.stopped());
            assertEquals(0, r.pings());
            assertTrue(tookMillis < 10_000, "the stop took " + tookMillis + " ms");
        });
    }

    /** A control stopped before the run starts: the client returns at once, nothing measured. */
    @Test
    void aClientStartedAfterTheStopDoesNotRun() throws Exception {
        try (CountingPongServer server = new CountingPongServer(1)) {
            PingPongCommand.RunControl control = new PingPongCommand.RunControl();
            control.stop();
            PingPongClient.Result r = new PingPongCommand.Workload(2, 1, 1_000, 1_000)
                    .measure(
                            Targets.hostPort("at", server.target()),
                            Duration.ofSeconds(60),
                            false,
                            control,
                            System.out);
            assertTrue(r.stopped());
            assertEquals(0, r.pings());
            assertEquals(1, server.answered.getCount(), "a ping was sent");
        }
    }

    @Test
    void fewerPingsThanConnectionsAreRefused() {
        Cli.Run run = Cli.run("pingpong", "run", "-c", "50", "-n", "49", "--warmup", "0");
        assertEquals(2, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("--pings 49 is fewer than --connections 50"), run.err());
        Cli.assertNoStackTrace(run);
    }

    /** SIGTERM to {@code pingpong client} mid-run: the report comes out, then the signal's status. */
    @Test
    void aSignalEndsTheRunWithItsReport() throws Exception {
        try (CountingPongServer server = new CountingPongServer(1_000);
                LaunchedTool tool = LaunchedTool.start(
                        "pingpong",
                        "client",
                        "-c",
                        "2",
                        "-n",
                        "1000m",
                        "--warmup",
                        "0",
                        "-D",
                        "60s",
                        server.target())) {
            assertTrue(server.answered.await(30, TimeUnit.SECONDS), "the run never got going");
            String report = tool.terminate();
            assertEquals(143, tool.exitValue(), report);
            assertTrue(report.contains("pings answered: stopped (a signal) before the end"), report);
        }
    }

    /** The sockets this process holds, by inode, from /proc/self/fd (Linux). */
    private static java.util.Set<String> openSockets() throws IOException {
        try (java.util.stream.Stream<java.nio.file.Path> fds =
                java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            java.util.Set<String> sockets = new java.util.HashSet<>();
            fds.forEach(fd -> {
                try {
                    String link = java.nio.file.Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:")) {
                        sockets.add(link);
                    }
                } catch (IOException gone) {
                    // the listing's own descriptor, closed since
                }
            });
            return sockets;
        }
    }

    /**
     * A listener that accepts nothing, with room for two queued connections: of three connections
     * on two threads, one thread connects all of its own and then learns that the other failed. It
     * closes them: the run's failure leaves no socket open.
     */
    @Test
    void aLoopThatConnectedClosesItsConnectionsWhenAnotherLoopFails() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/fd")));
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort());
            java.util.Set<String> before = openSockets();
            PingPongClient client = new PingPongClient(at, 3, 2);
            try {
                client.run(10, TimeUnit.MILLISECONDS.toNanos(500));
                // a full queue may drop the final ACK rather than the SYN: every connect then
                // "succeeds", and no loop failed
                org.junit.jupiter.api.Assumptions.abort("every connection was taken; no loop failed");
            } catch (IOException expected) {
                // a loop failed to connect; the other had connected its own
            }
            java.util.Set<String> left = openSockets();
            left.removeAll(before);
            assertEquals(java.util.Set.of(), left, "sockets the failed run left open");
        }
    }
}
