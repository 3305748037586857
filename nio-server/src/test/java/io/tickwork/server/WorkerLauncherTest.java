package io.tickwork.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --processes}: the launcher as a real process on an ephemeral loopback port, its workers
 * as real JVMs. Checks the start line, that the workers share the port and report their own
 * counters, and that every way of ending (SIGTERM to the launcher, a worker killed, the launcher
 * killed) leaves no worker behind.
 */
@Timeout(120)
class WorkerLauncherTest {
    /** The launcher's start line: shared URL, then {@code wI pid=P stats=URL} per worker. */
    private static final Pattern START = Pattern.compile(
            "^tickwork dictionary: http://127\\.0\\.0\\.1:(\\d+)/  "
                    + "(\\d+) processes: (.*)  \\(per worker: 147,478 words, 1 selector loops, at most 19,000 connections.*\\)$");

    private static final Pattern WORKER = Pattern.compile("w(\\d+) pid=(\\d+) stats=(\\S+?),?(?: |$)");

    private static final long BOUND_SECONDS = 60;

    private final List<Socket> sockets = new ArrayList<>();
    private Launched launched;

    /** A launcher process; its stdout and stderr lines are collected by two reader threads. */
    private static final class Launched {
        final Process process;
        final BlockingQueue<String> out = new LinkedBlockingQueue<>();
        final BlockingQueue<String> err = new LinkedBlockingQueue<>();
        int port;
        final List<Long> pids = new ArrayList<>();
        final List<String> statsUrls = new ArrayList<>();

        Launched(int processes) throws IOException {
            String java =
                    Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(
                            java,
                            "-Xmx64m",
                            "-XX:+UseSerialGC",
                            "-cp",
                            System.getProperty("java.class.path"),
                            Main.class.getName(),
                            "--processes",
                            Integer.toString(processes),
                            "--port",
                            "0",
                            "--threads",
                            "1")
                    .start();
            collect(process.getInputStream(), out);
            collect(process.getErrorStream(), err);
        }

        /** Reads the start line: the shared port, each worker's pid and stats URL. */
        void awaitStart(int processes) throws InterruptedException {
            String line = awaitLine(out, "tickwork dictionary: ");
            Matcher m = START.matcher(line);
            assertTrue(m.matches(), line);
            port = Integer.parseInt(m.group(1));
            assertEquals(processes, Integer.parseInt(m.group(2)), line);
            Matcher w = WORKER.matcher(m.group(3));
            while (w.find()) {
                assertEquals(pids.size(), Integer.parseInt(w.group(1)), line);
                pids.add(Long.parseLong(w.group(2)));
                statsUrls.add(w.group(3));
            }
            assertEquals(processes, pids.size(), line);
        }

        /** The launcher's child processes: exactly the workers its start line names. */
        List<ProcessHandle> workers() {
            List<ProcessHandle> children = process.children().collect(Collectors.toList());
            assertEquals(
                    Set.copyOf(pids),
                    children.stream().map(ProcessHandle::pid).collect(Collectors.toSet()),
                    "children of the launcher");
            assertEquals(pids.size(), process.descendants().count(), "the workers start no processes");
            return children;
        }

        /** The next line of {@code lines} starting with {@code prefix}; fails after the bound. */
        String awaitLine(BlockingQueue<String> lines, String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
            List<String> seen = new ArrayList<>();
            while (true) {
                String l = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertNotNull(
                        l, "no line starting with '" + prefix + "' within " + BOUND_SECONDS + " s: " + seen + err);
                if (l.startsWith(prefix)) {
                    return l;
                }
                seen.add(l);
            }
        }

