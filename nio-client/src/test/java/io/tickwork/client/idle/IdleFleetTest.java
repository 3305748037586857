package io.tickwork.client.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tickwork.client.Cli;
import io.tickwork.client.common.JsonReader;
import io.tickwork.client.common.OptionValues;
import io.tickwork.client.common.OsError;
import io.tickwork.client.common.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code idle --processes N}: the split among children (parsing only), and real runs of child JVMs
 * against an acceptor on 127.0.0.1: the aggregated report and its JSON, idle-merge of it, and the
 * memory guard stopping every child's ramp, from a child's guard or from the parent's.
 */
@Timeout(120)
class IdleFleetTest {

    /** The options parsed as the launcher does, and the plan they give (null for one process). */
    private static FleetPlan plan(long openFileLimit, String... args) {
        IdleCommand c = new IdleCommand(System.out, System.err);
        OptionValues.conventions(new CommandLine(c)).parseArgs(args);
        return c.fleetPlan(c.config(), openFileLimit);
    }

    private static List<InetAddress> addresses(String... a) throws Exception {
        List<InetAddress> out = new ArrayList<>();
        for (String s : a) {
            out.add(InetAddress.getByName(s));
        }
        return out;
    }

    @Test
    void theRunIsSplitEvenlyAndEachChildHasItsOwnSourceAddresses() throws Exception {
        FleetPlan p = plan(
                20_000,
                "--processes",
                "3",
                "-c",
                "301",
                "--step",
                "10",
                "--max-pending",
                "2",
                "--seed",
                "7",
                "--server-pid",
                "1",
                "127.0.0.1:9");
        assertEquals(3, p.size());
        assertEquals(
                List.of(101, 100, 100),
                List.of(
                        p.child(0).connections(),
                        p.child(1).connections(),
                        p.child(2).connections()));
        assertEquals(
                List.of(4, 3, 3),
                List.of(p.child(0).step(), p.child(1).step(), p.child(2).step()));
        assertEquals(
                List.of(1, 1, 1),
                List.of(
                        p.child(0).maxPending(),
                        p.child(1).maxPending(),
                        p.child(2).maxPending()));
        assertEquals(addresses("127.0.0.2"), p.child(0).sources());
        assertEquals(addresses("127.0.0.3"), p.child(1).sources());
        assertEquals(addresses("127.0.0.4"), p.child(2).sources());
        assertEquals(
                List.of(7L, 8L, 9L),
                List.of(p.child(0).seed(), p.child(1).seed(), p.child(2).seed()));
        for (int i = 0; i < 3; i++) {
            assertTrue(p.child(i).serverPids().isEmpty(), "the parent measures the server");
            assertNull(p.child(i).statsUrl());
        }
        assertEquals(19_000, p.perProcess());

        // --sources K is split too; consecutive runs skip .255 and .0 across the children
        p = plan(
                20_000,
                "--processes",
                "2",
                "-c",
                "40",
                "--first-source",
                "127.0.0.252",
                "--sources",
                "5",
                "127.0.0.1:9");
        assertEquals(
                addresses("127.0.0.252", "127.0.0.253", "127.0.0.254"),
                p.child(0).sources());
        assertEquals(addresses("127.0.1.1", "127.0.1.2"), p.child(1).sources());
        p = plan(20_000, "--processes", "2", "-c", "40", "--sources", "0", "127.0.0.1:9");
        assertTrue(p.child(0).sources().isEmpty() && p.child(1).sources().isEmpty(), "the kernel chooses");
    }

    @Test
    void aChildsCommandLineGivesItsConfigBack() throws Exception {
        FleetPlan p = plan(
                20_000,
                "--processes",
                "2",
                "-c",
                "1001",
                "--first-source",
                "127.0.0.254",
                "--sources",
                "4",
                "--duration",
                "1.5s",
                "--hold",
                "250ms",
                "--workload",
                "--idle-min",
                "1ms",
                "--idle-max",
                "2s",
                "--path",
                "/d/x",
                "--min-available",
                "2g",
                "--target",
                "127.0.0.1:9,127.0.0.1:10");
        for (int i = 0; i < p.size(); i++) {
            List<String> args = FleetPlan.arguments(p.child(i));
            assertEquals(List.of("idle", "--child"), args.subList(0, 2));
            assertEquals(
                    p.child(i), IdleTest.config(args.subList(1, args.size()).toArray(new String[0])));
            List<String> cmd = p.command(i);
            assertTrue(cmd.containsAll(FleetPlan.JVM_OPTIONS), cmd.toString());
            assertTrue(cmd.contains("-Xmx128m"), cmd.toString()); // a small share: the floor
            assertEquals(FleetPlan.MAIN, cmd.get(cmd.indexOf("-cp") + 2));
        }
        assertNotNull(Class.forName(FleetPlan.MAIN), "the launcher the children run");
    }

