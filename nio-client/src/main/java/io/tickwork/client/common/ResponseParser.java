package io.tickwork.client.common;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental HTTP/1.1 response parser for a client that pipelines: fed whatever bytes the
 * socket gave, it stops at the end of each response so the caller can account for it, then
 * continues with the next one in the same buffer.
 *
 * <p>Framing follows RFC 9112 section 6.3: 1xx interim responses are skipped (101 is an error
 * since we never ask to switch protocols); 204 and 304 have no body; {@code Transfer-Encoding:
 * chunked} (chunk extensions and trailers allowed) wins over {@code Content-Length}; conflicting
 * {@code Content-Length}s are an error; otherwise the body runs to the end of the connection.
 * {@code Connection: close}, and HTTP/1.0 without {@code keep-alive}, mark the response as the
 * last on its connection. Bare LF line ends are accepted. A header section over {@value
 * #MAX_HEADER_BYTES} bytes is an error.
 *
 * <p>Cost: one pass over header bytes, body bytes are skipped without copying; no allocation
 * per response. A line buffer of 128 bytes, doubled while a longer line comes, up to the header
 * section's bound (one header may be most of it: a large cookie or policy header). Not thread
 * safe: one per connection.
 */
public final class ResponseParser {

    static final int MAX_HEADER_BYTES = 64 * 1024;
    private static final int MAX_LINE = MAX_HEADER_BYTES;
    /** A line buffer's first size: a status line or header of this server's fits it. */
    private static final int FIRST_LINE_BUFFER = 128;

    /** A malformed response; the connection cannot be trusted past it. */
    public static final class ParseException extends Exception {
        ParseException(String message) {
            super(message, null, false, false);
        }
    }

    private enum State {
        STATUS_LINE,
        HEADER_LINE,
        BODY_LENGTH,
        CHUNK_SIZE,
        CHUNK_DATA,
        CHUNK_DATA_END,
        TRAILER_LINE,
        BODY_TO_EOF
    }

    private State state = State.STATUS_LINE;
    /** Grows by doubling up to {@value #MAX_LINE}: an idle client holds many parsers. */
    private byte[] line = new byte[FIRST_LINE_BUFFER];

    private int lineLen;
    private int headerBytes;
    private boolean sawCr;

    private int status;
    private boolean http10;
    private boolean close;
    private boolean keepAliveHeader;
    private long contentLength;
    private boolean chunked;
    /** A Transfer-Encoding header came: Content-Length then frames nothing (RFC 9112 6.3). */
    private boolean transferEncoded;

    private long remaining;
    private long bodyBytes;
    private int interim;

    /** Status code of the last complete response. */
    public int status() {
        return status;
    }

    /** True if the last complete response ends its connection. */
    public boolean close() {
        return close;
    }

    /** Body bytes of the last complete response (after de-chunking). */
    long bodyBytes() {
        return bodyBytes;
    }

    /** Number of 1xx responses skipped so far. */
    int interimResponses() {
        return interim;
    }

    /** True between responses: no byte of the next response has been seen. */
    boolean idle() {
        return state == State.STATUS_LINE && lineLen == 0 && !sawCr;
    }

    /**
     * Consumes bytes from {@code buf} up to the end of one response.
     *
     * @return true if a response completed (the buffer is positioned after it), false if all bytes
     *     were consumed and the response is still incomplete
     */
    public boolean parse(ByteBuffer buf) throws ParseException {
        while (buf.hasRemaining()) {
            switch (state) {
                case STATUS_LINE, HEADER_LINE, CHUNK_SIZE, TRAILER_LINE -> {
                    if (!readLine(buf)) {
                        return false;
                    }
                    if (onLine()) {
                        return true;
                    }
                }
                case BODY_LENGTH -> {
                    int n = (int) Math.min(remaining, buf.remaining());
                    buf.position(buf.position() + n);
                    remaining -= n;
                    bodyBytes += n;
                    if (remaining == 0) {
                        return complete();
                    }
                }
                case CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, buf.remaining());
                    buf.position(buf.position() + n);
                    remaining -= n;
                    bodyBytes += n;
                    if (remaining == 0) {
                        state = State.CHUNK_DATA_END;
                    }
                }
                case CHUNK_DATA_END -> {
                    if (!readLine(buf)) {
                        return false;
                    }
                    if (lineLen != 0) {
                        throw new ParseException("chunk data longer than its size");
                    }
                    state = State.CHUNK_SIZE;
                }
                case BODY_TO_EOF -> {
                    bodyBytes += buf.remaining();
                    buf.position(buf.limit());
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * The peer closed the connection.
     *
     * @return true if that completes a response whose body runs to end of connection; false if
     *     the parser was between responses
     * @throws ParseException if the close cut a response short
     */
    public boolean endOfInput() throws ParseException {
        if (state == State.BODY_TO_EOF) {
            close = true;
            state = State.STATUS_LINE;
            return true;
        }
        if (idle()) {
            return false;
        }
        throw new ParseException("connection closed inside a response (" + state + ")");
    }

    /** Forget any partial response: the connection is being replaced. */
    public void reset() {
        state = State.STATUS_LINE;
        lineLen = 0;
        headerBytes = 0;
        sawCr = false;
    }

    /** True if a response is underway whose body runs to end of connection. */
    boolean readsToEof() {
        return state == State.BODY_TO_EOF;
    }

    private boolean readLine(ByteBuffer buf) throws ParseException {
        while (buf.hasRemaining()) {
            byte b = buf.get();
            if (++headerBytes > MAX_HEADER_BYTES && state != State.CHUNK_SIZE && state != State.CHUNK_DATA_END) {
                throw new ParseException("header section longer than " + MAX_HEADER_BYTES + " bytes");
            }
            if (b == '\n') {
                sawCr = false;
                return true;
            }
            if (sawCr) {
                throw new ParseException("CR not followed by LF");
            }
            if (b == '\r') {
                sawCr = true;
                continue;
            }
            if (lineLen == line.length) {
                if (lineLen == MAX_LINE) {
                    throw new ParseException("line longer than " + MAX_LINE + " bytes");
                }
                line = Arrays.copyOf(line, Math.min(MAX_LINE, 2 * lineLen));
            }
            line[lineLen++] = b;
        }
        return false;
    }

    /** Handles a complete line in {@code line[0, lineLen)}; true if a response completed. */
    private boolean onLine() throws ParseException {
        int n = lineLen;
        lineLen = 0;
        switch (state) {
            case STATUS_LINE -> {
                if (n == 0) {
                    headerBytes = 0;
                    return false; // tolerate stray CRLF between responses (RFC 9112 section 2.2)
                }
                parseStatusLine(n);
                state = State.HEADER_LINE;
                return false;
            }
            case HEADER_LINE -> {
                if (n > 0) {
                    parseHeader(n);
                    return false;
                }
                return endOfHeaders();
            }
            case CHUNK_SIZE -> {
                long size = parseChunkSize(n);
                if (size == 0) {
                    headerBytes = 0;
                    state = State.TRAILER_LINE;
                } else {
                    remaining = size;
                    state = State.CHUNK_DATA;
                }
                return false;
            }
            case TRAILER_LINE -> {
                if (n == 0) {
                    return complete();
                }
                return false;
            }
            default -> throw new IllegalStateException(state.toString());
        }
    }

    private void parseStatusLine(int n) throws ParseException {
        // HTTP/1.x SP 3DIGIT [SP reason]
        if (n < 12 || !startsWith("HTTP/1.", 0) || line[8] != ' ' || (n > 12 && line[12] != ' ')) {
            throw new ParseException("bad status line: " + printable(n));
        }
        byte minor = line[7];
        if (minor != '0' && minor != '1') {
            throw new ParseException("unsupported HTTP version: " + printable(n));
        }
        int s = 0;
        for (int i = 9; i < 12; i++) {
            int d = line[i] - '0';
            if (d < 0 || d > 9) {
                throw new ParseException("bad status code: " + printable(n));
            }
            s = s * 10 + d;
        }
        if (s < 100 || s > 599) {
            // RFC 9110, 15: a status code outside 100..599 is invalid
            throw new ParseException("bad status code: " + printable(n));
        }
        status = s;
        http10 = minor == '0';
        close = false;
        keepAliveHeader = false;
        contentLength = -1;
        chunked = false;
        transferEncoded = false;
        bodyBytes = 0;
    }

    private void parseHeader(int n) throws ParseException {
        int colon = -1;
        for (int i = 0; i < n; i++) {
            if (line[i] == ':') {
                colon = i;
                break;
            }
        }
        if (colon <= 0) {
            if (line[0] == ' ' || line[0] == '\t') {
                return; // obsolete line folding: a continuation of a header we do not interpret
            }
            throw new ParseException("bad header line: " + printable(n));
        }
        if (line[colon - 1] == ' ' || line[colon - 1] == '\t') {
            throw new ParseException("whitespace before colon in header: " + printable(n));
        }
        int v = colon + 1;
        int end = n;
        while (v < end && (line[v] == ' ' || line[v] == '\t')) {
            v++;
        }
        while (end > v && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
            end--;
        }
        if (nameIs("content-length", colon)) {
            long len = 0;
            if (v == end) {
                throw new ParseException("empty Content-Length");
            }
            for (int i = v; i < end; i++) {
                int d = line[i] - '0';
                if (d < 0 || d > 9 || len > (Long.MAX_VALUE - 9) / 10) {
                    throw new ParseException("bad Content-Length: " + printable(n));
                }
                len = len * 10 + d;
            }
            if (contentLength >= 0 && contentLength != len) {
                throw new ParseException("conflicting Content-Length headers");
            }
            contentLength = len;
        } else if (nameIs("transfer-encoding", colon)) {
            // chunked must be the final coding; anything else means the body runs to EOF
            // (whichever order it comes in beside Content-Length, which it overrides)
            chunked = endsWithToken(v, end, "chunked");
            transferEncoded = true;
        } else if (nameIs("connection", colon)) {
            if (containsToken(v, end, "close")) {
                close = true;
            }
            if (containsToken(v, end, "keep-alive")) {
                keepAliveHeader = true;
            }
        }
    }

    private boolean endOfHeaders() throws ParseException {
        headerBytes = 0;
        if (status < 200) {
            if (status == 101) {
                throw new ParseException("unexpected 101 Switching Protocols");
            }
            interim++;
            state = State.STATUS_LINE;
            return false;
        }
        if (http10 && !keepAliveHeader) {
            close = true;
        }
        if (status == 204 || status == 304) {
            return complete();
        }
        if (chunked) {
            state = State.CHUNK_SIZE;
            return false;
        }
        if (contentLength >= 0 && !transferEncoded) {
            if (contentLength == 0) {
                return complete();
            }
            remaining = contentLength;
            state = State.BODY_LENGTH;
            return false;
        }
        close = true;
        state = State.BODY_TO_EOF;
        return false;
    }

    private long parseChunkSize(int n) throws ParseException {
        long size = 0;
        int i = 0;
        for (; i < n; i++) {
            int b = line[i];
            int d;
            if (b >= '0' && b <= '9') {
                d = b - '0';
            } else if (b >= 'a' && b <= 'f') {
                d = b - 'a' + 10;
            } else if (b >= 'A' && b <= 'F') {
                d = b - 'A' + 10;
            } else {
                break;
            }
            if (size > (Long.MAX_VALUE >> 4)) {
                throw new ParseException("chunk size too large");
            }
            size = (size << 4) | d;
        }
        if (i == 0 || (i < n && line[i] != ';' && line[i] != ' ' && line[i] != '\t')) {
            throw new ParseException("bad chunk size line: " + printable(n));
        }
        return size;
    }

    private boolean complete() {
        state = State.STATUS_LINE;
        headerBytes = 0;
        return true;
    }

    private boolean startsWith(String s, int at) {
        for (int i = 0; i < s.length(); i++) {
            if (line[at + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean nameIs(String lower, int len) {
        if (len != lower.length()) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if ((line[i] | 0x20) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean containsToken(int from, int to, String lower) {
        int i = from;
        while (i < to) {
            while (i < to && (line[i] == ' ' || line[i] == '\t' || line[i] == ',')) {
                i++;
            }
            int s = i;
            while (i < to && line[i] != ',' && line[i] != ' ' && line[i] != '\t') {
                i++;
            }
            if (i - s == lower.length() && regionIs(s, lower)) {
                return true;
            }
        }
        return false;
    }

    private boolean endsWithToken(int from, int to, String lower) {
        int s = to - lower.length();
        return s >= from
                && regionIs(s, lower)
                && (s == from || line[s - 1] == ',' || line[s - 1] == ' ' || line[s - 1] == '\t');
    }

    private boolean regionIs(int at, String lower) {
        for (int i = 0; i < lower.length(); i++) {
            if ((line[at + i] | 0x20) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private String printable(int n) {
        String s = new String(line, 0, Math.min(n, 80), StandardCharsets.ISO_8859_1);
        return s.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
