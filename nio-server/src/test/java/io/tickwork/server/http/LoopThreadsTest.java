package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The loop threads, as a thread dump shows them: named after their server's port, so that two
 * servers in one JVM (or a server beside a scheduler's loops) are told apart, and not daemons,
 * so a started server keeps the JVM alive until {@code close()}, which ends them.
 */
@Timeout(60)
class LoopThreadsTest {

    @Test
    void loopThreadsNameTheirServersPortAndLiveUntilClose() throws Exception {
        HttpServer a = HttpServer.builder((req, res) -> res.appendAscii("a"))
                .threads(2)
                .port(0)
                .start();
        HttpServer b = HttpServer.builder((req, res) -> res.appendAscii("b"))
                .threads(1)
                .port(0)
                .start();
        List<Thread> ofA;
        try {
            ofA = loops(a);
            assertEquals(
                    List.of("tickwork-http-" + a.port() + "-loop-0", "tickwork-http-" + a.port() + "-loop-1"),
                    ofA.stream().map(Thread::getName).sorted().collect(Collectors.toList()));
            assertEquals(
                    List.of("tickwork-http-" + b.port() + "-loop-0"),
                    loops(b).stream().map(Thread::getName).collect(Collectors.toList()));
            for (Thread t : ofA) {
                assertFalse(t.isDaemon(), t.getName() + " is a daemon");
            }
        } finally {
            a.close();
            b.close();
        }
        for (Thread t : ofA) {
            t.join(10_000); // close() returns as the loop's last step ends, just before the thread
            assertFalse(t.isAlive(), t.getName() + " outlived close()");
        }
    }

    private static List<Thread> loops(HttpServer s) {
        String prefix = "tickwork-http-" + s.port() + "-loop-";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix))
                .collect(Collectors.toList());
    }
}