    @Test
    void badProcessCountsAndSharesAreRefusedWithTheFigures() {
        UsageException e = assertThrows(UsageException.class, () -> plan(20_000, "--processes", "0", "127.0.0.1:9"));
        assertEquals("--processes must be in [1, 256]: 0", e.getMessage());
        e = assertThrows(UsageException.class, () -> plan(20_000, "--processes", "257", "127.0.0.1:9"));
        assertEquals("--processes must be in [1, 256]: 257", e.getMessage());
        e = assertThrows(UsageException.class, () -> plan(20_000, "--processes", "5", "-c", "3", "127.0.0.1:9"));
        assertEquals(
                "--processes 5 is more than --connections 3: each process needs at least one connection",
                e.getMessage());
        e = assertThrows(UsageException.class, () -> plan(20_000, "--processes", "3", "-c", "60000", "127.0.0.1:9"));
        assertTrue(
                e.getMessage()
                        .startsWith("--connections 60000 over --processes 3 is 20000 per process, more than one"
                                + " process can hold: at most 19000 (open-file limit 20000 less 1000 for the JVM);"
                                + " use --processes 4 or more"),
                e.getMessage());
        assertEquals(
                3,
                plan(20_000, "--processes", "3", "-c", "57000", "127.0.0.1:9").size(),
                "19,000 each fit");
        e = assertThrows(UsageException.class, () -> plan(20_000, "--processes", "3", "--sources", "2", "127.0.0.1:9"));
        assertTrue(e.getMessage().startsWith("--sources 2 is fewer than --processes 3"), e.getMessage());
        assertNull(plan(20_000, "--processes", "1", "127.0.0.1:9"), "one process runs alone");
        assertNull(plan(20_000, "-c", "19000", "127.0.0.1:9"), "19,000 fit in one process");
        e = assertThrows(UsageException.class, () -> plan(20_000, "-c", "30000", "127.0.0.1:9"));
        assertTrue(
                e.getMessage()
                        .startsWith("--connections 30000 needs 30000 descriptors in one process, more than it can"
                                + " hold: at most 19000 (open-file limit 20000 less 1000 for the JVM); use --processes"
                                + " 2 or more"),
                e.getMessage());
        assertNull(plan(-1, "-c", "10m", "127.0.0.1:9"), "no limit known: no check");

        // through the launcher, with this machine's limit: exit 2, the message, no stack trace
        long limit = FleetPlan.perProcess(FleetPlan.openFileLimit());
        assumeTrue(limit < 5_000_000, "no open-file limit to exceed");
        Cli.Run run = Cli.run("idle", "--processes", "2", "-c", "10m", "127.0.0.1:9");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("more than one process can hold: at most " + limit), run.err());
        Cli.assertNoStackTrace(run);
        run = Cli.run("idle", "--processes", "0", "127.0.0.1:9");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("--processes must be in [1, 256]: 0"), run.err());
        run = Cli.run("idle", "--child", "--processes", "2", "127.0.0.1:9");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("a --child runs alone"), run.err());
    }

    @Test
    void progressAndChildReportsReadBackAsWritten() {
        IdleProgress p = new IdleProgress(
                3,
                100,
                90,
                5,
                95,
                120,
                Map.of(OsError.ETIMEDOUT, 7L, OsError.ECONNRESET, 1L),
                2,
                30,
                50L << 20,
                new SystemMemory(8L << 30, 300, 1L << 20),
                11,
                4,
                4096,
                true,
                "memory guard: MemAvailable 2.0 GiB < floor 3.0 GiB",
                true);
        assertEquals(p, IdleProgress.fromJson(JsonReader.parseObject(p.toJson())));
        assertTrue(p.line().contains("connected 90  pending 5  failed 8  closed 2  rate 30/s"), p.line());

        Histogram latency = io.tickwork.client.common.LatencyRange.histogram();
        for (long v = 1; v <= 1000; v++) {
            latency.recordValue(v * 1000);
        }
        IdleResult r = sampleResult(latency, new IdleMemory(52L << 20, 5L << 20, -1, null));
        IdleConfig cfg = IdleTest.config("127.0.0.1:9");
        IdleResult back = FleetReport.childResult(JsonReader.parseObject(FleetReport.childJson(r, cfg)));
        assertEquals(r.toJson(cfg), back.toJson(cfg), "every reported figure, the latency percentiles included");
        String v6 = r.toJson(IdleTest.config("[::1]:9"));
        assertTrue(v6.contains("\"targets\":\"[0:0:0:0:0:0:0:1]:9\""), "an IPv6 target in brackets: " + v6);
        assertEquals(latency, back.latency());
        // a client RSS that shrank between the readings has no cost per connection: null, as the
        // text says, where the live heap that grew has one
        IdleResult shrunk = sampleResult(latency, new IdleMemory(48L << 20, 5L << 20, -1, null));
        JsonNode client = Cli.json(shrunk.toJson(cfg)).get("memory").get("client");
        assertTrue(client.get("rss_per_conn").isNull(), client.toString());
        assertEquals(-(2L << 20), client.get("rss_delta").asLong(), client.toString());
        assertEquals((1L << 20) / 95, client.get("live_heap_per_conn").asLong(), client.toString());
    }

    /**
     * A child's result with every figure set, its memory at the ramp's end {@code atRamp} (before
     * the ramp: 50 MiB RSS, 4 MiB live heap; 95 connections at the peak).
     */
    private static IdleResult sampleResult(Histogram latency, IdleMemory atRamp) {
        return new IdleResult(
                100,
                90,
                95,
                120,
                Map.of(OsError.ECONNREFUSED, 3L),
                OsError.ECONNREFUSED,
                "Connection refused",
                "ECONNREFUSED (connection refused)",
                2,
                1000,
                123456,
                1,
                0,
                4,
                7,
                latency,
                new IdleMemory(50L << 20, 4L << 20, -1, null),
                atRamp,
                new SystemMemory(8L << 30, 300, 1L << 20),
                7L << 30,
                3L << 30,
                true,
                2.5);
    }

    /**
     * A fleet whose ramps the duration cuts short reports that with the fleet's count and target,
     * not one child's share of it.
     */
    @Test
    void aFleetCutShortByTheDurationSaysSoWithItsOwnFigures() throws Exception {
        try (IdleTest.Acceptor a = new IdleTest.Acceptor(2000)) {
            Cli.Run run = Cli.run(
                    "idle",
                    "--processes",
                    "2",
                    "-c",
                    "2000",
                    "--step",
                    "100",
                    "--sources",
                    "0",
                    "--duration",
                    "2s",
                    "--min-available",
                    "0",
                    "--json",
                    "127.0.0.1:" + a.port());
            assertEquals(0, run.status(), run.err());
            JsonNode j = Cli.json(run.out());
            String why = j.get("stopped_by").asText();
            assertTrue(
                    why.startsWith("the end of the run, before the ramp's: the duration (-D) or a signal at ")
                            && why.endsWith(" of 2000"),
                    why);
            assertTrue(why.contains(" at " + j.get("connected").asLong() + " of "), why + " / " + run.out());
        }
    }

    /** A fleet whose connects were all refused prints its report, says so on standard error and exits 1. */
    @Test
    void aFleetThatConnectedNothingExitsOne() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Cli.Run run = Cli.run(
                "idle",
                "--processes",
                "2",
                "-c",
                "20",
                "--duration",
                "300ms",
                "--min-available",
                "0",
                "127.0.0.1:" + port);
        assertEquals(1, run.status(), run.err());
        Cli.assertNoStackTrace(run);
        assertTrue(run.out().contains("ECONNREFUSED"), run.out());
        assertTrue(run.err().contains("connects succeeded, in any process"), run.err());
    }

    /**
     * A fleet whose server goes away mid-hold (listener and connections closed): each child's
     * refused reconnects come after the server closed connections it held, so the fleet exits 1
     * saying the server went away, not 0 with a limit of this machine.
     */
    @Test
    void aFleetWhoseServerGoesAwayExitsOne() throws Exception {
        io.tickwork.client.common.StubHttpServer s = new io.tickwork.client.common.StubHttpServer(
                (n, p) -> io.tickwork.client.common.StubHttpServer.ok("k"));
        Cli.Run[] run = new Cli.Run[1];
        Thread fleet = new Thread(() -> {
            try {
                run[0] = Cli.run(
                        "idle",
                        "--processes",
                        "2",
                        "-c",
                        "20",
                        "--sources",
                        "0",
                        "--duration",
                        "30s",
                        "--min-available",
                        "0",
                        "127.0.0.1:" + s.port());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        fleet.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (s.connections.get() < 20 && System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // the children's ramps, bounded
        }
        assertEquals(20, s.connections.get(), "connections held before the server went away");
        s.close();
        fleet.join(TimeUnit.SECONDS.toMillis(40));
        assertFalse(fleet.isAlive(), "the fleet still running 40 s after its server went away");
        assertEquals(1, run[0].status(), run[0].out() + run[0].err());
        assertTrue(run[0].err().contains("the server stopped listening"), run[0].err());
        Cli.assertNoStackTrace(run[0]);
    }

    /** Three child JVMs, 100 connections each, the report summed, idle-merge of it the same. */
    @Test
    void threeProcessesHoldTheirSharesAndReportOneTotal(@TempDir Path dir) throws Exception {
        int n = 300;
        try (IdleTest.Acceptor a = new IdleTest.Acceptor(n)) {
            Cli.Run run = Cli.run(
                    "idle",
                    "--processes",
                    "3",
                    "-c",
                    "" + n,
                    "--step",
                    "100k",
                    "--hold",
                    "1s",
                    "--duration",
                    "30s",
                    "--min-available",
                    "0",
                    "--server-pid",
                    Long.toString(ProcessHandle.current().pid()),
                    "--json",
                    "127.0.0.1:" + a.port());
            assertEquals(0, run.status(), run.err());
            Cli.assertNoStackTrace(run);
            assertFalse(run.out().strip().contains("\n"), "one line: " + run.out());
            assertTrue(a.all.await(30, TimeUnit.SECONDS), "server accepted " + a.accepted.size());
            assertEquals(Set.copyOf(addresses("127.0.0.2", "127.0.0.3", "127.0.0.4")), a.sources);

            JsonNode j = Cli.json(run.out());
            assertEquals("tickwork idle", j.get("tool").asText());
            assertEquals(n, j.get("target").asLong());
            assertEquals(n, j.get("connected").asLong());
            assertEquals(n, j.get("peak").asLong());
            assertEquals(n, j.get("attempts").asLong());
            assertEquals(Cli.json("{\"total\":0,\"by_kind\":{}}"), j.get("failed"));
            assertTrue(j.get("limit_hit").isNull() && j.get("stopped_by").isNull(), run.out());
            assertEquals(3, j.get("processes").asLong());
            JsonNode mem = j.get("memory");
            assertEquals(n, mem.get("connections").asLong());
            assertTrue(mem.get("client").get("rss_after").asLong() > 0, mem.toString());
            assertTrue(mem.get("server").get("rss_before").asLong() > 0, "the parent measured the server: " + mem);
            assertEquals(0, j.get("system").get("guard_enabled").asLong());
            JsonNode per = j.get("per_child");
            assertEquals(3, per.size());
            Set<String> firsts = new HashSet<>();
            long rss = 0;
            for (int i = 0; i < 3; i++) {
                JsonNode c = per.get(i);
                assertEquals(i + 1, c.get("process").asLong());
                assertEquals(0, c.get("exit_status").asLong(), c.toString());
                assertEquals(1, c.get("reported").asLong());
                assertEquals(100, c.get("target").asLong());
                assertEquals(100, c.get("connected").asLong(), "each held its share: " + c);
                assertEquals(100, c.get("peak").asLong());
                assertEquals(0, c.get("failed").get("total").asLong());
                assertEquals(1, c.get("sources").asLong());
                firsts.add(c.get("first_source").asText());
                rss += c.get("rss_after").asLong();
            }
            assertEquals(Set.of("127.0.0.2", "127.0.0.3", "127.0.0.4"), firsts, "disjoint source addresses");
            assertEquals(rss, mem.get("client").get("rss_after").asLong(), "client memory is the children's sum");
            assertTrue(run.err().contains("ramp done in "), run.err());
            assertTrue(run.err().contains(" of 300 connected in 3 processes"), run.err());

            // idle-merge reads the total as one run of 3 processes
            Path f = Files.writeString(dir.resolve("fleet.json"), run.out());
            Cli.Run merged = Cli.run("idle-merge", "--json", f.toString());
            assertEquals(0, merged.status(), merged.err());
            JsonNode m = Cli.json(merged.out());
            assertEquals(1, m.get("runs").asLong());
            assertEquals(3, m.get("processes").asLong());
            assertEquals(n, m.get("connected").asLong());
            assertEquals(n, m.get("target").asLong());
            assertEquals(n, m.get("peak").asLong());
            assertEquals(n, m.get("attempts").asLong());
            assertEquals(0, m.get("failed").get("total").asLong());
            Cli.Run text = Cli.run("idle-merge", f.toString());
            assertTrue(text.out().contains("total: 300 of 300 connected"), text.out());
            assertTrue(text.out().contains("3 processes"), text.out());
        }
    }

    /**
     * A ramp that never ends (half the targets never accept: their connects time out and are
     * tried again) still gets the server measured while the children hold their connections, near
     * the end of the hold, not after they closed them.
     */
    @Test
    void aRampThatNeverEndsIsMeasuredBeforeTheChildrenLetGo() throws Exception {
        try (IdleTest.Acceptor a = new IdleTest.Acceptor(20);
                ServerSocket deaf = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.Run run = Cli.run(
                    "idle",
                    "--processes",
                    "2",
                    "-c",
                    "40",
                    "--connect-timeout",
                    "300ms",
                    "--duration",
                    "4s", // measured at 3 s, unless the ramp ended before
                    "--min-available",
                    "0",
                    "--server-pid",
                    Long.toString(ProcessHandle.current().pid()),
                    "--target",
                    "127.0.0.1:" + a.port() + ",127.0.0.1:" + deaf.getLocalPort());
            Cli.assertNoStackTrace(run);
            java.util.regex.Matcher done = java.util.regex.Pattern.compile("(?m)^ramp done in ([0-9.]+)s: ")
                    .matcher(run.out());
            // SYN cookies may let the deaf listener's connects in after all: a ramp that ended
            // before the measurement's time tests nothing here
            org.junit.jupiter.api.Assumptions.assumeFalse(
                    done.find() && Double.parseDouble(done.group(1)) < 3.0, "the ramp ended: " + run.out());
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                            "ramp not done at [0-9.]+s, near the end of the hold: (\\d+) of 40 connected")
                    .matcher(run.out()); // progress goes to standard output without --json
            assertTrue(m.find(), run.out() + run.err());
            assertTrue(Integer.parseInt(m.group(1)) >= 20, "measured while held: " + m.group());
            assertFalse(
                    java.util.regex.Pattern.compile("(?m)^ramp done in")
                            .matcher(run.out())
                            .find(),
                    "the fleet's ramp did not end: " + run.out());
        }
    }

    /** A child's input: a stop-ramp line stops the ramp with the parent's reason, the end of input ends the run. */
    @Test
    void aChildObeysItsInput() throws Exception {
        try (IdleTest.Acceptor a = new IdleTest.Acceptor(1)) {
            IdleConfig cfg = IdleTest.config(
                    "-c",
                    "5000",
                    "--step",
                    "200",
                    "--sources",
                    "1",
                    "--min-available",
                    "0",
                    "--duration",
                    "60s",
                    "127.0.0.1:" + a.port()); // a 25 s ramp, then a hold until 60 s
            CompletableFuture<IdleProgress> rampEnd = new CompletableFuture<>();
            IdleHolder h = new IdleHolder(cfg, null, new IdleProgress.Listener() {
                @Override
                public void second(IdleProgress p) {}

                @Override
                public void rampEnded(IdleProgress p) {
                    rampEnd.complete(p);
                }
            });
            PipedOutputStream parent = new PipedOutputStream();
            PipedInputStream in = new PipedInputStream(parent);
            Thread reader = new Thread(() -> IdleChild.obey(in, h), "test-child-stdin");
            reader.start();
            CompletableFuture<IdleResult> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return h.run();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (h.connectedSeen() < 20 && System.nanoTime() < until) {
                LockSupport.parkNanos(1_000_000);
            }
            parent.write((IdleChild.STOP_RAMP + "told by the parent\n").getBytes(StandardCharsets.UTF_8));
            parent.flush();
            IdleProgress p = rampEnd.get(20, TimeUnit.SECONDS);
            assertEquals("told by the parent", p.stoppedBy());
            assertTrue(p.connected() >= 20 && p.connected() < 5000, "stopped short: " + p.connected());
            parent.close(); // the parent's end of the pipe is gone
            IdleResult r = run.get(20, TimeUnit.SECONDS);
            assertEquals("told by the parent", r.stoppedBy());
            assertEquals(p.connected(), r.connectedAtEnd(), "held what it had until the input ended");
            assertTrue(r.elapsedSeconds() < 40, "ended by the end of input, not the hold: " + r.elapsedSeconds());
            reader.join(5_000);
            assertFalse(reader.isAlive());
        }
    }

    /** Until every peer of {@code sockets} has closed (a read gives -1); false if the deadline comes first. */
    private static boolean closedByPeers(List<SocketChannel> sockets, long seconds) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(4096);
        Consumer<SelectionKey> read = k -> {
            try {
                buf.clear();
                if (((SocketChannel) k.channel()).read(buf) < 0) {
                    k.cancel();
                }
            } catch (IOException e) {
                k.cancel(); // reset: closed as well
            }
        };
        try (Selector sel = Selector.open()) {
            for (SocketChannel s : sockets) {
                s.configureBlocking(false);
                s.register(sel, SelectionKey.OP_READ);
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (true) {
                sel.selectNow(read);
                sel.selectNow(); // deregisters the keys cancelled so far, or the next select waits on none
                if (sel.keys().isEmpty()) {
                    return true;
                }
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                sel.select(read, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /** Exited, or a zombie waiting to be reaped by whoever adopted it. */
    private static boolean exited(ProcessHandle h) {
        if (!h.isAlive()) {
            return true;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException | RuntimeException e) {
            return !h.isAlive();
        }
    }

    /**
     * The parent killed (SIGKILL: the children see their input end) or terminated (SIGTERM: its
     * shutdown hook terminates them): either way the children close their connections and exit.
     */
    @Test
    void childrenDoNotOutliveTheirParent() throws Exception {
        for (boolean sigkill : new boolean[] {true, false}) {
            try (IdleTest.Acceptor a = new IdleTest.Acceptor(20)) {
                Process parent = new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java")
                                        .toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                FleetPlan.MAIN,
                                "idle",
                                "--processes",
                                "2",
                                "-c",
                                "20",
                                "--duration",
                                "60s",
                                "--min-available",
                                "0",
                                "--quiet",
                                "127.0.0.1:" + a.port())
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                try {
                    assertTrue(a.all.await(60, TimeUnit.SECONDS), "accepted " + a.accepted.size());
                    List<ProcessHandle> children = parent.children().toList();
                    assertEquals(2, children.size(), children.toString());
                    if (sigkill) {
                        parent.destroyForcibly();
                    } else {
                        parent.destroy();
                    }
                    assertTrue(parent.waitFor(30, TimeUnit.SECONDS), "the parent ended");
                    assertTrue(
                            closedByPeers(List.copyOf(a.accepted), 30),
                            (sigkill ? "SIGKILL" : "SIGTERM") + ": the children's connections are closed");
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!children.stream().allMatch(IdleFleetTest::exited) && System.nanoTime() < until) {
                        LockSupport.parkNanos(10_000_000);
                    }
                    assertTrue(children.stream().allMatch(IdleFleetTest::exited), "children still running");
                } finally {
                    parent.destroyForcibly();
                }
            }
        }
    }

    /** A floor above MemAvailable: no child opens a connection, the report says the guard stopped it. */
    @Test
    void theMemoryGuardStopsEveryChildsRampAtOnce() throws Exception {
        assumeTrue(IdleGuardAndMergeTest.haveMemAvailable(), "no MemAvailable in /proc/meminfo");
        try (IdleTest.Acceptor a = new IdleTest.Acceptor(1)) {
            Cli.Run run = Cli.run(
                    "idle",
                    "--processes",
                    "3",
                    "-c",
                    "300",
                    "--min-available",
                    "1t",
                    "--hold",
                    "0s",
                    "--duration",
                    "10s",
                    "--json",
                    "127.0.0.1:" + a.port());
            assertEquals(0, run.status(), run.err());
            Cli.assertNoStackTrace(run);
            JsonNode j = Cli.json(run.out());
            assertEquals(0, j.get("connected").asLong());
            assertEquals(0, j.get("attempts").asLong(), "each child's guard is checked before its first connect");
            String why = j.get("stopped_by").asText();
            assertTrue(why.startsWith("memory guard: MemAvailable "), why);
            assertTrue(why.endsWith(" GiB < floor 1024.0 GiB"), why);
            assertTrue(j.get("limit_hit").isNull(), j.toString());
            assertEquals(1, j.get("system").get("guard_enabled").asLong());
            assertEquals(1L << 40, j.get("system").get("guard_floor_bytes").asLong());
            for (JsonNode c : j.get("per_child")) {
                assertTrue(c.get("stopped_by").asText().startsWith("memory guard: "), c.toString());
                assertEquals(0, c.get("exit_status").asLong(), c.toString());
            }
            assertTrue(run.err().contains("no more connects in any of the 3 processes"), run.err());
            assertEquals(0, a.accepted.size());
        }
    }

    /**
     * The parent's guard alone trips (its MemAvailable reading falls below the floor while the
     * children's stay above): it stops every child's ramp, and each child reports the parent's reason.
     */
    @Test
    void theParentsGuardStopsEveryChildsRamp() throws Exception {
        assumeTrue(SystemMemory.readMemAvailable() > (2L << 30), "the children must read more than the floor");
        try (IdleTest.Acceptor a = new IdleTest.Acceptor(1)) {
            IdleCommand c = new IdleCommand(System.out, System.err);
            OptionValues.conventions(new CommandLine(c))
                    .parseArgs(
                            "--processes",
                            "2",
                            "-c",
                            "2000",
                            "--step",
                            "100",
                            "--min-available",
                            "1g",
                            "--hold",
                            "0s",
                            "--duration",
                            "60s",
                            "--json",
                            "127.0.0.1:" + a.port());
            IdleConfig cfg = c.config();
            AtomicInteger reads = new AtomicInteger();
            // 20 GiB for the first 20 reads (about 2 s at one per 100 ms), then 512 MiB
            java.util.function.LongSupplier mem = () -> reads.incrementAndGet() <= 20 ? 20L << 30 : 512L << 20;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status;
            try (PrintStream po = new PrintStream(out, true, StandardCharsets.UTF_8);
                    PrintStream pe = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                status = new IdleFleet(cfg, c.fleetPlan(cfg), po, pe, true, false, mem).run();
            }
            assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
            JsonNode j = Cli.json(out.toString(StandardCharsets.UTF_8));
            String why = "memory guard: MemAvailable 0.5 GiB < floor 1.0 GiB";
            assertEquals(why, j.get("stopped_by").asText());
            assertTrue(j.get("attempts").asLong() < 2000, "the ramps stopped short: " + j.get("attempts"));
            for (JsonNode child : j.get("per_child")) {
                assertEquals(why, child.get("stopped_by").asText(), "told by the parent: " + child);
            }
        }
    }

    /** A child's heap follows its share: 2 KiB a connection over 32 MiB, never below 128 MiB. */
    @Test
    void aChildsHeapFollowsItsShare() {
        assertTrue(FleetPlan.jvmOptions(1).contains("-Xmx128m"));
        assertTrue(FleetPlan.jvmOptions(19_000).contains("-Xmx128m"));
        assertTrue(FleetPlan.jvmOptions(500_000).contains("-Xmx1008m"), FleetPlan.jvmOptions(500_000)::toString);
        assertTrue(FleetPlan.jvmOptions(500_000).containsAll(FleetPlan.JVM_OPTIONS));
    }
}
