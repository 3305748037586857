package io.tickwork.server.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The response a {@link HttpHandler} fills in: status, content type, a few extra headers and the
 * body bytes. One instance per handler thread (each selector loop, or in worker mode each pool
 * thread), reset before every request to status 200 and {@code application/json}, so filling it in
 * allocates nothing once its body array has grown to the largest response.
 *
 * <p>Body appenders write raw bytes; {@link #appendJsonString} escapes. Not thread safe: it
 * belongs to the thread that called the handler, and is only valid during that call.
 */
public final class HttpResponse {
    int status;
    ContentType contentType;
    byte[] body = new byte[8192];
    int length;
    boolean close;
    final StringBuilder extraHeaders = new StringBuilder();

    void reset() {
        status = 200;
        contentType = ContentType.JSON;
        length = 0;
        close = false;
        extraHeaders.setLength(0);
        if (body.length > (1 << 20)) {
            body = new byte[8192]; // one huge response must not pin a huge array forever
        }
    }

    /**
     * Sets the status code, 200..599 (an interim 1xx response is the server's to send). A 204 or
     * 304 goes out without a body or {@code Content-Length} (RFC 9110 8.6), as a HEAD's goes
     * without a body: what the handler appended is dropped.
     *
     * @throws IllegalArgumentException for a code outside 200..599
     */
    public HttpResponse status(int code) {
        if (code < 200 || code > 599) {
            throw new IllegalArgumentException("status must be in 200..599: " + code);
        }
        this.status = code;
        return this;
    }

    public int status() {
        return status;
    }

    /** Headers the server writes itself: {@link #header} refuses them. */
    private static final String[] FRAMING_HEADERS = {
        "Content-Length", "Transfer-Encoding", "Connection", "Content-Type", "Date", "Server"
    };

    /**
     * The response's {@code Content-Type}.
     *
     * @throws NullPointerException if {@code type} is null (checked here, in the handler, so the
     *     request fails with a 500 like any handler failure)
     */
    public HttpResponse contentType(ContentType type) {
        this.contentType = java.util.Objects.requireNonNull(type, "type");
        return this;
    }

    /**
     * Adds a header line; name and value must be printable ASCII without CR/LF. The server frames
     * every response itself, so {@code Content-Length}, {@code Transfer-Encoding},
     * {@code Connection} (see {@link #closeConnection()}) and {@code Content-Type} (see
     * {@link #contentType}) are refused, in any case: a second, conflicting copy would let a client
     * misread where the response ends. So are {@code Date} and {@code Server}, which it writes on
     * every response too: a second copy of either is a malformed response.
     *
     * @throws IllegalArgumentException if the name is not a token, is one of those six, or the
     *     value is not printable ASCII
     */
    public HttpResponse header(String name, String value) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("header name must be a token: it is empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 0x7F || c == ':') {
                throw new IllegalArgumentException("header name must be a token: " + name);
            }
        }
        for (String framing : FRAMING_HEADERS) {
            if (framing.equalsIgnoreCase(name)) {
                throw new IllegalArgumentException(
                        name + " is set by the server, which frames every response; not a handler's header");
            }
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c >= 0x7F) {
                throw new IllegalArgumentException("header value must be printable ASCII: " + value);
            }
        }
        extraHeaders.append(name).append(": ").append(value).append("\r\n");
        return this;
    }

    /** Closes the connection after this response. */
    public HttpResponse closeConnection() {
        this.close = true;
        return this;
    }

    /** Body bytes so far. */
    public int length() {
        return length;
    }

    /** Copies {@code len} body bytes from index {@code from} into {@code dst} at {@code at}. */
    public void copyBody(int from, int len, byte[] dst, int at) {
        if (from < 0 || len < 0 || from + len > length) {
            throw new IndexOutOfBoundsException("body range " + from + "+" + len + " of " + length);
        }
        System.arraycopy(body, from, dst, at, len);
    }

    private void ensure(int extra) {
        if (length + extra > body.length) {
            body = Arrays.copyOf(body, Math.max(body.length * 2, length + extra));
        }
    }

    public HttpResponse append(byte b) {
        ensure(1);
        body[length++] = b;
        return this;
    }

    public HttpResponse append(byte[] b) {
        return append(b, 0, b.length);
    }

    public HttpResponse append(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, body, length, len);
        length += len;
        return this;
    }

    /** Appends {@code len} bytes read from {@code src} at absolute index {@code index} (e.g. a mapped file). */
    public HttpResponse append(ByteBuffer src, int index, int len) {
        ensure(len);
        src.get(index, body, length, len);
        length += len;
        return this;
    }

    /**
     * Appends a string's chars, which must be ASCII (no escaping): a char above {@code 0x7F} is
     * written as its low byte, unchecked, so text that may hold any character goes through
     * {@link #appendUtf8}.
     */
    public HttpResponse appendAscii(CharSequence s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            body[length++] = (byte) s.charAt(i);
        }
        return this;
    }

    /**
     * Appends a string as UTF-8 (no escaping; an unpaired surrogate becomes {@code ?}). Allocates
     * nothing while the text is ASCII; from the first other char on, the rest is encoded into a
     * temporary array.
     */
    public HttpResponse appendUtf8(CharSequence s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(i);
            if (ch >= 0x80) {
                return append(s.subSequence(i, n).toString().getBytes(StandardCharsets.UTF_8));
            }
            body[length++] = (byte) ch;
        }
        return this;
    }

    public HttpResponse appendInt(long v) {
        return appendAscii(Long.toString(v));
    }

    /** Appends {@code "..."}: the UTF-8 bytes quoted, with JSON's escapes for quote, backslash and controls. */
    public HttpResponse appendJsonString(byte[] b, int off, int len) {
        ensure(len + 2);
        body[length++] = '"';
        for (int i = off; i < off + len; i++) {
            byte c = b[i];
            if (c == '"' || c == '\\') {
                ensure(2 + 1);
                body[length++] = '\\';
                body[length++] = c;
            } else if (c >= 0 && c < 0x20) {
                ensure(6 + 1);
                body[length++] = '\\';
                body[length++] = 'u';
                body[length++] = '0';
                body[length++] = '0';
                body[length++] = HEX[c >> 4];
                body[length++] = HEX[c & 15];
            } else {
                ensure(1 + 1);
                body[length++] = c;
            }
        }
        ensure(1);
        body[length++] = '"';
        return this;
    }

    public HttpResponse appendJsonString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return appendJsonString(b, 0, b.length);
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
}
