package io.tickwork.server.http;

import io.tickwork.primitives.timer.TimerQueue;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * The one owner of a selector loop's connections from registration to close, and of everything
 * that goes out on them: a {@link SelectorLoop} reads and parses, decides the responses, and hands
 * them here; this class stages, writes, holds back what a slow socket does not take, sets the
 * interest each connection needs next, and closes it, either at once (a failed write, a timeout)
 * or once its output is written ({@link Connection#closeAfterWrite}).
 *
 * <p>Output: responses are staged in one direct buffer per loop ({@link #respond}), head and body
 * of each contiguous, and the responses to one read go out with one {@code write} call
 * ({@link #flush}); a response larger than that buffer, or a worker's, is written from its own
 * arrays. Bytes the socket does not take move into the connection's {@link Connection#pendingOut},
 * an array sized to fit, and are written from there when the socket is writable again
 * ({@link #writePending}); while a connection has pending output, further responses are appended
 * to it instead of the shared buffer (a worker's into an array that grows by doubling, within the
 * budget), and it does not read.
 *
 * <p>Budget: the arrays held back for slow sockets count against one budget per loop
 * ({@code maxHeldOut} bytes), checked before an array is allocated. A connection whose output
 * would take the loop past it is closed instead, its output dropped: clients that stop reading
 * cannot grow the heap past the budget, however many connect. The connection closed is the one
 * whose output comes next, not the one stalled longest: while stalled clients fill the budget, a
 * reading client whose response its socket does not take at once may be closed too, until the
 * stalled ones reach the idle timeout.
 *
 * <p>Failure: a write that throws (the client closed mid-response: EPIPE or ECONNRESET are
 * exceptions, never signals) closes the connection here; the methods that write return whether the
 * connection is still open, and the loop stops working on a closed one. Nothing is logged.
 *
 * <p>Close: releases the connection's timer, its buffers, its key and its descriptor, and tells the
 * acceptor a descriptor is free. Idempotent.
 *
 * <p>Cost: staging copies head and body once into the direct buffer and allocates nothing; only
 * output held back for a slow socket is copied into a new array.
 *
 * <p>Thread safety: owned by one loop thread; {@link #maxPendingOut}, {@link #shed} and
 * {@link #maxHeldOutSeen} may be read from any thread.
 */
final class ConnectionOutput {
    private final ByteBuffer out;
    private final TimerQueue<Object> timers;
    private final LoopAcceptor acceptor;
    private byte[] head = new byte[1024];
    /** The connection whose responses {@link #out} holds, not yet flushed; null when it holds none. */
    private Connection staged;
    /** Bytes written to sockets (loop thread). */
    long bytesOut;
    /** Connections registered and not yet closed (loop thread). */
    int open;
    /** Largest output one connection has held back (tests check the back-pressure bound with it). */
    volatile long maxPendingOut;
    /** Most bytes of held-back output arrays this loop keeps at once, over all its connections. */
    private final long maxHeldOut;
    /** Bytes of the held-back output arrays (their capacity) of this loop's open connections. */
    private long heldOut;
    /** Connections closed because their output did not fit {@link #maxHeldOut}; written by the loop thread. */
    volatile long shed;
    /** The most {@link #heldOut} has been (tests check the budget with it); written by the loop thread. */
    volatile long maxHeldOutSeen;

    /** Told of each connection closed for the budget (the server's rate-limited log). */
    private final Runnable onShed;
    /** The loop's held request bytes: a connection's are dropped when it closes or lingers. */
    private final HeldInput input;

    ConnectionOutput(
            int bufferSize,
            long maxHeldOut,
            Runnable onShed,
            HeldInput input,
            TimerQueue<Object> timers,
            LoopAcceptor acceptor) {
        this.out = ByteBuffer.allocateDirect(bufferSize);
        this.maxHeldOut = maxHeldOut;
        this.onShed = onShed;
        this.input = input;
        this.timers = timers;
        this.acceptor = acceptor;
    }

    /**
     * Makes {@code p} (in read mode) {@code c}'s held-back output, replacing what it held; or, if
     * that takes this loop past {@link #maxHeldOut}, closes {@code c} instead, its output dropped.
     * Returns whether {@code c} is still open.
     */
    private boolean hold(Connection c, ByteBuffer p) {
        if (!fits(c, p.capacity())) {
            return shed(c);
        }
        long held = heldOut - heldBy(c) + p.capacity();
        heldOut = held;
        if (held > maxHeldOutSeen) {
            maxHeldOutSeen = held;
        }
        c.pendingOut = p;
        maxPendingOut = Math.max(maxPendingOut, p.remaining());
        return true;
    }

    /** Bytes of held-back output array {@code c} holds now. */
    private static long heldBy(Connection c) {
        ByteBuffer p = c.pendingOut;
        return p == null ? 0 : p.capacity();
    }

    /** Whether {@code c} may hold an array of {@code capacity} bytes in place of its own: checked before allocating it. */
    private boolean fits(Connection c, long capacity) {
        return heldOut - heldBy(c) + capacity <= maxHeldOut;
    }

    /** Closes {@code c}, whose output does not fit this loop's budget, its output dropped; returns false. */
    private boolean shed(Connection c) {
        shed++;
        close(c);
        onShed.run();
        return false;
    }

    /**
     * Writes {@code parts} to {@code c} as far as the socket takes them now, stopping
     * at the first short write (another would copy the rest into the JDK's direct buffer again to
     * be refused); false if the write failed and closed the connection.
     */
    private boolean writeNow(Connection c, ByteBuffer[] parts, long now) {
        try {
            long left = 0;
            for (ByteBuffer part : parts) {
                left += part.remaining();
            }
            while (left > 0) {
                long n = c.channel().write(parts);
                bytesOut += n;
                if (n > 0) {
                    c.lastActivity = now;
                }
                if (n < left) {
                    break;
                }
                left -= n;
            }
            return true;
        } catch (IOException e) {
            close(c);
            return false;
        }
    }

    /** {@code c} holds no output back any more. */
    private void release(Connection c) {
        ByteBuffer p = c.pendingOut;
        if (p != null) {
            heldOut -= p.capacity();
            c.pendingOut = null;
        }
    }

    /** Registers an accepted channel with {@code selector}, reading; {@code ch} is already non-blocking. */
    Connection open(SocketChannel ch, Selector selector, long now) throws IOException {
        Connection c = new Connection();
        c.key = ch.register(selector, SelectionKey.OP_READ, c);
        c.interest = SelectionKey.OP_READ;
        c.lastActivity = now;
        open++;
        return c;
    }

    /**
     * Stages {@code res} for {@code c} ({@code headRequest}: head only; {@code close} and
     * {@code keepAlive10} choose the {@code Connection} header, see
     * {@link ResponseEncoder#writeHead}); {@code close} also marks the connection to close once its
     * output is written. Flushes first when the buffer has no room; {@code false} if that write
     * failed and closed the connection.
     */
    boolean respond(Connection c, HttpResponse res, boolean headRequest, boolean close, boolean keepAlive10, long now) {
        int need = ResponseEncoder.headBound(res.contentType, res.extraHeaders);
        if (head.length < need) {
            head = new byte[need * 2];
        }
        int h = ResponseEncoder.writeHead(
                head, res.status, res.contentType, res.extraHeaders, res.length, close, keepAlive10);
        int b = ResponseEncoder.bodyBytes(res, headRequest);
        int total = h + b;
        if (c.pendingOut == null && out.remaining() < total && !flushStaged(c, now)) {
            return false;
        }
        if (close) {
            c.closeAfterResponse();
        }
        if (c.pendingOut == null && out.remaining() >= total) {
            out.put(head, 0, h).put(res.body, 0, b);
            staged = c;
            return true;
        }
        ByteBuffer p = c.pendingOut;
        if (p == null) {
            // one response larger than the whole output buffer (nothing staged: flushed above):
            // what the socket takes now is never held
            ByteBuffer hb = ByteBuffer.wrap(head, 0, h);
            ByteBuffer bb = ByteBuffer.wrap(res.body, 0, b);
            if (!writeNow(c, new ByteBuffer[] {hb, bb}, now)) {
                return false;
            }
            int rest = hb.remaining() + bb.remaining();
            if (rest == 0) {
                return true;
            }
            if (!fits(c, rest)) {
                return shed(c);
            }
            ByteBuffer held = ByteBuffer.allocate(rest);
            held.put(hb).put(bb).flip();
            return hold(c, held);
        }
        // socket already backed up: behind what it holds
        long grownSize = (long) p.remaining() + total;
        if (grownSize > MAX_ARRAY || !fits(c, grownSize)) {
            return shed(c);
        }
        ByteBuffer grown = ByteBuffer.allocate((int) grownSize);
        grown.put(p).put(head, 0, h).put(res.body, 0, b).flip();
        return hold(c, grown);
    }

    /** The largest array this class allocates for held-back output. */
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    /**
     * Answers {@code Expect: 100-continue} for {@code c}'s request whose body has not arrived, once
     * per request: the interim 100 goes out behind the responses to the requests before it, at once
     * unless a worker is still computing one of them ({@code workerMode} and in flight), then when
     * the last of them is delivered ({@link #deliver}). {@code false} if a write failed and closed
     * the connection.
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
        byte[] bytes = ResponseEncoder.CONTINUE;
        if (c.pendingOut == null && out.remaining() < bytes.length && !flushStaged(c, now)) {
            return false;
        }
        if (c.pendingOut == null && out.remaining() >= bytes.length) {
            out.put(bytes);
            staged = c;
        } else {
            return append(c, bytes);
        }
        return true;
    }

    /**
     * Worker mode: a complete response, written at once when {@code c} holds nothing back (the
     * rest, if any, copied into a held array of its size), else appended behind what it holds;
     * then the owed 100 once no earlier response is still computing.
     */
    void deliver(Connection c, byte[] response, long now) {
        boolean open;
        if (c.pendingOut == null) {
            // nothing held: what the socket takes now is never held
            ByteBuffer r = ByteBuffer.wrap(response);
            open = writeNow(c, new ByteBuffer[] {r}, now) && (!r.hasRemaining() || holdRest(c, r));
        } else {
            open = append(c, response);
        }
        if (open && c.continueOwed && c.inFlight == 0) {
            c.continueOwed = false;
            c.continueSent = true;
            append(c, ResponseEncoder.CONTINUE);
        }
    }

    /** Holds what is left of {@code r}: the array itself if none of it was written, else a copy of the rest. */
    private boolean holdRest(Connection c, ByteBuffer r) {
        if (r.position() == 0) {
            return hold(c, r);
        }
        if (!fits(c, r.remaining())) {
            return shed(c);
        }
        ByteBuffer rest = ByteBuffer.allocate(r.remaining());
        rest.put(r).flip();
        return hold(c, rest);
    }

    /**
     * Appends {@code response} to {@code c}'s held-back output: in place when its array has room
     * behind the bytes, else into an array of twice what it then needs if the budget has room for
     * that, of what it needs if not, so a run of responses behind a slow socket costs copies in
     * proportion to its bytes while the budget allows. Returns whether {@code c} is still open.
     */
    private boolean append(Connection c, byte[] response) {
        ByteBuffer p = c.pendingOut;
        if (p == null) {
            return hold(c, ByteBuffer.wrap(response)); // the worker's array, no copy (full: never written into)
        }
        int end = p.limit();
        if (p.capacity() - end >= response.length) {
            int pos = p.position();
            p.limit(end + response.length).position(end);
            p.put(response).position(pos);
            maxPendingOut = Math.max(maxPendingOut, p.remaining());
            return true;
        }
        // twice what it needs if that fits, else what it needs: never all the room there is, which
        // would shed every other connection's next hold
        long need = (long) p.remaining() + response.length;
        long capacity = 2 * need <= MAX_ARRAY && fits(c, 2 * need) ? 2 * need : need;
        if (capacity > MAX_ARRAY || !fits(c, capacity)) {
            return shed(c);
        }
        ByteBuffer grown = ByteBuffer.allocate((int) capacity);
        grown.put(p).put(response).flip();
        return hold(c, grown);
    }

    /**
     * Writes what was staged for {@code c} since the last flush, or, when it already holds output
     * back, as much of that as the socket takes. {@code false} if the connection is closed.
     */
    boolean flush(Connection c, long now) {
        return c.pendingOut == null ? flushStaged(c, now) : writePending(c, now);
    }

    /** Writes the staged output to {@code c}; what the socket does not take moves into the connection. */
    private boolean flushStaged(Connection c, long now) {
        staged = null;
        if (c.closed) {
            out.clear(); // nothing staged for a closed connection may reach the next one
            return false;
        }
        out.flip();
        try {
            while (out.hasRemaining()) {
                int n = c.channel().write(out);
                if (n == 0) {
                    break;
                }
                bytesOut += n;
                c.lastActivity = now;
            }
        } catch (IOException e) {
            out.clear();
            close(c);
            return false;
        }
        if (out.hasRemaining()) {
            if (!fits(c, out.remaining())) {
                out.clear();
                return shed(c);
            }
            ByteBuffer rest = ByteBuffer.allocate(out.remaining());
            rest.put(out).flip();
            out.clear();
            return hold(c, rest);
        }
        out.clear();
        return true;
    }

    /**
     * Writes what {@code c} holds back; clears {@link Connection#pendingOut} once it is all written.
     * {@code false} if the write failed and closed the connection.
     */
    boolean writePending(Connection c, long now) {
        ByteBuffer p = c.pendingOut;
        if (p == null) {
            return !c.closed;
        }
        try {
            while (p.hasRemaining()) {
                int n = c.channel().write(p);
                if (n == 0) {
                    break;
                }
                bytesOut += n;
                c.lastActivity = now;
            }
        } catch (IOException e) {
            close(c);
            return false;
        }
        if (p.hasRemaining()) {
            maxPendingOut = Math.max(maxPendingOut, p.remaining());
        } else {
            release(c);
        }
        return true;
    }

    /**
     * Sets the interest {@code c} needs now: writing while output is held back; reading unless the
     * worker pipeline is full, requests it read wait for room on the pool, or a close was decided; and the close itself once a decided close has
     * nothing left to write or compute. Nothing for a closed connection.
     */
    void updateInterest(Connection c) {
        if (c.closed) {
            return; // its key is cancelled: nothing to want any more
        }
        if (c.pendingOut == null && c.closeAfterWrite && c.inFlight == 0) {
            if (c.lingerOnClose) {
                linger(c);
            } else {
                close(c);
            }
            return;
        }
        int want = c.pendingOut != null
                ? SelectionKey.OP_WRITE
                : c.inFlight >= WorkerDispatch.MAX_IN_FLIGHT || c.closeAfterWrite || c.heldBack()
                        ? 0 // requests wait: for room on the pool, or behind a close
                        : SelectionKey.OP_READ;
        if (want != c.interest) {
            c.interest = (byte) want;
            c.key.interestOps(want);
        }
    }

    /**
     * How long a connection lingers after the response that closes it, in ms: the most it waits
     * for the client to stop sending once our side is shut down.
     */
    static final long LINGER_MILLIS = 2_000;

    /**
     * The lingering close (RFC 9112 9.6): after the response that closes a connection the client
     * may still be sending (a body we refused, the rest of an oversized head, requests pipelined
     * behind a {@code Connection: close}). Closing with unread bytes makes the kernel send a reset,
     * and a reset throws away what is still in our socket buffer and can destroy what the client
     * has not read yet. So our side is shut down (a FIN after the response), what the client
     * still sends is read and discarded, and the connection closes when the client closes its
     * side or after {@link #LINGER_MILLIS}, whichever comes first.
     */
    private void linger(Connection c) {
        c.closeAfterWrite = false; // from now on lingerOnClose alone: lingering
        input.drop(c);
        c.requestStart = -1;
        try {
            c.channel().shutdownOutput();
        } catch (IOException e) {
            close(c);
            return;
        }
        long deadline = SelectorLoop.clockMillis() + LINGER_MILLIS;
        c.lastActivity = deadline - LINGER_MILLIS;
        if (c.timerHandle == 0 || !timers.reschedule(c.timerHandle, deadline)) {
            c.timerHandle = timers.schedule(deadline, c);
        }
        c.timerDeadline = deadline;
        if (c.interest != SelectionKey.OP_READ) {
            c.interest = (byte) SelectionKey.OP_READ;
            c.key.interestOps(SelectionKey.OP_READ);
        }
    }

    /** Closes {@code c} once what it owes is written (at once when it owes nothing). */
    void closeAfterWrite(Connection c) {
        c.closeAfterWrite = true;
        updateInterest(c);
    }

    /** Closes {@code c} now, dropping output not yet written. */
    void close(Connection c) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        open--;
        if (staged == c) {
            out.clear(); // its responses not flushed yet: they must not go out ahead of the next connection's
            staged = null;
        }
        acceptor.released();
        if (c.timerHandle != 0) {
            timers.cancel(c.timerHandle);
            c.timerHandle = 0;
        }
        input.drop(c);
        release(c);
        c.key.cancel();
        try {
            c.channel().close();
        } catch (IOException ignored) {
            // the descriptor is released either way
        }
    }
}
