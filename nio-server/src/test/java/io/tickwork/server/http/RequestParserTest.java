package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestParserTest {
    private final RequestParser parser = new RequestParser(1024, 4096, 20, 1000);
    private final HttpRequest r = new HttpRequest();

    private int parse(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return parser.parse(b, 0, b.length, r);
    }

    /** {@link #parse} of a CSV source's request, written with {@code \r} and {@code \n} for CR and LF. */
    private int parseEscaped(String raw) {
        return parse(raw.replace("\\r", "\r").replace("\\n", "\n"));
    }

    @Test
    void simpleGet() {
        String req = "GET /d/ice%20cream?x=1&limit=5 HTTP/1.1\r\nHost: a\r\nX-Y:  z \r\n\r\n";
        assertEquals(req.length(), parse(req));
        assertEquals("/d/ice%20cream", r.path());
        assertEquals("x=1&limit=5", r.query());
        assertEquals("5", r.queryParameter("limit"));
        assertEquals("z", r.header("x-y"));
        assertTrue(r.keepAlive());
        assertFalse(r.isHead());
        assertTrue(r.methodAllowed);
    }

    @Test
    void pipelinedRequestsAreParsedOneAtATime() {
        String one = "GET /a HTTP/1.1\r\nHost: a\r\n\r\n";
        String two = "HEAD /b HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
        byte[] b = (one + two + "GET /c HT").getBytes(StandardCharsets.ISO_8859_1);
        int n1 = parser.parse(b, 0, b.length, r);
        assertEquals(one.length(), n1);
        int n2 = parser.parse(b, n1, b.length, r);
        assertEquals(two.length(), n2);
        assertTrue(r.isHead());
        assertFalse(r.keepAlive());
        assertEquals("/b", r.path());
        assertEquals(RequestParser.NEED_MORE, parser.parse(b, n1 + n2, b.length, r));
    }

    @Test
    void expectContinueIsFlaggedAndOtherExpectationsAre417() {
        assertEquals(
                RequestParser.NEED_MORE,
                parse("GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 4\r\n\r\n"));
        assertTrue(r.expectContinue);
        parse("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        assertFalse(r.expectContinue, "reset for the next request");
        assertEquals(RequestParser.ERROR, parse("GET / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n"));
        assertEquals(417, r.errorStatus);
        parse("GET / HTTP/1.0\r\nExpect: whatever\r\n\r\n");
        assertEquals(0, r.errorStatus, "HTTP/1.0 ignores Expect");
        // the head not complete yet: no 100 Continue may go out (the request may still be refused)
        assertEquals(RequestParser.NEED_MORE, parse("GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n"));
        assertFalse(r.expectContinue, "flagged before the head was complete");
    }

    @Test
    void http10ClosesUnlessKeepAlive() {
        parse("GET / HTTP/1.0\r\n\r\n");
        assertFalse(r.keepAlive());
        parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");
        assertTrue(r.keepAlive());
    }

    @Test
    void bareLineFeedsLeadingEmptyLinesAndAbsoluteFormAreAccepted() {
        String req = "\r\nGET http://example.com/d/x?y HTTP/1.1\nHost: example.com\n\n";
        assertEquals(req.length(), parse(req));
        assertEquals("/d/x", r.path());
        assertEquals("y", r.query());
    }

    @Test
    void anyNumberOfLeadingEmptyLinesIsIgnoredInOneReadAsAcrossReads() {
        String empties = "\r\n".repeat(1_000) + "\n".repeat(1_000);
        String req = empties + "GET /d/x HTTP/1.1\r\nHost: a\r\n\r\n";
        assertEquals(req.length(), parse(req));
        assertEquals(0, r.errorStatus);
        assertEquals("/d/x", r.path());
        // only empty lines so far: no request has started, nothing is too long
        assertEquals(RequestParser.NEED_MORE, parse(empties));
        assertEquals(RequestParser.NEED_MORE, parse(empties + "GET"));
    }

    /**
     * The head's limit counts from the request line, whether the empty lines before it came in
     * the same read or in earlier ones (the loop drops those): a head of exactly the limit is
     * accepted after any number of them, one byte more is 431.
     */
    @Test
    void theHeadLimitCountsFromTheRequestLine() {
        String line = "GET / HTTP/1.1\r\nHost: a\r\nX: ";
        String head = line + "b".repeat(4096 - line.length() - 4) + "\r\n\r\n";
        assertEquals(4096, head.length());
        String empties = "\r\n".repeat(100);
        assertEquals(empties.length() + head.length(), parse(empties + head));
        assertEquals(head.length(), parse(head));
        String longer = head.replace("X: b", "X: bb");
        assertEquals(RequestParser.ERROR, parse(empties + longer));
        assertEquals(431, r.errorStatus);
        String partial = empties + line + "b".repeat(4096 - line.length());
        assertEquals(RequestParser.NEED_MORE, parse(partial), "4,096 bytes of head so far, no line end");
        assertEquals(RequestParser.ERROR, parse(partial + "b"));
        assertEquals(431, r.errorStatus);
    }

    /**
     * A {@code NEED_MORE} names the first bytes that can change the answer: for every prefix of
     * every request (complete, with a body, too long, malformed late, leading empty lines), no
     * longer prefix short of {@code parseAgainAt}, and without a line feed in its new bytes where
     * {@code parseAgainOnLineFeed}, answers anything but {@code NEED_MORE}. The loop relies on it
     * to skip parsing a slow client's bytes.
     */
    @Test
    void needMoreNamesTheFirstBytesThatCanChangeTheAnswer() {
        RequestParser small = new RequestParser(40, 160, 6, 60);
        List<String> requests = new ArrayList<>(List.of(
                "GET /d/x HTTP/1.1\r\nHost: a\r\nX-Y: z\r\n\r\n",
                "\r\n\n\r\nGET / HTTP/1.1\nHost: a\n\n",
                "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 25\r\n\r\n\n\n\n\nbody with\nline feeds\n",
                "GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 60\r\n\r\n" + "x".repeat(60),
                "GET /" + "a".repeat(60) + " HTTP/1.1\r\nHost: a\r\n\r\n",
                "GET /" + "a".repeat(30) + " HTTP/1.1\r",
                "GET / HTTP/1.1\r\nHost: a\r\nX: " + "b".repeat(200) + "\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: a\r\n" + "X: y\r\n".repeat(7) + "\r\n",
                "GET / HTTP/1.1\r\nHost: a\r\nBad Name: y\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 61\r\n\r\n" + "x".repeat(61),
                "GETTINGS / HTTP/1.1\r\n\r\n",
                "GET\t/ HTTP/1.1\r\n\r\n"));
        Random random = new Random(42);
        String[] parts = {
            "GET ",
            "HEAD ",
            "/a",
            "?q",
            " HTTP/1.1",
            " HTTP/1.0",
            "\r\n",
            "\n",
            "\r",
            "Host: a",
            "Content-Length: 7",
            "Expect: 100-continue",
            "X: ",
            "bbbbbbbbbbbbbbbbbbbb",
            " ",
            ":",
            "\u0001"
        };
        for (int i = 0; i < 300; i++) {
            StringBuilder sb = new StringBuilder();
            for (int k = random.nextInt(30); k >= 0; k--) {
                sb.append(parts[random.nextInt(parts.length)]);
            }
            requests.add(sb.toString());
        }
        HttpRequest longer = new HttpRequest();
        for (String s : requests) {
            byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
            for (int k = 0; k < b.length; k++) {
                if (small.parse(b, 0, k, r) != RequestParser.NEED_MORE) {
                    continue;
                }
                for (int more = k + 1; more <= b.length; more++) {
                    if (more >= r.parseAgainAt || (r.parseAgainOnLineFeed && b[more - 1] == '\n')) {
                        break; // from here the answer may change
                    }
                    int k0 = k, m = more;
                    assertEquals(
                            RequestParser.NEED_MORE,
                            small.parse(b, 0, more, longer),
                            () -> "prefix " + m + " of "
                                    + s.replace("\r", "\\r").replace("\n", "\\n")
                                    + " after NEED_MORE at " + k0 + " (again at " + r.parseAgainAt + ", on LF "
                                    + r.parseAgainOnLineFeed + "): " + longer.errorStatus);
                }
            }
        }
    }

    @Test
    void bodyIsConsumedWithTheRequest() {
        String req = "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello";
        assertEquals(RequestParser.NEED_MORE, parse(req.substring(0, req.length() - 1)));
        assertEquals(req.length(), parse(req));
    }

    /** Identical Content-Length values are one value, listed or on repeated lines (RFC 9110 8.6). */
    @Test
    void repeatedIdenticalContentLengthsAreOneLength() {
        for (String lengths :
                new String[] {"Content-Length: 3, 3", "Content-Length: 3,3 ,3", "Content-Length: 3\r\nContent-Length: 3"
                }) {
            String req = "GET / HTTP/1.1\r\nHost: a\r\n" + lengths + "\r\n\r\nabc";
            assertEquals(req.length(), parse(req), lengths);
            assertEquals(3, r.contentLength, lengths);
        }
    }

    @Test
    void otherMethodsParseButAreNotAllowed() {
        String req = "DELETE / HTTP/1.1\r\nHost: a\r\n\r\n";
        assertEquals(req.length(), parse(req));
        assertFalse(r.methodAllowed);
        assertTrue(r.methodKnown, "DELETE: HTTP defines it, so 405");
        parse("FOO / HTTP/1.1\r\nHost: a\r\n\r\n");
        assertFalse(r.methodAllowed);
        assertFalse(r.methodKnown, "FOO: unknown, so 501");
        parse("get / HTTP/1.1\r\nHost: a\r\n\r\n");
        assertFalse(r.methodKnown, "methods are case-sensitive");
    }

    @Test
    void validHostsAndListsAreAccepted() {
        for (String host : new String[] {"", "a", "a.b-c_d~e", "127.0.0.1:9090", "[::1]:80", "x%41y", "h:"}) {
            String req = "GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
            assertEquals(req.length(), parse(req), "Host: " + host + " " + r.errorDetail);
        }
        String emptyExpect = "GET / HTTP/1.1\r\nHost: a\r\nExpect:\r\nContent-Length: 1\r\n\r\nx";
        assertEquals(emptyExpect.length(), parse(emptyExpect), "an empty Expect list expects nothing");
        assertEquals(
                RequestParser.NEED_MORE,
                parse("GET / HTTP/1.1\r\nHost: a\r\nExpect: , 100-continue ,\r\nContent-Length: 1\r\n\r\n"));
        assertTrue(r.expectContinue, "100-continue among empty list elements");
        String zeros = "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 000000000000000000003\r\n\r\nabc";
        assertEquals(zeros.length(), parse(zeros), "leading zeros do not count against the digits");
    }

    @Test
    void anAbsoluteFormTargetWithoutAPathMeansSlash() {
        String req = "GET http://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n";
        assertEquals(req.length(), parse(req), r.errorDetail);
        assertEquals("/", r.path());
        assertNull(r.query());
        parse("GET http://example.com?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n");
        assertEquals("/", r.path());
        assertEquals("x=1", r.query());
    }

    /** An absolute-form target names an http or https resource (any case), not another scheme's. */
    @Test
    void anAbsoluteFormTargetMustBeHttpOrHttps() {
        for (String ok : new String[] {"http://x/d/cat", "HTTPS://x/d/cat", "hTtP://x/d/cat"}) {
            String req = "GET " + ok + " HTTP/1.1\r\nHost: x\r\n\r\n";
            assertEquals(req.length(), parse(req), r.errorDetail);
            assertEquals("/d/cat", r.path());
        }
        for (String bad : new String[] {"ftp://x/d/cat", "httpx://x/d/cat", "htt://x/d/cat", "file:///d/cat"}) {
            String req = "GET " + bad + " HTTP/1.1\r\nHost: x\r\n\r\n";
            assertEquals(RequestParser.ERROR, parse(req), bad);
            assertEquals(400, r.errorStatus, bad);
            assertEquals("an absolute request target must be http or https", r.errorDetail, bad);
        }
    }

    @Test
    void quotesAndAngleBracketsMustComePercentEncoded() {
        for (char c : "\"<>".toCharArray()) {
            for (String target : new String[] {"/d/a" + c + "b", "/s/a?q=" + c, "http://example.com/x" + c}) {
                String req = "GET " + target + " HTTP/1.1\r\nHost: example.com\r\n\r\n";
                assertEquals(RequestParser.ERROR, parse(req), req);
                assertEquals(400, r.errorStatus, req);
                assertTrue(r.errorDetail.contains("'" + c + "'"), r.errorDetail);
            }
        }
        String encoded = "GET /d/a%22%3C%3Eb HTTP/1.1\r\nHost: a\r\n\r\n";
        assertEquals(encoded.length(), parse(encoded), r.errorDetail);
        // what a browser sends raw in a query (the WHATWG URL standard) is not refused
        String browser = "GET /s/a|b^c[d]?q={x}|`y`\\[z] HTTP/1.1\r\nHost: a\r\n\r\n";
        assertEquals(browser.length(), parse(browser), r.errorDetail);
        assertEquals("/s/a|b^c[d]", r.path());
    }

    @Test
    void theAsteriskFormIsAcceptedForOptions() {
        String req = "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n";
        assertEquals(req.length(), parse(req), r.errorDetail);
        assertEquals("*", r.path());
    }

    @Test
    void missingQueryParameterIsNull() {
        parse("GET /s/a HTTP/1.1\r\nHost: a\r\n\r\n");
        assertNull(r.queryParameter("limit"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "GET  / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1 \\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET / HTTX/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET / HTTP/2.0\\r\\nHost: a\\r\\n\\r\\n | 505",
                "GET nothing HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "G(T / HTTP/1.1\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nHost: b\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost : a\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\n folded\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\rb\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 3\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\nabc | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: chunked, chunked\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: gzip, Chunked ,\\r\\n\\r\\n | 501",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: gzip\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n | 501",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: gzip\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: chunked, gzip\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: gzip chunked\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: chunked\\r\\nTransfer-Encoding: gzip\\r\\n\\r\\n | 400",
                "GET / HTTP/1.0\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 1, 2\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 1,\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: ,1\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 1 1\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 1\\r\\nContent-Length: 2\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 1001\\r\\n\\r\\n | 413",
                "GET /\u0001 HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET /d/cat#frag HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a b\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a/b@c\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a:8x\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: [::1\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\nExpect: 100-continue, x\\r\\n\\r\\n | 417",
                "GET * HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET http:///d/x HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET http://?x HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET http:// HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET http://:80/x HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET http://u@/x HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET http://u@:80 HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET http://u:p@example.com/x HTTP/1.1\\r\\nHost: example.com\\r\\n\\r\\n | 400",
                "GET http://example.com:abc/x HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET http://exa<mple>.com/x HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "\\rGET / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "\\r\\n\\r\\rGET / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\nContent-Length: 3\\r\\n\\r\\nabc | 400",
                "GET / HTTP/1.1\\nHost: a\\r\\n\\n | 400",
                "GET / HTTP/1.1\\r\\nHost: a\\r\\n\\n | 400",
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA | 501",
            })
    void badInputGetsTheRightStatus(String raw, int status) {
        assertEquals(RequestParser.ERROR, parseEscaped(raw));
        assertEquals(status, r.errorStatus, r.errorDetail);
        assertFalse(r.keepAlive);
    }

    /**
     * An error found in the target or the version of a HEAD request is answered without a body:
     * the method is known by then, also after a pipelined HEAD's successor failed earlier.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "HEAD /a\u0001 HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | true",
                "HEAD /a HTTP/1.2 \\r\\nHost: a\\r\\n\\r\\n | true",
                "HEAD /a HTTP/2.0\\r\\nHost: a\\r\\n\\r\\n | true",
                "GET /a\u0001 HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n | false",
            })
    void anErrorInAHeadRequestsLineIsAnsweredAsHead(String raw, boolean head) {
        assertEquals(RequestParser.ERROR, parseEscaped(raw));
        assertEquals(head, r.head, r.errorDetail);
    }

    /**
     * A request line of exactly the limit is accepted however the bytes arrive, also when a read
     * ends between its CR and its LF.
     */
    @Test
    void aRequestLineOfExactlyTheLimitSplitBetweenItsCrAndLfIsAccepted() {
        String line = "GET /" + "a".repeat(1024 - 5 - 9) + " HTTP/1.1";
        assertEquals(1024, line.length());
        assertEquals(RequestParser.NEED_MORE, parse(line + "\r"));
        String whole = line + "\r\nHost: a\r\n\r\n";
        assertEquals(whole.length(), parse(whole));
        assertEquals(RequestParser.ERROR, parse(line + "a\r"));
        assertEquals(414, r.errorStatus, "one byte longer");
    }

    /**
     * Limits no request can meet, or whose read buffer (twice head plus body) would overflow or
     * cost a loop more than 128 MiB, are refused when the server is built, naming the value.
     */
    @Test
    void limitsThatNoRequestOrBufferCanMeetAreRefused() {
        HttpServer.Builder b = HttpServer.builder((request, response) -> {});
        b.limits(16, 16, 1, 0); // the least that serves "GET / HTTP/1.1" with its Host
        b.limits(8192, 16 * 1024, 100, RequestParser.MAX_PENDING - 16 * 1024);
        String[] expected = {
            "maxRequestLine must be >= 16",
            "maxHeaders must be >= 1",
            "maxBody must be >= 0",
            "maxHeadBytes + maxBody must be <= 67108864",
            "maxHeadBytes + maxBody must be <= 67108864"
        };
        int[][] bad = {
            {15, 16 * 1024, 100, 1024},
            {8192, 16 * 1024, 0, 1024},
            {8192, 16 * 1024, 100, -1},
            {8192, 16 * 1024, 100, RequestParser.MAX_PENDING - 16 * 1024 + 1},
            {8192, 16 * 1024, 100, Integer.MAX_VALUE},
        };
        for (int i = 0; i < bad.length; i++) {
            int[] l = bad[i];
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> b.limits(l[0], l[1], l[2], l[3]));
            assertTrue(e.getMessage().startsWith(expected[i]), e.getMessage());
        }
    }

    @Test
    void limits() {
        assertEquals(RequestParser.ERROR, parse("GET /" + "a".repeat(1100) + " HTTP/1.1\r\n"));
        assertEquals(414, r.errorStatus);
        assertEquals(RequestParser.ERROR, parse("GET /" + "a".repeat(1100)));
        assertEquals(414, r.errorStatus, "no line end yet, but already too long");
        assertEquals(RequestParser.ERROR, parse("GET / HTTP/1.1\r\nHost: a\r\nX: " + "b".repeat(5000) + "\r\n\r\n"));
        assertEquals(431, r.errorStatus);
        assertEquals(RequestParser.ERROR, parse("GET / HTTP/1.1\r\nHost: a\r\nX: " + "b".repeat(5000)));
        assertEquals(431, r.errorStatus, "incomplete head already past the limit");
        StringBuilder many = new StringBuilder("GET / HTTP/1.1\r\nHost: a\r\n");
        for (int i = 0; i < 21; i++) {
            many.append("X").append(i).append(": v\r\n");
        }
        assertEquals(RequestParser.ERROR, parse(many.append("\r\n").toString()));
        assertEquals(431, r.errorStatus);
    }

    @Test
    void percentDecoding() {
        parse("GET /d/%C3%A9t%C3%A9+x HTTP/1.1\r\nHost: a\r\n\r\n");
        byte[] dst = new byte[64];
        int n = r.decodePath(3, dst);
        assertEquals("été+x", new String(dst, 0, n, StandardCharsets.UTF_8));
        parse("GET /d/%zz HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals(-1, r.decodePath(3, dst));
        parse("GET /d/%C3 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals(-1, r.decodePath(3, dst), "truncated UTF-8");
        parse("GET /d/%C0%AF HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals(-1, r.decodePath(3, dst), "overlong UTF-8");
        parse("GET /d/a%2 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals(-1, r.decodePath(3, dst));
        parse("GET /s/x?q=a+b%21 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals("a b!", r.queryParameter("q"));
        assertEquals(0, r.decodePath(4, dst), "skip the whole path: nothing left");
        assertThrows(IndexOutOfBoundsException.class, () -> r.decodePath(5, dst), "skip past the path");
        assertThrows(IndexOutOfBoundsException.class, () -> r.decodePath(-1, dst), "a negative skip");
        parse("GET /s/x?li%6dit=2&q%5Fx=y&%zz=1&a+b=3 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals("2", r.queryParameter("limit"), "a percent-encoded name");
        assertEquals("y", r.queryParameter("q_x"));
        assertEquals("3", r.queryParameter("a b"), "+ is a space in a name too");
        assertNull(r.queryParameter("%zz"), "a malformed name matches nothing");
    }
}
