package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Chunked request bodies: where each ends, what is refused, and that any split of the same bytes
 * over reads gives the same answer, with the request parsed again once per head line and once
 * when the body ends, never once per chunk.
 */
class ChunkedBodyTest {
    private static final int MAX_BODY = 1000;
    private final RequestParser parser = new RequestParser(1024, 4096, 20, MAX_BODY);
    private final HttpRequest r = new HttpRequest();

    private static final String HEAD = "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
    private static final String NEXT = "GET /next HTTP/1.1\r\nHost: a\r\n\r\n";

    private static byte[] bytes(String s) {
        return s.replace("\\r", "\r").replace("\\n", "\n").replace("\\t", "\t").getBytes(StandardCharsets.ISO_8859_1);
    }

    private int parse(byte[] b, int end) {
        return parser.parse(b, 0, end, r);
    }

    /** What one parse of the whole bytes answers: the request's length, or minus its error status. */
    private int whole(byte[] b) {
        int n = parse(b, b.length);
        return n == RequestParser.ERROR ? -r.errorStatus : n;
    }

    /**
     * The same bytes arriving in reads of {@code step} bytes, through the loop's path: a parse
     * when the pending bytes say it is due ({@link PendingInput#parseDue}), else the read is
     * appended. Returns the answer as {@link #whole} does, and counts the parses in {@code parses[0]}.
     */
    private int inReads(byte[] b, int step, int[] parses) {
        PendingInput pending = null;
        int len = 0;
        while (len < b.length) {
            int n = Math.min(step, b.length - len);
            if (pending != null && !pending.parseDue(b, len, n)) {
                pending.append(b, len, n, 2 * pending.bytes.length);
                len += n;
                continue;
            }
            len += n;
            parses[0]++;
            int got = parse(b, len);
            if (got == RequestParser.ERROR) {
                return -r.errorStatus;
            }
            if (got > 0) {
                return got;
            }
            pending = new PendingInput(b, 0, len);
            pending.parseAgainAt(r.parseAgainAt, r.parseAgainOnLineFeed, r.chunks);
        }
        return RequestParser.NEED_MORE;
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0\\r\\n\\r\\n | 0",
                "3\\r\\nabc\\r\\n0\\r\\n\\r\\n | 3",
                "A\\r\\n0123456789\\r\\n1\\r\\nx\\r\\n0\\r\\n\\r\\n | 11",
                "0003\\r\\nabc\\r\\n000\\r\\n\\r\\n | 3",
                "3;name=value;q=\"a b\"\\r\\nabc\\r\\n0 ; last\\r\\n\\r\\n | 3",
                "3\\t \\t;x\\r\\nabc\\r\\n0\\r\\n\\r\\n | 3",
                "3 ;a = b ; c\\t;d=\"x\\\"y\" ;e\\r\\nabc\\r\\n0\\r\\n\\r\\n | 3",
                "2\\r\\n\\r\\n\\r\\n0\\r\\nTrailer-One: 1\\r\\nX:\\r\\n\\r\\n | 2",
                "f\\r\\n\u00ff\u0080 0\\r\\n;:\\t\\r\\n\\r\\nxy\\r\\n0\\r\\nX: obs \u00e9\\t\\r\\n\\r\\n | 15",
            })
    void aChunkedBodyEndsWhereItsFramingSaysInOneReadOrMany(String body, long data) {
        byte[] b = bytes(HEAD + body + NEXT);
        int length = HEAD.length() + bytes(body).length;
        assertEquals(length, whole(b));
        assertEquals(data, r.contentLength);
        assertTrue(r.keepAlive());
        for (int step : new int[] {1, 2, 3, 7, 64}) {
            int[] parses = {0};
            assertEquals(length, inReads(b, step, parses), "reads of " + step);
        }
        for (int k = 0; k < length; k++) {
            assertEquals(RequestParser.NEED_MORE, parse(b, k), "the first " + k + " bytes");
        }
        assertEquals(length, parser.parse(b, 0, length, new HttpRequest()), "self-delimited");
    }

    @Test
    void aHeadOfBareLineFeedsFramesItsBodyWithBareLineFeeds() {
        String head = "POST /x HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n";
        String body = "3\nabc\n0\nX: y\n\n";
        byte[] b = bytes(head + body + "GET / HTTP/1.1\nHost: a\n\n");
        assertEquals(head.length() + body.length(), whole(b));
        assertEquals(-400, whole(bytes(head + "3\r\nabc\n0\n\n")), "a CRLF in a body after a head of bare LFs");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "x\\r\\n | 400",
                "\\r\\n | 400",
                "' 3\\r\\nabc\\r\\n0\\r\\n\\r\\n' | 400",
                "+3\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "0x3\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "3 x\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "3\\r\\nabcd\\r\\n0\\r\\n\\r\\n | 400",
                "3\\r\\nab\\r\\n0\\r\\n\\r\\n | 400",
                "3\\nabc\\n0\\n\\n | 400",
                "3\\r\\nabc\\n0\\r\\n\\r\\n | 400",
                "3\\rabc\\r\\n0\\r\\n\\r\\n | 400",
                "3\\r\\nabc\\r\\n0\\r\\n\\r\\r\\n | 400",
                "3;a=\u0001\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "'3 \\r\\nabc\\r\\n0\\r\\n\\r\\n' | 400",
                "3;\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "3;;x\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "3;=x\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "3;a=\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "3;a=\"x\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "3;a=\"x\"y\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "3;\\\\\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "'3;a \\r\\nabc\\r\\n0\\r\\n\\r\\n' | 400",
                "'3;a=b \\r\\nabc\\r\\n0\\r\\n\\r\\n' | 400",
                "3;a=b,c\\r\\nabc\\r\\n0\\r\\n\\r\\n | 400",
                "0\\r\\nX : y\\r\\n\\r\\n | 400",
                "0\\r\\n y\\r\\n\\r\\n | 400",
                "0\\r\\nX\\r\\n\\r\\n | 400",
                "0\\r\\n: y\\r\\n\\r\\n | 400",
                "0\\r\\nX: a\u0000b\\r\\n\\r\\n | 400",
                "0\\r\\nX: a\u007fb\\r\\n\\r\\n | 400",
                "3e9\\r\\n | 413",
                "ffffffffffffffffffffffffffffffff\\r\\n | 413",
            })
    void malformedOrOversizedFramingIsRefusedHoweverItArrives(String body, int status) {
        byte[] b = bytes(HEAD + body);
        assertEquals(-status, whole(b), "in one read");
        assertFalse(r.keepAlive);
        for (int step : new int[] {1, 2, 5}) {
            assertEquals(-status, inReads(b, step, new int[1]), "reads of " + step);
        }
    }

    /** The body as sent, framing included, may take exactly {@code maxBody} bytes, not one more. */
    @Test
    void theLimitCountsTheBodyAsSent() {
        String exact = "3dc\r\n" + "d".repeat(0x3dc) + "\r\n0\r\n\r\n";
        assertEquals(MAX_BODY, exact.length());
        assertEquals(HEAD.length() + MAX_BODY, whole(bytes(HEAD + exact)));
        assertEquals(0x3dc, r.contentLength);
        String over = "3dd\r\n" + "d".repeat(0x3dd) + "\r\n0\r\n\r\n";
        assertEquals(-413, whole(bytes(HEAD + over)));
        // small chunks: each byte of data costs six as sent
        String small = "1\r\na\r\n".repeat(200) + "0\r\n\r\n";
        assertEquals(-413, whole(bytes(HEAD + small)));
        assertEquals(-413, inReads(bytes(HEAD + small), 1, new int[1]));
        // cut short of its end at the limit: refused then, not held for more
        String unended = "1\r\na\r\n".repeat(166) + "0\r\n\r";
        assertEquals(MAX_BODY, unended.length());
        byte[] cut = bytes(HEAD + unended);
        assertEquals(-413, whole(cut));
        assertEquals(
                RequestParser.NEED_MORE,
                parse(cut, cut.length - 1),
                "one byte short of the limit, the body may still end");
    }

    /**
     * A body of 100 one-byte chunks, a byte per read: parsed as often as its head alone, and once
     * more at the body's end, so the server's work follows the bytes received, not bytes times chunks.
     */
    @Test
    void aBodyArrivingAByteAtATimeIsParsedOnceWhenItEnds() {
        String body = "1;e\r\nz\r\n".repeat(100) + "0\r\nT: v\r\n\r\n";
        byte[] b = bytes(HEAD + body);
        int[] parses = {0};
        assertEquals(b.length, inReads(b, 1, parses));
        assertEquals(100, r.contentLength);
        int[] headParses = {0};
        assertEquals(RequestParser.NEED_MORE, inReads(bytes(HEAD), 1, headParses));
        assertEquals(headParses[0] + 1, parses[0], "one parse for the whole body");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Transfer-Encoding: Chunked | 0",
                "Transfer-Encoding: ,chunked, | 0",
                "Transfer-Encoding: chunked, chunked | 400",
                "Transfer-Encoding: chunked\\r\\nTransfer-Encoding: chunked | 400",
                "Transfer-Encoding: gzip, chunked | 501",
                "Transfer-Encoding: gzip\\r\\nTransfer-Encoding: chunked | 501",
                "Transfer-Encoding: chunked\\r\\nContent-Length: 5 | 400",
            })
    void onlyChunkedAloneFramesABody(String fields, int status) {
        String head = "POST /x HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n\r\n";
        byte[] b = bytes(head + "0\r\n\r\n");
        int got = whole(b);
        assertEquals(status == 0 ? b.length : -status, got, r.errorDetail);
    }

    @Test
    void expectContinueIsFlaggedUntilTheChunkedBodyHasEnded() {
        String head = "POST /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n";
        byte[] b = bytes(head + "3\r\nabc\r\n");
        assertEquals(RequestParser.NEED_MORE, parse(b, b.length));
        assertTrue(r.expectContinue);
        assertNotNull(r.chunks);
        byte[] done = bytes(head + "3\r\nabc\r\n0\r\n\r\n");
        assertEquals(done.length, parse(done, done.length));
        assertFalse(r.expectContinue);
    }

    /** A body fed after it ended, or after it was refused, answers the same again. */
    @Test
    void aFinishedBodyKeepsItsAnswer() {
        ChunkedBody ended = new ChunkedBody(MAX_BODY, false);
        byte[] b = bytes("0\r\n\r\nGET");
        assertEquals(5, ended.feed(b, 0, b.length));
        assertEquals(7, ended.feed(b, 7, b.length));
        ChunkedBody refused = new ChunkedBody(MAX_BODY, false);
        assertEquals(ChunkedBody.ERROR, refused.feed(b, 5, b.length));
        assertEquals(ChunkedBody.ERROR, refused.feed(b, 0, b.length));
        assertEquals(400, refused.errorStatus);
    }
}
