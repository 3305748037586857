package io.tickwork.server.http;

/**
 * An HTTP/1.1 request-head parser (RFC 9112) over a byte array, stateless between calls: it is
 * given everything received so far and either finds a complete request (head and body), asks for
 * more, or names the error. A partial request is re-scanned when more bytes arrive; when it asks
 * for more it also says which bytes could change its answer ({@link HttpRequest#parseAgainAt}: a
 * line feed, or a length), so a caller re-scans once per line or once the body is in, not once
 * per read, and the limits bound the bytes a connection may hold.
 *
 * <p>Strict where laxness smuggles or hides bugs: one space between request-line parts, header
 * names are tokens with no space before the colon, no obs-fold, no bare CR (before the request line
 * included), the head's lines all ended alike (CRLF or bare LF), at most one Host and
 * one Content-Length value (repeated identical values are that one value, as a list or as
 * repeated lines: RFC 9110 8.6), never both Content-Length and Transfer-Encoding, and of transfer
 * codings only {@code chunked}, once ({@link ChunkedBody} checks its framing). Lenient where RFC
 * 9112 allows it: bare LF line ends, empty lines before the request line, absolute-form targets.
 *
 * <p>Thread safety: immutable (the limits); one instance may serve all loops.
 */
final class RequestParser {
    final int maxRequestLine;
    final int maxHeadBytes;
    final int maxHeaders;
    final int maxBody;

    /** Whether {@code b[from, to)} starts with the method {@code HEAD} and its space. */
    static boolean isHeadRequest(byte[] b, int from, int to) {
        return to - from >= 5
                && b[from] == 'H'
                && b[from + 1] == 'E'
                && b[from + 2] == 'A'
                && b[from + 3] == 'D'
                && b[from + 4] == ' ';
    }

    /** The shortest request line: {@code "GET / HTTP/1.1"} and its CRLF. */
    static final int MIN_REQUEST_LINE = 16;
    /**
     * The most {@code maxHeadBytes + maxBody} may be: each loop's read buffer holds twice that, so
     * a larger sum would cost each loop more than 128 MiB up front (or overflow its size).
     */
    static final int MAX_PENDING = 64 << 20;

    RequestParser(int maxRequestLine, int maxHeadBytes, int maxHeaders, int maxBody) {
        if (maxRequestLine < MIN_REQUEST_LINE) {
            throw new IllegalArgumentException(
                    "maxRequestLine must be >= " + MIN_REQUEST_LINE + " (GET / HTTP/1.1): " + maxRequestLine);
        }
        if (maxHeaders < 1) {
            throw new IllegalArgumentException("maxHeaders must be >= 1 (an HTTP/1.1 request has Host): " + maxHeaders);
        }
        if (maxBody < 0) {
            throw new IllegalArgumentException("maxBody must be >= 0: " + maxBody);
        }
        if ((long) maxHeadBytes + maxBody > MAX_PENDING) {
            throw new IllegalArgumentException("maxHeadBytes + maxBody must be <= " + MAX_PENDING + " (64 MiB): "
                    + maxHeadBytes + " + " + maxBody);
        }
        if (maxHeaders > HttpRequest.MAX_HEADERS) {
            throw new IllegalArgumentException("maxHeaders must be <= " + HttpRequest.MAX_HEADERS + ": " + maxHeaders);
        }
        if (maxRequestLine > maxHeadBytes) {
            throw new IllegalArgumentException(
                    "maxRequestLine must be <= maxHeadBytes: " + maxRequestLine + " > " + maxHeadBytes);
        }
        this.maxRequestLine = maxRequestLine;
        this.maxHeadBytes = maxHeadBytes;
        this.maxHeaders = maxHeaders;
        this.maxBody = maxBody;
    }

    /** Most bytes a connection may hold unparsed while waiting for the rest of one request. */
    int maxPending() {
        return maxHeadBytes + maxBody;
    }

