package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the server adds to a handler's answer: the reason phrase, and a 400 for a malformed query it read. */
@Timeout(60)
class HandlerAnswersTest {

    @Test
    void aRegisteredStatusGetsItsReasonPhraseAndAnyOtherAnEmptyOne() {
        assertEquals("HTTP/1.1 201 Created", statusLine(201));
        assertEquals("HTTP/1.1 429 Too Many Requests", statusLine(429));
        assertEquals("HTTP/1.1 302 Found", statusLine(302));
        assertEquals("HTTP/1.1 299 ", statusLine(299));
    }

    private static String statusLine(int status) {
        HttpResponse res = new HttpResponse();
        res.reset();
        res.status(status);
        String encoded = new String(ResponseEncoder.encode(res, false, false, false), StandardCharsets.US_ASCII);
        return encoded.substring(0, encoded.indexOf("\r\n"));
    }

    @Test
    void appendUtf8WritesAnyTextAsUtf8() {
        HttpResponse res = new HttpResponse();
        res.reset();
        String text = "caf\u00e9 \u20ac \ud83d\ude00 ok \ud800";
        res.appendAscii("[").appendUtf8(text).appendAscii("]");
        byte[] body = new byte[res.length()];
        res.copyBody(0, body.length, body, 0);
        assertEquals("[caf\u00e9 \u20ac \ud83d\ude00 ok ?]", new String(body, StandardCharsets.UTF_8));
    }

    /**
     * A handler that reads a parameter whose percent-encoding is malformed and lets the exception
     * propagate answers 400 naming the parameter, and the connection stays open; any other
     * exception is still a 500.
     */
    @Test
    void aMalformedQueryParameterIsTheClientsErrorNotTheServers() throws Exception {
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        HttpHandler greet = (req, res) -> {
            if (req.path().equals("/boom")) {
                throw new IllegalArgumentException("the handler's own");
            }
            res.contentType(ContentType.TEXT).appendAscii("hello " + req.queryParameter("name"));
        };
        try (HttpServer server = HttpServer.builder(greet)
                        .threads(1)
                        .port(0)
                        .log(log::add)
                        .start();
                RawClient c = new RawClient(server.port())) {
            c.send("GET /greet?name=%zz HTTP/1.1\r\nHost: t\r\n\r\n");
            RawClient.Response bad = c.read();
            assertEquals(400, bad.status());
            assertTrue(bad.text().contains("query parameter name"), bad.text());
            c.send("GET /greet?name=ann HTTP/1.1\r\nHost: t\r\n\r\n");
            assertEquals("hello ann", c.read().text());
            c.send("GET /boom HTTP/1.1\r\nHost: t\r\n\r\n");
            assertEquals(500, c.read().status());
        }
    }
}
