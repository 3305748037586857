package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A loop's budget for request bytes held between reads: clients that each send all but the end of
 * a large request head cannot make it hold more than its budget (those past it are closed), while
 * a client whose request arrives whole is still answered; every byte is counted back once its
 * connection lets it go.
 */
@Timeout(60)
class HeldInputBudgetTest {
    private static final long BUDGET = 64 * 1024;

    /** A request head of about 12 KiB whose end never comes. */
    private static String partialHead() {
        return "GET /x HTTP/1.1\r\nHost: t\r\nX-Pad: " + "a".repeat(12 * 1024) + "\r\n";
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void partialRequestsCannotHoldMoreThanTheBudget(boolean onWorkers) throws Exception {
        ExecutorService pool = onWorkers ? Executors.newFixedThreadPool(2) : null;
        HttpServer.Builder b = HttpServer.builder(
                        (req, res) -> res.contentType(ContentType.TEXT).appendAscii("ok"))
                .threads(1)
                .port(0)
                .headerTimeout(Duration.ofSeconds(30))
                .maxHeldInput(BUDGET);
        if (onWorkers) {
            b.workers(pool);
        }
        HttpServer server = b.start();
        List<RawClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) { // 12 × 12 KiB: more than twice the budget
                clients.add(new RawClient(server.port()).send(partialHead()));
            }
            // a request that arrives whole is read, answered and never held
            try (RawClient whole = new RawClient(server.port())) {
                whole.send("GET /y HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals("ok", whole.read().text());
            }
            // the loop reads each partial head as it comes: those past the budget are closed
            long mustClose = 12 - BUDGET / (12 * 1024);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (server.inputShedConnections() < mustClose) {
                assertTrue(
                        System.nanoTime() < deadline, server.inputShedConnections() + " closed, " + mustClose + " due");
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            assertTrue(
                    server.maxHeldInputBytes() <= BUDGET,
                    "held " + server.maxHeldInputBytes() + " bytes, budget " + BUDGET);
            assertTrue(server.maxHeldInputBytes() > BUDGET / 2, "held " + server.maxHeldInputBytes());
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
            server.close();
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        assertEquals(0, server.heldInputBytes());
    }

    /** The default budget holds at least four connections' worth at the parser's limits. */
    @Test
    void theDefaultBudgetHoldsSeveralLargePartialRequests() {
        HttpServer.Config config = new HttpServer.Config();
        assertTrue(config.heldInputBudget(32 * 1024) >= 8 * 32 * 1024);
    }

    /**
     * Budgets whose sum over the loops passes half the heap (many loops' floors on a small heap, or
     * budgets set that large) are named at the start; the default ones are not.
     */
    @Test
    void budgetsOverHalfTheHeapAreWarnedOfAtTheStart() throws Exception {
        long heap = Runtime.getRuntime().maxMemory();
        for (boolean large : new boolean[] {false, true}) {
            List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
            HttpServer.Builder b = HttpServer.builder((req, res) -> res.appendAscii("ok"))
                    .port(0)
                    .threads(2)
                    .log(log::add);
            if (large) {
                b.maxHeldOutput(heap / 4 + 1); // two loops: just over half the heap
            }
            HttpServer server = b.start();
            server.close();
            List<String> warnings = log.stream()
                    .filter(l -> l.startsWith("warning: 2 loop(s) may hold"))
                    .toList();
            assertEquals(large ? 1 : 0, warnings.size(), () -> "large " + large + ": " + log);
        }
    }
}
