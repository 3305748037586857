package io.tickwork.client.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ResponseParserTest {

    /** status, close, bodyBytes of each response completed while feeding the chunks. */
    private static List<long[]> feed(ResponseParser p, List<byte[]> chunks, boolean eof)
            throws ResponseParser.ParseException {
        List<long[]> out = new ArrayList<>();
        for (byte[] c : chunks) {
            ByteBuffer b = ByteBuffer.wrap(c);
            while (b.hasRemaining()) {
                if (p.parse(b)) {
                    out.add(new long[] {p.status(), p.close() ? 1 : 0, p.bodyBytes()});
                }
            }
        }
        if (eof && p.endOfInput()) {
            out.add(new long[] {p.status(), p.close() ? 1 : 0, p.bodyBytes()});
        }
        return out;
    }

    private static List<long[]> parseWhole(String s, boolean eof) throws ResponseParser.ParseException {
        return feed(new ResponseParser(), List.of(s.getBytes(StandardCharsets.ISO_8859_1)), eof);
    }

    private static final String MIX = "HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
            + "HTTP/1.1 404 Not Found\r\ncontent-length:3\r\nX: y\r\n\r\nnot"
            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: 99\r\n\r\n"
            + "4;name=v\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nTrailer: t\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\n\r\n"
            + "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n"
            + "HTTP/1.1 500 Err\nContent-Length: 2\n\nab"
            + "HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 1\r\n\r\nx";

    private static final long[][] MIX_EXPECTED = {
        {200, 0, 5}, {404, 0, 3}, {200, 0, 23}, {204, 0, 0}, {304, 0, 0}, {500, 0, 2}, {200, 1, 1}
    };

    @Test
    void pipelinedMixOfFramings() throws Exception {
        List<long[]> got = parseWhole(MIX, false);
        assertEquals(MIX_EXPECTED.length, got.size());
        for (int i = 0; i < got.size(); i++) {
            assertEquals(
                    List.of(MIX_EXPECTED[i][0], MIX_EXPECTED[i][1], MIX_EXPECTED[i][2]),
                    List.of(got.get(i)[0], got.get(i)[1], got.get(i)[2]),
                    "response " + i);
        }
    }

    @Test
    void sameResultsWhateverTheSplit() throws Exception {
        byte[] all = MIX.getBytes(StandardCharsets.ISO_8859_1);
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int round = 0; round < 300; round++) {
            List<byte[]> chunks = new ArrayList<>();
            int at = 0;
            while (at < all.length) {
                int n = round == 0 ? 1 : 1 + r.nextInt(Math.min(40, all.length - at));
                n = Math.min(n, all.length - at);
                byte[] c = new byte[n];
                System.arraycopy(all, at, c, 0, n);
                chunks.add(c);
                at += n;
            }
            List<long[]> got = feed(new ResponseParser(), chunks, false);
            assertEquals(MIX_EXPECTED.length, got.size(), "seed " + seed + " round " + round);
            for (int i = 0; i < got.size(); i++) {
                assertEquals(MIX_EXPECTED[i][2], got.get(i)[2], "seed " + seed + " response " + i);
            }
        }
    }

    @Test
    void bodyToEndOfConnectionAndHttp10() throws Exception {
        List<long[]> got = parseWhole("HTTP/1.1 200 OK\r\n\r\nuntil the end", true);
        assertEquals(1, got.size());
        assertEquals(13, got.get(0)[2]);
        assertEquals(1, got.get(0)[1], "a body to EOF ends the connection");

        got = parseWhole("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false);
        assertEquals(1, got.get(0)[1], "HTTP/1.0 closes by default");
        got = parseWhole("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", false);
        assertEquals(0, got.get(0)[1], "HTTP/1.0 with keep-alive stays open");
    }

    @Test
    void interimResponsesAreCountedAndSkipped() throws Exception {
        ResponseParser p = new ResponseParser();
        List<long[]> got = feed(
                p,
                List.of(("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early\r\n"
                                + "Link: x\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1)),
                false);
        assertEquals(1, got.size());
        assertEquals(200, got.get(0)[0]);
        assertEquals(2, p.interimResponses());
    }

    @Test
    void closeInsideAResponseIsAnError() throws Exception {
        ResponseParser p = new ResponseParser();
        assertFalse(p.parse(ByteBuffer.wrap(
                "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".getBytes(StandardCharsets.ISO_8859_1))));
        assertThrows(ResponseParser.ParseException.class, p::endOfInput);
        ResponseParser q = new ResponseParser();
        assertFalse(q.endOfInput(), "close between responses is not an error");
        assertTrue(q.idle());
    }

    @Test
    void malformedResponsesAreRejected() {
        String[] bad = {
            "HTTP/2 200 OK\r\n\r\n",
            "HTTP/1.1 2x0 OK\r\n\r\n",
            "HTTP/1.1 099 Low\r\n\r\n",
            "HTTP/1.1 600 High\r\n\r\n",
            "ICY 200 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nNoColonHere\r\n\r\n",
            "HTTP/1.1 200 OK\r\nName : v\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
            "HTTP/1.1 101 Switching Protocols\r\n\r\n",
            "HTTP/1.1 200 OK\r\rX: y\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX: " + "y".repeat(70_000) + "\r\n\r\n",
        };
        for (String s : bad) {
            assertThrows(
                    ResponseParser.ParseException.class,
                    () -> parseWhole(s, false),
                    () -> "should reject: " + s.substring(0, Math.min(60, s.length())));
        }
    }

    @Test
    void headerSectionIsBounded() {
        StringBuilder sb = new StringBuilder("HTTP/1.1 200 OK\r\n");
        while (sb.length() <= ResponseParser.MAX_HEADER_BYTES) {
            sb.append("X-Filler: ").append("f".repeat(100)).append("\r\n");
        }
        sb.append("\r\n");
        assertThrows(ResponseParser.ParseException.class, () -> parseWhole(sb.toString(), false));
    }

    @Test
    void largeChunkedBodiesAreNotMistakenForHeaders() throws Exception {
        StringBuilder sb = new StringBuilder("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 20_000; i++) {
            sb.append("3\r\nabc\r\n");
        }
        sb.append("0\r\n\r\n");
        List<long[]> got = parseWhole(sb.toString(), false);
        assertEquals(1, got.size());
        assertEquals(60_000, got.get(0)[2]);
    }

    /** A coding other than chunked last: the body runs to the end, whatever Content-Length says, in either order. */
    @Test
    void aTransferCodingNotEndingInChunkedReadsToTheEndBesideAContentLength() throws Exception {
        for (String headers : List.of(
                "Transfer-Encoding: gzip\r\nContent-Length: 5\r\n",
                "Content-Length: 5\r\nTransfer-Encoding: gzip\r\n")) {
            List<long[]> got = parseWhole("HTTP/1.1 200 OK\r\n" + headers + "\r\nhello, and more", true);
            assertEquals(1, got.size(), headers);
            assertEquals(List.of(200L, 1L, 15L), List.of(got.get(0)[0], got.get(0)[1], got.get(0)[2]), headers);
        }
    }

    /**
     * A header line of 60 KiB is read (the buffer grows from 128 bytes); a header section past
     * 64 KiB, or a line past it, is an error that says so.
     */
    @Test
    void linesGrowTheBufferUpToTheirBound() throws Exception {
        String header = "X-Long: ";
        String fits = header + "v".repeat(60 * 1024 - header.length());
        List<long[]> got = parseWhole("HTTP/1.1 200 OK\r\n" + fits + "\r\nContent-Length: 2\r\n\r\nok", false);
        assertEquals(1, got.size());
        assertEquals(2, got.get(0)[2]);
        String tooLong = header + "v".repeat(64 * 1024);
        ResponseParser.ParseException e = assertThrows(
                ResponseParser.ParseException.class,
                () -> parseWhole("HTTP/1.1 200 OK\r\n" + tooLong + "\r\n\r\n", false));
        assertTrue(e.getMessage().contains("longer than 65536 bytes"), e.getMessage());
        String chunkLine = "1;" + "x".repeat(64 * 1024) + "\r\n";
        ResponseParser.ParseException c = assertThrows(
                ResponseParser.ParseException.class,
                () -> parseWhole("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunkLine, false));
        assertTrue(c.getMessage().contains("line longer than 65536 bytes"), c.getMessage());
    }
}
