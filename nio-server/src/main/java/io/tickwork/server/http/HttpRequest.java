package io.tickwork.server.http;

import java.nio.charset.StandardCharsets;

/**
 * A parsed request as a view over the bytes it arrived in: method, target (path and query),
 * version and headers, found by {@link RequestParser} without copying. One instance per selector
 * loop, overwritten by the next request, so handlers must copy what they keep.
 *
 * <p>Only {@code GET} and {@code HEAD} reach a handler; the server answers everything else.
 * Not thread safe: valid only inside {@link HttpHandler#handle}, on the thread that calls it (the
 * loop's, or in worker mode the pool thread's, each with a request of its own).
 */
public final class HttpRequest {
    static final int MAX_HEADERS = 100;

    byte[] buf;
    boolean head;
    /** The request line ended with a bare LF, not CRLF: so must every line of the head. */
    boolean bareLf;

    int pathStart, pathEnd, queryStart = -1, queryEnd;
    int minorVersion;
    boolean keepAlive;
    int headerCount;
    final int[] headerNameStart = new int[MAX_HEADERS], headerNameEnd = new int[MAX_HEADERS];
    final int[] headerValueStart = new int[MAX_HEADERS], headerValueEnd = new int[MAX_HEADERS];

    // set by the parser for the server, not visible to handlers
    int methodStart, methodEnd;
    boolean methodAllowed;
    /** {@code OPTIONS}: answered by the server itself, 200 with {@code Allow}, not refused. */
    boolean options;
    /** Whether the method is one HTTP defines (405 if not allowed), not an unknown one (501). */
    boolean methodKnown;

    long contentLength;
    /** {@code Expect: 100-continue} on an HTTP/1.1 request: the client may wait for 100 before its body. */
    boolean expectContinue;

    int errorStatus;
    String errorDetail;

    /**
     * After {@link RequestParser#NEED_MORE}: the parse can answer otherwise only once the bytes
     * reach this index of {@link #buf}, or, where {@link #parseAgainOnLineFeed}, once a line feed
     * arrives, or, where {@link #chunks} is set, once that body ends or is refused.
     */
    int parseAgainAt;

    boolean parseAgainOnLineFeed;

    /**
     * After {@link RequestParser#NEED_MORE} on a chunked body: its framing as read up to the end
     * of {@link #buf}, to be fed the bytes that follow ({@link PendingInput}); else {@code null}.
     */
    ChunkedBody chunks;

    private byte[] scratch = new byte[1024];
    HttpServer server;

    /** {@code true} for {@code HEAD} (the server drops the body), {@code false} for {@code GET}. */
    public boolean isHead() {
        return head;
    }

    public String method() {
        return head ? "HEAD" : "GET";
    }

    /** The raw (still percent-encoded) path, e.g. {@code /d/ice%20cream}. Allocates. */
    public String path() {
        return new String(buf, pathStart, pathEnd - pathStart, StandardCharsets.ISO_8859_1);
    }

    /** Whether the raw path starts with the ASCII {@code prefix}. No allocation. */
    public boolean pathStartsWith(String prefix) {
        int n = prefix.length();
        if (pathEnd - pathStart < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (buf[pathStart + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the raw path equals the ASCII {@code path}. No allocation. */
    public boolean pathEquals(String path) {
        return pathEnd - pathStart == path.length() && pathStartsWith(path);
    }

    /**
     * Percent-decodes the raw path from byte {@code skip} on into {@code dst}. Returns the decoded
     * length, -1 if the encoding is malformed ({@code %} not followed by two hex digits, or the
     * result is not UTF-8), or -2 if it does not fit in {@code dst}. {@code +} stays {@code +}.
     *
     * @throws IndexOutOfBoundsException if {@code skip} is negative or longer than the raw path
     */
    public int decodePath(int skip, byte[] dst) {
        java.util.Objects.checkIndex(skip, pathEnd - pathStart + 1);
        return PercentDecoder.decode(buf, pathStart + skip, pathEnd, dst, false);
    }

    /** The raw query string after {@code ?}, or {@code null}. Allocates. */
    public String query() {
        return queryStart < 0 ? null : new String(buf, queryStart, queryEnd - queryStart, StandardCharsets.ISO_8859_1);
    }

    /**
     * The first value of query parameter {@code name}, decoded ({@code +} is a space), or
     * {@code null} if absent. Names are compared decoded too ({@code li%6Dit} is {@code limit}); a
     * name whose encoding is malformed matches none. Throws {@link IllegalArgumentException} naming
     * the parameter if the value's encoding is malformed; a handler that lets it propagate answers
     * {@code 400} with that message (the client's error), where any other exception answers
     * {@code 500}.
     */
    public String queryParameter(String name) {
        if (queryStart < 0) {
            return null;
        }
        int i = queryStart;
        while (i < queryEnd) {
            int amp = i;
            while (amp < queryEnd && buf[amp] != '&') {
                amp++;
            }
            int eq = i;
            while (eq < amp && buf[eq] != '=') {
                eq++;
            }
            if (nameIs(i, eq, name)) {
                int vs = Math.min(eq + 1, amp);
                byte[] out = new byte[amp - vs];
                int n = PercentDecoder.decode(buf, vs, amp, out, true);
                if (n < 0) {
                    throw new MalformedQueryException(
                            "malformed percent-encoding, invalid UTF-8 or NUL in query parameter " + name);
                }
                return new String(out, 0, n, StandardCharsets.UTF_8);
            }
            i = amp + 1;
        }
        return null;
    }

    /** Whether {@code buf[from, to)}, decoded, is {@code name}; allocates only for an encoded name. */
    private boolean nameIs(int from, int to, String name) {
        for (int k = from; k < to; k++) {
            if (buf[k] == '%' || buf[k] == '+') {
                byte[] out = new byte[to - from];
                int n = PercentDecoder.decode(buf, from, to, out, true);
                return n >= 0 && new String(out, 0, n, StandardCharsets.UTF_8).equals(name);
            }
        }
        return to - from == name.length() && regionEquals(from, name);
    }

    private boolean regionEquals(int start, String s) {
        for (int k = 0; k < s.length(); k++) {
            if (buf[start + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The first value of header {@code name} (case-insensitive), or {@code null}. Allocates. */
    public String header(String name) {
        for (int h = 0; h < headerCount; h++) {
            int s = headerNameStart[h], e = headerNameEnd[h];
            if (e - s == name.length() && RequestParser.equalsIgnoreCase(buf, s, name)) {
                return new String(
                        buf, headerValueStart[h], headerValueEnd[h] - headerValueStart[h], StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    /** {@code "HTTP/1.1"} or {@code "HTTP/1.0"}. */
    public String version() {
        return minorVersion == 1 ? "HTTP/1.1" : "HTTP/1.0";
    }

    /** Whether the connection stays open after this request's response. */
    public boolean keepAlive() {
        return keepAlive;
    }

    /** A scratch array of the handler's thread, at least {@code minSize} bytes, valid during this call. */
    public byte[] scratch(int minSize) {
        if (scratch.length < minSize) {
            scratch = new byte[Math.max(minSize, scratch.length * 2)];
        }
        return scratch;
    }

    /** Counters of the server that received this request. */
    public ServerStats stats() {
        return server.stats();
    }

    /** A query parameter's value is not valid percent-encoding: answered {@code 400} if a handler lets it propagate. */
    static final class MalformedQueryException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        MalformedQueryException(String message) {
            super(message);
        }
    }
}