        private static void collect(InputStream in, BlockingQueue<String> lines) {
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        lines.add(l);
                    }
                } catch (IOException closed) {
                    // the process is gone
                }
            });
            t.setDaemon(true);
            t.start();
        }
    }

    @AfterEach
    void cleanUp() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        if (launched != null) {
            launched.process.descendants().forEach(ProcessHandle::destroyForcibly);
            launched.process.destroyForcibly();
        }
    }

    @Test
    void workersShareThePortReportTheirOwnCountersAndStopOnSigterm() throws Exception {
        launched = new Launched(3);
        launched.awaitStart(3);
        List<ProcessHandle> workers = launched.workers();
        int n = 300;
        for (int i = 0; i < n; i++) {
            Socket s = new Socket("127.0.0.1", launched.port);
            sockets.add(s);
            s.setSoTimeout(10_000);
            assertEquals(200, get(s, "/d/door"), "connection " + i);
        }
        // Each connection's accept is published at the end of the loop iteration that accepted
        // it, before its request is read, so all 300 show once their responses have arrived.
        HttpClient client = HttpClient.newHttpClient();
        ObjectMapper json = new ObjectMapper();
        long open = 0;
        long accepted = 0;
        int withConnections = 0;
        List<Long> perWorker = new ArrayList<>();
        for (String url : launched.statsUrls) {
            HttpResponse<String> r =
                    client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), url);
            JsonNode st = json.readTree(r.body());
            open += st.get("openConnections").asLong();
            accepted += st.get("acceptedConnections").asLong();
            perWorker.add(st.get("acceptedConnections").asLong());
            withConnections += st.get("acceptedConnections").asLong() > 0 ? 1 : 0;
        }
        assertEquals(n, open, "open connections over the workers: " + perWorker);
        assertEquals(n, accepted, "accepted connections over the workers: " + perWorker);
        // SO_REUSEPORT picks a worker by a hash of each connection's addresses and ports: with 300
        // connections from distinct client ports, the chance that a worker gets none is
        // 3 * (2/3)^300, about 1e-52.
        assertEquals(3, withConnections, "every worker got connections: " + perWorker);

        // SIGTERM, leaving our ends of its pipes open (Process.destroy() would close them) to read its last lines
        assertTrue(launched.process.toHandle().destroy());
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertEquals(0, launched.process.exitValue(), launched.err.toString());
        for (ProcessHandle w : workers) {
            assertFalse(w.isAlive(), "worker " + w.pid() + " still running after the launcher exited");
        }
        List<String> last = new ArrayList<>();
        String l;
        while (!(l = launched.awaitLine(launched.out, "")).startsWith("tickwork ")) {
            last.add(l);
        }
        assertEquals("tickwork dictionary: all 3 workers stopped", l);
        assertEquals(
                List.of("tickwork worker 0: stopped", "tickwork worker 1: stopped", "tickwork worker 2: stopped"),
                last.stream()
                        .map(x -> x.replaceFirst(
                                "^\\[w(\\d)\\] (tickwork worker \\1: stopped) after \\d+ requests$", "$2"))
                        .sorted()
                        .collect(Collectors.toList()),
                "the workers' last lines, forwarded");
        assertEquals(List.of(), Arrays.asList(launched.err.toArray()), "nothing on stderr");
    }

    /**
     * The two halves of the many-process setup together, at a small scale: {@code idle --processes
     * 3} holds 300 connections against {@code --processes 3}; the clients' report and the
     * workers' own counters agree, and the server's memory is measured over all three pids.
     */
    @Test
    void idleClientProcessesHoldConnectionsAcrossTheWorkers() throws Exception {
        launched = new Launched(3);
        launched.awaitStart(3);
        int n = 300;
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process idle = new ProcessBuilder(
                        java,
                        "-Xmx64m",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "io.tickwork.server.client.LoadTool",
                        "idle",
                        "--processes",
                        "3",
                        "-c",
                        Integer.toString(n),
                        "--step",
                        Integer.toString(n),
                        "--hold",
                        "1s",
                        "-D",
                        "60s",
                        "--server-pid",
                        launched.pids.stream().map(String::valueOf).collect(Collectors.joining(",")),
                        "--json",
                        "--quiet",
                        "--target",
                        "127.0.0.1:" + launched.port)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String report;
        try (InputStream in = idle.getInputStream()) {
            report = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(idle.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "idle ended");
        assertEquals(0, idle.exitValue(), report);
        JsonNode r = new ObjectMapper().readTree(report);
        assertEquals(3, r.get("processes").asInt(), report);
        assertEquals(n, r.get("connected").asInt(), report);
        assertEquals(0, r.get("failed").get("total").asLong(), report);
        // the three workers' resident memory, summed: a JVM alone is several times 17 MB
        assertTrue(r.get("memory").get("server").get("rss_after").asLong() > 3 * 17_000_000L, report);

        HttpClient client = HttpClient.newHttpClient();
        long accepted = 0;
        for (String url : launched.statsUrls) {
            HttpResponse<String> s =
                    client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            accepted += new ObjectMapper()
                    .readTree(s.body())
                    .get("acceptedConnections")
                    .asLong();
        }
        assertEquals(n, accepted, "connections the workers accepted");
    }

    @Test
    void aWorkerKilledMakesTheLauncherStopTheOthersAndFail() throws Exception {
        launched = new Launched(3);
        launched.awaitStart(3);
        List<ProcessHandle> workers = launched.workers();
        long victim = launched.pids.get(1);
        assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly());
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertNotEquals(0, launched.process.exitValue());
        for (ProcessHandle w : workers) {
            assertFalse(w.isAlive(), "worker " + w.pid() + " still running after the launcher exited");
        }
        String said = launched.awaitLine(launched.err, "tickwork: worker 1 ");
        assertEquals("tickwork: worker 1 (pid " + victim + ") exited with status 137; stopping the others", said);
    }

    @Test
    void workersStopWhenTheLauncherIsKilled() throws Exception {
        launched = new Launched(2);
        launched.awaitStart(2);
        List<ProcessHandle> workers = launched.workers();
        launched.process.destroyForcibly(); // SIGKILL: no handler, no shutdown hook runs
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher killed");
        for (ProcessHandle w : workers) {
            w.onExit().get(BOUND_SECONDS, TimeUnit.SECONDS); // their stdin reached end-of-file
        }
    }

    /** One GET on a keep-alive socket; the status code, after reading the whole response. */
    private static int get(Socket s, String path) throws IOException {
        s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || head.lastIndexOf("\r\n\r\n") != head.length() - 4) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("closed after " + head);
            }
            head.append((char) c);
        }
        Matcher cl = Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
        assertTrue(cl.find(), head.toString());
        int length = Integer.parseInt(cl.group(1));
        assertEquals(length, in.readNBytes(length).length);
        return Integer.parseInt(head.substring(9, 12));
    }
}
