package io.tickwork.client.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tickwork.client.LoadTool;
import io.tickwork.server.LaunchedServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code idle --processes} against the dictionary server's {@code --processes}: both sides as real
 * processes, the clients' merged report checked against the workers' own counters.
 */
@Timeout(120)
class IdleFleetAgainstWorkersTest {
    private static final long BOUND_SECONDS = LaunchedServer.BOUND_SECONDS;

    private LaunchedServer launched;

    @AfterEach
    void cleanUp() {
        if (launched != null) {
            launched.close();
        }
    }

    /**
     * The two halves of the many-process setup together, at a small scale: {@code idle --processes
     * 3} holds 300 connections against {@code --processes 3}; the clients' report and the
     * workers' own counters agree, and the server's memory is measured over all three pids.
     */
    @Test
    void idleClientProcessesHoldConnectionsAcrossTheWorkers() throws Exception {
        launched = new LaunchedServer(3);
        launched.awaitStart(3);
        int n = 300;
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process idle = new ProcessBuilder(
                        java,
                        "-Xmx64m",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        LoadTool.class.getName(),
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
}
