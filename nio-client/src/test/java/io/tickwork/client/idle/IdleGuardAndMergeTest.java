package io.tickwork.client.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tickwork.client.Cli;
import io.tickwork.client.common.OptionValues;
import io.tickwork.client.common.UsageException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code idle} against any host (parsing only: nothing here connects beyond 127.0.0.1), source
 * addresses that must be this machine's, the memory guard, the system figures of the report, and
 * {@code idle-merge} over the JSON of real runs on loopback.
 */
@Timeout(90)
class IdleGuardAndMergeTest {

    private static IdleConfig config(String... args) {
        return IdleTest.config(args);
    }

    @Test
    void anyTargetHostIsAcceptedAndTheKernelPicksTheSourceForALoopbackFirstSource() {
        IdleConfig c = config("192.0.2.10:80");
        assertEquals(List.of(new InetSocketAddress("192.0.2.10", 80)), c.targets());
        assertTrue(c.sources().isEmpty(), "a loopback source cannot reach 192.0.2.10: " + c.sources());
        c = config("--target", "192.0.2.10:80,127.0.0.1:81");
        assertEquals(2, c.targets().size());
        UsageException e = assertThrows(UsageException.class, () -> config("--sources", "2", "192.0.2.10:80"));
        assertTrue(e.getMessage().contains("--first-source 127.0.0.2 is loopback"), e.getMessage());
        e = assertThrows(UsageException.class, () -> config("no-such-host.invalid:80"));
        assertEquals("HOST:PORT host does not resolve: no-such-host.invalid", e.getMessage());
    }

    @Test
    void sourceAddressesMustBeThisMachines() throws Exception {
        UsageException e = assertThrows(
                UsageException.class, () -> config("--first-source", "192.0.2.10", "--sources", "1", "127.0.0.1:80"));
        assertTrue(
                e.getMessage().startsWith("--first-source 192.0.2.10 is not an address of this machine"),
                e.getMessage());
        Cli.Run run = Cli.run("idle", "--first-source", "192.0.2.10", "--sources", "2", "192.0.2.10:80");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("192.0.2.10 is not an address of this machine"), run.err());
        Cli.assertNoStackTrace(run);
        e = assertThrows(UsageException.class, () -> config("--first-source", "::1", "--sources", "1", "127.0.0.1:80"));
        assertTrue(e.getMessage().contains("must be an IPv4 address"), e.getMessage());
        e = assertThrows(
                UsageException.class,
                () -> config("--first-source", "127.255.255.253", "--sources", "3", "127.0.0.1:80"));
        assertTrue(e.getMessage().contains("runs past 127.255.255.255"), e.getMessage());

        // consecutive addresses, .255 and .0 skipped
        assertEquals(
                List.of(
                        InetAddress.getByName("127.0.0.254"),
                        InetAddress.getByName("127.0.1.1"),
                        InetAddress.getByName("127.0.1.2")),
                config("--first-source", "127.0.0.254", "--sources", "3", "127.0.0.1:80")
                        .sources());

