package io.tickwork.server.http;

import java.util.Arrays;

/**
 * A connection's bytes that wait for more: a partial request, or whole requests held back while
 * its output is blocked. Only a connection with such bytes has one; an idle connection holds none.
 *
 * <p>Cost: the array grows by doubling (while the loop's input budget has room), so a request that
 * arrives in many small reads costs copies in proportion to its length, not to its length squared. A partial request also carries
 * the parser's word on when it is worth parsing again ({@link HttpRequest#parseAgainAt}), so a
 * head sent one byte per segment is parsed once per line and a body once it is complete (a
 * chunked one is followed read by read, {@link ChunkedBody}), not once per read: the server
 * spends on a slow client what the client spends, not its square.
 *
 * <p>Not thread safe: owned by the connection's loop, which sets, grows and drops it through
 * {@link HeldInput}, its budget.
 */
final class PendingInput {
    byte[] bytes;
    int length;
    /** Parse again once {@link #length} reaches this; 0 (at once) for held-back requests. */
    private int parseAt;

    private boolean parseOnLineFeed;

    /** A chunked body still arriving: fed each read's bytes, so it is parsed again once it ends. */
    private ChunkedBody chunks;

    /** A copy of {@code src[from, to)}, to be parsed again with whatever comes next. */
    PendingInput(byte[] src, int from, int to) {
        this.bytes = Arrays.copyOfRange(src, from, to);
        this.length = to - from;
    }

    /**
     * The parser's {@link RequestParser#NEED_MORE} for these bytes: parse again once they reach
     * {@code length} bytes, or a line feed arrives where {@code onLineFeed}, or the chunked body
     * {@code chunks} (if not {@code null}, read up to these bytes' end) ends or is refused.
     */
    void parseAgainAt(int length, boolean onLineFeed, ChunkedBody chunks) {
        this.parseAt = length;
        this.parseOnLineFeed = onLineFeed;
        this.chunks = chunks;
    }

    /**
     * Whether {@code src[from, from + n)}, appended, may complete or fail the request. Called once
     * for each read's bytes, which are then appended if it answers {@code false}: a chunked body
     * reads them here, once.
     */
    boolean parseDue(byte[] src, int from, int n) {
        if (length + n >= parseAt) {
            return true;
        }
        if (chunks != null) {
            return chunks.feed(src, from, from + n) != ChunkedBody.NEED_MORE;
        }
        return parseOnLineFeed && RequestParser.indexOf(src, from, from + n, (byte) '\n') >= 0;
    }

    /** Copies the bytes to the start of {@code dst}; returns their length. */
    int copyTo(byte[] dst) {
        System.arraycopy(bytes, 0, dst, 0, length);
        return length;
    }

    /**
     * Appends {@code src[from, from + n)}, growing the array to {@code capacity} bytes if it is too
     * short ({@link HeldInput} picks twice what is needed while its budget has room, so a request
     * arriving in many small reads costs copies in proportion to its length).
     */
    void append(byte[] src, int from, int n, int capacity) {
        int need = length + n;
        if (need > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(need, capacity));
        }
        System.arraycopy(src, from, bytes, length, n);
        length = need;
    }
}
