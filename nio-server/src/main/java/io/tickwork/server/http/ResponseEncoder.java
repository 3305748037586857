package io.tickwork.server.http;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;

/**
 * The bytes of an {@link HttpResponse} on the wire: status line, {@code Server}, {@code Date},
 * {@code Content-Type}, {@code Content-Length}, the handler's extra headers and {@code Connection}
 * written into a caller's array ({@link #writeHead}), or a whole response as one new array for
 * worker mode ({@link #encode}); and the JSON error bodies the server answers itself with.
 *
 * <p>Cost: {@link #writeHead} allocates nothing except once a second, when the first response of
 * a new second formats the {@code Date} line (shared by all threads; two threads racing both
 * format it, and either result is right). Status lines and fixed header lines are encoded once.
 *
 * <p>Thread safety: stateless apart from the {@code Date} line cache, which is safe to race;
 * every method may be called from any thread on arrays and responses that thread owns.
 */
final class ResponseEncoder {
    private static final byte[][] STATUS_LINES = new byte[600][];

    /** The interim response to {@code Expect: 100-continue} (RFC 9110 10.1.1): no fields, no body. */
    static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    static {
        String[][] statuses = { // RFC 9110 section 15's reason phrases, and 429 (RFC 6585)
            {"200", "OK"},
            {"201", "Created"},
            {"202", "Accepted"},
            {"203", "Non-Authoritative Information"},
            {"204", "No Content"},
            {"205", "Reset Content"},
            {"206", "Partial Content"},
            {"300", "Multiple Choices"},
            {"301", "Moved Permanently"},
            {"302", "Found"},
            {"303", "See Other"},
            {"304", "Not Modified"},
            {"307", "Temporary Redirect"},
            {"308", "Permanent Redirect"},
            {"400", "Bad Request"},
            {"401", "Unauthorized"},
            {"402", "Payment Required"},
            {"403", "Forbidden"},
            {"404", "Not Found"},
            {"405", "Method Not Allowed"},
            {"406", "Not Acceptable"},
            {"407", "Proxy Authentication Required"},
            {"408", "Request Timeout"},
            {"409", "Conflict"},
            {"410", "Gone"},
            {"411", "Length Required"},
            {"412", "Precondition Failed"},
            {"413", "Content Too Large"},
            {"414", "URI Too Long"},
            {"415", "Unsupported Media Type"},
            {"416", "Range Not Satisfiable"},
            {"417", "Expectation Failed"},
            {"421", "Misdirected Request"},
            {"422", "Unprocessable Content"},
            {"426", "Upgrade Required"},
            {"429", "Too Many Requests"},
            {"431", "Request Header Fields Too Large"},
            {"500", "Internal Server Error"},
            {"501", "Not Implemented"},
            {"502", "Bad Gateway"},
            {"503", "Service Unavailable"},
            {"504", "Gateway Timeout"},
            {"505", "HTTP Version Not Supported"}
        };
        for (String[] s : statuses) {
            STATUS_LINES[Integer.parseInt(s[0])] =
                    ("HTTP/1.1 " + s[0] + " " + s[1] + "\r\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    private static final byte[] SERVER = "Server: tickwork\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = "Connection: keep-alive\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CRLF = {'\r', '\n'};

    private ResponseEncoder() {}

    /** The methods served, as {@code Allow} lists them. */
    private static final String ALLOW = "GET, HEAD, OPTIONS";

    /**
     * Fills {@code res} for {@code request}: for a method other than GET and HEAD (the handler never
     * sees it), OPTIONS answered 200 with {@code Allow} and no content (RFC 9110 9.3.7: to any
     * target, {@code *} included, which load balancers' health checks send), 405 with {@code Allow}
     * if HTTP defines the method, else 501 (RFC 9110 9.1); the handler's answer otherwise, 500 if
     * the handler throws (logged through {@code server}). {@code res} must be reset.
     */
    static void answer(HttpHandler handler, HttpRequest request, HttpResponse res, HttpServer server) {
        if (!request.methodAllowed) {
            String method = new String(
                    request.buf,
                    request.methodStart,
                    request.methodEnd - request.methodStart,
                    StandardCharsets.ISO_8859_1);
            if (request.options) {
                res.status(200).header("Allow", ALLOW);
                res.contentType(ContentType.TEXT); // no content: Content-Length 0, as 9.3.7 requires
            } else if (request.methodKnown) {
                res.status(405).header("Allow", ALLOW);
                errorBody(res, 405, "method " + method + " is not allowed; use GET or HEAD");
            } else {
                res.status(501);
                errorBody(res, 501, "method " + method + " is not implemented; use GET or HEAD");
            }
        } else {
            try {
                handler.handle(request, res);
            } catch (HttpRequest.MalformedQueryException e) {
                // the client's error, met by a handler that read the parameter: 400, not 500
                replaceWithError(res, 400, e.getMessage());
            } catch (Throwable e) {
                // an Error too (a StackOverflowError, an AssertionError, an OutOfMemoryError of
                // the handler's own allocation), and a checked exception a handler written in
                // another JVM language throws undeclared: it fails this request, not the loop and
                // every connection on it
                server.log("handler failed on " + request.path() + ": " + e);
                replaceWithError(res, 500, "internal error");
            }
        }
    }

    /** Sets {@code res}'s body to {@code {"status":N,"error":"detail"}} as JSON. */
    static void errorBody(HttpResponse res, int status, String detail) {
        res.contentType(ContentType.JSON);
        res.appendAscii("{\"status\":").appendInt(status).appendAscii(",\"error\":");
        res.appendJsonString(detail == null ? "error" : detail).append((byte) '}');
    }

    /** A complete error response with {@code Connection: close}, as one new array; a HEAD's without its body. */
    static byte[] errorBytes(int status, String detail, boolean headRequest) {
        return errorBytes(status, detail, headRequest, true, false);
    }

    /**
     * An error response; {@code close}: with {@code Connection: close} (the caller closes after
     * it); {@code keepAlive10}: with {@code Connection: keep-alive} (an HTTP/1.0 client that asked).
     */
    static byte[] errorBytes(int status, String detail, boolean headRequest, boolean close, boolean keepAlive10) {
        HttpResponse res = new HttpResponse();
        res.reset();
        res.status(status);
        errorBody(res, status, detail);
        return encode(res, headRequest, close, keepAlive10);
    }

    /** Replaces what a failed handler put in {@code res} with an error; a close it asked for still holds. */
    private static void replaceWithError(HttpResponse res, int status, String detail) {
        boolean close = res.close;
        res.reset();
        res.status(status);
        errorBody(res, status, detail);
        if (close) {
            res.closeConnection();
        }
    }

    /**
     * A {@code 503} with an empty body (right for a GET and for a HEAD alike) and {@code Connection:
     * close}: in place of a response the workers did not compute in time.
     */
    static byte[] responseTimedOutBytes() {
        HttpResponse res = new HttpResponse();
        res.reset();
        res.status(503);
        res.contentType(ContentType.TEXT); // an empty text, not the JSON a response starts as
        return encode(res, false, true, false);
    }

    /** A 204 or a 304: never a body, nor a {@code Content-Length} (RFC 9110 8.6, 15.3.5, 15.4.5). */
    static boolean bodiless(int status) {
        return status == 204 || status == 304;
    }

    /** The bytes of {@code res}'s body that go out: none for a HEAD or a {@link #bodiless} status. */
    static int bodyBytes(HttpResponse res, boolean headRequest) {
        return headRequest || bodiless(res.status) ? 0 : res.length;
    }

    /** Upper bound of the head {@link #writeHead} writes. */
    static int headBound(ContentType type, CharSequence extra) {
        return 512 + type.headerLine.length + extra.length();
    }

    /**
     * Writes status line and headers into {@code head} (at least {@link #headBound} long) and
     * returns their length. {@code close} adds {@code Connection: close}; otherwise
     * {@code keepAlive10} adds {@code Connection: keep-alive} (an HTTP/1.0 client that asked for it).
     */
    static int writeHead(
            byte[] head,
            int status,
            ContentType type,
            CharSequence extra,
            int bodyLength,
            boolean close,
            boolean keepAlive10) {
        int h = 0;
        byte[] statusLine = STATUS_LINES[status];
        if (statusLine == null) {
            // no registered phrase: an empty one, which RFC 9112 4 allows (clients ignore it)
            statusLine = ("HTTP/1.1 " + status + " \r\n").getBytes(StandardCharsets.US_ASCII);
        }
        h = put(head, h, statusLine);
        h = put(head, h, SERVER);
        h = put(head, h, date());
        h = put(head, h, type.headerLine);
        if (!bodiless(status)) {
            h = put(head, h, CONTENT_LENGTH);
            h = putInt(head, h, bodyLength);
            h = put(head, h, CRLF);
        }
        for (int i = 0; i < extra.length(); i++) {
            head[h++] = (byte) extra.charAt(i);
        }
        if (close) {
            h = put(head, h, CLOSE);
        } else if (keepAlive10) {
            h = put(head, h, KEEP_ALIVE);
        }
        h = put(head, h, CRLF);
        return h;
    }

    /**
     * A complete response as one new array, head and body ({@code headRequest}: head only). Worker
     * mode builds responses with it off the loop; the loop writes them as they are.
     */
    static byte[] encode(HttpResponse res, boolean headRequest, boolean close, boolean keepAlive10) {
        byte[] head = new byte[headBound(res.contentType, res.extraHeaders)];
        int h = writeHead(head, res.status, res.contentType, res.extraHeaders, res.length, close, keepAlive10);
        int b = bodyBytes(res, headRequest);
        byte[] all = Arrays.copyOf(head, h + b);
        System.arraycopy(res.body, 0, all, h, b);
        return all;
    }

    static int put(byte[] dst, int at, byte[] src) {
        System.arraycopy(src, 0, dst, at, src.length);
        return at + src.length;
    }

    /** Writes the decimal digits of {@code v} (&gt;= 0) at {@code at}; returns the index after them. */
    static int putInt(byte[] dst, int at, int v) {
        if (v == 0) {
            dst[at] = '0';
            return at + 1;
        }
        int digits = 0;
        for (int x = v; x > 0; x /= 10) {
            digits++;
        }
        for (int i = at + digits - 1; i >= at; i--) {
            dst[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return at + digits;
    }

    /** RFC 9110 5.6.7's IMF-fixdate: a two-digit day, unlike {@link DateTimeFormatter#RFC_1123_DATE_TIME}. */
    static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US);

    /** The {@code Date} header line of this second; shared by all loops and workers (a benign race recomputes it). */
    private static byte[] date() {
        long second = System.currentTimeMillis() / 1000;
        DateLine d = dateLine;
        if (d == null || d.second != second) {
            d = new DateLine(
                    second,
                    ("Date: "
                                    + IMF_FIXDATE.format(
                                            ZonedDateTime.ofInstant(Instant.ofEpochSecond(second), ZoneOffset.UTC))
                                    + "\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            dateLine = d;
        }
        return d.line;
    }

    /** One second's {@code Date} line, published whole through a volatile field. */
    private static final class DateLine {
        final long second;
        final byte[] line;

        DateLine(long second, byte[] line) {
            this.second = second;
            this.line = line;
        }
    }

    private static volatile DateLine dateLine;
}