    /**
     * The request is incomplete. {@link HttpRequest#parseAgainAt} and {@link
     * HttpRequest#parseAgainOnLineFeed} then say when parsing the same bytes with more after them
     * can answer otherwise: not before {@code end} reaches {@code parseAgainAt} unless, where
     * {@code parseAgainOnLineFeed}, the new bytes hold a line feed, or, where {@link
     * HttpRequest#chunks} is set, that chunked body ends or is refused in the new bytes (fed to it
     * read by read).
     */
    static final int NEED_MORE = 0;

    static final int ERROR = -1;

    /**
     * Parses one request from {@code b[start, end)} into {@code r}. Returns the bytes it occupies
     * (head and body, &gt; 0), {@link #NEED_MORE}, or {@link #ERROR} with {@code r.errorStatus}
     * and {@code r.errorDetail} set (the connection must then be closed after the error response).
     * The head's limit counts from the request line: empty lines before it are not part of it.
     */
    int parse(byte[] b, int start, int end, HttpRequest r) {
        r.buf = b;
        r.errorStatus = 0;
        r.errorDetail = null;
        r.expectContinue = false;
        r.options = false;
        r.chunks = null;
        r.head = false; // until the request line says HEAD: an error before it answers with a body
        int fields = requestLine(b, start, end, r);
        return fields <= 0 ? fields : headerFields(b, start, r.methodStart, fields, end, r);
    }

    /**
     * The request line of the request at {@code start}, after any empty lines: method,
     * target and version, each separated by one space, set in {@code r}. Returns the index after
     * its line feed, where the header fields begin (&gt; 0), {@link #NEED_MORE}, or {@link #ERROR}:
     * 400 (malformed), 414 (longer than {@link #maxRequestLine}), 505 (not HTTP/1.x).
     */
    private int requestLine(byte[] b, int start, int end, HttpRequest r) {
        int p = start;
        while (p < end && (b[p] == '\r' || b[p] == '\n')) {
            // RFC 9112 2.2: ignore empty lines before the request line, any number of them, as the
            // loop that drops them between reads does: each byte is looked at once either way. A
            // CR there must end an empty line; a bare one is refused, as anywhere in a head
            if (b[p] == '\r') {
                if (p + 1 == end) {
                    return needMore(r, end + 1, false);
                }
                if (b[p + 1] != '\n') {
                    return error(r, 400, "bare CR before the request line");
                }
                p++;
            }
            p++;
        }
        int ms = p;
        while (p < end && isTchar(b[p])) {
            if (++p - ms > MAX_METHOD) {
                return error(r, 501, "method longer than any implemented"); // RFC 9112 3
            }
        }
        if (p == end) {
            // the method (or only empty lines) so far: any byte may end it, or make it an error
            return end - ms > maxRequestLine
                    ? error(r, 414, "request line longer than " + maxRequestLine + " bytes")
                    : needMore(r, end + 1, false);
        }
        if (p == ms || b[p] != ' ') {
            return error(r, 400, "malformed method");
        }
        int me = p;
        // known from here: an error in the target or version answers a HEAD without a body
        r.head = isHeadRequest(b, ms, me + 1);
        int lf = indexOf(b, p, Math.min(end, ms + maxRequestLine + 2), (byte) '\n');
        if (lf < 0) {
            // a CR last may be the line's own end, its LF in the next read: not counted
            if (end - ms - (b[end - 1] == '\r' ? 1 : 0) > maxRequestLine) {
                return error(r, 414, "request line longer than " + maxRequestLine + " bytes");
            }
            // nothing after the method is looked at before the line's end, or its length says 414
            return needMore(r, ms + maxRequestLine + 1, true);
        }
        int le = lf > p && b[lf - 1] == '\r' ? lf - 1 : lf;
        r.bareLf = le == lf; // the head's lines must all end alike (headerFields)
        if (le - ms > maxRequestLine) {
            return error(r, 414, "request line longer than " + maxRequestLine + " bytes");
        }
        // target
        int ts = me + 1;
        int te = ts;
        while (te < le && b[te] != ' ') {
            int c = b[te] & 0xFF;
            if (c < 0x21 || c > 0x7E) {
                return error(r, 400, "invalid byte 0x" + Integer.toHexString(c) + " in request target");
            }
            if (c == '#') {
                return error(r, 400, "fragment in request target"); // RFC 9112 3.2: never sent
            }
            if (c == '"' || c == '<' || c == '>') {
                // no client sends these raw: RFC 3986 has no place for them, and browsers (the
                // WHATWG URL standard) percent-encode them in a path and a query alike. The other
                // bytes RFC 3986 lacks ({ } | \ ^ ` [ ]) browsers send raw in a query, so they pass
                return error(r, 400, "byte '" + (char) c + "' must be percent-encoded in request target");
            }
            te++;
        }
        if (te == ts || te == le) {
            return error(r, 400, "malformed request line");
        }
        // version: exactly "HTTP/d.d"
        int vs = te + 1;
        if (le - vs != 8
                || b[vs] != 'H'
                || b[vs + 1] != 'T'
                || b[vs + 2] != 'T'
                || b[vs + 3] != 'P'
                || b[vs + 4] != '/'
                || !isDigit(b[vs + 5])
                || b[vs + 6] != '.'
                || !isDigit(b[vs + 7])) {
            return error(r, 400, "malformed HTTP version");
        }
        if (b[vs + 5] != '1') {
            return error(r, 505, "only HTTP/1.x is supported");
        }
        r.minorVersion = b[vs + 7] == '0' ? 0 : 1;
        r.methodStart = ms;
        r.methodEnd = me;
        r.methodAllowed = r.head || (me - ms == 3 && b[ms] == 'G' && b[ms + 1] == 'E' && b[ms + 2] == 'T');
        r.methodKnown = r.methodAllowed || isKnownMethod(b, ms, me);
        r.options = me - ms == 7 && equalsExactly(b, ms, "OPTIONS");
        return target(b, ts, te, r) < 0 ? ERROR : lf + 1;
    }

