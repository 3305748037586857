package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.ForwardingTimerQueue;
import io.tickwork.primitives.timer.TimerKind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A selector loop whose own machinery fails (here its timer queue throws an {@code Error}) stops
 * the whole server, reporting the failure once: no port is left accepting connections that no
 * loop will answer.
 */
@Timeout(60)
class LoopFailureTest {

    /** A loop's timer queue that throws {@code failure} from {@code nextDeadline}, asked every turn, once {@code armed}. */
    private static final class FailingTimers extends ForwardingTimerQueue<Object> {
        final AtomicBoolean armed;
        final Error failure;

        FailingTimers(AtomicBoolean armed, Error failure) {
            super(HttpServer.loopTimers(TimerKind.WHEEL_LIST, 60_000));
            this.armed = armed;
            this.failure = failure;
        }

        @Override
        public long nextDeadline() {
            if (armed.get()) {
                throw failure;
            }
            return inner.nextDeadline();
        }
    }

    @Test
    void aLoopWhoseMachineryFailsStopsTheServer() throws Exception {
        AtomicBoolean armed = new AtomicBoolean();
        Error failure = new Error("the loop's timer queue broke");
        CompletableFuture<Throwable> reported = new CompletableFuture<>();
        HttpServer server = HttpServer.builder((req, res) -> res.appendAscii("ok"))
                .threads(1)
                .port(0)
                .timers(() -> new FailingTimers(armed, failure))
                .onFailure(reported::complete)
                .log(line -> {})
                .start();
        try {
            int port = server.port();
            try (RawClient c = new RawClient(port)) {
                c.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals("ok", c.read().text());
                armed.set(true);
                c.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n"); // wakes the loop: its timer queue throws
                assertSame(failure, reported.get(20, TimeUnit.SECONDS));
                assertTrue(c.closedByServerEventually(), "the failed loop's connection is closed");
            }
            boolean refused = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!refused && System.nanoTime() < deadline) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
                    s.setSoTimeout(200);
                    s.getInputStream().read(); // accepted into the backlog: the close resets it
                } catch (ConnectException e) {
                    refused = true;
                } catch (IOException raced) {
                    // reset, or nothing answered within the read timeout: look again
                }
            }
            assertTrue(refused, "the port still accepts connections after its only loop failed");
        } finally {
            server.close();
        }
    }
}
