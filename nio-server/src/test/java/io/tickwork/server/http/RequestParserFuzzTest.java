package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The request parser under Jazzer, a coverage-guided fuzzer: whatever bytes arrive, at whatever
 * offset, {@link RequestParser#parse} ends in a request (its length, within the bytes given), a
 * "need more bytes" that never asks to hold more than {@link RequestParser#maxPending()} from the
 * request line on (the loop drops the empty lines before it), or an
 * error with a 4xx or 5xx status and a reason; it never throws and never hangs (Jazzer reports a
 * run over its time limit). An accepted request is self-delimited: parsing exactly its bytes
 * gives the same length.
 *
 * <p>Under {@code ./mvnw verify} the test runs once per input kept in its corpus (regression
 * mode); with {@code JAZZER_FUZZ=1} it fuzzes for {@code maxDuration}, which the build does in a
 * surefire execution of its own.
 */
class RequestParserFuzzTest {

    private static final RequestParser PARSER = new RequestParser(1024, 4096, 20, 1000);

    @FuzzTest(maxDuration = "45s")
    void everyInputEndsInARequestNeedMoreOrAnError(FuzzedDataProvider data) {
        int start = data.consumeInt(0, 8);
        byte[] bytes = data.consumeRemainingAsBytes();
        byte[] b = new byte[start + bytes.length];
        System.arraycopy(bytes, 0, b, start, bytes.length);
        int end = b.length;
        HttpRequest r = new HttpRequest();
        int n = PARSER.parse(b, start, end, r);
        if (n > 0) {
            assertTrue(n <= end - start, "consumed more than given: " + n);
            assertEquals(0, r.errorStatus);
            HttpRequest again = new HttpRequest();
            assertEquals(n, PARSER.parse(b, start, start + n, again), "a request is self-delimited");
        } else if (n == RequestParser.NEED_MORE) {
            int line = start;
            while (line < end && (b[line] == '\r' || b[line] == '\n')) {
                line++;
            }
            assertTrue(end - line < PARSER.maxPending(), "waits for more while holding " + (end - line));
        } else {
            assertEquals(RequestParser.ERROR, n);
            assertTrue(r.errorStatus >= 400 && r.errorStatus < 600, "status " + r.errorStatus);
            assertNotNull(r.errorDetail);
        }
    }
}