    /** Longest method served or known (RFC 9110 9: {@code OPTIONS}, {@code CONNECT}); longer ones get 501 at once. */
    private static final int MAX_METHOD = 7;

    private static final String[] KNOWN_METHODS = {"POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"};

    /** A method RFC 9110 (or RFC 5789, PATCH) defines: one this server knows and refuses with 405. */
    private static boolean isKnownMethod(byte[] b, int ms, int me) {
        for (String m : KNOWN_METHODS) {
            if (me - ms == m.length() && equalsExactly(b, ms, m)) {
                return true;
            }
        }
        return false;
    }

    private static boolean equalsExactly(byte[] b, int from, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (b[from + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sets the path and query of the request target {@code b[ts, te)}: origin-form ({@code /...}),
     * absolute-form ({@code scheme://authority[/...][?...]}; RFC 9112 3.2.2: a server MUST accept
     * it, and an empty path means {@code /}: the second slash of {@code //} stands for it) or
     * asterisk-form ({@code *}). Returns 0, or {@link #ERROR} (400) for anything else.
     */
    private static int target(byte[] b, int ts, int te, HttpRequest r) {
        int ps;
        int pe;
        int qm;
        if (te - ts == 1 && b[ts] == '*' && !r.options) {
            return error(r, 400, "the request target '*' is for OPTIONS only"); // RFC 9112 3.2.4
        }
        if (b[ts] == '/' || (te - ts == 1 && b[ts] == '*')) {
            ps = ts;
            qm = indexOf(b, ps, te, (byte) '?');
            pe = qm < 0 ? te : qm;
        } else {
            int colon = indexOf(b, ts, te, (byte) ':');
            if (!(colon > ts
                    && colon + 2 < te
                    && b[colon + 1] == '/'
                    && b[colon + 2] == '/'
                    && isScheme(b, ts, colon))) {
                return error(r, 400, "request target must start with '/'");
            }
            if (!isHttpScheme(b, ts, colon)) {
                return error(r, 400, "an absolute request target must be http or https"); // RFC 9112 3.2.2
            }
            int slash = indexOf(b, colon + 3, te, (byte) '/');
            qm = indexOf(b, colon + 3, te, (byte) '?');
            boolean pathFirst = slash >= 0 && (qm < 0 || slash < qm);
            int as = colon + 3;
            int ae = pathFirst ? slash : qm >= 0 ? qm : te;
            if (ae == as || b[as] == ':') {
                return error(r, 400, "request target without a host"); // RFC 9110 4.2.1: http(s) URIs need one
            }
            if (!isValidHost(b, as, ae)) {
                // as a Host value: host and digits-only port; a userinfo ("user:pass@") is an
                // error (RFC 9110 4.2.4), and what a Host field may not hold, neither may this
                return error(r, 400, "invalid authority in the request target");
            }
            if (pathFirst) {
                ps = slash; // the first '?' is after it: the query
                pe = qm < 0 ? te : qm;
            } else {
                ps = colon + 2; // no path: "/", the byte after the colon's first slash
                pe = ps + 1;
            }
        }
        r.pathStart = ps;
        r.pathEnd = pe;
        r.queryStart = qm < 0 ? -1 : qm + 1;
        r.queryEnd = te;
        return 0;
    }

    /**
     * The header fields from {@code p} (just after the request line, which starts at {@code
     * line}) to the empty line, then the body's framing: returns the bytes the whole request
     * occupies from {@code start} (any empty lines before the request line included), head and
     * body (&gt; 0), {@link #NEED_MORE}, or {@link #ERROR}: 400 (malformed field, obs-fold, bad or
     * conflicting Content-Length, Content-Length with Transfer-Encoding, missing or repeated Host),
     * 431 (head longer than {@link #maxHeadBytes} or more than {@link #maxHeaders} fields), 501
     * (a transfer coding other than chunked), 413 (body longer than {@link #maxBody}; a chunked
     * one counted as sent), 417 (an {@code Expect} other than {@code 100-continue}); a chunked
     * body's framing errors are 400 ({@link ChunkedBody}). {@code r.expectContinue} tells the caller of a {@link #NEED_MORE}
     * that the head is complete and valid and the client may be waiting for {@code 100 Continue}
     * before it sends the body (never while the head itself is still incomplete).
     */
    private int headerFields(byte[] b, int start, int line, int p, int end, HttpRequest r) {
        int count = 0;
        long contentLength = -1;
        boolean chunkedOrOther = false;
        boolean chunkedLast = false;
        int codings = 0; // transfer codings listed, over every Transfer-Encoding line
        int chunkedCodings = 0;
        boolean close = false, keepAlive = false;
        boolean expect100 = false; // told to the caller only once the head is complete
        int hosts = 0;
        while (true) {
            int lineLf = indexOf(b, p, Math.min(end, line + maxHeadBytes), (byte) '\n');
            if (lineLf < 0) {
                // a field is looked at once its line has ended; until then only the length can say 431
                return end - line > maxHeadBytes
                        ? error(r, 431, "request head larger than " + maxHeadBytes + " bytes")
                        : needMore(r, line + maxHeadBytes + 1, true);
            }
            int e = lineLf > p && b[lineLf - 1] == '\r' ? lineLf - 1 : lineLf;
            if ((e == lineLf) != r.bareLf) {
                // RFC 9112 2.2 lets a bare LF end a line, not a line of a CRLF head: a proxy that
                // reads "a\nContent-Length: 5" as one value would frame this request otherwise
                return error(r, 400, "CRLF and bare LF line ends in one request head");
            }
            if (e == p) {
                p = lineLf + 1;
                break;
            }
            if (b[p] == ' ' || b[p] == '\t') {
                return error(r, 400, "obsolete line folding in header field");
            }
            int ns = p;
            while (p < e && isTchar(b[p])) {
                p++;
            }
            if (p == ns || p == e || b[p] != ':') {
                return error(r, 400, "malformed header field name");
            }
            int ne = p++;
            while (p < e && (b[p] == ' ' || b[p] == '\t')) {
                p++;
            }
            int vstart = p;
            int vend = e;
            while (vend > vstart && (b[vend - 1] == ' ' || b[vend - 1] == '\t')) {
                vend--;
            }
            for (int i = vstart; i < vend; i++) {
                if (isControl(b[i])) {
                    return error(
                            r, 400, "invalid byte 0x" + Integer.toHexString(b[i] & 0xFF) + " in header field value");
                }
            }
            if (++count > maxHeaders) {
                return error(r, 431, "more than " + maxHeaders + " header fields");
            }
            int h = count - 1;
            r.headerNameStart[h] = ns;
            r.headerNameEnd[h] = ne;
            r.headerValueStart[h] = vstart;
            r.headerValueEnd[h] = vend;
            int nlen = ne - ns;
            if (nlen == 14 && equalsIgnoreCase(b, ns, "content-length")) {
                long v = parseLengths(b, vstart, vend);
                if (v < 0 || (contentLength >= 0 && contentLength != v)) {
                    return error(r, 400, "invalid Content-Length");
                }
                contentLength = v;
            } else if (nlen == 17 && equalsIgnoreCase(b, ns, "transfer-encoding")) {
                chunkedOrOther = true;
                // RFC 9112 6.3: a request body whose last coding is not chunked cannot be framed
                chunkedLast = endsWithToken(b, vstart, vend, "chunked");
                codings += countElements(b, vstart, vend);
                chunkedCodings += countToken(b, vstart, vend, "chunked");
            } else if (nlen == 10 && equalsIgnoreCase(b, ns, "connection")) {
                close |= containsToken(b, vstart, vend, "close");
                keepAlive |= containsToken(b, vstart, vend, "keep-alive");
            } else if (nlen == 4 && equalsIgnoreCase(b, ns, "host")) {
                hosts++;
                if (!isValidHost(b, vstart, vend)) {
                    return error(r, 400, "invalid Host"); // RFC 9112 3.2
                }
            } else if (nlen == 6 && equalsIgnoreCase(b, ns, "expect") && r.minorVersion == 1) {
                // RFC 9110 10.1.1: 100-continue is the only expectation; HTTP/1.0 ignores the field.
                // A list: empty elements are ignored (RFC 9110 5.6.1.2).
                int i = vstart;
                while (i < vend) {
                    while (i < vend && (b[i] == ' ' || b[i] == '\t' || b[i] == ',')) {
                        i++;
                    }
                    int s = i;
                    while (i < vend && b[i] != ',') {
                        i++;
                    }
                    int t = i;
                    while (t > s && (b[t - 1] == ' ' || b[t - 1] == '\t')) {
                        t--;
                    }
                    if (t == s) {
                        continue;
                    }
                    if (t - s != 12 || !equalsIgnoreCase(b, s, "100-continue")) {
                        return error(r, 417, "the only expectation served is 100-continue");
                    }
                    expect100 = true;
                }
            }
            p = lineLf + 1;
        }
        r.headerCount = count;
        if (chunkedOrOther && contentLength >= 0) {
            return error(r, 400, "both Content-Length and Transfer-Encoding");
        }
        if (chunkedOrOther && (!chunkedLast || r.minorVersion == 0)) {
            // RFC 9112 6.1 and 6.3: HTTP/1.0 has no Transfer-Encoding, and a request whose
            // final coding is not chunked has no length: both are 400, and the connection closes
            return error(
                    r,
                    400,
                    r.minorVersion == 0
                            ? "Transfer-Encoding in an HTTP/1.0 request"
                            : "Transfer-Encoding whose last coding is not chunked");
        }
        if (chunkedCodings > 1) {
            return error(r, 400, "chunked applied more than once"); // RFC 9112 6.1
        }
        if (codings > 1) {
            // RFC 9112 6.1: a coding the server does not know (SHOULD be 501). The body could be
            // framed and dropped, but no client sends more than chunked to a server it has not
            // heard from, so the connection closes rather than carry on past it
            return error(r, 501, "transfer codings other than chunked are not accepted");
        }
        if (hosts > 1 || (hosts == 0 && r.minorVersion == 1)) {
            return error(r, 400, hosts == 0 ? "HTTP/1.1 request without Host" : "more than one Host");
        }
        if (contentLength > maxBody) {
            return error(r, 413, "request body larger than " + maxBody + " bytes");
        }
        r.contentLength = Math.max(contentLength, 0);
        r.keepAlive = r.minorVersion == 1 ? !close : keepAlive && !close;
        if (chunkedOrOther) {
            return chunkedBody(b, start, p, end, expect100, r);
        }
        if (end - p < r.contentLength) {
            r.expectContinue = expect100; // a valid head whose body has not arrived
            return needMore(r, (int) (p + r.contentLength), false); // fits: contentLength <= maxBody
        }
        return (int) (p + r.contentLength - start);
    }

    /**
     * The chunked body from {@code p} (just after the head of the request at {@code start}): the
     * bytes the whole request occupies, {@link #NEED_MORE} with {@code r.chunks} to be fed what
     * arrives next, or {@link #ERROR} (400, 413).
     */
    private int chunkedBody(byte[] b, int start, int p, int end, boolean expect100, HttpRequest r) {
        ChunkedBody body = new ChunkedBody(maxBody, r.bareLf);
        int e = body.feed(b, p, end);
        if (e == ChunkedBody.ERROR) {
            return error(r, body.errorStatus, body.errorDetail);
        }
        if (e == ChunkedBody.NEED_MORE) {
            r.expectContinue = expect100; // a valid head whose body has not arrived
            r.chunks = body;
            // the body either ends or is refused (413) by the time it takes maxBody bytes
            return needMore(r, p + maxBody, false);
        }
        r.contentLength = body.dataBytes();
        return e - start;
    }

    private static int needMore(HttpRequest r, int parseAgainAt, boolean onLineFeed) {
        r.parseAgainAt = parseAgainAt;
        r.parseAgainOnLineFeed = onLineFeed;
        return NEED_MORE;
    }

    private static int error(HttpRequest r, int status, String detail) {
        r.errorStatus = status;
        r.errorDetail = detail;
        r.keepAlive = false;
        return ERROR;
    }

    static int indexOf(byte[] b, int from, int to, byte x) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isScheme(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (!((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (i > from && (isDigit(c) || c == '+' || c == '-' || c == '.')))) {
                return false;
            }
        }
        return true;
    }

    /** {@code http} or {@code https}, in any case (RFC 9110 4.2.3: schemes are case-insensitive). */
    private static boolean isHttpScheme(byte[] b, int from, int to) {
        int n = to - from;
        if (n != 4 && n != 5) {
            return false;
        }
        String http = "https";
        for (int i = 0; i < n; i++) {
            if ((b[from + i] | 0x20) != http.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A Content-Length value that may be a list of identical lengths ({@code 3, 3}): the length, or
     * -1 if an element is malformed or they differ.
     */
    private static long parseLengths(byte[] b, int from, int to) {
        long value = -1;
        for (int i = from; i <= to; ) {
            int comma = i;
            while (comma < to && b[comma] != ',') {
                comma++;
            }
            int s = i, e = comma;
            while (s < e && (b[s] == ' ' || b[s] == '\t')) {
                s++;
            }
            while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
                e--;
            }
            long v = parseLength(b, s, e);
            if (v < 0 || value >= 0 && v != value) {
                return -1;
            }
            value = v;
            i = comma + 1;
        }
        return value;
    }

    /** Digits only, at most 18 of them after leading zeros; -1 otherwise. */
    private static long parseLength(byte[] b, int from, int to) {
        if (to == from) {
            return -1;
        }
        while (to - from > 1 && b[from] == '0') {
            from++;
        }
        if (to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            if (!isDigit(b[i])) {
                return -1;
            }
            v = v * 10 + (b[i] - '0');
        }
        return v;
    }

    /**
     * A Host value (RFC 9112 3.2, RFC 3986 3.2.2): empty, or {@code uri-host [":" port]}, where the
     * host is an IP literal in brackets or a reg-name (unreserved, sub-delims, percent-encoded; an
     * IPv4 address is one) and the port is digits.
     */
    static boolean isValidHost(byte[] b, int from, int to) {
        int i = from;
        if (i < to && b[i] == '[') {
            int close = indexOf(b, i, to, (byte) ']');
            if (close < 0 || close == i + 1) {
                return false;
            }
            for (int k = i + 1; k < close; k++) {
                byte c = b[k];
                if (!(isRegNameChar(c) || c == ':')) {
                    return false;
                }
            }
            i = close + 1;
        } else {
            while (i < to && b[i] != ':') {
                byte c = b[i];
                if (c == '%') {
                    if (i + 2 >= to || !isHex(b[i + 1]) || !isHex(b[i + 2])) {
                        return false;
                    }
                    i += 3;
                    continue;
                }
                if (!isRegNameChar(c)) {
                    return false;
                }
                i++;
            }
        }
        if (i == to) {
            return true;
        }
        if (b[i] != ':') {
            return false;
        }
        for (int k = i + 1; k < to; k++) {
            if (!isDigit(b[k])) {
                return false;
            }
        }
        return true;
    }

    /** unreserved or sub-delims (RFC 3986 2.2, 2.3). */
    private static boolean isRegNameChar(byte c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || isDigit(c)
                || c == '-'
                || c == '.'
                || c == '_'
                || c == '~'
                || c == '!'
                || c == '$'
                || c == '&'
                || c == '\''
                || c == '('
                || c == ')'
                || c == '*'
                || c == '+'
                || c == ','
                || c == ';'
                || c == '=';
    }

    /** A control byte other than HTAB, which no field value holds (RFC 9110 5.5). */
    static boolean isControl(byte c) {
        return (c >= 0 && c < 0x20 && c != '\t') || c == 0x7F;
    }

    private static boolean isHex(byte c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    static boolean isTchar(byte c) {
        return c > 0 && TCHAR[c];
    }

    /** {@code b[from, from + lower.length())} equals {@code lower} ignoring ASCII case; {@code lower} is lower case. */
    static boolean equalsIgnoreCase(byte[] b, int from, String lower) {
        for (int i = 0; i < lower.length(); i++) {
            int c = b[from + i];
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the last non-empty element of the list {@code b[from, to)} is {@code token}, ignoring case. */
    static boolean endsWithToken(byte[] b, int from, int to, String token) {
        int e = to;
        while (e > from && (b[e - 1] == ' ' || b[e - 1] == '\t' || b[e - 1] == ',')) {
            e--;
        }
        int s = e;
        while (s > from && b[s - 1] != ',' && b[s - 1] != ' ' && b[s - 1] != '\t') {
            s--;
        }
        return e - s == token.length() && equalsIgnoreCase(b, s, token) && onlySpaceBefore(b, from, s);
    }

    /** Whether {@code b[from, at)} is empty, or ends in a comma after optional white space. */
    private static boolean onlySpaceBefore(byte[] b, int from, int at) {
        int i = at;
        while (i > from && (b[i - 1] == ' ' || b[i - 1] == '\t')) {
            i--;
        }
        return i == from || b[i - 1] == ',';
    }

    /** Whether the comma-separated list {@code b[from, to)} holds {@code token} (case-insensitive). */
    static boolean containsToken(byte[] b, int from, int to, String token) {
        return countToken(b, from, to, token) > 0;
    }

    /** How many elements of the list {@code b[from, to)} are {@code token} (case-insensitive). */
    static int countToken(byte[] b, int from, int to, String token) {
        int n = 0;
        int i = from;
        while (i < to) {
            while (i < to && (b[i] == ' ' || b[i] == '\t' || b[i] == ',')) {
                i++;
            }
            int s = i;
            while (i < to && b[i] != ',' && b[i] != ' ' && b[i] != '\t') {
                i++;
            }
            if (i - s == token.length() && equalsIgnoreCase(b, s, token)) {
                n++;
            }
        }
        return n;
    }

    /** How many non-empty elements the comma-separated list {@code b[from, to)} has (RFC 9110 5.6.1). */
    static int countElements(byte[] b, int from, int to) {
        int n = 0;
        boolean inElement = false;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == ',') {
                inElement = false;
            } else if (c != ' ' && c != '\t' && !inElement) {
                inElement = true;
                n++;
            }
        }
        return n;
    }
}
