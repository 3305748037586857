package io.tickwork.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --processes}: the launcher as a real process on an ephemeral loopback port, its workers
 * as real JVMs. Checks the start line, that the workers share the port and report their own
 * counters, that a worker killed while serving is restarted (within bounds), and that every way of
 * ending (SIGTERM to the launcher, a worker failing for good, the launcher killed) leaves no worker
 * behind.
 */
@Timeout(120)
class WorkerLauncherTest {
    private static final long BOUND_SECONDS = LaunchedServer.BOUND_SECONDS;

    private final List<Socket> sockets = new ArrayList<>();
    private LaunchedServer launched;

    @AfterEach
    void cleanUp() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        if (launched != null) {
            launched.close();
        }
    }

    @Test
    void workersShareThePortReportTheirOwnCountersAndStopOnSigterm() throws Exception {
        launched = new LaunchedServer(3);
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
        assertEquals(List.of(), launched.restOf(launched.err), "nothing on stderr");
    }

    /**
     * A worker killed while serving is started again with its index; the others serve on and keep
     * their connections, the new one serves, and a stop afterwards is a clean stop.
     */
    @Test
    void aWorkerKilledIsRestartedWhileTheOthersServeOn() throws Exception {
        launched = new LaunchedServer(2);
        launched.awaitStart(2);
        List<Socket> kept = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // hashed over both workers; some on worker 0 for sure (2^-40)
            Socket s = new Socket("127.0.0.1", launched.port);
            sockets.add(s);
            s.setSoTimeout(10_000);
            assertEquals(200, get(s, "/d/door"), "connection " + i);
            kept.add(s);
        }
        long victim = launched.pids.get(1);
        assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly());
        assertEquals(
                "tickwork: worker 1 (pid " + victim + ") exited with status 137; restarting it",
                launched.awaitLine(launched.err, "tickwork: "));
        String restarted = launched.awaitLine(launched.out, "tickwork: ");
        Matcher m = Pattern.compile(
                        "^tickwork: worker 1 restarted: pid=(\\d+) stats=(http://127\\.0\\.0\\.1:\\d+/stats)$")
                .matcher(restarted);
        assertTrue(m.matches(), restarted);
        long successor = Long.parseLong(m.group(1));
        assertNotEquals(victim, successor);
        assertEquals(
                java.util.Set.of(launched.pids.get(0), successor),
                launched.process.children().map(ProcessHandle::pid).collect(Collectors.toSet()),
                "the launcher's workers: the survivor and the successor");

        // the survivor's connections answer still; those on the killed worker are gone
        int answered = 0;
        for (Socket s : kept) {
            try {
                answered += get(s, "/d/door") == 200 ? 1 : 0;
            } catch (IOException gone) {
                // it was the killed worker's
            }
        }
        assertTrue(answered > 0 && answered < kept.size(), answered + " of " + kept.size() + " connections answered");
        HttpResponse<String> st = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(m.group(2))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, st.statusCode(), "the successor's own /stats");
        for (int i = 0; i < 40; i++) { // new connections reach both workers again (2 * 2^-40 to fail)
            try (Socket s = new Socket("127.0.0.1", launched.port)) {
                s.setSoTimeout(10_000);
                assertEquals(200, get(s, "/d/door"), "new connection " + i);
            }
        }
        long successorAccepted = new ObjectMapper()
                .readTree(HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(m.group(2))).build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body())
                .get("acceptedConnections")
                .asLong();
        assertTrue(successorAccepted > 0, "the successor accepted none of 40 new connections");

        assertTrue(launched.process.toHandle().destroy());
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertEquals(0, launched.process.exitValue(), "a clean stop after a mended failure");
        assertEquals(
                "tickwork dictionary: all 2 workers stopped",
                launched.awaitLine(launched.out, "tickwork dictionary: "));
    }

    /** A worker that fails again and again is not restarted for ever: its fourth failure within 60 s stops the service. */
    @Test
    void aWorkerFailingAFourthTimeWithinAMinuteStopsTheService() throws Exception {
        launched = new LaunchedServer(2);
        launched.awaitStart(2);
        long victim = launched.pids.get(1);
        for (int k = 1; k <= WorkerLauncher.RESTARTS_PER_WINDOW; k++) {
            assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly());
            assertEquals(
                    "tickwork: worker 1 (pid " + victim + ") exited with status 137; restarting it",
                    launched.awaitLine(launched.err, "tickwork: "),
                    "failure " + k);
            Matcher m = Pattern.compile("^tickwork: worker 1 restarted: pid=(\\d+) .*")
                    .matcher(launched.awaitLine(launched.out, "tickwork: "));
            assertTrue(m.matches());
            victim = Long.parseLong(m.group(1));
        }
        List<ProcessHandle> workers = launched.process.children().collect(Collectors.toList());
        assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly());
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertEquals(1, launched.process.exitValue());
        assertEquals(
                "tickwork: worker 1 (pid " + victim + ") exited with status 137, its 4th failure within 60 s;"
                        + " stopping the others",
                launched.awaitLine(launched.err, "tickwork: "));
        for (ProcessHandle w : workers) {
            assertFalse(w.isAlive(), "worker " + w.pid() + " still running after the launcher exited");
        }
    }

    /**
     * A restart that cannot serve (here its data file was deleted) is tried again, and its failures
     * count against the same bound: the fourth within 60 s stops the service, saying why.
     */
    @Test
    void aRestartThatCannotServeStopsTheServiceAfterItsRetries(@TempDir Path tmp) throws Exception {
        Path data = tmp.resolve("copy.twd");
        try (InputStream in = io.tickwork.server.dict.Dictionary.class.getResourceAsStream("wordnet31.twd")) {
            Files.copy(in, data);
        }
        launched = new LaunchedServer(2, "--data", data.toString());
        launched.awaitStart(2);
        List<ProcessHandle> workers = launched.workers();
        Files.delete(data); // the workers keep their mappings; a new worker cannot open it
        long victim = launched.pids.get(1);
        assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly());
        assertEquals(
                "tickwork: worker 1 (pid " + victim + ") exited with status 137; restarting it",
                launched.awaitLine(launched.err, "tickwork: "));
        for (int k = 1; k < WorkerLauncher.RESTARTS_PER_WINDOW; k++) {
            String again = launched.awaitLine(launched.err, "tickwork: ");
            assertTrue(
                    again.matches(
                            "tickwork: worker 1 \\(pid \\d+\\) exited with status 1 before it served; restarting it"),
                    "retry " + k + ": " + again);
        }
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertEquals(1, launched.process.exitValue());
        String said = launched.awaitLine(launched.err, "tickwork: ");
        assertTrue(
                said.matches("tickwork: worker 1 \\(pid \\d+\\) exited with status 1 before it served, its 4th failure"
                        + " within 60 s; stopping the others"),
                said);
        for (ProcessHandle w : workers) {
            assertFalse(w.isAlive(), "worker " + w.pid() + " still running after the launcher exited");
        }
    }

    /** A worker stopped alone, gracefully (exit 0): the service is down, so the launcher fails too. */
    @Test
    void aWorkerStoppedAloneMakesTheLauncherFailToo() throws Exception {
        launched = new LaunchedServer(2);
        launched.awaitStart(2);
        long victim = launched.pids.get(1);
        assertTrue(ProcessHandle.of(victim).orElseThrow().destroy()); // SIGTERM: it stops gracefully, status 0
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertEquals(1, launched.process.exitValue(), "a supervisor's Restart=on-failure must see the failure");
        assertEquals(
                "tickwork: worker 1 (pid " + victim + ") exited with status 0; stopping the others",
                launched.awaitLine(launched.err, "tickwork: worker 1 "),
                "the reason for the failure goes where the failure is looked for");
        List<String> out = launched.restOf(launched.out);
        assertTrue(
                out.stream().noneMatch(l -> l.startsWith("tickwork dictionary: all")),
                "no line of success on a failed run: " + out);
    }

    /** A terminal's Ctrl-C sends SIGINT to the launcher and every worker at once: a stop, exit 0. */
    @Test
    void ctrlCReachingTheWorkersTooIsAStopNotAFailure() throws Exception {
        launched = new LaunchedServer(2);
        launched.awaitStart(2);
        sigint(launched.process.toHandle(), launched.workers());
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertEquals(0, launched.process.exitValue(), launched.err.toString());
        assertEquals(
                "tickwork dictionary: all 2 workers stopped",
                launched.awaitLine(launched.out, "tickwork dictionary: all"));
    }

    /**
     * A hang-up (the launcher's terminal closed) is a stop like SIGTERM: the launcher stops its
     * workers, waits for them and exits 0, not 129 at once with its workers left to drain unwatched.
     */
    @Test
    void aHangUpIsAStopNotAFailure() throws Exception {
        // a JVM started with SIGHUP ignored (under nohup) passes that on to its children, whose
        // JVMs then install no handler for it: nothing to test there
        org.junit.jupiter.api.Assumptions.assumeFalse(hangUpIgnored(), "SIGHUP is ignored (nohup)");
        launched = new LaunchedServer(2);
        launched.awaitStart(2);
        List<ProcessHandle> workers = launched.workers();
        Process k = new ProcessBuilder("kill", "-HUP", Long.toString(launched.process.pid()))
                .inheritIO()
                .start();
        assertTrue(k.waitFor(BOUND_SECONDS, TimeUnit.SECONDS));
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertEquals(0, launched.process.exitValue(), launched.err.toString());
        assertEquals(
                "tickwork dictionary: all 2 workers stopped",
                launched.awaitLine(launched.out, "tickwork dictionary: all"));
        for (ProcessHandle w : workers) {
            assertFalse(w.isAlive(), "worker " + w.pid() + " still running after the launcher exited");
        }
    }

    /**
     * The same while the workers start, before they handle SIGINT themselves: such a worker ends
     * with status 130, which is a stop too.
     */
    @Test
    void ctrlCWhileTheWorkersStartIsAStopNotAFailure() throws Exception {
        launched = new LaunchedServer(2);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        List<ProcessHandle> workers;
        while ((workers = launched.process.toHandle().children().collect(Collectors.toList())).size() < 2) {
            assertTrue(System.nanoTime() < deadline, "workers started: " + workers);
            assertTrue(launched.process.isAlive(), launched.err.toString());
            Thread.onSpinWait();
        }
        sigint(launched.process.toHandle(), workers);
        assertTrue(launched.process.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "launcher exited");
        assertEquals(0, launched.process.exitValue(), launched.err.toString());
        for (ProcessHandle w : workers) {
            assertFalse(w.isAlive(), "worker " + w.pid() + " still running after the launcher exited");
        }
    }

    /** Whether this process ignores SIGHUP (bit 0 of SigIgn in /proc/self/status; false elsewhere). */
    private static boolean hangUpIgnored() throws IOException {
        java.nio.file.Path status = java.nio.file.Path.of("/proc/self/status");
        if (!java.nio.file.Files.isReadable(status)) {
            return false;
        }
        for (String line : java.nio.file.Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 1) != 0;
            }
        }
        return false;
    }

    private static void sigint(ProcessHandle launcher, List<ProcessHandle> workers) throws Exception {
        List<String> kill = new ArrayList<>(List.of("kill", "-INT", Long.toString(launcher.pid())));
        workers.forEach(w -> kill.add(Long.toString(w.pid())));
        Process k = new ProcessBuilder(kill).inheritIO().start();
        assertTrue(k.waitFor(BOUND_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, k.exitValue(), "kill " + kill);
    }

    @Test
    void workersStopWhenTheLauncherIsKilled() throws Exception {
        launched = new LaunchedServer(2);
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
