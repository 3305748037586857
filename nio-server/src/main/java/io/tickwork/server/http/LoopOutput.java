package io.tickwork.server.http;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A selector loop's output side. Responses are staged in one direct buffer per loop
 * ({@link #emit}), headers and body of each contiguous, and the responses of one read go out with
 * one {@code write} call ({@link #flush}). Bytes the socket does not take move into the
 * connection's {@link Connection#pendingOut}, an array sized to fit, and are written from there
 * when the socket is writable again ({@link #writePending}); while a connection has pending
 * output, further responses are appended to it instead of the shared buffer.
 *
 * <p>Failure: a write that throws (the client closed mid-response: EPIPE or ECONNRESET are
 * exceptions, never signals) makes the method return {@code false}; the loop then closes the
 * connection. Nothing is logged.
 *
 * <p>Cost: staging copies head and body once into the direct buffer and allocates nothing; only
 * output held back for a slow socket is copied into a new array.
 *
 * <p>Thread safety: owned by one loop thread; {@link #maxPendingOut} may be read from any thread.
 */
final class LoopOutput {
    private final ByteBuffer out;
    private byte[] head = new byte[1024];
    /** Bytes written to sockets (loop thread). */
    long bytesOut;
    /** Largest output one connection has held back (tests check the back-pressure bound with it). */
    volatile long maxPendingOut;

    LoopOutput(int bufferSize) {
        this.out = ByteBuffer.allocateDirect(bufferSize);
    }

    /**
     * Stages {@code res} for {@code c} ({@code headRequest}: head only; {@code close} and
     * {@code keepAlive10} choose the {@code Connection} header, see
     * {@link ResponseEncoder#writeHead}). Flushes first when the buffer has no room; {@code false}
     * if that write failed.
     */
    boolean emit(Connection c, HttpResponse res, boolean headRequest, boolean close, boolean keepAlive10, long now) {
        int need = ResponseEncoder.headBound(res.contentType, res.extraHeaders);
        if (head.length < need) {
            head = new byte[need * 2];
        }
        int h = ResponseEncoder.writeHead(
                head, res.status, res.contentType, res.extraHeaders, res.length, close, keepAlive10);
        int b = headRequest ? 0 : res.length;
        int total = h + b;
        if (c.pendingOut == null && out.remaining() < total) {
            if (!flush(c, now)) {
                return false;
            }
        }
        if (c.pendingOut == null && out.remaining() >= total) {
            out.put(head, 0, h).put(res.body, 0, b);
            return true;
        }
        // socket already backed up, or one response larger than the whole output buffer
        ByteBuffer p = c.pendingOut;
        int have = p == null ? 0 : p.remaining();
        ByteBuffer grown = ByteBuffer.allocate(have + total);
        if (p != null) {
            grown.put(p);
        }
        grown.put(head, 0, h).put(res.body, 0, b).flip();
        c.pendingOut = grown;
        maxPendingOut = Math.max(maxPendingOut, grown.remaining());
        return true;
    }

    /**
     * Answers {@code Expect: 100-continue} for {@code c}'s request whose body has not arrived, once
     * per request: the interim 100 goes out behind the responses to the requests before it, at once
     * unless a worker is still computing one of them ({@code workerMode} and in flight), then when
     * the last of them is delivered ({@link #appendOwedContinue}). {@code false} if a write failed.
     */
    boolean sendContinue(Connection c, boolean workerMode, long now) {
        if (c.continueSent || c.continueOwed) {
            return true;
        }
        if (workerMode && c.inFlight > 0) {
            c.continueOwed = true;
            return true;
        }
        c.continueSent = true;
        return emitRaw(c, ResponseEncoder.CONTINUE, now);
    }

    /** After a worker's response was appended: the owed 100, once no earlier response is computing. */
    void appendOwedContinue(Connection c) {
        if (c.continueOwed && c.inFlight == 0) {
            append(c, ResponseEncoder.CONTINUE);
            c.continueOwed = false;
            c.continueSent = true;
        }
    }

    /**
     * Stages bytes already encoded for {@code c}, behind what is staged or pending for it;
     * {@code false} if a flush to make room failed.
     */
    boolean emitRaw(Connection c, byte[] bytes, long now) {
        if (c.pendingOut == null && out.remaining() < bytes.length && !flush(c, now)) {
            return false;
        }
        if (c.pendingOut == null && out.remaining() >= bytes.length) {
            out.put(bytes);
        } else {
            append(c, bytes);
        }
        return true;
    }

    /**
     * Appends a complete response (worker mode) behind {@code c}'s pending output, or makes it the
     * pending output, unwritten, when there is none.
     */
    void append(Connection c, byte[] response) {
        ByteBuffer p = c.pendingOut;
        if (p == null) {
            c.pendingOut = ByteBuffer.wrap(response);
            return;
        }
        ByteBuffer grown = ByteBuffer.allocate(p.remaining() + response.length);
        grown.put(p).put(response).flip();
        c.pendingOut = grown;
        maxPendingOut = Math.max(maxPendingOut, grown.remaining());
    }

    /** Writes the staged output to {@code c}; what the socket does not take moves into the connection. */
    boolean flush(Connection c, long now) {
        out.flip();
        try {
            while (out.hasRemaining()) {
                int n = c.channel.write(out);
                if (n == 0) {
                    break;
                }
                bytesOut += n;
                c.lastActivity = now;
            }
        } catch (IOException e) {
            out.clear();
            return false;
        }
        if (out.hasRemaining()) {
            ByteBuffer rest = ByteBuffer.allocate(out.remaining());
            rest.put(out).flip();
            c.pendingOut = rest;
            maxPendingOut = Math.max(maxPendingOut, rest.remaining());
        }
        out.clear();
        return true;
    }

    /** Writes what {@code c} holds back; clears {@link Connection#pendingOut} once it is all written. */
    boolean writePending(Connection c, long now) {
        ByteBuffer p = c.pendingOut;
        if (p == null) {
            return true;
        }
        try {
            while (p.hasRemaining()) {
                int n = c.channel.write(p);
                if (n == 0) {
                    break;
                }
                bytesOut += n;
                c.lastActivity = now;
            }
        } catch (IOException e) {
            return false;
        }
        if (!p.hasRemaining()) {
            c.pendingOut = null;
        }
        return true;
    }

    /** Records {@code c}'s pending output for {@link #maxPendingOut}. */
    void notePending(Connection c) {
        if (c.pendingOut != null) {
            maxPendingOut = Math.max(maxPendingOut, c.pendingOut.remaining());
        }
    }
}
