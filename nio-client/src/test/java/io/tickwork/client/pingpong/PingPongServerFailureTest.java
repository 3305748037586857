package io.tickwork.client.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A ping-pong server that cannot accept a connection (here for want of descriptors: it runs under
 * {@code prlimit --nofile=200}, and 300 clients connect) does not drop it silently: the run ends
 * with an error naming the server's failure and exit status 1.
 */
@Timeout(120)
class PingPongServerFailureTest {

    @ParameterizedTest
    @ValueSource(strings = {"nio", "threads"})
    void aServerThatCannotAcceptReportsItAndExitsOne(String model) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "needs prlimit (util-linux)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        "/usr/bin/prlimit",
                        "--nofile=200:200",
                        java,
                        "-Xmx64m",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "io.tickwork.client.LoadTool",
                        "pingpong",
                        "server",
                        "-m",
                        model,
                        "-D",
                        "20s") // ended early by the failure: the bound only stops a server that never fails
                .redirectErrorStream(true)
                .start();
        List<Socket> many = new ArrayList<>();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            // the line naming the address; a JVM warning may come before it
            Pattern listening = Pattern.compile(".*127\\.0\\.0\\.1:(\\d+) .*");
            StringBuilder before = new StringBuilder();
            Matcher m = null;
            for (String line; (line = r.readLine()) != null && before.length() < 10_000; ) {
                Matcher candidate = listening.matcher(line);
                if (candidate.matches()) {
                    m = candidate;
                    break;
                }
                before.append(line).append('\n');
            }
            assertTrue(m != null, "no address announced:\n" + before);
            int port = Integer.parseInt(m.group(1));
            // one round trip and close first: the JDK needs a descriptor for the first close a
            // process makes (it sets up its socket closing then), which a run always has made
            try (Socket first = new Socket("127.0.0.1", port)) {
                first.setSoTimeout(10_000);
                first.getOutputStream().write("Ping".getBytes(StandardCharsets.US_ASCII));
                assertEquals("Pong", new String(first.getInputStream().readNBytes(4), StandardCharsets.US_ASCII));
                first.shutdownOutput();
                assertEquals(-1, first.getInputStream().read(), "the server closes at the end of stream");
            }
            try {
                for (int i = 0; i < 300; i++) {
                    many.add(new Socket("127.0.0.1", port)); // the backlog takes them; accept runs out of descriptors
                }
            } catch (java.net.ConnectException refused) {
                // the server failed already and closed its listening socket
            }
            StringBuilder rest = new StringBuilder();
            for (String l; (l = r.readLine()) != null; ) {
                rest.append(l).append('\n');
            }
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            String out = rest.toString();
            assertTrue(out.contains("the " + model + " server failed during the run"), out);
            assertTrue(out.contains("Too many open files"), out);
            assertEquals(1, p.exitValue(), out);
        } finally {
            for (Socket s : many) {
                s.close();
            }
            p.destroyForcibly();
        }
    }
}
