package io.tickwork.client.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.tickwork.client.Cli;
import io.tickwork.client.Cli.Run;
import io.tickwork.client.LaunchedTool;
import io.tickwork.client.common.LatencyRange;
import io.tickwork.client.common.OptionValues;
import io.tickwork.client.common.StubHttpServer;
import io.tickwork.client.common.UsageException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

@Timeout(60)
class BenchTest {

    /** A bench command line parsed and checked as the launcher does, without running it. */
    static BenchConfig config(String... args) {
        BenchCommand c = new BenchCommand(System.out, System.err);
        OptionValues.conventions(new CommandLine(c)).parseArgs(args);
        return c.config();
    }

    static BenchReport bench(String... args) throws InterruptedException {
        return new Bench(config(args)).run(null);
    }

    /**
     * On a machine of many cores the default thread count (half the cores) gives way to a low
     * {@code --rate}: 20 req/s for 1 s on 64 cores runs on 20 threads instead of being refused for
     * giving 32 threads less than a request each; the same rate with {@code -t 32} given is refused.
     * In a child JVM told it has 64 processors.
     */
    @Test
    void aLowRateOnManyCoresRunsOnFewerThreadsUnlessTheyWereGiven() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("k"))) {
            String[] rated = {"bench", "--rate", "20", "-D", "1s", "--json", s.url("/")};
            ProcessOutput defaulted = onSixtyFourCores(rated);
            assertEquals(0, defaulted.status, defaulted.text);
            assertTrue(defaulted.text.contains("\"threads\":20,"), defaulted.text);
            String[] given = {"bench", "--rate", "20", "-D", "1s", "-t", "32", s.url("/")};
            ProcessOutput refused = onSixtyFourCores(given);
            assertEquals(2, refused.status, refused.text);
            assertTrue(refused.text.contains("gives each of the 32 threads less than one request"), refused.text);
        }
    }

    private record ProcessOutput(int status, String text) {}

    private static ProcessOutput onSixtyFourCores(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:ActiveProcessorCount=64",
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                io.tickwork.client.LoadTool.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), text);
        return new ProcessOutput(p.exitValue(), text);
    }

    @Test
    void aBareUrlRunsTheDocumentedDefaults() {
        BenchConfig c = config("http://127.0.0.1:8080/d/time");
        assertEquals(new InetSocketAddress("127.0.0.1", 8080), c.address());
        assertEquals("http://127.0.0.1:8080/d/time", c.target());
        assertEquals(64, c.connections());
        assertEquals(1, c.depth());
        assertEquals(1, c.threads());
        assertEquals(Duration.ZERO, c.warmup());
        assertEquals(Duration.ofSeconds(10), c.duration());
        assertEquals(0, c.count());
        assertEquals(0.0, c.rate());
        assertEquals(Duration.ofSeconds(5), c.timeout());
        assertEquals(Duration.ofSeconds(5), c.connectTimeout());
        assertEquals(1, c.seed());
        assertEquals(
                "GET /d/time HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
                new String(c.requests().get(0), StandardCharsets.ISO_8859_1));
        assertEquals(
                Duration.ofMinutes(10),
                config("-n", "5", "http://127.0.0.1:8080/").duration());
        BenchConfig last =
                config("-c", "2", "--connections=3", "-D", "1.5s", "--rate", "1.5k", "http://127.0.0.1:8080/");
        assertEquals(3, last.connections(), "a repeated option: the last one counts");
        assertEquals(Duration.ofMillis(1500), last.duration());
        assertEquals(1500.0, last.rate());
        assertEquals(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-A: 1\r\nX-B: 2\r\n\r\n",
                new String(
                        config("-H", "X-A: 1", "--header", "X-B: 2", "http://127.0.0.1:8080/")
                                .requests()
                                .get(0),
                        StandardCharsets.ISO_8859_1),
                "-H repeated: every header is sent, not only the last");
        assertEquals("0.5", BenchCommand.rateText(0.5), "a rate below 1 is not shown as 0");
        assertEquals("1500", BenchCommand.rateText(1500.0));
        assertEquals("2.25", BenchCommand.rateText(2.25));
    }

    @Test
    void keepAliveCountIsExactAndCleanOnSeveralSelectors() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("hello"))) {
            BenchReport r = bench("-c", "8", "-t", "2", "-n", "3000", "--duration", "30s", s.url("/x"));
            assertEquals(3000, r.completed);
            assertEquals(3000, r.sent);
            assertEquals(Map.of(200, 3000L), r.statuses);
            assertEquals(0, r.errors());
            assertEquals(3000, r.latency.getTotalCount());
            assertEquals(3000, s.requests.get());
            assertEquals(8, s.connections.get(), "keep-alive: no reconnects");
            assertTrue(r.bytesRead >= 3000L * (StubHttpServer.ok("hello").length), "bytes counted");
        }
    }

    @Test
    void pipelinedRequestsArriveInBatches() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("p" + n))) {
            BenchReport r = bench("-c", "4", "-d", "16", "-n", "4000", "--duration", "30s", s.url("/p"));
            assertEquals(4000, r.completed);
            assertEquals(0, r.errors());
            assertTrue(s.maxBatch.get() > 1, "the server saw pipelined requests, max batch " + s.maxBatch.get());
            assertTrue(s.maxBatch.get() <= 16, "never more than the depth in flight: " + s.maxBatch.get());
        }
    }

    @Test
    void chunkedAndLengthResponsesMix() throws Exception {
        try (StubHttpServer s = new StubHttpServer(
                (n, p) -> n % 2 == 0 ? StubHttpServer.chunked("ab", "cde") : StubHttpServer.ok("x"))) {
            BenchReport r = bench("-c", "3", "-d", "4", "-n", "900", "--duration", "30s", s.url("/"));
            assertEquals(900, r.completed);
            assertEquals(0, r.parseErrors);
            assertEquals(0, r.errors());
        }
    }

    @Test
    void non2xxAreCountedByStatus() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> p.endsWith("/missing")
                ? StubHttpServer.response(404, "no")
                : p.endsWith("/boom") ? StubHttpServer.response(503, "busy") : StubHttpServer.ok("yes"))) {
            java.nio.file.Path urls = java.nio.file.Files.createTempFile("urls", ".txt");
            java.nio.file.Files.writeString(urls, s.url("/a") + "\n/missing\n/boom\n");
            BenchReport r = bench("-c", "4", "-n", "1500", "--duration", "30s", "--urls", urls.toString());
            java.nio.file.Files.delete(urls);
            assertEquals(1500, r.completed);
            assertEquals(3, r.statuses.size(), r.statuses.toString());
            long non2xx = r.statuses.get(404) + r.statuses.get(503);
            assertEquals(non2xx, r.non2xx());
            assertEquals(non2xx, r.errors());
            assertTrue(r.statuses.get(404) > 0 && r.statuses.get(503) > 0 && r.statuses.get(200) > 0);
        }
    }

    @Test
    void wordsAreAppendedToThePrefix() throws Exception {
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        try (StubHttpServer s = new StubHttpServer((n, p) -> {
            seen.add(p);
            return StubHttpServer.ok("w");
        })) {
            java.nio.file.Path words = java.nio.file.Files.createTempFile("words", ".txt");
            java.nio.file.Files.writeString(words, "apple\ncafé\nhot dog\n");
            BenchReport r = bench("-c", "2", "-n", "300", "--words", "--word-file", words.toString(), s.url("/d/"));
            java.nio.file.Files.delete(words);
            assertEquals(300, r.completed);
            assertTrue(
                    seen.stream()
                            .allMatch(
                                    p -> p.equals("/d/apple") || p.equals("/d/caf%C3%A9") || p.equals("/d/hot%20dog")),
                    seen.toString());
            assertEquals(3, seen.stream().distinct().count());
        }
    }

    @Test
    void garbageIsAParseErrorAndTheRunGoesOn() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) ->
                n == 3 ? "SMTP ready\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1) : StubHttpServer.ok("fine"))) {
            BenchReport r = bench("-c", "2", "-n", "200", "--duration", "30s", s.url("/"));
            assertEquals(200, r.completed, "the requests lost to bad connections are sent again");
            assertTrue(r.parseErrors >= 1, "parse errors " + r.parseErrors);
            assertEquals(r.parseErrors, r.errors());
            // the report says why, not only how many
            assertTrue(r.firstParseError.startsWith("bad status line: SMTP ready"), r.firstParseError);
            assertTrue(r.toText().contains("  parse      the first refused: bad status line: SMTP ready"), r.toText());
        }
    }

    @Test
    void serverClosesAreCountedOrFollowed() throws Exception {
        // an abrupt close with requests outstanding is an error of kind "closed"
        try (StubHttpServer s = new StubHttpServer((n, p) -> n == 4 ? StubHttpServer.CLOSE : StubHttpServer.ok("k"))) {
            BenchReport r = bench("-c", "2", "-d", "2", "-n", "100", "--duration", "30s", s.url("/"));
            assertEquals(100, r.completed);
            assertTrue(r.closedErrors >= 1, "closed " + r.closedErrors);
            assertTrue(r.reconnects >= r.closedErrors);
        }
        // Connection: close is followed without an error, even when pipelining past it
        byte[] last = ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nz")
                .getBytes(StandardCharsets.ISO_8859_1);
        try (StubHttpServer s =
                new StubHttpServer((n, p) -> n == 4 ? last : n > 4 ? StubHttpServer.CLOSE : StubHttpServer.ok("k"))) {
            BenchReport r = bench("-c", "2", "-d", "3", "-n", "100", "--duration", "30s", s.url("/"));
            assertEquals(100, r.completed);
            assertEquals(0, r.errors(), r.toText());
            assertTrue(r.reconnects >= 100 / 5 - 2, "reconnects " + r.reconnects);
        }
    }

    @Test
    void silenceIsAReadTimeout() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.SILENT)) {
            BenchReport r = bench("-c", "2", "--timeout", "100ms", "--duration", "1s", s.url("/"));
            assertEquals(0, r.completed);
            assertTrue(r.timeouts >= 2, "timeouts " + r.timeouts);
            assertEquals(r.timeouts, r.errors());
            // without -n nothing is sent again: each timed-out request is lost, and charged its
            // wait (at least the timeout) in the latency
            assertEquals(r.timeouts, r.lost, r.toText());
            assertEquals(r.lost + r.unansweredAtEnd, r.latency.getTotalCount(), r.toText());
            assertTrue(
                    r.latency.getCountBetweenValues(100_000_000L, LatencyRange.HIGHEST_NS) >= r.lost,
                    "requests charged at least the timeout: " + r.toText());
        }
    }

    /**
     * Closed loop with {@code -n}: a request lost to a timeout is sent again to reach the count, and
     * its wait is charged too, as without {@code -n}: 2 % of requests stalled past the timeout show
     * in the tail, not only in the error count.
     */
    @Test
    void withACountTimedOutRequestsAreChargedTheirWaitToo() throws Exception {
        try (StubHttpServer s =
                new StubHttpServer((n, p) -> n == 49 ? StubHttpServer.SILENT : StubHttpServer.ok("k"))) {
            BenchReport r = bench("-c", "2", "-n", "400", "--timeout", "200ms", "--duration", "30s", s.url("/"));
            assertEquals(400, r.completed, r.toText());
            assertTrue(r.timeouts >= 2, r.toText());
            assertEquals(r.completed + r.timeouts, r.latency.getTotalCount(), r.toText());
            assertTrue(
                    r.latency.getCountBetweenValues(200_000_000L, LatencyRange.HIGHEST_NS) >= r.timeouts,
                    "each timed-out request charged at least the timeout: " + r.toText());
        }
    }

    /**
     * A server that accepts every connection and closes it unanswered: the connections are
     * replaced after a growing wait, not in a storm, and the run gives up, exit 1, when no response
     * came for 3 s while connections failed as many times as there are connections, rather than
     * retrying towards {@code -n} for ever.
     */
    @Test
    void aServerThatClosesEveryConnectionUnansweredEndsTheRun() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.CLOSE)) {
            long t0 = System.nanoTime();
            Run run = Cli.run("bench", "-c", "8", "-n", "100", "--json", s.url("/"));
            long took = System.nanoTime() - t0;
            assertEquals(1, run.status(), run.out() + run.err());
            assertTrue(
                    run.err()
                            .contains("closed, reset or garbled every connection without a response for 3 s;"
                                    + " the run gave up at second"),
                    run.err());
            assertTrue(took < 20_000_000_000L, "gave up after " + took / 1_000_000 + " ms");
            // with a wait of 0.1, 0.2, 0.4, 0.8 then 1 s, a connection makes about 7 connects in 4 s
            JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.out());
            long connects = s.connections.get();
            assertTrue(connects >= 8 && connects <= 8 * 12, "connections accepted: " + connects + "; " + json);
        }
    }

    /**
     * A slow server that also closes some connections unanswered is measured, not given up on:
     * no response comes for 3.5 s, two of ten connections are closed meanwhile, the other eight
     * wait within their timeout and are answered.
     */
    @Test
    void aSlowServerThatClosesAFewConnectionsIsNotGivenUpOn() throws Exception {
        java.util.concurrent.atomic.AtomicInteger firsts = new java.util.concurrent.atomic.AtomicInteger();
        try (StubHttpServer s = new StubHttpServer((n, p) -> {
            if (n == 0 && firsts.incrementAndGet() % 5 == 0) {
                return StubHttpServer.CLOSE; // every fifth connection's first request
            }
            if (n == 0) {
                takes(3_500_000_000L);
            }
            return StubHttpServer.ok("k");
        })) {
            Run run = Cli.run("bench", "-c", "10", "--timeout", "10s", "-D", "5s", "--json", s.url("/"));
            assertEquals(0, run.status(), run.out() + run.err());
            JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.out());
            assertTrue(json.get("requests").get("completed").asLong() > 0, run.out());
            assertTrue(json.get("errors").get("closed").asLong() >= 2, run.out());
        }
    }

    /**
     * Open loop, a server that never answers, with room for every request: each one that times
     * out is lost and charged its wait, so the latency shows the stall, not nothing.
     */
    @Test
    void openLoopChargesTheRequestsThatTimedOut() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.SILENT)) {
            BenchReport r = bench("-c", "20", "--rate", "20", "--timeout", "100ms", "--duration", "1s", s.url("/"));
            assertEquals(0, r.completed);
            assertTrue(r.lost >= 10, r.toText());
            assertTrue(r.latency.getTotalCount() >= r.lost, "charged " + r.latency.getTotalCount() + ": " + r.toText());
            assertTrue(
                    r.latency.getCountBetweenValues(100_000_000L, LatencyRange.HIGHEST_NS) >= r.lost,
                    "requests charged at least the timeout: " + r.toText());
        }
    }

    /**
     * SIGTERM (or Ctrl-C) in the middle of a run: the report of what was measured is printed before
     * the JVM exits with the signal's status.
     */
    @Test
    void aSignalEndsTheRunWithItsReport() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("hello"));
                LaunchedTool bench = LaunchedTool.start("bench", "-c", "2", "--duration", "60s", s.url("/x"))) {
            bench.awaitLine("req/s  "); // the first progress line
            String rest = bench.terminate();
            assertEquals(143, bench.exitValue(), rest);
            assertTrue(rest.contains(" completed, "), "no report after the signal: " + rest);
            assertTrue(rest.contains("  ended      early: stopped before -n or -D was reached"), rest);
        }
    }

    /** A signal during the warm-up: the report says that nothing was measured and why. */
    @Test
    void aSignalDuringTheWarmUpSaysSo() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("hello"));
                LaunchedTool bench =
                        LaunchedTool.start("bench", "-c", "2", "--warmup", "60s", "--duration", "1s", s.url("/x"))) {
            bench.awaitLine(" warmup "); // the first progress line
            String rest = bench.terminate();
            assertEquals(143, bench.exitValue(), rest);
            assertTrue(rest.contains("stopped by a signal during the warm-up"), rest);
            assertTrue(!rest.contains("the errors above say why"), rest);
        }
    }

    /**
     * The part of a second after the last whole one gets a progress line of its own (a run shorter
     * than a second gets only that one): the lines add up to the run.
     */
    @Test
    void theLastPartOfASecondGetsAProgressLine() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("p"))) {
            Run run = Cli.run("bench", "-c", "2", "-n", "200", "--duration", "30s", s.url("/"));
            assertEquals(0, run.status(), run.err());
            java.util.regex.Matcher whole = java.util.regex.Pattern.compile(
                            "(?m)^\\s*\\d+s\\s+(\\d+) req/s .* open \\d+$")
                    .matcher(run.out());
            double requests = 0;
            int lines = 0;
            while (whole.find()) {
                requests += Long.parseLong(whole.group(1)); // a whole second each
                lines++;
            }
            java.util.regex.Matcher last = java.util.regex.Pattern.compile(
                            "\\s+(\\d+) req/s .* errors 0  \\(the last (\\d+\\.\\d+)s\\)")
                    .matcher(run.out());
            assertTrue(last.find(), run.out());
            long rate = Long.parseLong(last.group(1));
            requests += rate * Double.parseDouble(last.group(2));
            // the last rate is printed whole and its time to 10 ms: 200 within that rounding
            assertTrue(Math.abs(requests - 200) <= 1 + lines + rate / 100.0, requests + " in\n" + run.out());
        }
    }

    /**
     * A server that answers in about 20 ms and closes every connection at its second request: the
     * requests lost to the closes are counted, not put in the latency with the short wait they had
     * when the connection went (a server that fails fast must not look fast).
     */
    @Test
    void requestsLostToACloseAreNotInTheLatency() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> {
            if (n == 1) {
                return StubHttpServer.CLOSE;
            }
            takes(20_000_000L); // a server that takes 20 ms to answer
            return StubHttpServer.ok("slow");
        })) {
            BenchReport r = bench("-c", "2", "--duration", "1s", s.url("/"));
            assertTrue(r.completed >= 4 && r.closedErrors >= 4 && r.lost >= 4, r.toText());
            // in the latency: the answers, and the requests in flight at the end (charged their wait)
            assertEquals(r.completed + r.unansweredAtEnd, r.latency.getTotalCount(), r.toText());
            assertTrue(
                    r.latency.getCountBetweenValues(0, 19_000_000L) <= r.unansweredAtEnd,
                    "waits under the server's 20 ms: " + r.latency.getCountBetweenValues(0, 19_000_000L));
        }
    }

    /**
     * Closed loop, a server that never answers and a run shorter than {@code --timeout}: the
     * requests in flight when the time is up are reported and charged their wait, and the failed
     * run says that is why nothing completed.
     */
    @Test
    void closedLoopReportsWhatIsUnansweredAtTheEnd() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.SILENT)) {
            Run run = Cli.run("bench", "-c", "2", "--timeout", "60s", "--duration", "500ms", s.url("/"));
            assertEquals(1, run.status(), run.out() + run.err());
            assertTrue(
                    run.out().contains("  at end     2 unanswered: in the latency with their wait so far"), run.out());
            assertTrue(run.err().contains("(2 requests were still unanswered when the time was up)"), run.err());
            BenchReport r = bench("-c", "2", "--timeout", "60s", "--duration", "500ms", s.url("/"));
            assertEquals(2, r.unansweredAtEnd, r.toText());
            assertEquals(2, r.latency.getTotalCount(), r.toText());
            assertTrue(r.latency.getMinValue() >= 400_000_000L, "the shortest wait: " + r.latency.getMinValue());
        }
    }

    /**
     * A server that goes away in the middle of a long run: once no connection has been open for
     * three seconds, each with connects failing, the run gives up with its report and exit 1,
     * not retrying until its ten-minute cap.
     */
    @Test
    void aServerThatStopsAcceptingEndsTheRun() throws Exception {
        java.util.concurrent.atomic.AtomicReference<StubHttpServer> stub =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean gone = new java.util.concurrent.atomic.AtomicBoolean();
        try (StubHttpServer s = new StubHttpServer((n, p) -> {
            if (n == 50 && gone.compareAndSet(false, true)) {
                Thread t = new Thread(() -> {
                    try {
                        stub.get().close(); // the listener and every connection: the server is gone
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                t.start();
            }
            return StubHttpServer.ok("up");
        })) {
            stub.set(s);
            long t0 = System.nanoTime();
            Run run = Cli.run("bench", "-c", "2", "-n", "10m", s.url("/"));
            long took = System.nanoTime() - t0;
            assertEquals(1, run.status(), run.out() + run.err());
            assertTrue(run.err().contains("stopped accepting connections; the run gave up at second"), run.err());
            assertTrue((run.out() + run.err()).contains("giving up: no connection open for 3 s"), run.out());
            assertTrue(run.out().contains("completed"), run.out()); // the report comes first
            assertTrue(took < 20_000_000_000L, "gave up after " + took / 1_000_000 + " ms");
            Cli.assertNoStackTrace(run);
        }
    }

    /**
     * The same when the server's connects time out rather than being refused: a listener whose
     * accept queue is full drops the SYNs, so each reconnect fails only after
     * {@code --connect-timeout} (2 s here), fewer than one a second. The outage is counted in
     * seconds with no connection open, a failed connect within them, and the run still gives up.
     */
    @Test
    void aServerWhoseConnectsTimeOutEndsTheRunToo() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            List<java.net.Socket> fillers = new ArrayList<>();
            Thread server = new Thread(() -> {
                try (java.net.Socket c = listener.accept()) {
                    answer(c, 20);
                    // the server stops taking connections: its accept queue fills, later SYNs are dropped
                    io.tickwork.client.common.FullListener.fillAcceptQueue(at, fillers);
                } catch (IOException e) {
                    // the test is over
                }
            });
            server.setDaemon(true);
            server.start();
            long t0 = System.nanoTime();
            Run run = Cli.run(
                    "bench",
                    "-c",
                    "1",
                    "--connect-timeout",
                    "2s",
                    "--timeout",
                    "1s",
                    "-D",
                    "40s",
                    "http://127.0.0.1:" + at.getPort() + "/");
            long took = System.nanoTime() - t0;
            try {
                assertEquals(1, run.status(), run.out() + run.err());
                assertTrue(run.err().contains("stopped accepting connections; the run gave up at second"), run.err());
                assertTrue(took < 25_000_000_000L, "gave up after " + took / 1_000_000 + " ms");
            } finally {
                for (java.net.Socket f : fillers) {
                    f.close();
                }
            }
        }
    }

    /**
     * Closed loop, a healthy server: the requests in flight when the time is up have waited less
     * than the answers measured, and are neither charged nor listed as unanswered.
     */
    @Test
    void aHealthyClosedLoopRunChargesNothingAtTheEnd() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("fine"))) {
            BenchReport r = bench("-c", "4", "-d", "4", "--duration", "500ms", s.url("/"));
            assertTrue(r.completed > 100, r.toText());
            assertTrue(r.unansweredAtEnd < 16, "all 16 in flight charged: " + r.toText());
            assertEquals("duration", r.endedBy(), r.toText());
            assertTrue(r.toText().contains("  ended      at the duration (-D "), r.toText());
            assertEquals(r.completed + r.unansweredAtEnd, r.latency.getTotalCount(), r.toText());
        }
    }

    /** A server that accepts and never answers: connected, yet nothing measured, so a failed run. */
    @Test
    void aRunWithNoResponseCompletedFails() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.SILENT)) {
            Run run = Cli.run("bench", "-c", "2", "--timeout", "100ms", "--duration", "500ms", s.url("/"));
            assertEquals(1, run.status(), run.out() + run.err());
            assertTrue(run.err().contains("no response from " + s.url("/") + " completed"), run.err());
            assertTrue(run.out().contains("0 completed"), run.out()); // the report still comes first
            Cli.assertNoStackTrace(run);
        }
    }

    @Test
    void refusedConnectsAreCountedByCause() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort(); // closed again below: nobody listens there
        }
        Run run = Cli.run("bench", "-c", "3", "--duration", "500ms", "--json", "http://127.0.0.1:" + port + "/");
        assertEquals(1, run.status(), run.err()); // nothing was measured: a failed run, with its report
        assertTrue(run.err().contains("no connection to http://127.0.0.1:" + port + "/ succeeded"), run.err());
        Cli.assertNoStackTrace(run);
        JsonNode errors = Cli.json(run.out()).get("errors");
        long connect = errors.get("connect").asLong();
        assertTrue(connect >= 3, run.out());
        assertEquals(connect, errors.get("connect_by_cause").get("ECONNREFUSED").asLong(), run.out());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void openLoopSendsExactlyTheCountAtTheRate(boolean spin) throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("r"))) {
            List<String> args = new ArrayList<>(List.of("-c", "4", "--rate", "4000", "-n", "800", "--duration", "30s"));
            if (spin) {
                args.add("--spin");
            }
            args.add(s.url("/"));
            BenchReport r = bench(args.toArray(new String[0]));
            assertEquals(800, r.sent);
            assertEquals(800, r.completed);
            assertEquals(800, r.latency.getTotalCount());
            assertTrue(r.config.openLoop());
            assertEquals(spin, r.config.spin());
        }
    }

    /**
     * With a warm-up and a duration, every request intended in the measured run is either sent in
     * it or charged as unsent at its end, also those that came due while a thread waited in its
     * select across the boundary: 5,000 a second for 400 ms is 2,000, each time.
     */
    @Test
    void openLoopAccountsForEveryRequestIntendedInTheMeasuredRun() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("r"))) {
            for (int round = 0; round < 4; round++) {
                BenchReport r = bench(
                        "-c", "4", "-t", "1", "--rate", "5000", "--warmup", "300ms", "--duration", "400ms", s.url("/"));
                assertEquals(2_000, r.sent + r.unsentAtEnd, "round " + round + ": " + r.toText());
            }
        }
    }

    /** A --hgrm file that cannot be written is refused before the run, not after it. */
    @Test
    void anUnwritableHgrmFileIsRefusedBeforeTheRun() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("h"))) {
            Path dir = Files.createTempDirectory("hgrm");
            String missing = dir.resolve("no-such-dir").resolve("x.hgrm").toString();
            Run run = Cli.run("bench", "-c", "1", "-D", "30s", "--hgrm", missing, s.url("/"));
            Files.delete(dir);
            assertEquals(2, run.status(), run.out() + run.err());
            assertTrue(run.err().contains("cannot write --hgrm " + missing), run.err());
            assertEquals(0, s.requests.get(), "no request sent");
            Cli.assertNoStackTrace(run);
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort(); // closed again: nobody listens there
        }
        Path dir = Files.createTempDirectory("hgrm");
        Path file = dir.resolve("x.hgrm");
        Run failed =
                Cli.run("bench", "-c", "1", "-D", "500ms", "--hgrm", file.toString(), "http://127.0.0.1:" + port + "/");
        assertEquals(1, failed.status(), failed.err());
        assertTrue(!Files.exists(file), "a failed run left an empty --hgrm file");
        Files.delete(dir);
    }

    /**
     * Open loop against a server that closes after every response: each reconnect lists its
     * connection as ready again, and a stale entry must not send past the depth (it overflowed the
     * output buffer and ended the run early).
     */
    @Test
    void openLoopSurvivesAServerThatClosesEveryConnection() throws Exception {
        byte[] closing = ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nz")
                .getBytes(StandardCharsets.ISO_8859_1);
        try (StubHttpServer s = new StubHttpServer((n, p) -> closing)) {
            BenchReport r = bench("-c", "4", "-d", "4", "--rate", "2000", "-n", "600", "--duration", "30s", s.url("/"));
            assertEquals(600, r.sent, r.toText()); // the whole run, not cut short
            // requests pipelined behind a close are never answered, and are counted as lost: how
            // many depends on timing, but each connection's first request is answered, so at least
            // one in every depth (4) sent
            assertEquals(r.sent, r.completed + r.lost, r.toText());
            assertTrue(r.completed * 4 >= r.sent, r.toText());
        }
    }

    /** Open loop, a server silent at the end: what it holds up is charged, not left out. */
    @Test
    void openLoopChargesWhatIsUnansweredAtTheEnd() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> n < 50 ? StubHttpServer.ok("r") : StubHttpServer.SILENT)) {
            BenchReport r =
                    bench("-c", "1", "-d", "8", "--rate", "1000", "--timeout", "60s", "--duration", "1s", s.url("/"));
            assertEquals(50, r.completed, r.toText());
            // about 950 requests were due and never answered: each charged at least its wait so far
            long charged = r.latency.getTotalCount() - r.completed;
            assertTrue(charged > 500, "unanswered requests charged in the latency: " + charged);
            assertTrue(r.latency.getMaxValue() > 500_000_000L, "the longest wait: " + r.latency.getMaxValue());
            // and counted as what they were: 8 in flight unanswered, the rest due and never sent
            assertEquals(8, r.unansweredAtEnd, r.toText());
            assertEquals(charged, r.unansweredAtEnd + r.unsentAtEnd, r.toText());
            assertTrue(
                    r.toText().contains("  at end     8 unanswered, " + r.unsentAtEnd + " due but not sent"),
                    r.toText());
        }
    }

    /**
     * Open loop against a server slow to take its first connections: its accept queue is full when
     * the run begins, so the kernel drops the client's SYNs and the connects succeed only on their
     * retry, about a second later. The run's clock starts once they have: no request is intended
     * during the client's connect phase, so none is charged for it.
     */
    @Test
    void theConnectPhaseIsNotChargedToTheServer() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            List<java.net.Socket> queued = new ArrayList<>();
            io.tickwork.client.common.FullListener.fillAcceptQueue(at, queued);
            ExecutorService server = Executors.newCachedThreadPool();
            try {
                server.execute(() -> {
                    try {
                        // a server that starts accepting 300 ms late, after the client's first SYNs
                        takes(300_000_000L);
                        for (java.net.Socket f : queued) {
                            f.close();
                        }
                        while (true) {
                            java.net.Socket c = listener.accept();
                            server.execute(() -> answerEveryRequest(c));
                        }
                    } catch (IOException closed) {
                        // the listener closed: the test is over
                    }
                });
                BenchReport r = bench(
                        "-c",
                        "2",
                        "--rate",
                        "100",
                        "-n",
                        "50",
                        "--duration",
                        "30s",
                        "http://127.0.0.1:" + at.getPort() + "/");
                assertEquals(50, r.completed, r.toText());
                // had the schedule started before the connects, the requests intended in the
                // second before them would each have waited for it, most more than 300 ms
                assertTrue(r.percentileNanos(90) < 200_000_000L, r.toText());
                assertTrue(r.elapsedSeconds < 0.9, "the run's time holds no connect phase: " + r.toText());
            } finally {
                server.shutdownNow();
            }
        }
    }

    /** Answers each request on {@code c} (its blank line) with a one-byte 200, until the client closes. */
    private static void answerEveryRequest(java.net.Socket c) {
        try (c) {
            answer(c, Integer.MAX_VALUE);
        } catch (IOException ended) {
            // the client went away
        }
    }

    /** Answers up to {@code max} requests on {@code c} (each ends at its blank line) with a one-byte 200. */
    private static void answer(java.net.Socket c, int max) throws IOException {
        byte[] ok = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nk".getBytes(StandardCharsets.ISO_8859_1);
        var in = c.getInputStream();
        var out = c.getOutputStream();
        int matched = 0;
        int answered = 0;
        for (int b; answered < max && (b = in.read()) >= 0; ) {
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
            if (matched == 4) {
                out.write(ok);
                out.flush();
                matched = 0;
                answered++;
            }
        }
    }

    /** A server that stalls once, 300 ms, before answering request 20 on a connection. */
    private static StubHttpServer stallingServer() throws IOException {
        return new StubHttpServer((n, p) -> {
            if (n == 20) {
                takes(300_000_000L);
            }
            return StubHttpServer.ok("r");
        });
    }

    @Test
    void openLoopChargesAStalledServerForTheRequestsItDelayed() throws Exception {
        long over100ms;
        try (StubHttpServer s = stallingServer()) {
            BenchReport open = bench("-c", "1", "--rate", "1000", "-n", "400", "--duration", "30s", s.url("/"));
            assertEquals(400, open.completed);
            over100ms = open.latency.getCountBetweenValues(100_000_000L, LatencyRange.HIGHEST_NS);
            // by construction: every request intended during the first 200 ms of the stall waits
            // at least 100 ms past its intended time, about 200 of them
            assertTrue(over100ms >= 100, "open loop, requests over 100 ms: " + over100ms);
        }
        try (StubHttpServer s = stallingServer()) {
            BenchReport closed = bench("-c", "1", "-n", "400", "--duration", "30s", s.url("/"));
            assertEquals(400, closed.completed);
            long closedOver = closed.latency.getCountBetweenValues(100_000_000L, LatencyRange.HIGHEST_NS);
            // closed loop measures the same stall as a single slow request: coordinated omission
            assertTrue(
                    closedOver >= 1 && closedOver < over100ms / 10, "closed loop, requests over 100 ms: " + closedOver);
        }
    }

    /** A stub server acting out a slow answer: returns {@code nanos} from now, parked meanwhile. */
    private static void takes(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
        }
    }

    /** A server that stalls 1 s before the first answer on every connection. */
    private static StubHttpServer slowFirstServer() throws IOException {
        return new StubHttpServer((n, p) -> {
            if (n == 0) {
                takes(1_000_000_000L);
            }
            return StubHttpServer.ok("w");
        });
    }

    @Test
    void warmupIsRunButNotCounted() throws Exception {
        // without warm-up the first, stalled, requests are in the result: the control
        try (StubHttpServer s = slowFirstServer()) {
            BenchReport cold = bench("-c", "2", "-n", "300", "--duration", "30s", s.url("/"));
            assertEquals(300, cold.completed);
            assertTrue(cold.latency.getMaxValue() >= 990_000_000L, "cold max " + cold.latency.getMaxValue());
        }
        try (StubHttpServer s = slowFirstServer()) {
            Run run = Cli.run(
                    "bench", "-c", "2", "-n", "300", "--warmup", "2s", "--duration", "30s", "--json", s.url("/"));
            assertEquals(0, run.status(), run.err());
            JsonNode j = Cli.json(run.out());
            assertEquals(2.0, j.get("warmup_s").asDouble(), 1e-9);
            JsonNode req = j.get("requests");
            assertEquals(300, req.get("completed").asLong(), run.out());
            assertEquals(300, req.get("sent").asLong(), "the count starts after the warm-up");
            JsonNode lat = j.get("latency_us");
            assertEquals(300, lat.get("count").asLong());
            // a request that met the stall would take about 1 s: the bound leaves 900 ms for a late
            // thread or a pause
            assertTrue(lat.get("max").asDouble() < 900_000, "the stall was in the warm-up: " + lat);
            assertEquals(Cli.json("{\"200\":300}"), j.get("status"));
            assertEquals(0, j.get("sockets").get("connects").asLong(), "connections were opened in the warm-up");
            assertTrue(j.get("elapsed_s").asDouble() < 20, "elapsed is the measured phase: " + j);
            assertTrue(s.requests.get() > 300 + 2, "warm-up requests were sent: " + s.requests.get());
            assertEquals(2, s.connections.get(), "the same connections carry on after the warm-up");
            assertTrue(run.err().contains("s warmup "), "progress marks the warm-up: " + run.err());
        }
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("o"))) {
            BenchReport open = bench(
                    "-c", "4", "--rate", "2000", "-n", "300", "--warmup", "300ms", "--duration", "30s", s.url("/"));
            assertEquals(300, open.sent);
            assertEquals(300, open.completed);
            assertEquals(300, open.latency.getTotalCount());
            // 600 at the rate; a sixth of them leaves room for a slow machine, none would mean no warm-up
            assertTrue(s.requests.get() >= 300 + 100, "open loop warmed up at the rate: " + s.requests.get());
        }
    }

    /** A server that answers each request 50 ms after it arrives: 20 a second per connection. */
    private static StubHttpServer fiftyMillisecondServer() throws IOException {
        return new StubHttpServer((n, p) -> {
            takes(50_000_000L);
            return StubHttpServer.ok("s");
        });
    }

    /**
     * Open loop past the server's pace, with a warm-up: the backlog the warm-up leaves (180 of its
     * 200 requests) is sent after it but belongs to it, so no measured latency is older than the
     * measured phase, and the requests intended in that phase, which the backlog kept from going
     * out, are charged as unsent at the end.
     */
    @Test
    void openLoopChargesTheWarmUpsBacklogToTheWarmUp() throws Exception {
        try (StubHttpServer s = fiftyMillisecondServer()) {
            BenchReport r = bench("-c", "1", "--rate", "200", "--warmup", "1s", "--duration", "1s", s.url("/"));
            assertEquals(0, r.sent, "every send of the measured phase was of the warm-up's backlog: " + r.toText());
            assertTrue(r.unsentAtEnd >= 150, r.toText());
            long bound = (long) (r.elapsedSeconds * 1e9) + 200_000_000L; // a late turn at the end
            assertTrue(r.latency.getMaxValue() <= bound, "charged from before the measured phase: " + r.toText());
            Run run = Cli.run("bench", "-c", "1", "--rate", "200", "--warmup", "1s", "--duration", "1s", s.url("/"));
            assertEquals(1, run.status(), "nothing measured was answered: " + run.err());
            assertTrue(run.err().contains("requests intended in it were never sent"), run.err());
        }
    }

    /**
     * A run stopped early (a signal) charges what it owes as at its end: the requests in flight
     * and, in open loop, those due but not sent.
     */
    @Test
    void aRunStoppedEarlyChargesWhatItOwes() throws Exception {
        try (StubHttpServer s = fiftyMillisecondServer()) {
            Bench bench = new Bench(config("-c", "2", "--rate", "200", "--duration", "60s", s.url("/")));
            ExecutorService runner = Executors.newSingleThreadExecutor();
            try {
                var result = runner.submit(() -> bench.run(null));
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (s.requests.get() < 10 && System.nanoTime() < deadline) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // until the run is under way
                }
                bench.stop();
                BenchReport r = result.get();
                assertTrue(r.unsentAtEnd > 0, "the backlog is charged: " + r.toText());
                assertTrue(r.unansweredAtEnd > 0, "the requests in flight are charged: " + r.toText());
                assertEquals(r.completed + r.unansweredAtEnd + r.unsentAtEnd, r.latency.getTotalCount(), r.toText());
            } finally {
                runner.shutdownNow();
            }
        }
    }

    @Test
    void jsonShapeForScripts() throws Exception {
        try (StubHttpServer s = new StubHttpServer((n, p) -> StubHttpServer.ok("json"))) {
            java.nio.file.Path hgrm = java.nio.file.Files.createTempFile("latency", ".hgrm");
            Run run = Cli.run("bench", "-c", "2", "-n", "50", "--json", "--hgrm", hgrm.toString(), s.url("/j"));
            String dist = java.nio.file.Files.readString(hgrm);
            java.nio.file.Files.delete(hgrm);
            assertTrue(dist.contains("Percentile") && dist.contains("#[Max"), dist);
            assertEquals(0, run.status(), run.err());
            JsonNode j = Cli.json(run.out());
            for (String k : List.of(
                    "tool",
                    "target",
                    "connections",
                    "depth",
                    "threads",
                    "mode",
                    "rate",
                    "elapsed_s",
                    "requests",
                    "bytes",
                    "latency_us",
                    "status",
                    "errors",
                    "sockets",
                    "at_end")) {
                assertTrue(j.has(k), "missing " + k + " in " + run.out());
            }
            assertEquals(50, j.get("requests").get("completed").asLong());
            assertEquals("requests", j.get("ended_by").asText());
            JsonNode lat = j.get("latency_us");
            for (String k : List.of("p50", "p90", "p99", "p99_9", "max", "mean", "count")) {
                assertTrue(lat.has(k) && lat.get(k).isNumber(), "missing latency " + k);
            }
            assertTrue(lat.get("p50").asDouble() <= lat.get("p99").asDouble());
            assertTrue(lat.get("p99").asDouble() <= lat.get("max").asDouble());
            assertEquals(Cli.json("{\"200\":50}"), j.get("status"));
            JsonNode err = j.get("errors");
            for (String k :
                    List.of("total", "connect", "connect_by_cause", "timeout", "non2xx", "parse", "closed", "io")) {
                assertTrue(err.has(k), "missing error kind " + k);
            }
            assertTrue(
                    run.err().startsWith("bench ") && !run.out().contains("closed loop"),
                    "progress goes to stderr with --json");
        }
    }

    @Test
    void againstTheJdkHttpServer() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        server.setExecutor(pool);
        server.createContext("/", ex -> {
            byte[] b = ("you asked for " + ex.getRequestURI()).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
        try {
            Run run = Cli.run(
                    "bench",
                    "-c",
                    "4",
                    "-n",
                    "400",
                    "--words",
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/d/");
            assertEquals(0, run.status(), run.err());
            assertTrue(run.out().contains("400 completed"), run.out());
            assertTrue(run.out().contains("200: 400"), run.out());
            assertTrue(run.out().contains("p99.9"), run.out());
        } finally {
            server.stop(0);
            pool.shutdownNow();
        }
    }

    @Test
    void badCommandLinesExitTwoWithTheValue() {
        Run r = Cli.run("bench", "-c", "0", "http://127.0.0.1:1/");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--connections") && r.err().contains(": 0"), r.err());
        r = Cli.run("bench", "http://no-such-host.invalid/");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("does not resolve") && r.err().contains("no-such-host.invalid"), r.err());
        r = Cli.run("bench", "--help");
        assertEquals(0, r.status());
        assertTrue(
                r.out().contains("--depth")
                        && r.out().contains("--rate")
                        && r.out().contains("--warmup"),
                r.out());
        r = Cli.run("nonsense");
        assertEquals(2, r.status());
        Cli.assertNoStackTrace(r);
        r = Cli.run("bench", "-c", "1.5", "http://127.0.0.1:1/");
        assertEquals(2, r.status(), "a fraction of a connection: " + r.err());
        r = Cli.run("bench", "http://127.0.0.1:0/");
        assertEquals(2, r.status(), "port 0: " + r.err());
        r = Cli.run("bench", "--word-file", "words.txt", "http://127.0.0.1:1/d/");
        assertEquals(2, r.status(), "--word-file alone: " + r.err());
        assertTrue(r.err().contains("--word-file gives the words --words appends: add --words"), r.err());
    }

    /**
     * A URL or word file that cannot serve is refused (exit 2) saying why: missing, not text, or
     * endless; and the exit statuses are in the help.
     */
    @Test
    void aFileThatCannotServeIsRefusedSayingWhy(@TempDir Path dir) throws IOException {
        Run r = Cli.run("bench", "--urls", dir.resolve("nosuch.txt").toString(), "http://127.0.0.1:1/");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--urls: no such file: "), r.err());
        Path binary = dir.resolve("binary");
        Files.write(binary, new byte[] {'/', 'a', (byte) 0xC3, (byte) 0x28, '\n'});
        r = Cli.run("bench", "--words", "--word-file", binary.toString(), "http://127.0.0.1:1/d/");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains(binary + " is not UTF-8 text"), r.err());
        r = Cli.run("bench", "--urls", "/dev/zero", "http://127.0.0.1:1/");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--urls: /dev/zero is larger than 64 MiB"), r.err());
        Cli.assertNoStackTrace(r);
        for (String command : new String[] {"bench", "idle"}) {
            String help = Cli.run(command, "--help").out().replaceAll("\\s+", " ");
            assertTrue(help.contains("Exit status: 0 ") && help.contains("130, 143"), command + ": " + help);
        }
    }

    /** Buffers that would not fit half the heap are refused up front, with the figures. */
    @Test
    void buffersThatCannotFitTheHeapAreRefusedUpFront() {
        List<byte[]> one = List.of(new byte[60]);
        BenchCommand.checkBuffers(64, 16, one, 1L << 30); // 64 x 16 x 77 bytes: fits
        UsageException e =
                assertThrows(UsageException.class, () -> BenchCommand.checkBuffers(19_000, 10_000, one, 1L << 30));
        assertTrue(
                e.getMessage()
                        .startsWith("--connections 19000 with --depth 10000 of requests up to 60 bytes need 13952"
                                + " MiB of buffers, more than half of this JVM's heap (1024 MiB)"),
                e.getMessage());
    }

    /**
     * The open loop's floor counts the threads that run, at most one per connection: more
     * threads than connections do not raise it.
     */
    @Test
    void theRateFloorCountsOnlyTheThreadsThatRun() {
        String url = "http://127.0.0.1:8080/";
        BenchConfig c = config("-t", "8", "-c", "2", "--rate", "2", "-D", "1s", url);
        assertEquals(2.0, c.rate());
        UsageException e = assertThrows(
                UsageException.class, () -> config("-t", "8", "-c", "2", "--rate", "1.5", "-D", "1s", url));
        assertTrue(e.getMessage().contains("each of the 2 threads less than one request"), e.getMessage());
    }

    /** More requests than are held at once are refused before a line is encoded, with the count. */
    @Test
    void moreTargetsThanAreHeldAtOnceAreRefused(@TempDir Path dir) throws IOException {
        Path urls = dir.resolve("urls.txt");
        Files.write(urls, List.of("/a/", "/b/"));
        List<String> words = new ArrayList<>(BenchCommand.MAX_TARGETS / 2 + 1);
        for (int i = 0; i <= BenchCommand.MAX_TARGETS / 2; i++) {
            words.add("w" + i);
        }
        Path wordFile = dir.resolve("words.txt");
        Files.write(wordFile, words);
        String base = "http://127.0.0.1:8080/";
        UsageException e = assertThrows(
                UsageException.class,
                () -> config("--urls", urls.toString(), "--words", "--word-file", wordFile.toString(), base));
        assertTrue(
                e.getMessage().startsWith("--words gives 2 URLs x 500001 words = 1000002 requests, more than 1000000"),
                e.getMessage());
        words.remove(words.size() - 1); // 2 x 500,000: exactly the cap
        Files.write(wordFile, words);
        assertEquals(
                BenchCommand.MAX_TARGETS,
                config("--urls", urls.toString(), "--words", "--word-file", wordFile.toString(), base)
                        .requests()
                        .size());
        List<String> lines = new ArrayList<>(BenchCommand.MAX_TARGETS + 1);
        for (int i = 0; i <= BenchCommand.MAX_TARGETS; i++) {
            lines.add("/" + i);
        }
        Files.write(urls, lines);
        e = assertThrows(UsageException.class, () -> config("--urls", urls.toString(), base));
        assertTrue(e.getMessage().endsWith("has more than 1000000 lines, more than a run holds"), e.getMessage());
    }
}
