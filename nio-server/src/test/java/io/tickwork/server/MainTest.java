package io.tickwork.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(120)
class MainTest {
    /**
     * SIGTERM to {@code p} (Process.destroy would also close our end of its stdout), then its output
     * to the end; {@code p} has exited when this returns.
     */
    private static String stopAndReadTheRest(Process p, BufferedReader r) throws Exception {
        assertEquals(
                0,
                new ProcessBuilder("kill", "-TERM", Long.toString(p.pid()))
                        .start()
                        .waitFor());
        StringBuilder rest = new StringBuilder();
        for (String l; (l = r.readLine()) != null; ) {
            rest.append(l).append('\n');
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "stopped: " + rest);
        return rest.toString();
    }

    /** The server in a JVM of its own (64 MB of heap) with {@code args}; its stderr merged into stdout. */
    private static ProcessBuilder server(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true);
    }

    /**
     * Real EMFILE: the server runs under {@code prlimit --nofile=120}, a client opens 200
     * connections. The server must keep serving an existing connection, log the failure once,
     * recover when descriptors are free again, and not spin (its CPU time stays small).
     */
    @Test
    void runningOutOfFileDescriptorsKeepsServingAndLogsOnce() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Paths.get("/usr/bin/prlimit")), "needs prlimit (util-linux)");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        "/usr/bin/prlimit",
                        "--nofile=120:120",
                        java,
                        "-Xmx64m",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "--port",
                        "0",
                        "--threads",
                        "2",
                        "--idle-timeout",
                        "5m")
                .redirectErrorStream(true)
                .start();
        List<Socket> many = new ArrayList<>();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = r.readLine();
            Matcher m = Pattern.compile(".*http://[^:]+:(\\d+)/.*").matcher(line == null ? "" : line);
            assertTrue(m.matches(), line);
            int port = Integer.parseInt(m.group(1));
            try (Socket keep = new Socket("127.0.0.1", port)) {
                keep.setSoTimeout(10_000);
                assertEquals(200, request(keep));
                for (int i = 0; i < 200; i++) {
                    many.add(new Socket("127.0.0.1", port)); // the backlog takes them; accept runs out of fds
                }
                for (int i = 0; i < 5; i++) {
                    assertEquals(200, request(keep), "existing connection served while accept fails");
                }
                for (Socket s : many) {
                    s.close();
                }
                many.clear();
                try (Socket late = new Socket("127.0.0.1", port)) {
                    late.setSoTimeout(10_000);
                    assertEquals(200, request(late), "accepted again once descriptors are free");
                }
            }
            String log = stopAndReadTheRest(p, r);
            assertEquals(1, log.split("accept failed", -1).length - 1, log);
            assertTrue(log.contains("Too many open files"), log);
            assertTrue(log.contains("accept works again"), log);
            assertEquals(0, p.exitValue(), log);
        } finally {
            for (Socket s : many) {
                s.close();
            }
            p.destroyForcibly();
        }
    }

    /** One GET /d/goose on a keep-alive socket; the status code. */
    private static int request(Socket s) throws java.io.IOException {
        s.getOutputStream().write("GET /d/goose HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        java.io.InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new java.io.EOFException("closed after " + head);
            }
            head.append((char) c);
        }
        Matcher cl = Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
        assertTrue(cl.find(), head.toString());
        assertEquals(Integer.parseInt(cl.group(1)), in.readNBytes(Integer.parseInt(cl.group(1))).length);
        return Integer.parseInt(head.substring(9, 12));
    }

    /** More selector loops than the JVM's direct memory holds: one line and exit 1, not a stack trace. */
    @Test
    void moreLoopsThanDirectMemoryHoldsIsOneLineAndExitOne() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String data = Paths.get(io.tickwork.server.dict.Dictionary.class
                        .getResource("wordnet31.twd")
                        .toURI())
                .toString(); // mapped, not read into direct memory
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx64m",
                        "-XX:MaxDirectMemorySize=1m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "--data",
                        data,
                        "--port",
                        "0",
                        "--threads",
                        "16")
                .redirectErrorStream(true)
                .start();
        String all = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), all);
        assertEquals(1, p.exitValue(), all);
        assertTrue(all.startsWith("tickwork: cannot start 16 selector loops: "), all);
        assertTrue(all.strip().lines().count() == 1 && !all.contains("\tat "), "one line, no stack trace: " + all);
    }

    /** An address of a family the JVM's network stack lacks is refused in one line, in both modes. */
    @Test
    void anIpv6HostOnAnIpv4OnlyStackIsOneLineAndExitOne() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        for (List<String> mode : List.of(List.<String>of(), List.of("--processes", "2"))) {
            List<String> command = new ArrayList<>(List.of(
                    java,
                    "-Djava.net.preferIPv4Stack=true",
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName(),
                    "--host",
                    "::1",
                    "--port",
                    "0"));
            command.addAll(mode);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String all = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), all);
            assertEquals(1, p.exitValue(), mode + ": " + all);
            assertTrue(all.startsWith("tickwork: cannot listen on ::1:0: "), mode + ": " + all);
            assertTrue(all.strip().lines().count() == 1 && !all.contains("\tat "), "one line: " + all);
        }
    }

    @Test
    void startsPrintsOneLineServesAndExitsZeroOnSigterm() throws Exception {
        Process p =
                server("--port", "0", "--threads", "2", "--idle-timeout", "2s").start();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = r.readLine();
            Matcher m = Pattern.compile(
                            "^tickwork dictionary: (http://localhost:\\d+/|http://127\\.0\\.0\\.1:\\d+/)  \\(147,478 words.*")
                    .matcher(line == null ? "" : line);
            assertTrue(m.matches(), line);
            HttpClient c =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> res = c.send(
                    HttpRequest.newBuilder(URI.create(m.group(1) + "d/geese")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, res.statusCode());
            String rest = stopAndReadTheRest(p, r);
            assertEquals(0, p.exitValue(), rest);
            assertTrue(rest.contains("stopped after"), rest);
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * {@code --host 0.0.0.0 --processes 2} beside an IPv6-only listener on the same port: the
     * launcher's port check takes the workers' family (IPv4 for an IPv4 host), so the port is free
     * for it as for one process, and the workers serve.
     */
    @Test
    void anIpv4HostWithProcessesIgnoresAnIpv6ListenerOnItsPort() throws Exception {
        java.net.ServerSocket v6;
        try {
            v6 = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("::1"));
        } catch (java.io.IOException noIpv6) {
            Assumptions.abort("no IPv6 loopback here: " + noIpv6);
            return;
        }
        try (v6) {
            Process p = server("--host", "0.0.0.0", "--port", Integer.toString(v6.getLocalPort()), "--processes", "2")
                    .start();
            try {
                BufferedReader r =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                String line = r.readLine();
                assertTrue(
                        line != null && line.startsWith("tickwork dictionary: ") && line.contains("2 processes"), line);
                String rest = stopAndReadTheRest(p, r);
                assertEquals(0, p.exitValue(), rest);
            } finally {
                p.destroyForcibly();
            }
        }
    }

    /**
     * A worker whose JVM cannot start: the launcher forwards the JVM's own words first, then says
     * the worker exited, so the cause reads before its consequence.
     */
    @Test
    void aWorkerThatCannotStartSaysWhyBeforeTheLauncherSaysItEnded() throws Exception {
        Process p = server("--port", "0", "--processes", "2", "--worker-jvm-opts=-Xmx1k")
                .start();
        try {
            String all = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), all);
            assertEquals(1, p.exitValue(), all);
            Matcher ended = Pattern.compile("tickwork: worker (\\d) \\(pid \\d+\\) exited with status 1")
                    .matcher(all);
            assertTrue(ended.find(), all);
            String cause = "[w" + ended.group(1) + "] Error occurred during initialization of VM";
            int at = all.indexOf(cause);
            assertTrue(at >= 0 && at < ended.start(), "the JVM's words come first: " + all);
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * SIGTERM with a client that pipelines and never reads: the server says it is draining, and
     * for how long at most; a second signal closes what is still draining at once, so the process
     * ends in moments rather than after the 60 s drain timeout, and still exits 0. With
     * {@code --processes} the launcher passes the second signal on to its workers.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aSecondSignalEndsTheDrainAtOnce(int processes) throws Exception {
        try (StalledClient s = new StalledClient(processes, "60s")) {
            long t0 = System.nanoTime();
            s.signal("-TERM", false);
            String draining = s.out.readLine();
            while (draining != null && draining.contains("stopped after")) {
                draining = s.out.readLine(); // an idle worker's stop line, before the busy one reports
            }
            assertTrue(
                    draining != null
                            && draining.matches("(\\[w\\d\\] )?tickwork: stopping: draining .*")
                            && draining.endsWith(" for at most 59,000 ms more (a second signal closes them now)"),
                    draining);
            s.signal("-TERM", false);
            String rest = s.rest();
            long tookMs = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(tookMs < 30_000, "the drain went on " + tookMs + " ms after the second signal: " + rest);
            assertTrue(rest.contains("a second signal: closing the connections still draining now"), rest);
            assertTrue(rest.contains("when a second signal ended the drain"), rest);
            assertTrue(rest.contains("stopped after"), rest);
            assertEquals(0, s.process.exitValue(), rest);
        }
    }

    /**
     * A terminal's Ctrl-C reaches the launcher and every worker at once: one stop, not two. The
     * workers leave SIGINT to the launcher, whose SIGTERM they drain on in full, to the drain
     * timeout, rather than taking the launcher's SIGTERM for a second signal.
     */
    @Test
    void oneCtrlCToTheWholeGroupDrainsInFull() throws Exception {
        try (StalledClient s = new StalledClient(2, "3s")) {
            s.signal("-INT", true);
            String all = s.rest();
            assertTrue(all.contains("connection(s) still open after the 3000 ms drain timeout"), all);
            assertTrue(!all.contains("second signal:"), all);
            assertEquals(0, s.process.exitValue(), all);
        }
    }

    /**
     * A worker is stopped alone (SIGTERM to it, not to the launcher), so the launcher stops the
     * other, which drains a client that never reads (60 s): the operator's Ctrl-C then ends that
     * drain at once. The workers leave SIGINT to the launcher, and the launcher passes it on
     * although it had no signal before.
     */
    @Test
    void aCtrlCWhileTheLauncherStopsAfterAWorkerStoppedAloneEndsTheDrain() throws Exception {
        try (StalledClient s = new StalledClient(2, "60s")) {
            assertTrue(s.busy >= 0, "no worker served the client");
            long idle = s.workerPids.get(1 - s.busy);
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-TERM", Long.toString(idle))
                            .start()
                            .waitFor());
            String line;
            while ((line = s.out.readLine()) != null && !line.contains("tickwork: stopping: draining ")) {
                // the launcher reports the death and stops the other worker, which drains
            }
            assertTrue(line != null, "the drain was never reported");
            long t0 = System.nanoTime();
            s.signal("-INT", true);
            String rest = s.rest();
            long tookMs = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(tookMs < 30_000, "the drain went on " + tookMs + " ms after Ctrl-C: " + rest);
            assertTrue(rest.contains("a second signal: closing the connections still draining now"), rest);
            assertEquals(1, s.process.exitValue(), "a worker stopped alone: " + rest);
        }
    }

    /**
     * The server ({@code --processes N}, one selector loop each, the given drain timeout) with one
     * client that has pipelined more than the sockets hold and reads nothing: once this returns,
     * the server has answered some of it and holds the rest.
     */
    private static final class StalledClient implements AutoCloseable {
        final Process process;
        final BufferedReader out;
        /** With {@code --processes}: the workers' pids, and which of them serves the stalled client. */
        final List<Long> workerPids = new ArrayList<>();

        int busy = -1;
        private final List<URI> statsUris = new ArrayList<>();
        private final Socket stalled = new Socket();

        StalledClient(int processes, String drainTimeout) throws Exception {
            List<String> args =
                    new ArrayList<>(List.of("--port", "0", "--threads", "1", "--drain-timeout", drainTimeout));
            if (processes > 1) {
                args.addAll(List.of("--processes", Integer.toString(processes)));
            }
            process = server(args.toArray(new String[0])).start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            Matcher m =
                    Pattern.compile("^tickwork dictionary: (http://[^ ]+/)  .*").matcher(line == null ? "" : line);
            assertTrue(m.matches(), line);
            URI base = URI.create(m.group(1));
            // each process's own counters: the workers' private stats listeners, or the one server's
            Matcher each = Pattern.compile("pid=(\\d+) stats=(http://[^ ,]+)").matcher(line);
            while (each.find()) {
                workerPids.add(Long.parseLong(each.group(1)));
                statsUris.add(URI.create(each.group(2)));
            }
            if (statsUris.isEmpty()) {
                statsUris.add(base.resolve("/stats"));
            }
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new java.net.InetSocketAddress(base.getHost(), base.getPort()), 10_000);
            byte[] request = "GET /d/geese HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            var w = stalled.getOutputStream();
            // more answers than the sockets' buffers hold; written from a thread of its own, since
            // the write blocks once the server, its output stuck, stops reading
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; i < 50_000; i++) {
                        w.write(request);
                    }
                    w.flush();
                } catch (java.io.IOException closed) {
                    // the server closed the connection at its stop
                }
            });
            writer.setDaemon(true);
            writer.start();
            HttpClient c =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                long requests = 0;
                for (int i = 0; i < statsUris.size(); i++) {
                    String stats = c.send(
                                    HttpRequest.newBuilder(statsUris.get(i)).build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body();
                    Matcher n = Pattern.compile("\"requests\":(\\d+)").matcher(stats);
                    long r = n.find() ? Long.parseLong(n.group(1)) : 0;
                    if (r > 0) {
                        busy = i;
                    }
                    requests += r;
                }
                if (requests >= 50) {
                    break;
                }
                assertTrue(System.nanoTime() < deadline, "the server never read the pipelined requests");
                Thread.onSpinWait();
            }
        }

        /** {@code kill SIG} to the server, or, with {@code group}, to it and each of its workers in one call. */
        void signal(String sig, boolean group) throws Exception {
            List<String> kill = new ArrayList<>(List.of("kill", sig, Long.toString(process.pid())));
            if (group) {
                process.toHandle().children().forEach(w -> kill.add(Long.toString(w.pid())));
            }
            assertEquals(0, new ProcessBuilder(kill).start().waitFor(), kill.toString());
        }

        /** The output to its end, once the server has exited (within 30 s). */
        String rest() throws Exception {
            StringBuilder rest = new StringBuilder();
            for (String l; (l = out.readLine()) != null; ) {
                rest.append(l).append('\n');
            }
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "stopped: " + rest);
            return rest.toString();
        }

        @Override
        public void close() throws java.io.IOException {
            process.destroyForcibly();
            stalled.close();
        }
    }
}