        // an address of one of this machine's interfaces is a valid source for another host
        InetAddress lan = SourceAddresses.interfaceAddresses().stream()
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                .filter(a -> (a.getAddress()[3] & 0xff) != 0 && (a.getAddress()[3] & 0xff) != 255)
                .findFirst()
                .orElse(null);
        if (lan != null) {
            IdleConfig c = config("--first-source", lan.getHostAddress(), "--sources", "1", "192.0.2.10:80");
            assertEquals(List.of(lan), c.sources());
        }
    }

    static boolean haveMemAvailable() {
        return SystemMemory.readMemAvailable() > 0;
    }

    @Test
    void theMemoryGuardStopsTheRampAndTheReportSaysSo() throws Exception {
        assumeTrue(haveMemAvailable(), "no MemAvailable in /proc/meminfo");
        try (IdleTest.Acceptor a = new IdleTest.Acceptor(1)) {
            Cli.Run run = Cli.run(
                    "idle",
                    "-c",
                    "200",
                    "--step",
                    "100",
                    "--sources",
                    "0",
                    "--min-available",
                    "100000g",
                    "--duration",
                    "10s",
                    "--hold",
                    "0s",
                    "--json",
                    "127.0.0.1:" + a.port());
            assertEquals(0, run.status(), run.err());
            Cli.assertNoStackTrace(run);
            assertFalse(run.out().strip().contains("\n"), "one line: " + run.out());
            JsonNode j = Cli.json(run.out());
            assertEquals(0, j.get("connected").asLong(), "the guard is checked before the first connect");
            assertEquals(0, j.get("attempts").asLong());
            String why = j.get("stopped_by").asText();
            assertTrue(why.startsWith("memory guard: MemAvailable "), why);
            assertTrue(why.endsWith(" GiB < floor 100000.0 GiB"), why);
            assertTrue(j.get("limit_hit").isNull(), "an OS limit is not the guard: " + j);
            JsonNode sys = j.get("system");
            assertEquals(1, sys.get("guard_enabled").asLong());
            assertEquals(100_000L << 30, sys.get("guard_floor_bytes").asLong());
            assertTrue(sys.get("mem_available_bytes").asLong() > 0, sys.toString());
            assertTrue(sys.get("mem_available_min_bytes").asLong() > 0, sys.toString());
            assertEquals(4096, sys.get("tcp_mem_page_size").asLong());
            assertTrue(run.err().contains("memory guard: MemAvailable"), run.err());

            run = Cli.run(
                    "idle",
                    "-c",
                    "50",
                    "--min-available",
                    "100000g",
                    "--duration",
                    "5s",
                    "--hold",
                    "0s",
                    "127.0.0.1:" + a.port());
            assertEquals(0, run.status(), run.err());
            assertTrue(run.out().contains("0 of 50 connected at the end"), run.out());
            assertTrue(run.out().contains("stopped by memory guard: MemAvailable"), run.out());
            assertTrue(run.out().contains("MemAvailable"), run.out());
        }
    }

    @Test
    void withTheGuardOffTheRampRunsAndTheReportHasTheSystemFigures() throws Exception {
        try (IdleTest.Acceptor a = new IdleTest.Acceptor(40)) {
            Cli.Run run = Cli.run(
                    "idle",
                    "-c",
                    "40",
                    "--sources",
                    "2",
                    "--min-available",
                    "0",
                    "--hold",
                    "0s",
                    "--json",
                    "127.0.0.1:" + a.port());
            assertEquals(0, run.status(), run.err());
            JsonNode j = Cli.json(run.out());
            assertEquals(40, j.get("connected").asLong());
            assertTrue(j.get("stopped_by").isNull(), j.toString());
            JsonNode sys = j.get("system");
            assertEquals(0, sys.get("guard_enabled").asLong());
            assertEquals(0, sys.get("guard_floor_bytes").asLong());
            if (haveMemAvailable()) {
                assertTrue(sys.get("mem_available_min_bytes").asLong() > 0, sys.toString());
            }
            if (Files.isReadable(SystemMemory.SOCKSTAT)) {
                // counted per network namespace: the test's sockets may be elsewhere, so only its presence
                assertTrue(sys.get("tcp_inuse").asLong() >= 0, sys.toString());
                assertTrue(sys.get("tcp_mem_bytes").asLong() >= 0, sys.toString());
            }
        }
    }

    @Test
    void sockstatAndMeminfoLinesAreRead() {
        String tcp = "TCP: inuse 1203 orphan 0 tw 11 alloc 1210 mem 37";
        assertEquals(1203, SystemMemory.field(tcp, "inuse"));
        assertEquals(37, SystemMemory.field(tcp, "mem"));
        assertEquals(-1, SystemMemory.field(tcp, "nope"));
        long[] reads = {5L << 30, 5L << 30, 2L << 30, 1L << 30}; // the first: the constructor's probe
        int[] next = {0};
        MemoryGuard g = new MemoryGuard(3L << 30, () -> reads[Math.min(next[0]++, 3)]);
        assertTrue(g.enabled());
        assertEquals(null, g.check(0), "5 GiB is above the floor");
        assertEquals(null, g.check(1_000_000), "within 100 ms the last reading stands");
        assertEquals("memory guard: MemAvailable 2.0 GiB < floor 3.0 GiB", g.check(200_000_000));
        assertEquals(2L << 30, g.min());
        assertFalse(new MemoryGuard(3L << 30, () -> -1).enabled(), "no /proc/meminfo: off");
        assertFalse(new MemoryGuard(0, () -> 1).enabled(), "floor 0: off");
    }

    private static String idleJson(String... args) {
        return idleJson(0, args);
    }

    private static String idleJson(int status, String... args) {
        Cli.Run run = Cli.run(args);
        assertEquals(status, run.status(), run.err());
        return run.out();
    }

    @Test
    void idleMergeSumsTheJsonOfRealRuns(@TempDir Path dir) throws Exception {
        String a;
        String b;
        try (IdleTest.Acceptor acc = new IdleTest.Acceptor(50)) {
            String target = "127.0.0.1:" + acc.port();
            a = idleJson(
                    "idle", "-c", "30", "--sources", "2", "--min-available", "0", "--hold", "0s", "--json", target);
            b = idleJson(
                    "idle", "-c", "20", "--sources", "1", "--min-available", "0", "--hold", "0s", "--json", target);
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        String c = idleJson(
                1, // refused: not one connection
                "idle",
                "-c",
                "10",
                "--duration",
                "300ms",
                "--min-available",
                "0",
                "--json",
                "127.0.0.1:" + port);
        JsonNode jc = Cli.json(c);
        long refused = jc.get("failed").get("by_kind").get("ECONNREFUSED").asLong();
        assertTrue(refused >= 1, c);
        Path fa = Files.writeString(dir.resolve("a.json"), a);
        Path fbc = Files.writeString(dir.resolve("bc.json"), b + c); // two results appended, a line each

        Cli.Run run = Cli.run("idle-merge", "--json", fa.toString(), fbc.toString());
        assertEquals(0, run.status(), run.err());
        assertFalse(run.out().strip().contains("\n"), "one line: " + run.out());
        JsonNode m = Cli.json(run.out());
        assertEquals("tickwork idle-merge", m.get("tool").asText());
        assertEquals(3, m.get("runs").asLong());
        assertEquals(3, m.get("processes").asLong(), "a run without a processes field is one process");
        assertEquals(50, m.get("connected").asLong());
        assertEquals(60, m.get("target").asLong());
        assertEquals(50, m.get("peak").asLong());
        long attempts = Cli.json(a).get("attempts").asLong()
                + Cli.json(b).get("attempts").asLong()
                + jc.get("attempts").asLong();
        assertEquals(attempts, m.get("attempts").asLong());
        assertEquals(
                jc.get("failed").get("total").asLong(),
                m.get("failed").get("total").asLong());
        assertEquals(refused, m.get("failed").get("by_kind").get("ECONNREFUSED").asLong());
        long min = Long.MAX_VALUE;
        for (String r : List.of(a, b, c)) {
            JsonNode v = Cli.json(r).get("system").get("mem_available_min_bytes");
            if (v.isNumber()) {
                min = Math.min(min, v.asLong());
            }
        }
        if (min == Long.MAX_VALUE) {
            assertTrue(m.get("mem_available_min_bytes").isNull(), m.toString());
        } else {
            assertEquals(min, m.get("mem_available_min_bytes").asLong());
        }
        JsonNode perRun = m.get("per_run");
        assertEquals(3, perRun.size());
        assertEquals(fa + ":1", perRun.get(0).get("source").asText());
        assertEquals(30, perRun.get(0).get("connected").asLong());
        assertEquals(1, perRun.get(0).get("processes").asLong());
        assertEquals(fbc + ":2", perRun.get(2).get("source").asText());
        assertTrue(perRun.get(2).get("stopped_by").asText().startsWith("ECONNREFUSED"), perRun.toString());

        Cli.Run text = Cli.run("idle-merge", fa.toString(), fbc.toString());
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().startsWith("idle-merge: 3 runs"), text.out());
        assertTrue(text.out().contains("total: 50 of 60 connected"), text.out());
        assertTrue(text.out().contains("ECONNREFUSED=" + refused), text.out());

        // the same results on standard input
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status;
        try (PrintStream po = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            status = OptionValues.conventions(IdleMergeCommand.commandLine(
                            po, new ByteArrayInputStream((a + b + c).getBytes(StandardCharsets.UTF_8))))
                    .execute("--json", "-");
        }
        assertEquals(0, status);
        JsonNode s = Cli.json(out.toString(StandardCharsets.UTF_8));
        assertEquals(3, s.get("runs").asLong());
        assertEquals(50, s.get("connected").asLong());
        assertEquals("stdin:2", s.get("per_run").get(1).get("source").asText());
    }

    @Test
    void idleMergeNamesWhatItCannotRead(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "\n{\"tool\":\"tickwork bench\",\"connected\":1}\n");
        Cli.Run run = Cli.run("idle-merge", bad.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains(bad + ":2 is not an idle --json result"), run.err());
        Path partial = Files.writeString(dir.resolve("partial.json"), "{\"tool\":\"tickwork idle\",\"connected\":5}\n");
        run = Cli.run("idle-merge", partial.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains(partial + ":1 is not an idle --json result: no \"target\" count"), run.err());
        Path junk = Files.writeString(dir.resolve("junk.json"), "{\"tool\":\"tickwork idle\",");
        run = Cli.run("idle-merge", junk.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains(junk + ":1"), run.err());
        run = Cli.run("idle-merge", dir.resolve("missing.json").toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains("cannot read"), run.err());
        Path empty = Files.writeString(dir.resolve("empty.json"), "\n");
        run = Cli.run("idle-merge", empty.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains("no idle results"), run.err());
        run = Cli.run("idle-merge");
        assertEquals(2, run.status());
        Cli.assertNoStackTrace(run);
    }
}
