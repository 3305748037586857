package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A timeout that falls due while its loop is busy (a slow handler on the loop) fires as soon as the
 * loop is free again: the loop's wait for the next deadline is measured from when it is free, not
 * from when the busy turn began.
 */
@Timeout(60)
class BusyLoopTimeoutTest {

    @Test
    void anIdleTimeoutDueWhileTheLoopWasBusyFiresWhenTheLoopIsFree() throws Exception {
        long busyMillis = 2_000;
        HttpHandler handler = (req, res) -> {
            if (req.path().equals("/busy")) {
                long end = System.nanoTime() + busyMillis * 1_000_000;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait(); // the loop's own thread, held for two idle timeouts
                }
            }
            res.contentType(ContentType.TEXT).appendAscii("ok");
        };
        try (HttpServer server = HttpServer.builder(handler)
                        .threads(1)
                        .port(0)
                        .idleTimeout(Duration.ofMillis(1_000))
                        .start();
                RawClient idle = new RawClient(server.port(), 20_000);
                RawClient busy = new RawClient(server.port(), 20_000)) {
            idle.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(200, idle.read().status());
            long idleSince = System.nanoTime(); // its idle timeout is due about 1 s from here
            busy.send("GET /busy HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(idle.closedByServerEventually(), "the idle connection was never closed");
            long closedAfter = (System.nanoTime() - idleSince) / 1_000_000;
            // the loop is free about 2 s after idleSince; waiting out its last select's full
            // timeout again (about 1 s, measured from the busy turn's start) would close it near 3 s
            assertTrue(closedAfter < busyMillis + 600, "closed after " + closedAfter + " ms");
            assertEquals(200, busy.read().status());
        }
    }
}
